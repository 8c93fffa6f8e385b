/**
 * The virtual block, after rusty-kaspa v2.0.1 consensus/src/pipeline/virtual_processor/processor.rs: the sink search
 * (the heaviest tip whose chain qualifies, chain-qualification.ts), the virtual's parents under the mergeset limit and
 * bounded merge depth, and the virtual's own context and acceptance over the sink.
 *
 * Invariants: the virtual keeps its own acceptance as a diff over the sink's set (the store's `sinkUtxo`); moving the
 * sink folds chain blocks' diffs (rolled back, then applied) into an overlay before the set is touched, so the work per
 * block is proportional to its mergeset and the reorganisation depth, never to the DAG's size. The UTXO index follows
 * the virtual's set, not the sink's.
 */
import type { Hash, Outpoint, UtxoEntry } from '../../kaspa/types';
import type { AcceptanceState } from './acceptance';
import type { ChainQualifier } from './chain-qualification';
import type { ConsensusRules } from './consensus-rules';
import type { ConsensusStore } from './consensus-store';
import { compareSortableBlocks, ORIGIN_ID, type BlockId, type GhostdagData, type GhostdagManager } from './ghostdag';
import type { BlockContext, HeaderProcessor } from './header-processing';
import type { ConsensusParams } from './params';
import { entriesEqual, outpointFromKey, outpointKey, UtxoDiff, type OutpointKey } from './utxo-diff';
import type { UtxoChange, UtxoIndex } from './utxo-index';

export interface VirtualState extends BlockContext {
  acceptance: AcceptanceState;
  utxoCommitment: Hash;
}

export interface AcceptedTransactionIds {
  acceptingBlockHash: Hash;
  acceptedTransactionIds: Hash[];
}

export interface VirtualChainChange {
  removedChainBlockHashes: Hash[];
  addedChainBlockHashes: Hash[];
  acceptedTransactionIds: AcceptedTransactionIds[];
}

/** What a resolution changed in the virtual's UTXO set, and whether the pruning point moved with it. */
export interface VirtualResolution {
  added: UtxoChange[];
  removed: UtxoChange[];
  pruningPointMoved: boolean;
}

export interface VirtualProcessorOptions {
  store: ConsensusStore;
  rules: ConsensusRules;
  ghostdagManager: GhostdagManager;
  headerProcessor: HeaderProcessor;
  chainQualifier: ChainQualifier;
  utxoIndex: UtxoIndex;
  /** Virtual-parent candidates beyond the best half are shuffled with it, as kaspad does. */
  random: () => number;
}

export class VirtualProcessor {
  private readonly store: ConsensusStore;
  private readonly params: ConsensusParams;
  private readonly ghostdagManager: GhostdagManager;
  private readonly headerProcessor: HeaderProcessor;
  private readonly chainQualifier: ChainQualifier;
  private readonly utxoIndex: UtxoIndex;
  private readonly random: () => number;
  private current: VirtualState;

  /** Starts from the store's sink (genesis or a restored pruning point) with its UTXO set already in place. */
  constructor(options: VirtualProcessorOptions) {
    this.store = options.store;
    this.params = options.rules.params;
    this.ghostdagManager = options.ghostdagManager;
    this.headerProcessor = options.headerProcessor;
    this.chainQualifier = options.chainQualifier;
    this.utxoIndex = options.utxoIndex;
    this.random = options.random;
    this.current = this.computeVirtual(this.store.sinkId, [], new UtxoDiff());
    // The address index covers the virtual's set, so it takes in what the first virtual accepts over the sink's.
    for (const [key, entry] of this.current.acceptance.diff.removed) this.utxoIndex.update({ outpoint: outpointFromKey(key), entry }, false);
    for (const [key, entry] of this.current.acceptance.diff.added) this.utxoIndex.update({ outpoint: outpointFromKey(key), entry }, true);
  }

  get virtual(): VirtualState {
    return this.current;
  }

  /** The UTXO entry of an outpoint in the virtual state. */
  getUtxo(outpoint: Outpoint): UtxoEntry | undefined {
    return this.current.acceptance.diff.getFrom(this.store.sinkView, outpointKey(outpoint));
  }

