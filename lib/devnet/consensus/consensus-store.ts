/**
 * The state the consensus processors share, all in memory: each stored block's record, the tips, the blocks known to
 * be invalid, the reachability index, the pruned past, the sink with the UTXO set after its acceptance, and the
 * pruning point. It is also the store GHOSTDAG, the DAA windows and the parents builder read.
 *
 * Invariants:
 * - only blocks that passed header and body validation are stored, so a rejected block leaves every structure as it
 *   was;
 * - `sinkUtxo` is the UTXO set after the sink's acceptance, and every chain-qualified block keeps its acceptance (UTXO
 *   diff from its selected parent, multiset, accepted ids, rewards), so any chain state is the sink's set with diffs
 *   folded over it;
 * - blocks in `windowOnly` (also in `pastPruningPoint`) are kept for the pinned windows and pruning samples alone:
 *   they have no parents, children or reachability data, so no ancestry question ever reaches them.
 */
import { LanesTree } from '../../kaspa/lanes-tree';
import { MuHash } from '../../kaspa/muhash';
import { calcWork } from '../../kaspa/pow';
import type { Hash, Header, Transaction, UtxoEntry } from '../../kaspa/types';
import type { AcceptanceState } from './acceptance';
import type { DaaStore } from './difficulty';
import type { Block } from './genesis';
import { compareSortableBlocks, ORIGIN_ID, type BlockId, type GhostdagData, type GhostdagStore } from './ghostdag';
import type { ParentsStore } from './parents-builder';
import { Reachability } from './reachability';
import { txIdOf } from './transaction-facts';
import { UtxoDiff, type OutpointKey, type UtxoView } from './utxo-diff';

export type BlockStatus = 'utxoPendingVerification' | 'utxoValid' | 'disqualifiedFromChain';

export interface BlockRecord {
  readonly id: BlockId;
  readonly hash: Hash;
  readonly header: Header;
  transactions: Transaction[];
  transactionIds: Hash[];
  /** Pruned parents are left out. */
  parents: readonly BlockId[];
  readonly parentsByLevel: readonly (readonly BlockId[])[];
  readonly ghostdag: GhostdagData;
  readonly level: number;
  readonly work: bigint;
  readonly mergesetNonDaa: ReadonlySet<BlockId>;
  readonly pruningSample: BlockId;
  readonly mergeDepthRoot: BlockId;
  readonly finalityPoint: BlockId;
  readonly children: BlockId[];
  status: BlockStatus;
  acceptance?: AcceptanceState;
  disqualificationReason?: string;
}

/** Genesis's record: UTXO-valid at the maximum block level, with an empty acceptance over its own accepted-id root. */
export function genesisRecord(genesis: Block, hash: Hash, id: BlockId, ghostdag: GhostdagData, maxBlockLevel: number): BlockRecord {
  return {
    id,
    hash,
    header: genesis.header,
    transactions: genesis.transactions,
    transactionIds: genesis.transactions.map(txIdOf),
    parents: [],
    parentsByLevel: [],
    ghostdag,
    level: maxBlockLevel,
    work: calcWork(genesis.header.bits),
    mergesetNonDaa: new Set(),
    pruningSample: id,
    mergeDepthRoot: ORIGIN_ID,
    finalityPoint: ORIGIN_ID,
    children: [],
    status: 'utxoValid',
    acceptance: {
      diff: new UtxoDiff(),
      multiset: new MuHash(),
      acceptedTransactionIds: [],
      mergesetAcceptance: [],
      rewards: new Map(),
      acceptedIdMerkleRoot: genesis.header.acceptedIdMerkleRoot,
      lanes: LanesTree.EMPTY,
    },
  };
}

/** Ascending `(blue work, hash)`: a topological order. */
export function byBlueWork(a: BlockRecord, b: BlockRecord): number {
  return compareSortableBlocks({ id: a.id, blueWork: a.ghostdag.blueWork }, { id: b.id, blueWork: b.ghostdag.blueWork });
}

export class ConsensusStore implements GhostdagStore, DaaStore, ParentsStore {
  readonly records = new Map<BlockId, BlockRecord>();
  readonly invalid = new Set<BlockId>();
  readonly tips = new Set<BlockId>();
  /** Stored blocks in the strict past of the pruning point: header only, and pruned as far as callers can tell. */
  readonly pastPruningPoint = new Set<BlockId>();
  /** Of those, the ones kept only for the pinned windows and pruning samples: outside every reachability query. */
  readonly windowOnly = new Set<BlockId>();
  readonly sinkUtxo = new Map<OutpointKey, UtxoEntry>();
  readonly sinkView: UtxoView = { get: (key) => this.sinkUtxo.get(key) };
  sinkId: BlockId;
  /** The global pruning point: the virtual's expected pruning point (genesis until the chain is pruning-depth deep). */
  pruningPointId: BlockId;
  private reachability: Reachability;

