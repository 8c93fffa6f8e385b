/**
 * The pruning point's state: dropping what a new pruning point leaves behind, exporting the state a node restarts from
 * (consensus-snapshot.ts), and starting from one, or from genesis's UTXO set.
 *
 * When the virtual's pruning point moves, consensus drops what kaspad's pruning processor drops, keeping what the rules
 * still read (consensus-snapshot.ts lists it): blocks within finality + merge depth below it (bodies only for the
 * pruning point and its anticone), the pruning samples its successors' headers walk, the blocks of its difficulty and
 * past-median-time windows (pinned, so windows above stop there) and genesis. Blocks in its strict past answer as
 * pruned.
 *
 * Invariants: what is kept is closed upward, so ancestry among kept blocks stays exact after the reachability index is
 * rebuilt over them; and a starting UTXO set is accepted only when its multiset finalizes to the commitment in its
 * block's header.
 */
import { bytesToHex, compareBytes } from '../../kaspa/bytes';
import { headerHash } from '../../kaspa/header';
import { LanesTree } from '../../kaspa/lanes-tree';
import { MuHash } from '../../kaspa/muhash';
import { calcWork } from '../../kaspa/pow';
import type { Hash } from '../../kaspa/types';
import type { ConsensusSnapshot, SnapshotBlock } from './consensus-snapshot';
import { byBlueWork, type BlockRecord, type ConsensusStore } from './consensus-store';
import type { DifficultyManager } from './difficulty';
import { blockIdOf, type BlockId } from './ghostdag';
import type { ConsensusParams } from './params';
import { txIdOf } from './transaction-facts';
import { outpointFromKey, outpointKey, UtxoDiff } from './utxo-diff';
import type { UtxoChange, UtxoIndex } from './utxo-index';

export class PruningProcessor {
  constructor(
    private readonly store: ConsensusStore,
    private readonly params: ConsensusParams,
    private readonly difficultyManager: DifficultyManager,
    private readonly utxoIndex: UtxoIndex,
  ) {}

  /** Genesis starts from the UTXO set its header commits (virtual_processor `import_pruning_point_utxo_set`'s check). */
  importGenesisUtxoSet(commitment: Hash, utxos: readonly UtxoChange[]): void {
    const multiset = new MuHash();
    for (const { outpoint, entry } of utxos) multiset.addUtxo(outpoint, entry);
    if (compareBytes(multiset.finalize(), commitment) !== 0) {
      throw new Error(
        `the genesis UTXO set (${utxos.length} outputs) does not match the genesis header's utxoCommitment ${bytesToHex(commitment)}`,
      );
    }
    this.store.record(this.store.genesisId).acceptance!.multiset = multiset;
    for (const change of utxos) {
      this.store.sinkUtxo.set(outpointKey(change.outpoint), change.entry);
      this.utxoIndex.update(change, true);
    }
  }

  /**
   * Drops what the new pruning point leaves behind (pruning_processor/processor.rs `prune`, with the devnet's own
   * retention, see above). Runs once per pruning point move, in time proportional to what is stored.
   */
  prune(): void {
    const { store, params } = this;
    const pruningPoint = store.pruningPointId;
    const pruningBlueScore = store.record(pruningPoint).ghostdag.blueScore;
    const windows = this.difficultyManager.pinPruningPointWindows(pruningPoint);
    const liveFloor = pruningBlueScore - BigInt(params.finalityDepth + params.mergeDepth);
    const keptForWindows = new Set<BlockId>([store.genesisId, ...windows.difficulty.map(({ id }) => id), ...windows.pastMedianTime.map(({ id }) => id)]);
    const sampleFloor = pruningBlueScore - BigInt(params.pruningDepth + params.finalityDepth);
    for (let sample = pruningPoint; sample !== store.genesisId; ) {
      const record = store.record(sample);
      if (record.ghostdag.blueScore < sampleFloor) break;
      keptForWindows.add(sample);
      sample = record.pruningSample;
    }
    const live = (record: BlockRecord) => record.ghostdag.blueScore >= liveFloor && !store.windowOnly.has(record.id);
    for (const record of store.records.values()) {
      if (live(record)) {
        keptForWindows.delete(record.id);
        if (record.id !== pruningPoint && !store.pastPruningPoint.has(record.id) && store.isDagAncestorOf(record.id, pruningPoint)) {
          store.pastPruningPoint.add(record.id);
          record.transactions = [];
          record.transactionIds = [];
          record.acceptance = undefined;
        }
      } else if (!keptForWindows.has(record.id)) {
        store.records.delete(record.id);
        store.tips.delete(record.id);
        store.pastPruningPoint.delete(record.id);
        store.windowOnly.delete(record.id);
      }
    }
    for (const id of keptForWindows) {
      const record = store.record(id);
      if (store.windowOnly.has(id)) continue;
      store.windowOnly.add(id);
      store.pastPruningPoint.add(id);
      store.tips.delete(id);
      record.transactions = [];
      record.transactionIds = [];
      record.acceptance = undefined;
    }
    for (const record of store.records.values()) {
      if (store.windowOnly.has(record.id)) {
        record.parents = [];
        record.children.length = 0;
        continue;
      }
      if (record.parents.some((parent) => !store.isLive(parent))) record.parents = record.parents.filter((parent) => store.isLive(parent));
      const children = record.children.filter((child) => store.records.has(child));
      if (children.length < record.children.length) record.children.splice(0, record.children.length, ...children);
    }
    store.rebuildReachability();
  }