  /** The virtual UTXO set entries (a full scan). */
  utxoSetSnapshot(): Map<OutpointKey, UtxoEntry> {
    const snapshot = new Map(this.store.sinkUtxo);
    this.current.acceptance.diff.commitTo(snapshot);
    return snapshot;
  }

  /** `sink_search_algorithm`: the highest-blue-work tip whose chain is UTXO-valid, and the remaining candidates. */
  private findSink(overlay: UtxoDiff): { sink: BlockId; candidates: BlockId[] } {
    const store = this.store;
    const sortable = (id: BlockId) => ({ id, blueWork: store.record(id).ghostdag.blueWork });
    const heap = [...store.tips].map(sortable);
    const finalityPoint = this.virtualFinalityPoint();
    let diffPoint = store.sinkId;
    for (;;) {
      heap.sort((a, b) => compareSortableBlocks(b, a));
      const candidate = heap.shift();
      if (candidate === undefined) throw new Error('a valid sink must exist');
      // Candidates off the finality point's chain violate finality and never become the sink.
      if (store.isChainAncestorOf(finalityPoint, candidate.id)) {
        diffPoint = this.chainQualifier.moveOverlay(overlay, diffPoint, candidate.id);
        if (diffPoint === candidate.id) {
          const root = store.record(candidate.id).mergeDepthRoot;
          const filteringBlueWork = root === ORIGIN_ID ? 0n : store.record(root).ghostdag.blueWork;
          const candidates = heap.filter((block) => block.blueWork >= filteringBlueWork).map((block) => block.id);
          return { sink: candidate.id, candidates };
        }
      }
      for (const parent of store.record(candidate.id).parents) {
        if (!store.isDagAncestorOf(finalityPoint, parent)) continue;
        if (!heap.some((block) => store.isDagAncestorOf(parent, block.id))) heap.push(sortable(parent));
      }
    }
  }

  /** `virtual_finality_point`: the previous virtual's finality point, or the pruning point when that is not above it. */
  private virtualFinalityPoint(): BlockId {
    const { finalityPoint } = this.current;
    const pruningPoint = this.store.pruningPointId;
    return finalityPoint !== ORIGIN_ID && this.store.isChainAncestorOf(pruningPoint, finalityPoint) ? finalityPoint : pruningPoint;
  }

  /** `pick_virtual_parents`, ending with `remove_bounded_merge_breaking_parents`. */
  private pickVirtualParents(sink: BlockId, candidateList: BlockId[]): { parents: BlockId[]; ghostdag: GhostdagData } {
    const store = this.store;
    const maxParents = this.params.maxBlockParents;
    const limit = this.params.mergesetSizeLimit;
    const half = Math.floor(maxParents / 2);
    const maxCandidates = maxParents * 3;
    const candidates = [...candidateList];
    const shuffleFrom = (start: number, end: number) => {
      for (let i = start; i < end; i++) {
        const j = i + Math.floor(this.random() * (candidates.length - i));
        [candidates[i], candidates[j]] = [candidates[j]!, candidates[i]!];
      }
    };
    if (candidates.length > maxCandidates) {
      shuffleFrom(half, maxCandidates);
      candidates.length = maxCandidates;
    } else if (candidates.length > half) {
      shuffleFrom(half, candidates.length);
    }
    const parents = [sink];
    let size = 1;
    while (candidates.length > 0) {
      if (size >= limit || parents.length >= maxParents) break;
      const candidate = candidates.shift()!;
      const increase = this.mergesetIncrease(parents, candidate, limit - size);
      if (increase.accepted) {
        size += increase.size;
        parents.push(candidate);
        continue;
      }
      const replacement = increase.newCandidate;
      if (candidates.some((other) => store.isDagAncestorOf(other, replacement))) continue;
      const kept = candidates.filter((other) => !store.isDagAncestorOf(replacement, other));
      candidates.splice(0, candidates.length, ...kept, replacement);
    }
    const ghostdag = this.ghostdagManager.ghostdag(parents);
    const root = this.headerProcessor.blockAtDepth(ghostdag, this.params.mergeDepth, store.record(sink).mergeDepthRoot);
    const badReds = this.headerProcessor.mergeDepthViolators(ghostdag, root);
    if (badReds.length === 0) return { parents, ghostdag };
    const kept = parents.filter((parent) => !badReds.some((red) => store.isDagAncestorOf(red, parent)));
    return { parents: kept, ghostdag: this.ghostdagManager.ghostdag(kept) };
  }

