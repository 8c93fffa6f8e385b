/**
 * lib/indexer owns following a Kaspa node into the database: catch-up, live following, acceptance and
 * reorganisations, checkpoints, lag.
 *   - indexer.ts  createIndexer({ rpc, db, log, clock, batch }): start(), stop(), status(), whenReady(): the loop over
 *                 the node's BlockAdded and VirtualChainChanged (subscribed before catching up; duplicates are
 *                 idempotent); a notification that does not continue the stored chain, or a reconnect, triggers
 *                 another catch-up. Its parts:
 *       - known-blocks.ts         what is stored (bounded memory, then the database)
 *       - block-writer.ts         blocks in batches, two committing at once
 *       - chain-follower.ts       catch-up (getBlocks pages from the checkpoint, getBlock ahead of the writes, then
 *                                 getVirtualChainFromBlock) and chain steps; the checkpoint is the last chain block
 *                                 whose acceptance is stored and commits in the same transaction as that acceptance
 *       - checkpoint-recovery.ts  the first start at the node's pruning point; a checkpoint the node does not know
 *       - index-writes.ts         the batch transaction, stream events, reported progress
 *   - recover.ts  a checkpoint the node does not know: the newest stored chain block it still knows (the indexer
 *                 undoes above it, or records a gap and resumes at the node's pruning point when there is none)
 *   - convert.ts  node blocks → lib/db records (addresses and script classes computed from the scripts)
 *   - resolve.ts  spent outputs of inputs: same batch, the latest batches, then the index (kaspad has no transaction
 *                 index to fall back on)
 *   - history-pruner.ts  retention (HISTORY_RETENTION_DAYS / _GB): deletes the oldest history in bounded batches,
 *                 never above the checkpoint's pruning point or the token checkpoint, then vacuums
 *   - token-indexer.ts  createTokenIndexer: follows the chain index's stored chain (not the node) and applies KRC-20
 *                 ops with lib/tokens' engine, undoing above a fork point; imported by path, as the runtime does
 *   - stream-announcer.ts  the address and block events of each indexed batch, for /v1/stream and webhooks
 *   - fee-announcer.ts  the stream's `fees` topic: the node's fee estimate sampled, announced when a rate changed
 *   - statistics-refresher.ts  the chain statistics: each window computed again until the index is a window past it,
 *                 then the hours
 * Every SQL statement it sends lives in lib/db (including the advisory lock, re-exported here for the runtime).
 */
export { createIndexer } from './indexer';
export type { Indexer, IndexerBatchSettings, IndexerOptions, IndexerStatus } from './indexer';
export {
  createHistoryPruner,
  DEVNET_RETENTION,
  keepsEverything,
  retentionPolicyFor,
} from './history-pruner';
export type { HistoryPruner, HistoryPrunerOptions, PruneRun } from './history-pruner';
export { createStatisticsRefresher } from './statistics-refresher';
export { createFeeAnnouncer } from './fee-announcer';
export { createMempoolAnnouncer } from './mempool-announcer';
export type { IndexPosition, MempoolAnnouncer, MempoolAnnouncerOptions } from './mempool-announcer';
export type { FeeAnnouncer, FeeAnnouncerOptions, FeesEventData } from './fee-announcer';
export type { StatisticsRefresher, StatisticsRefresherOptions, StatisticsRun } from './statistics-refresher';
export { addressPrefixOf, convertBlock } from './convert';
export type { ConvertedBlock } from './convert';
export { createInputResolver } from './resolve';
export type { InputResolver } from './resolve';
export { acquireIndexerLock, INDEXER_LOCK_KEY } from '../db';
export type { IndexerLock } from '../db';
