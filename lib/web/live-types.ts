/**
 * What the server's live sources send the browser: the live hub's events (lib/live/hub.ts, streamed by
 * /api/live) and the fee history's samples (lib/live/fee-history.ts). Types only, so pages and the runtime that
 * fills them share one definition without the client importing server code.
 */
import type { NodeDagInfo, NodeFeeEstimate } from '../api/endpoints/node-format';

export type BlockColor = 'blue' | 'red';

export interface LiveTransaction {
  id: string;
  /** Sum of the output values, sompi. */
  outputSompi: string;
}

export interface LiveBlock {
  hash: string;
  daaScore: string;
  blueScore: string;
  /** Header timestamp, epoch ms. */
  timestamp: number;
  /** All transactions including the coinbase. */
  txCount: number;
  /** Direct parents (level 0). */
  parents: string[];
  selectedParent: string | null;
  isChainBlock: boolean | null;
  color: BlockColor | null;
  /** The first `MAX_LISTED_TRANSACTIONS` non-coinbase transactions. */
  transactions: LiveTransaction[];
  /** Non-coinbase transactions of version 1 (Toccata), all of the block's. */
  versionOneTransactions: number;
  /**
   * Non-coinbase transactions creating a covenant-bound output (KIP-20: a genesis or a continuation), all of the
   * block's. A lineage's end binds no output and kaspad's blocks say nothing of the spent entries, so it is not counted.
   */
  covenantTransactions: number;
  /** When this server's live hub heard of the block (its event in the log, or the node's BlockAdded), epoch ms. */
  receivedAt: number;
}

export interface LiveChain {
  removed: string[];
  added: string[];
  blues: string[];
  reds: string[];
}

export interface LiveDag {
  info: NodeDagInfo;
  blueScore: string;
  /**
   * Hashes per second: the expected hashes per block at the current difficulty (2^256 / target ≈ 2 × difficulty,
   * since the RPC difficulty is (2^255 − 1) / target) times the observed blocks per second.
   */
  hashrate: number;
  blocksPerSecond: number;
  /** Non-coinbase transactions per second in the blocks received (a transaction in parallel blocks counts twice). */
  txPerSecond: number;
  /** Version 1 share of those transactions, 0 to 1; null when there were none. */
  versionOneShare: number | null;
  /** Covenant transactions per minute, counted the same way. */
  covenantTxPerMinute: number;
  windowSeconds: number;
  sampledAt: number;
}

export interface LiveMempool {
  size: number;
  feeEstimate: NodeFeeEstimate;
  sampledAt: number;
}

export type LiveEvent =
  | { type: 'block'; data: LiveBlock }
  | { type: 'chain'; data: LiveChain }
  | { type: 'dag'; data: LiveDag }
  | { type: 'mempool'; data: LiveMempool };

export interface LiveSnapshot {
  dag: LiveDag | undefined;
  mempool: LiveMempool | undefined;
  blocks: LiveBlock[];
}

export interface FeeSample {
  /** Epoch milliseconds. */
  time: number;
  priority: number;
  normal: number;
  low: number;
}