  private mergesetIncrease(
    selected: readonly BlockId[],
    candidate: BlockId,
    budget: number,
  ): { accepted: true; size: number } | { accepted: false; newCandidate: BlockId } {
    const store = this.store;
    const queue = [...store.record(candidate).parents];
    const visited = new Set(queue);
    let increase = 1;
    for (let next = 0; next < queue.length; next++) {
      const current = queue[next]!;
      if (selected.some((block) => store.isDagAncestorOf(current, block))) continue;
      increase += 1;
      if (increase > budget) return { accepted: false, newCandidate: current };
      for (const parent of store.record(current).parents) {
        if (!visited.has(parent)) {
          visited.add(parent);
          queue.push(parent);
        }
      }
    }
    return { accepted: true, size: increase };
  }

  /** The virtual over `sink`, whose UTXO state is the sink's set with `overlay` applied. */
  private computeVirtual(sink: BlockId, candidates: BlockId[], overlay: UtxoDiff): VirtualState {
    const { parents, ghostdag } = this.pickVirtualParents(sink, candidates);
    const context = this.headerProcessor.contextFor(parents, ghostdag);
    const acceptance = this.chainQualifier.acceptanceOf(ghostdag, context.daaScore, overlay.over(this.store.sinkView));
    return { ...context, acceptance, utxoCommitment: acceptance.multiset.finalize() };
  }

  /**
   * Finds the sink, moves the sink's UTXO set and the virtual to it, and the global pruning point with the virtual's.
   * Pruning itself is left to the caller, after it told the outside about the chain change: that chain may reach below
   * the new pruning point (a deferred replay).
   */
  resolve(): VirtualResolution {
    const store = this.store;
    const previousVirtual = this.current;
    const overlay = new UtxoDiff();
    const { sink, candidates } = this.findSink(overlay);
    const virtual = this.computeVirtual(sink, candidates, overlay);

    const touched = new Set([...previousVirtual.acceptance.diff.keys(), ...overlay.keys(), ...virtual.acceptance.diff.keys()]);
    const newView = virtual.acceptance.diff.over(overlay.over(store.sinkView));
    const added: UtxoChange[] = [];
    const removed: UtxoChange[] = [];
    for (const key of touched) {
      const before = previousVirtual.acceptance.diff.getFrom(store.sinkView, key);
      const after = newView.get(key);
      if (before !== undefined && after !== undefined && entriesEqual(before, after)) continue;
      if (before !== undefined) removed.push({ outpoint: outpointFromKey(key), entry: before });
      if (after !== undefined) added.push({ outpoint: outpointFromKey(key), entry: after });
    }
    overlay.commitTo(store.sinkUtxo);
    store.sinkId = sink;
    this.current = virtual;
    // Only forward: right after a restart the virtual sits just above the snapshot's pruning point and expects an older one.
    const pruningPointMoved =
      virtual.pruningPoint !== store.pruningPointId &&
      store.record(virtual.pruningPoint).ghostdag.blueScore > store.record(store.pruningPointId).ghostdag.blueScore;
    if (pruningPointMoved) store.pruningPointId = virtual.pruningPoint;
    for (const change of removed) this.utxoIndex.update(change, false);
    for (const change of added) this.utxoIndex.update(change, true);
    return { added, removed, pruningPointMoved };
  }

  /** Removed chain blocks from `from` down to the common chain ancestor, then added ones up to `to`. */
  chainChange(from: BlockId, to: BlockId, includeAcceptedTransactionIds: boolean): VirtualChainChange {
    const store = this.store;
    const removed: BlockId[] = [];
    let common = from;
    while (!store.isChainAncestorOf(common, to)) {
      removed.push(common);
      common = store.record(common).ghostdag.selectedParent;
    }
    const added = store.forwardChain(common, to);
    return {
      removedChainBlockHashes: removed.map((id) => store.record(id).hash),
      addedChainBlockHashes: added.map((id) => store.record(id).hash),
      acceptedTransactionIds: includeAcceptedTransactionIds
        ? added.map((id) => {
            const record = store.record(id);
            return {
              acceptingBlockHash: record.hash,
              acceptedTransactionIds: [...record.acceptance!.acceptedTransactionIds],
            };
          })
        : [],
    };
  }
}