  /**
   * The state a node restarts from (consensus-snapshot.ts): every stored block outside the pruning point's strict
   * future, in ascending blue work, and the pruning point's UTXO set, multiset, lanes and pinned windows. The blocks
   * of its future replay on top of it.
   */
  snapshot(): ConsensusSnapshot {
    const store = this.store;
    const pruningPoint = store.record(store.pruningPointId);
    const blocks: SnapshotBlock[] = [];
    const sorted = [...store.records.values()]
      .filter((record) => record.id === pruningPoint.id || store.windowOnly.has(record.id) || !store.isDagAncestorOf(pruningPoint.id, record.id))
      .sort(byBlueWork);
    for (const record of sorted) {
      blocks.push({
        block: { header: record.header, transactions: record.transactions },
        parents: [...record.parents],
        ghostdag: record.ghostdag,
        level: record.level,
        pruningSample: record.pruningSample,
        mergeDepthRoot: record.mergeDepthRoot,
        finalityPoint: record.finalityPoint,
        mergesetNonDaa: [...record.mergesetNonDaa],
        status: record.status,
        ...(record.disqualificationReason === undefined ? {} : { disqualificationReason: record.disqualificationReason }),
        pastPruningPoint: store.pastPruningPoint.has(record.id),
        windowOnly: store.windowOnly.has(record.id),
      });
    }
    const rollback = new UtxoDiff();
    for (let current = store.sinkId; current !== pruningPoint.id; current = store.record(current).ghostdag.selectedParent) {
      rollback.applyReversed(store.record(current).acceptance!.diff);
    }
    const utxoSet = new Map(store.sinkUtxo);
    rollback.commitTo(utxoSet);
    const acceptance = pruningPoint.acceptance!;
    return {
      pruningPoint: pruningPoint.hash,
      blocks,
      utxoSet,
      multiset: acceptance.multiset.serialize(),
      lanes: acceptance.lanes.records(),
      windows: this.difficultyManager.pinPruningPointWindows(pruningPoint.id),
    };
  }

  /** Replaces the stored state with a snapshot's; the pruning point becomes the sink. */
  restore(snapshot: ConsensusSnapshot): void {
    const store = this.store;
    const pruningPoint = blockIdOf(snapshot.pruningPoint);
    store.records.clear();
    store.tips.clear();
    for (const stored of snapshot.blocks) {
      const { header, transactions } = stored.block;
      const hash = headerHash(header);
      const id = blockIdOf(hash);
      const record: BlockRecord = {
        id,
        hash,
        header,
        transactions,
        transactionIds: transactions.map(txIdOf),
        parents: stored.parents,
        parentsByLevel: header.parentsByLevel.map((level) => level.map(blockIdOf)),
        ghostdag: stored.ghostdag,
        level: stored.level,
        work: calcWork(header.bits),
        mergesetNonDaa: new Set(stored.mergesetNonDaa),
        pruningSample: stored.pruningSample,
        mergeDepthRoot: stored.mergeDepthRoot,
        finalityPoint: stored.finalityPoint,
        children: [],
        status: stored.status,
        ...(stored.disqualificationReason === undefined ? {} : { disqualificationReason: stored.disqualificationReason }),
      };
      store.records.set(id, record);
      if (stored.pastPruningPoint) store.pastPruningPoint.add(id);
      if (stored.windowOnly) {
        store.windowOnly.add(id);
        continue;
      }
      for (const parent of record.parents) store.record(parent).children.push(id);
    }
    store.rebuildReachability();
    if (!store.records.has(store.genesisId)) throw new Error('the snapshot lacks genesis');
    for (const record of store.records.values()) {
      if (!store.windowOnly.has(record.id) && record.children.length === 0) store.tips.add(record.id);
    }
    const acceptance = store.record(pruningPoint);
    const multiset = MuHash.fromSerialized(snapshot.multiset);
    if (compareBytes(multiset.finalize(), acceptance.header.utxoCommitment) !== 0) {
      throw new Error(`the snapshot's multiset does not match the UTXO commitment of pruning point ${pruningPoint}`);
    }
    acceptance.acceptance = {
      diff: new UtxoDiff(),
      multiset,
      acceptedTransactionIds: [],
      mergesetAcceptance: [],
      rewards: new Map(),
      acceptedIdMerkleRoot: acceptance.header.acceptedIdMerkleRoot,
      lanes: LanesTree.fromRecords(snapshot.lanes),
    };
    for (const [key, entry] of snapshot.utxoSet) {
      store.sinkUtxo.set(key, entry);
      this.utxoIndex.update({ outpoint: outpointFromKey(key), entry }, true);
    }
    this.difficultyManager.restorePinnedWindows(pruningPoint, snapshot.windows);
    store.sinkId = pruningPoint;
    store.pruningPointId = pruningPoint;
  }
}
