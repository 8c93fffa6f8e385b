/**
 * The live hub's recent blocks: the blocks the node added, as live events, in arrival order, with the chain status
 * and colour the later chain changes gave them, and the rates over the trailing `rateWindowMs` of them. Invariant:
 * a block stays while it is within both windows (`recentWindowMs` for the catch-up replay, `rateWindowMs` for the
 * rates) and there are at most `maxRecentBlocks`; the oldest go first, so the map's order is arrival order.
 */
import { BLOCK_EVENT_LISTED_TRANSACTIONS, type BlockEventData } from '../db/stream-events';
import type { RpcBlock } from '../rpc/types';
import type { BlockColor, LiveBlock, LiveDag, LiveTransaction } from '../web/live-types';

export const MAX_LISTED_TRANSACTIONS = BLOCK_EVENT_LISTED_TRANSACTIONS;

export type LiveRates = Pick<LiveDag, 'blocksPerSecond' | 'txPerSecond' | 'versionOneShare' | 'covenantTxPerMinute' | 'windowSeconds'>;

/** A block as the live feed heard it, with its merge set's colours (given to those blocks when it joins the chain). */
export interface RecentBlock {
  block: LiveBlock;
  blues: string[];
  reds: string[];
}

/** The Toccata activity of a block's non-coinbase transactions, for the dashboard's share and covenant figures. */
export function blockActivity(transactions: RpcBlock['transactions']): { versionOneTransactions: number; covenantTransactions: number } {
  let versionOneTransactions = 0;
  let covenantTransactions = 0;
  for (const transaction of transactions.slice(1)) {
    if (transaction.version >= 1) versionOneTransactions += 1;
    if (transaction.outputs.some((output) => output.covenant !== null)) covenantTransactions += 1;
  }
  return { versionOneTransactions, covenantTransactions };
}

/** A block from the node's BlockAdded notification. */
export function recentBlockOfRpc(block: RpcBlock, receivedAt: number): RecentBlock {
  const verbose = block.verboseData;
  const transactions: LiveTransaction[] = [];
  for (const transaction of block.transactions.slice(1, MAX_LISTED_TRANSACTIONS + 1)) {
    const id = transaction.verboseData?.transactionId;
    if (id === undefined) continue;
    const output = transaction.outputs.reduce((sum, item) => sum + BigInt(item.value), 0n);
    transactions.push({ id, outputSompi: output.toString() });
  }
  const isChainBlock = verbose?.isChainBlock ?? null;
  return {
    block: {
      hash: block.header.hash,
      daaScore: block.header.daaScore.toString(),
      blueScore: block.header.blueScore.toString(),
      timestamp: Number(block.header.timestamp),
      txCount: block.transactions.length,
      parents: [...(block.header.parentsByLevel[0] ?? [])],
      selectedParent: verbose?.selectedParentHash ?? null,
      isChainBlock,
      color: isChainBlock === true ? 'blue' : null,
      transactions,
      ...blockActivity(block.transactions),
      receivedAt,
    },
    blues: [...(verbose?.mergeSetBluesHashes ?? [])],
    reds: [...(verbose?.mergeSetRedsHashes ?? [])],
  };
}

type Enrichment = 'transactions' | 'versionOneTransactions' | 'covenantTransactions' | 'mergeSetBlues' | 'mergeSetReds' | 'isChainBlock';

/** A `block` event as the log may hold it: without the enrichment when written before it. */
export type LoggedBlockEvent = Omit<BlockEventData, Enrichment> & Partial<Pick<BlockEventData, Enrichment>>;

/**
 * A block from the event log's `block` event. An event written before the log carried the listing and the merge set
 * (within the first retention window after an upgrade) lists nothing and colours nothing.
 */
