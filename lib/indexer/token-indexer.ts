/**
 * The token indexer: follows the chain index (lib/indexer's tables in lib/db) and applies the ops of accepted
 * transactions with the engine, chain block by chain block in opScore order.
 *
 * How it learns about acceptance changes: it never asks the chain indexer. The chain indexer flips `is_chain_block`
 * and the acceptance rows of a virtual-chain change in one transaction, so the chain flags are the acceptance
 * version. Each batch first checks that its own checkpoint block is still a chain block; if not, it walks selected
 * parents down to the first block that still is (the fork point; the selected-parent chain of a chain block is all
 * chain), undoes every block it applied above that point from the stored undo logs, and reapplies the new chain
 * from there. Dependencies flow one way: lib/indexer knows nothing of tokens.
 *
 * Gaps in the chain index (lib/indexer resumed at a node's pruning point because the node knew none of its chain): a
 * chain block whose selected parent is not the block before it is stepped over with a log line and counted; token ops
 * in the missing range are never applied. When the chain index's chain below the checkpoint was replaced entirely (a
 * different chain), no stored chain block remains to fork from: it undoes every block its undo logs hold and applies
 * the chain index's chain from its start.
 *
 * Crash safety: a batch (revert, applied blocks, op records, undo logs) and its checkpoint commit in one transaction;
 * the engine's memory is dropped and reloaded from the database whenever a batch fails. On PostgreSQL each batch reads
 * under REPEATABLE READ, so the chain it follows cannot change halfway through a batch.
 */
import { appendStreamEvents, type Db, type NewStreamEvent, type Queryable } from '../db';
import { getTokenOpsFrom, type TokenOpRow } from '../db/token-reads';
import { bytesToHex } from '../kaspa/bytes';
import {
  readAcceptedBlocks,
  readChainBlockRef,
  readChainBlocksAfter,
  type ChainBlockRef,
  type ChainBlockWithMergeset,
} from '../db/token-source';
import {
  TOKEN_CHECKPOINT_NAME,
  deleteTokenCheckpoint,
  loadTokenSnapshot,
  persistBlockApplications,
  pruneTokenUndo,
  readTokenCheckpoint,
  revertTokenBlocksAbove,
  writeTokenCheckpoint,
  type TokenCheckpoint,
} from '../db/token-store';
import { createTokenEngine, opScoreOf, type OpRecord, type TokenEngine } from '../tokens/engine';
import type { TokenProfile } from '../tokens/profile';

export interface TokenIndexerOptions {
  db: Db;
  profile: TokenProfile;
  log?: (line: string) => void;
  /** Wait between batches once caught up with the chain index. */
  pollIntervalMs?: number;
  /** Chain blocks per batch (one database transaction). */
  maxChainBlocks?: number;
  /** Undo logs are kept for this many DAA scores below the checkpoint; a deeper reorganisation cannot be undone. */
  undoDepth?: bigint;
  checkpointName?: string;
  /** Milliseconds since the Unix epoch. */
  clock?: () => number;
  /** After a batch appended `token` events to the stream log (in-process subscribers poll at once). */
  onStreamEvents?: () => void;
}

/**
 * A `token` event of the stream log: one op record as the op endpoints write it, with its ticker; `reverted` when a
 * reorganisation took it back (the op may come again from the new chain, with a new opScore).
 */
export interface TokenEventData {
  ticker: string;
  op: string;
  opScore: string;
  transactionId: string;
  from: string;
  to: string | null;
  amount: string | null;
  accepted: boolean;
  opError: string | null;
  timestamp: number;
  reverted: boolean;
}

function appliedEvent(record: OpRecord): NewStreamEvent {
  const data: TokenEventData = {
    ticker: record.primary.op.tick,
    op: record.primary.op.op,
    opScore: record.opScore.toString(),
    transactionId: record.txId,
    from: record.primary.op.from,
    to: 'to' in record.primary.op ? (record.primary.op.to ?? null) : null,
    amount: record.primary.amount === null ? null : record.primary.amount.toString(),
    accepted: record.accepted,
    opError: record.opError,
    timestamp: record.mtsAdd,
    reverted: false,
  };
  return { topic: 'token', address: null, subject: data.ticker, data };
}

function revertedEvent(row: TokenOpRow & { tick: string }): NewStreamEvent {
  const data: TokenEventData = {
    ticker: row.tick,
    op: row.op,
    opScore: row.opScore.toString(),
    transactionId: row.txId,
    from: row.from,
    to: row.to,
    amount: row.amount === null ? null : row.amount.toString(),
    accepted: row.accepted,
    opError: row.opError,
    timestamp: row.mtsAdd,
    reverted: true,
  };
  return { topic: 'token', address: null, subject: data.ticker, data };
}

