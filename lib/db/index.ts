/**
 * lib/db owns the database: one `Db` interface over embedded PGlite or PostgreSQL, versioned migrations, and the
 * queries the indexer and API make.
 *   - connection.ts  openDb({ url }): `memory://`, a PGlite data directory, or `postgres://…`; both backends return
 *                    the same JS values (int8 → bigint, numeric → decimal string, bytea → Uint8Array)
 *   - migrations.ts  the schema as ordered, append-only migrations and the lock-guarded runner
 *   - records.ts     the typed records written and read (hashes Uint8Array, u64 bigint)
 *   - writes.ts      the indexer's idempotent batched writes, virtual-chain (acceptance) changes and checkpoints,
 *                    and the indexer's own reads (stored block links)
 *   - digests.ts     an ordered digest per index table (crash recovery compared against a from-scratch reindex)
 *   - index-gaps.ts  the indexer's recovery when the node does not know its checkpoint: the stored chain walked back,
 *                    undone above a point, and the recorded gaps
 *   - lock.ts        the PostgreSQL advisory lock that keeps a database to one writing indexer
 *   - reads.ts       the API's reads: transactions by id, address history and covenant lineage pages, blocks by
 *                    DAA-score range
 *   - covenant-reads.ts  covenant summaries (paged by last activity) and a covenant's current UTXO set
 *   - wallet-reads.ts  the wallet reads: which addresses are used, their activity and totals, a wallet's merged history page
 *   - stream-events.ts  the stream event log the indexer writes and subscriptions read by cursor
 *   - webhooks.ts    webhooks and their deliveries: the /v1/webhooks reads and writes, the delivery worker's leases
 *   - chain-statistics.ts  per-window and per-hour chain statistics (blocks, transactions, mass, fees, active
 *                    addresses as merged sketches from address-sketch.ts) computed again from the index, and their reads
 * Configuration comes in as arguments; nothing here reads the environment.
 */
export { openDb } from './connection';
export type { Db, DbPoolStats, OpenDbOptions, Queryable, QueryOptions, QueryResult } from './connection';
export { MIGRATIONS, MigrationError, migrate } from './migrations';
export type { Migration } from './migrations';
export { confirmations, DEFAULT_CHECKPOINT_NAME, isAccepted } from './records';
export type {
  AddressPage,
  AddressTransaction,
  BlockRecord,
  CreatedOutputRecord,
  ChainBlockAcceptance,
  Checkpoint,
  IndexedBlock,
  IndexedTransaction,
  InputRecord,
  OutputRecord,
  TransactionRecord,
  VirtualChainChange,
} from './records';
export {
  PAGE_LIMIT,
  MAX_DAA_SCORE_RANGE,
  UnknownCursorError,
  getAddressTransactions,
  getBlock,
  getBlocksByDaaScore,
  getCovenantTransactions,
  getTransaction,
  getTransactions,
  transactionFee,
} from './reads';
export type { AddressPageQuery, DaaScoreRangeQuery, HistoryPageQuery } from './reads';
export { getCovenant, getCovenants } from './covenant-reads';
export {
  acceptedBy,
  acceptedTransactionCounts,
  addressHistoryByOffset,
  addressHistoryPageByTime,
  balanceRanking,
  blocksAtBlueScore,
  blockTimes,
  chainAcceptances,
  chainBlocksByBlueScore,
  hardestBlock,
  nearestBlueScore,
} from './kaspa-rest-reads';
export type { AddressBalance, BalanceTier, ChainBlockAcceptances, HardestBlock, StoredBlockTime, TimedTransactionId, TransactionCountBucket } from './kaspa-rest-reads';
export type {
  CovenantDetails,
  CovenantPage,
  CovenantPageQuery,
  CovenantState,
  CovenantSummary,
  CovenantUtxo,
} from './covenant-reads';
export { addressActivity, addressTotals, getWalletTransactions, usedAddresses } from './wallet-reads';
export type { AddressActivity, AddressTotals, WalletPage, WalletPageQuery, WalletTransactionRecord } from './wallet-reads';
export { INDEX_TABLE_COLUMNS, tableDigests } from './digests';
export type { TableDigest } from './digests';
export { readCheckpointProgress } from './checkpoint-progress';
export type { CheckpointProgress } from './checkpoint-progress';
export {
  countChainBlocksUpTo,
  insertIndexGap,
  readChainBlockAtDepth,
  readChainBlocksAbove,
  readIndexGaps,
} from './index-gaps';
export type { ChainPosition, IndexGap, IndexGapReason, StoredChainBlock } from './index-gaps';
export {
  chainBlockAtOrBelow,
  daaScoreAtTime,
  databaseBytes,
  pruneHistoryBatch,
  pruneTokenUndo,
  readRetentionBound,
  readRetentionLimits,
  recordRetentionBound,
  vacuumPrunedTables,
} from './history-retention';
export type { PrunedBatch, RetentionBound, RetentionLimits, RetentionPolicy } from './history-retention';
export {
  readStatistics,
  recordStatisticsProgress,
  refreshStatisticsHour,
  refreshStatisticsWindow,
  statisticsRefreshRange,
  WINDOW_DAA_SCORES,
} from './chain-statistics';
export type { StatisticsInterval, StatisticsRow } from './chain-statistics';
export { acquireIndexerLock, INDEXER_LOCK_KEY } from './lock';
export type { IndexerLock } from './lock';
export type { StoredBlockLinks } from './writes';
export {
  addAcceptances,
  commitAsynchronously,
  getStoredBlockLinks,
  applyVirtualChainChange,
  insertBlocks,
  insertTransactions,
  readCheckpoint,
  removeAcceptances,
  resolvePreviousOutputs,
  setChainBlockFlags,
  writeCheckpoint,
} from './writes';
export { getWalletExportPage, transactionPosition, walletBalanceBefore } from './wallet-export-reads';
export type { ExportPage, ExportPageQuery, HistoryPosition } from './wallet-export-reads';
export {
  BLOCK_EVENT_LISTED_TRANSACTIONS,
  STREAM_EVENTS_LOCK_KEY,
  STREAM_TOPICS,
  addressesOfTransactions,
  appendStreamEvents,
  covenantStepsOfTransactions,
  latestStreamEventData,
  pruneStreamEvents,
  readStreamBounds,
  readStreamEvents,
  storedAmong,
} from './stream-events';
export { listenStreamEvents } from './stream-notify';
export type { Listener } from './pg-listener';
export {
  announceMempoolEntries,
  createSubmissionAnnouncer,
  markMempoolPresence,
  mempoolAddresses,
  settleMempoolWatch,
  submitThrough,
} from './mempool-watch';
export type { AnnouncedSubmit, MempoolSettlement } from './mempool-watch';
export type { BlockEventData, CovenantStepKind, NewStreamEvent, StreamBounds, StreamEvent, StreamEventQuery, StreamTopic } from './stream-events';
export type { LostAcceptance } from './writes';
