/**
 * Where the index starts and how it finds its way back. An empty index starts at the node's pruning point (genesis on
 * a young network). A checkpoint the node does not know is recovered: with a synced node that knows a stored chain
 * block below it, everything above that block leaves the chain exactly as in a reorganisation and the catch-up
 * continues from it; with a synced node that knows none, the gap is recorded and indexing resumes at its pruning
 * point (stored chain blocks at or above the pruning point's position, a different chain, leave the chain; those below
 * stay served). A node still syncing is waited for: its chain may yet reach the checkpoint, so the round fails and the
 * loop retries with backoff. Invariant: every recovery moves the checkpoint or fails; none loops without progress.
 */
import {
  applyVirtualChainChange,
  insertBlocks,
  insertIndexGap,
  insertTransactions,
  readChainBlockAtDepth,
  readChainBlocksAbove,
  readIndexGaps,
  setChainBlockFlags,
  writeCheckpoint,
  type Checkpoint,
  type Db,
  type IndexGap,
  type Queryable,
} from '../db';
import type { AddressPrefix } from '../kaspa/address';
import { bytesToHex } from '../kaspa/bytes';
import type { RpcClient } from '../rpc';
import { convertBlock, type ConvertedBlock } from './convert';
import type { IndexWrites } from './index-writes';
import { storedBlockOf, type KnownBlocks } from './known-blocks';
import { newestKnownChainBlock, type KnownChainBlock } from './recover';
import type { InputResolver } from './resolve';

export interface CheckpointRecovery {
  /** The first start on an empty index: the node's pruning point becomes the checkpoint. */
  bootstrap(): Promise<void>;
  /** The node does not know the checkpoint: walks back, or records the gap and resumes at its pruning point. */
  recover(): Promise<void>;
}

export interface CheckpointRecoveryOptions {
  rpc: RpcClient;
  db: Db;
  writes: IndexWrites;
  known: KnownBlocks;
  resolver: InputResolver;
  checkpointName: string;
  prefix: () => AddressPrefix;
  clock: () => number;
  log: (line: string) => void;
}