  constructor(readonly genesisId: BlockId) {
    this.reachability = new Reachability(genesisId);
    this.sinkId = genesisId;
    this.pruningPointId = genesisId;
  }

  record(block: BlockId): BlockRecord {
    const record = this.records.get(block);
    if (record === undefined) throw new Error(`unknown block ${block}`);
    return record;
  }

  unprunedRecord(id: BlockId): BlockRecord | undefined {
    return this.pastPruningPoint.has(id) ? undefined : this.records.get(id);
  }

  /** A stored block with reachability data (not kept for windows only). */
  isLive(block: BlockId): boolean {
    return this.records.has(block) && !this.windowOnly.has(block);
  }

  /** Genesis, the reachability root: a tip with no parents. */
  insertGenesis(record: BlockRecord): void {
    this.records.set(record.id, record);
    this.tips.add(record.id);
  }

  /** Stores a validated block as a tip over its parents. */
  insert(record: BlockRecord): void {
    const { ghostdag } = record;
    const merged = [...ghostdag.mergesetBlues.slice(1), ...ghostdag.mergesetReds].filter((block) => this.reachability.has(block));
    this.reachability.addBlock(record.id, ghostdag.selectedParent, merged);
    this.records.set(record.id, record);
    for (const parent of record.parents) {
      this.record(parent).children.push(record.id);
      this.tips.delete(parent);
    }
    this.tips.add(record.id);
  }

  /**
   * The reachability index over the stored blocks with reachability data, in ascending blue work (a topological
   * order); a block whose selected parent is gone hangs under ORIGIN. Paths between kept blocks never pass through a
   * pruned one (what is kept is closed upward), so every ancestry answer among them stays exact.
   */
  rebuildReachability(): void {
    this.reachability = new Reachability(ORIGIN_ID);
    const live = [...this.records.values()]
      .filter((record) => !this.windowOnly.has(record.id))
      .sort(byBlueWork);
    for (const { id, ghostdag } of live) {
      const merged = [...ghostdag.mergesetBlues.slice(1), ...ghostdag.mergesetReds].filter((block) => this.reachability.has(block));
      this.reachability.addBlock(id, this.reachability.has(ghostdag.selectedParent) ? ghostdag.selectedParent : ORIGIN_ID, merged);
    }
  }

  isChainAncestorOf(ancestor: BlockId, block: BlockId): boolean {
    return this.reachability.isChainAncestorOf(ancestor, block);
  }

  /** Chain blocks from `to` down to, not including, `from` (a chain ancestor of `to`), in ascending order. */
  forwardChain(from: BlockId, to: BlockId): BlockId[] {
    const chain: BlockId[] = [];
    for (let current = to; current !== from; current = this.record(current).ghostdag.selectedParent) chain.push(current);
    return chain.reverse();
  }

  // ---- what GHOSTDAG, the DAA windows and the parents builder read ----

  hasWindowData(block: BlockId): boolean {
    if (!this.isLive(block)) return false;
    const { mergesetBlues, mergesetReds } = this.record(block).ghostdag;
    return mergesetBlues.every((merged) => this.isLive(merged)) && mergesetReds.every((merged) => this.isLive(merged));
  }

  /** parents_builder: pruned blocks (and those kept for windows only) are never compared. */
  hasReachabilityData(block: BlockId): boolean {
    return this.isLive(block);
  }

  parents(block: BlockId): readonly BlockId[] {
    return this.record(block).parents;
  }

  ghostdagData(block: BlockId): GhostdagData {
    return this.record(block).ghostdag;
  }

  isDagAncestorOf(ancestor: BlockId, block: BlockId): boolean {
    return this.reachability.isDagAncestorOf(ancestor, block);
  }

  timestamp(block: BlockId): bigint {
    return this.record(block).header.timestamp;
  }

  bits(block: BlockId): number {
    return this.record(block).header.bits;
  }

  daaScore(block: BlockId): bigint {
    return this.record(block).header.daaScore;
  }

  parentsByLevel(block: BlockId): readonly (readonly BlockId[])[] {
    return this.record(block).parentsByLevel;
  }

  blockLevel(block: BlockId): number {
    return this.record(block).level;
  }
}