export function recentBlockOfEvent(data: LoggedBlockEvent, receivedAt: number): RecentBlock {
  return {
    block: {
      hash: data.hash,
      daaScore: data.daaScore,
      blueScore: data.blueScore,
      timestamp: Number(data.timestamp),
      txCount: data.transactionCount,
      parents: [...data.parents],
      selectedParent: data.selectedParent,
      isChainBlock: data.isChainBlock ?? null,
      color: data.isChainBlock === true ? 'blue' : null,
      transactions: data.transactions ?? [],
      versionOneTransactions: data.versionOneTransactions ?? 0,
      covenantTransactions: data.covenantTransactions ?? 0,
      receivedAt,
    },
    blues: data.mergeSetBlues ?? [],
    reds: data.mergeSetReds ?? [],
  };
}

/** A virtual chain change: the chain blocks removed and added (hashes, hex). */
export interface ChainChange {
  removed: readonly string[];
  added: readonly string[];
}

export interface RecentBlocksOptions {
  rateWindowMs: number;
  recentWindowMs: number;
  maxRecentBlocks: number;
  /** When the hub started: the rates' window is no longer than the time since. */
  startedAt: number;
}

export interface RecentBlocks {
  /** Keeps the block (received at its `receivedAt`) and returns it as a live block (a copy, for broadcasting). */
  add(entry: RecentBlock): LiveBlock;
  /** Marks the removed and added chain blocks, colours the added ones' merge sets, and returns those merge sets. */
  applyChainChange(change: ChainChange): { blues: string[]; reds: string[] };
  rates(at: number): LiveRates;
  /** Copies of the blocks received within `recentWindowMs` before `at`, oldest first. */
  within(at: number): LiveBlock[];
}

export function createRecentBlocks(options: RecentBlocksOptions): RecentBlocks {
  const { rateWindowMs, recentWindowMs, maxRecentBlocks, startedAt } = options;
  /** Insertion-ordered by arrival, so the oldest is first. */
  const recent = new Map<string, RecentBlock>();

  function prune(at: number): void {
    for (const [hash, entry] of recent) {
      if (recent.size <= maxRecentBlocks && at - entry.block.receivedAt <= Math.max(recentWindowMs, rateWindowMs)) break;
      recent.delete(hash);
    }
  }

  return {
    add(entry) {
      recent.set(entry.block.hash, entry);
      prune(entry.block.receivedAt);
      return { ...entry.block };
    },

    applyChainChange(change) {
      const blues: string[] = [];
      const reds: string[] = [];
      const setColor = (hash: string, color: BlockColor) => {
        const entry = recent.get(hash);
        if (entry !== undefined) entry.block.color = color;
      };
      for (const hash of change.removed) {
        const entry = recent.get(hash);
        if (entry !== undefined) entry.block.isChainBlock = false;
      }
      for (const hash of change.added) {
        const entry = recent.get(hash);
        if (entry === undefined) continue;
        entry.block.isChainBlock = true;
        entry.block.color = 'blue';
        for (const blue of entry.blues) {
          blues.push(blue);
          setColor(blue, 'blue');
        }
        for (const red of entry.reds) {
          reds.push(red);
          setColor(red, 'red');
        }
      }
      return { blues, reds };
    },

    rates(at) {
      const windowMs = Math.max(1_000, Math.min(rateWindowMs, at - startedAt));
      let blocks = 0;
      let transactions = 0;
      let versionOne = 0;
      let covenant = 0;
      for (const { block } of recent.values()) {
        if (at - block.receivedAt > windowMs) continue;
        blocks += 1;
        transactions += Math.max(0, block.txCount - 1);
        versionOne += block.versionOneTransactions;
        covenant += block.covenantTransactions;
      }
      const seconds = windowMs / 1_000;
      return {
        blocksPerSecond: blocks / seconds,
        txPerSecond: transactions / seconds,
        versionOneShare: transactions === 0 ? null : versionOne / transactions,
        covenantTxPerMinute: (covenant / seconds) * 60,
        windowSeconds: seconds,
      };
    },

    within(at) {
      const blocks: LiveBlock[] = [];
      for (const { block } of recent.values()) {
        if (at - block.receivedAt <= recentWindowMs) blocks.push({ ...block });
      }
      return blocks;
    },
  };
}
