/**
 * What a miner swarm counts, per miner and in total, and the snapshot `MinerSwarm.stats()` returns.
 *
 * Invariants: the totals are summed from the per-miner counts in the same snapshot, so they always agree with them;
 * a snapshot is a copy, rejection tallies included, so a caller holding one never sees the swarm count on.
 */
import type { SubmitBlockRejectReason } from '../../rpc/types';

export type BlockRejection = SubmitBlockRejectReason | 'rpcError';

export interface MinerStats {
  name: string;
  hashesPerSecond: number;
  hashes: number;
  /** Budgeted hashes given up because the backlog exceeded `maxBacklogMs` (the timer ran late or CPU fell short). */
  hashesDropped: number;
  templates: number;
  templateErrors: number;
  blocksFound: number;
  blocksAccepted: number;
  blocksRejected: Partial<Record<BlockRejection, number>>;
  /** Partitions this miner went through (the current one included). */
  partitions: number;
  /** Blocks found while partitioned and submitted on reconnecting. */
  blocksHeld: number;
  /** Blocks found while partitioned beyond `maxHeldBlocks`, never submitted. */
  blocksDiscarded: number;
}

export interface SwarmStats {
  running: boolean;
  /** Time spent running, over all start/stop cycles. */
  runningMs: number;
  hashes: number;
  measuredHashesPerSecond: number;
  blocksFound: number;
  blocksAccepted: number;
  blocksRejected: Partial<Record<BlockRejection, number>>;
  partitions: number;
  miners: MinerStats[];
}

export function newMinerStats(name: string, hashesPerSecond: number): MinerStats {
  return {
    name,
    hashesPerSecond,
    hashes: 0,
    hashesDropped: 0,
    templates: 0,
    templateErrors: 0,
    blocksFound: 0,
    blocksAccepted: 0,
    blocksRejected: {},
    partitions: 0,
    blocksHeld: 0,
    blocksDiscarded: 0,
  };
}

function addTally(into: Partial<Record<BlockRejection, number>>, from: Partial<Record<BlockRejection, number>>): void {
  for (const [reason, count] of Object.entries(from) as [BlockRejection, number][]) {
    into[reason] = (into[reason] ?? 0) + count;
  }
}

export function swarmStats(running: boolean, runningMs: number, minerStats: readonly MinerStats[]): SwarmStats {
  const miners = minerStats.map((stats) => ({ ...stats, blocksRejected: { ...stats.blocksRejected } }));
  const blocksRejected: Partial<Record<BlockRejection, number>> = {};
  let hashes = 0;
  let blocksFound = 0;
  let blocksAccepted = 0;
  let partitions = 0;
  for (const miner of miners) {
    partitions += miner.partitions;
    hashes += miner.hashes;
    blocksFound += miner.blocksFound;
    blocksAccepted += miner.blocksAccepted;
    addTally(blocksRejected, miner.blocksRejected);
  }
  return {
    running,
    runningMs,
    hashes,
    measuredHashesPerSecond: runningMs > 0 ? (hashes * 1000) / runningMs : 0,
    blocksFound,
    blocksAccepted,
    blocksRejected,
    partitions,
    miners,
  };
}