export function createCheckpointRecovery(options: CheckpointRecoveryOptions): CheckpointRecovery {
  const { rpc, db, writes, resolver, checkpointName, log } = options;
  const { progress } = writes;

  /**
   * Stores the node's pruning point as a chain block and makes it the checkpoint, with `alongside` in the same
   * transaction. Returns the pruning point's converted block.
   */
  const startAtPruningPoint = async (
    pruningPointHash: string,
    alongside: (tx: Queryable, pruningPoint: ConvertedBlock) => Promise<void> = async () => undefined,
  ): Promise<ConvertedBlock> => {
    const { block } = await rpc.call('getBlock', { hash: pruningPointHash, includeTransactions: true });
    const converted = convertBlock(block, options.prefix());
    converted.block.isChainBlock = true;
    const next: Checkpoint = {
      name: checkpointName,
      blockHash: converted.block.hash,
      blueScore: converted.block.header.blueScore,
      daaScore: converted.block.header.daaScore,
    };
    await writes.transaction(async (tx) => {
      await alongside(tx, converted);
      await insertBlocks(tx, [converted.block]);
      // A pruning point stored before as a block off the chain keeps its row: only its flag changes.
      await setChainBlockFlags(tx, [converted.block.hash], true);
      await insertTransactions(tx, await resolver.resolve(tx, converted.transactions));
      await writeCheckpoint(tx, next);
    });
    options.known.remember(pruningPointHash, storedBlockOf(converted));
    writes.moveCheckpoint(next, converted.block.header.timestamp);
    return converted;
  };

  const walkBack = async (lost: Checkpoint, known: KnownChainBlock) => {
    const removed = await readChainBlocksAbove(db, known.block);
    const next: Checkpoint = { name: checkpointName, blockHash: known.block.hash, blueScore: known.block.blueScore, daaScore: known.block.daaScore };
    const wrote = await writes.transaction(async (tx) => {
      const removedHashes = removed.map((block) => block.hash);
      const dropped = await applyVirtualChainChange(tx, { removedChainBlockHashes: removedHashes, added: [] });
      await writeCheckpoint(tx, next);
      return writes.announceChain(tx, [{ removed: removedHashes.map(bytesToHex), added: [], lost: dropped }], BigInt(options.clock()));
    });
    writes.announced(wrote);
    writes.moveCheckpoint(next, known.block.timestamp);
    progress.recoveries += 1;
    progress.notice =
      `the node did not know the checkpoint ${bytesToHex(lost.blockHash)} (DAA score ${lost.daaScore}); the index walked back to ` +
      `chain block ${bytesToHex(known.block.hash)} (DAA score ${known.block.daaScore}), undid ${removed.length} ` +
      `chain block(s) above it as a reorganisation and caught up from there`;
    log(`indexer: ${progress.notice}`);
  };

  const resumeAtPruningPoint = async (lost: Checkpoint) => {
    const dag = await rpc.call('getBlockDagInfo', {});
    let gap: Omit<IndexGap, 'detectedAt'> | undefined;
    let wroteEvents = false;
    const pruningPoint = await startAtPruningPoint(dag.pruningPointHash, async (tx, { block }) => {
      const position = { daaScore: block.header.daaScore, blueScore: block.header.blueScore };
      const replaced = await readChainBlocksAbove(tx, position, true);
      const replacedHashes = replaced.map((stored) => stored.hash);
      const dropped = await applyVirtualChainChange(tx, { removedChainBlockHashes: replacedHashes, added: [] });
      wroteEvents = await writes.announceChain(tx, [{ removed: replacedHashes.map(bytesToHex), added: [], lost: dropped }], BigInt(options.clock()));
      const lastKept = await readChainBlockAtDepth(tx, position, 0);
      gap = {
        reason: position.daaScore > lost.daaScore ? 'pruned' : 'different-chain',
        lostCheckpointHash: lost.blockHash,
        lostCheckpointDaaScore: lost.daaScore,
        lastKeptHash: lastKept?.hash ?? null,
        lastKeptDaaScore: lastKept?.daaScore ?? null,
        resumedHash: block.hash,
        resumedDaaScore: block.header.daaScore,
        replacedChainBlocks: replaced.length,
      };
      await insertIndexGap(tx, checkpointName, gap);
    });
    writes.announced(wroteEvents);
    progress.gaps = await readIndexGaps(db, checkpointName);
    const resumed = `${bytesToHex(pruningPoint.block.hash)} (DAA score ${pruningPoint.block.header.daaScore})`;
    progress.notice =
      gap!.reason === 'pruned'
        ? `the node no longer knows any indexed chain block (its pruning point passed the index at DAA score ` +
          `${lost.daaScore}); indexing resumed at its pruning point ${resumed}, and the index lacks the chain between. ` +
          'Stored history stays served. To fill the gap, index from an archival node into an empty database.'
        : `the node knows none of the indexed chain blocks (a different chain, or a node resynced from scratch); ` +
          `indexing resumed at its pruning point ${resumed}, and ${gap!.replacedChainBlocks} stored chain block(s) at ` +
          'or above it left the chain. To index this node alone, point the app at an empty database.';
    log(`indexer: ${progress.notice}`);
  };

  return {
    async bootstrap() {
      const dag = await rpc.call('getBlockDagInfo', {});
      await startAtPruningPoint(dag.pruningPointHash);
      log(`indexing from the pruning point ${dag.pruningPointHash}`);
    },
    async recover() {
      const lost = progress.checkpoint!;
      const info = await rpc.call('getInfo', {});
      if (!info.isSynced) {
        throw new Error(`the node does not know the checkpoint ${bytesToHex(lost.blockHash)} and is not synced; waiting for it to sync`);
      }
      const known = await newestKnownChainBlock(rpc, db, lost);
      if (known !== null) await walkBack(lost, known);
      else await resumeAtPruningPoint(lost);
    },
  };
}