export interface TokenIndexerStatus {
  phase: 'stopped' | 'following' | 'retrying';
  /** DAA score of the last chain block applied. */
  indexedDaaScore: bigint | null;
  opsIndexed: number;
  reorganisations: number;
  /** Gaps in the chain index stepped over (token ops in the missing chain are not applied). */
  gapsSteppedOver: number;
  lastBatchAt: number | null;
  lastError: string | null;
}

export interface TokenBatchResult {
  chainBlocks: number;
  ops: number;
  /** Chain blocks undone before applying (their undo logs). */
  revertedBlocks: number;
  reverted: boolean;
  gaps: number;
}

export interface TokenIndexer {
  start(): void;
  stop(): Promise<void>;
  status(): TokenIndexerStatus;
  /** One batch: undo what left the chain, then apply up to maxChainBlocks chain blocks. */
  step(): Promise<TokenBatchResult>;
  /** Batches until the chain index has nothing more to apply. */
  catchUp(): Promise<TokenBatchResult>;
}

const DEFAULTS = { pollIntervalMs: 500, maxChainBlocks: 200, undoDepth: 1_000_000n, maxRetryMs: 30_000 } as const;

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function createTokenIndexer(options: TokenIndexerOptions): TokenIndexer {
  const { db, profile } = options;
  const log = options.log ?? (() => undefined);
  const clock = options.clock ?? Date.now;
  const name = options.checkpointName ?? TOKEN_CHECKPOINT_NAME;
  const maxChainBlocks = options.maxChainBlocks ?? DEFAULTS.maxChainBlocks;
  const undoDepth = options.undoDepth ?? DEFAULTS.undoDepth;

  let engine: TokenEngine | null = null;
  /** `token` events the running batch appended; the subscribers are woken once it commits. */
  let announced = 0;
  let indexedDaaScore: bigint | null = null;
  let opsIndexed = 0;
  let reorganisations = 0;
  let gapsSteppedOver = 0;
  let lastBatchAt: number | null = null;
  let lastError: string | null = null;
  let phase: TokenIndexerStatus['phase'] = 'stopped';
  let running = false;
  let loop: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  let busy: Promise<TokenBatchResult> | undefined;

  const loadEngine = async (tx: Queryable) =>
    createTokenEngine({ profile, snapshot: await loadTokenSnapshot(tx, name) });

  /**
   * The highest block of the current chain on the selected-parent chain of `from`; null when that chain runs out of
   * stored blocks first (the chain index's chain was replaced below it).
   */
  const forkPoint = async (tx: Queryable, from: ChainBlockRef): Promise<ChainBlockRef | null> => {
    let block = from;
    while (!block.isChainBlock) {
      const parent = block.selectedParentHash && (await readChainBlockRef(tx, block.selectedParentHash));
      if (!parent) return null;
      block = parent;
    }
    return block;
  };

  /** Chain blocks of the batch that do not continue the block before them: a gap in the chain index. */
  const gapsIn = (after: ChainBlockRef | null, blocks: readonly ChainBlockWithMergeset[]): number => {
    let gaps = 0;
    let previous = after;
    for (const block of blocks) {
      if (previous !== null && (block.selectedParentHash === null || bytesToHex(block.selectedParentHash) !== bytesToHex(previous.hash))) {
        gaps += 1;
        log(
          `tokens: the chain index has a gap between DAA scores ${previous.daaScore} and ${block.daaScore}; ` +
            'token ops in the missing chain are not applied',
        );
      }
      previous = block;
    }
    return gaps;
  };

  const batch = async (tx: Queryable): Promise<TokenBatchResult> => {
    if (db.kind === 'postgres') await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
    const checkpoint: TokenCheckpoint | null = await readTokenCheckpoint(tx, name);
    let revertedBlocks = 0;
    let reverted = false;
    let after: ChainBlockRef | null = null;
    if (checkpoint !== null) {
      const at = await readChainBlockRef(tx, checkpoint.blockHash);
      if (at === null) throw new Error(`the chain index lacks the token checkpoint ${bytesToHex(checkpoint.blockHash)}`);
      after = at;
      if (!at.isChainBlock) {
        const fork = await forkPoint(tx, at);
        const undone = await getTokenOpsFrom(tx, fork === null ? 0n : opScoreOf(fork.daaScore + 1n, 0));
        await appendStreamEvents(tx, [...undone].reverse().map(revertedEvent), clock());
        announced += undone.length;
        revertedBlocks = await revertTokenBlocksAbove(tx, fork?.daaScore ?? -1n);
        after = fork;
        if (fork === null) await deleteTokenCheckpoint(tx, name);
        else await writeTokenCheckpoint(tx, { name, blockHash: fork.hash, daaScore: fork.daaScore });
        engine = null;
        reverted = true;
        if (fork === null) {
          log(`tokens: the chain index replaced its whole chain below DAA score ${at.daaScore}; undid ${revertedBlocks} block(s) and start over from its chain's start`);
        } else if (revertedBlocks > 0) {
          log(`tokens: chain moved below DAA score ${at.daaScore}; undid ${revertedBlocks} block(s) above ${fork.daaScore}`);
        }
      }
    }
    engine ??= await loadEngine(tx);
    const chainBlocks = await readChainBlocksAfter(tx, after, maxChainBlocks);
    if (chainBlocks.length === 0) return { chainBlocks: 0, ops: 0, revertedBlocks, reverted, gaps: 0 };
    const gaps = gapsIn(after, chainBlocks);
    const accepted = await readAcceptedBlocks(tx, chainBlocks);
    const applications = accepted.map((block) => engine!.applyBlock(block));
    await persistBlockApplications(tx, applications);
    const applied = applications.flatMap((application) => application.ops.map(appliedEvent));
    await appendStreamEvents(tx, applied, clock());
    announced += applied.length;
    const last = chainBlocks.at(-1)!;
    await writeTokenCheckpoint(tx, { name, blockHash: last.hash, daaScore: last.daaScore });
    if (last.daaScore > undoDepth) await pruneTokenUndo(tx, last.daaScore - undoDepth);
    return {
      chainBlocks: chainBlocks.length,
      ops: applications.reduce((total, application) => total + application.ops.length, 0),
      revertedBlocks,
      reverted,
      gaps,
    };
  };

  const runStep = async (): Promise<TokenBatchResult> => {
    try {
      announced = 0;
      const result = await db.transaction(batch);
      if (announced > 0) options.onStreamEvents?.();
      engine?.pruneUndo(0);
      if (result.reverted) reorganisations += 1;
      gapsSteppedOver += result.gaps;
      opsIndexed += result.ops;
      indexedDaaScore = engine?.snapshot().lastDaaScore ?? indexedDaaScore;
      if (result.chainBlocks > 0 || result.reverted) lastBatchAt = clock();
      return result;
    } catch (error) {
      engine = null;
      throw error;
    }
  };

  /** Batches never overlap: a caller arriving during one waits for it and then runs its own. */
  const step = async (): Promise<TokenBatchResult> => {
    while (busy) await busy.catch(() => undefined);
    busy = runStep();
    try {
      return await busy;
    } finally {
      busy = undefined;
    }
  };

  const catchUp = async (): Promise<TokenBatchResult> => {
    const total: TokenBatchResult = { chainBlocks: 0, ops: 0, revertedBlocks: 0, reverted: false, gaps: 0 };
    for (;;) {
      const result = await step();
      total.chainBlocks += result.chainBlocks;
      total.ops += result.ops;
      total.revertedBlocks += result.revertedBlocks;
      total.reverted ||= result.reverted;
      total.gaps += result.gaps;
      if (result.chainBlocks === 0) return total;
    }
  };

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const run = async (): Promise<void> => {
    let failures = 0;
    while (running) {
      try {
        const result = await step();
        lastError = null;
        failures = 0;
        phase = 'following';
        if (result.chainBlocks < maxChainBlocks && running) await sleep(options.pollIntervalMs ?? DEFAULTS.pollIntervalMs);
      } catch (error) {
        if (!running) return;
        lastError = describe(error);
        phase = 'retrying';
        const delay = Math.min((options.pollIntervalMs ?? DEFAULTS.pollIntervalMs) * 2 ** failures, DEFAULTS.maxRetryMs);
        failures += 1;
        log(`tokens: ${lastError}; retrying in ${delay} ms`);
        await sleep(delay);
      }
    }
  };

  return {
    start() {
      if (running) return;
      running = true;
      phase = 'following';
      loop = run();
    },
    async stop() {
      running = false;
      phase = 'stopped';
      wake?.();
      await loop;
      loop = undefined;
    },
    status: () => ({ phase, indexedDaaScore, opsIndexed, reorganisations, gapsSteppedOver, lastBatchAt, lastError }),
    step,
    catchUp,
  };
}
