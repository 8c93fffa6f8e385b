/**
 * The devnet node's consensus: the block DAG, GHOSTDAG, the virtual block and its UTXO state, all in memory, following
 * rusty-kaspa v2.0.1 (10 BPS, k = 124): Crescendo rules below `params.toccataActivation` (block version 1, transaction
 * version 0) and Toccata's from it (block version 2, v0 and v1 transactions, covenants, the KIP-21 seq commit as the
 * accepted-id root over persistent per-block lanes, the first parent the selected parent as a chain rule):
 * - header validation: consensus/src/pipeline/header_processor (in isolation, parent relations, pre- and post-PoW);
 * - body validation: body-validation.ts (body_processor, in isolation and in header context);
 * - chain qualification and the virtual: consensus/src/pipeline/virtual_processor (processor.rs sink search and virtual
 *   parent selection, utxo_validation.rs acceptance and the UTXO commitment / accepted-id root / coinbase checks).
 *
 * Blocks that fail header or body validation are rejected and leave every structure untouched. Blocks that pass are
 * stored; when one of them would join the selected chain but its UTXO commitment, accepted-id merkle root, coinbase,
 * pruning point or own transactions do not match its UTXO state, it is marked disqualified from the chain (kaspad's
 * StatusDisqualifiedFromChain): it stays in the DAG, can be merged, and never becomes a chain block.
 *
 * State layout: `sinkUtxo` is the UTXO set after the sink's acceptance; every chain-qualified block keeps its acceptance
 * (UTXO diff from its selected parent, multiset, accepted ids, rewards); the virtual keeps its own acceptance as a diff
 * over the sink's set. Moving the sink folds diffs (rolled back, then applied) into an overlay before touching the set,
 * so the work per block is proportional to its mergeset and the reorganisation depth, never to the DAG's size.
 *
 * Pruning: headers carry the expected pruning point of pruning.rs (`expected_header_pruning_point_v2`): a pruning
 * sample (one per finality depth of blue score) once it is pruning-depth deep. When the virtual's pruning point moves,
 * consensus drops what kaspad's pruning processor drops, keeping what the rules still read (consensus-snapshot.ts
 * lists it): blocks within finality + merge depth below it (bodies only for the pruning point and its anticone), the
 * pruning samples its successors' headers walk, the blocks of its difficulty and past-median-time windows (pinned, so
 * windows above stop there) and genesis. Blocks in its strict past answer as pruned. `snapshot()` exports that state
 * with the pruning point's UTXO set; a consensus created from it continues from the pruning point.
 * Merge depth (bounded merge) and finality are enforced as in block_depth.rs.
 * Scripts: P2PK, P2PK-ECDSA and P2SH spends run (P2SH redeem scripts other than P2PK on lib/kaspa/script-engine.ts,
 * which covers the Kasplex envelope); a spend needing an opcode the engine lacks fails.
 */
import { bytesToHex, hexToBytes, compareBytes } from '../../kaspa/bytes';
import { decodeCoinbasePayload } from '../../kaspa/coinbase';
import { BLOCK_VERSION, BLOCK_VERSION_TOCCATA, headerHash } from '../../kaspa/header';
import { MAX_SOMPI } from '../../kaspa/amount';
import { blockMassLimits, type BlockMassLimits } from '../../kaspa/mass';
import { merkleRoot } from '../../kaspa/merkle';
import { LanesTree } from '../../kaspa/lanes-tree';
import { MuHash } from '../../kaspa/muhash';
import type { SeqCommitLaneProof } from '../../kaspa/smt-proof';
import { calcWork, difficultyFromBits, type PowMatrixCache } from '../../kaspa/pow';
import type { Secp256k1Backend } from '../../kaspa/signing';
import { blockSubsidy, DEVNET_SUBSIDY_PARAMS, type SubsidyParams } from '../../kaspa/subsidy';
import { transactionHash } from '../../kaspa/transaction';
import type { Hash, Header, Outpoint, ScriptPublicKey, Transaction, UtxoEntry } from '../../kaspa/types';
import {
  calculateAcceptance,
  expectedCoinbaseTransaction,
  MultisetElementCache,
  type AcceptanceState,
  type ExpectedCoinbaseInput,
  type MergesetBlockAcceptance,
} from './acceptance';
import type { ConsensusSnapshot, SnapshotBlock } from './consensus-snapshot';
import { DifficultyManager, type DaaStore } from './difficulty';
import { TypedEmitter } from './events';
import type { Block } from './genesis';
import {
  blockIdOf,
  ORIGIN_ID,
  compareSortableBlocks,
  consensusOrderedMergeset,
  GhostdagManager,
  mergesetSize,
  type BlockId,
  type GhostdagData,
  type GhostdagStore,
} from './ghostdag';
import { isForkActive, type ConsensusParams } from './params';
import { calcBlockParents, type ParentsStore } from './parents-builder';
import { Reachability } from './reachability';
import { transactionLimits, type TransactionLimits } from './transaction-validator';
import { txHashOf, txIdOf } from './transaction-facts';
import { BlockInvalid, validateBodyInContext, validateBodyInIsolation, type ForkRules } from './body-validation';
import { validateHeaderInContext, validateHeaderInIsolation, validateParentRelations } from './header-validation';
import { seqCommitContext, seqCommitLaneProof, type SeqCommitStore } from './seq-commit-state';
import { selectTemplateTransactions } from './template-transactions';
import { ScriptVerificationCache, validateTransactionInUtxoContext } from './tx-validation';
import { outpointKey, UtxoDiff, entriesEqual, type OutpointKey, type UtxoView } from './utxo-diff';

export type { Block } from './genesis';

/** consensus/core/src/constants.rs: header version 1 before Toccata, 2 from its activation (`Params::block_version`). */
export { BLOCK_VERSION, BLOCK_VERSION_TOCCATA } from '../../kaspa/header';
/** DEVNET_PARAMS.max_block_level. */
export const DEVNET_MAX_BLOCK_LEVEL = 250;

export { ConsensusQueryError } from './seq-commit-state';

export type BlockStatus = 'utxoPendingVerification' | 'utxoValid' | 'disqualifiedFromChain';

export type InsertResult = { type: 'success' } | { type: 'reject'; reason: 'blockInvalid'; message: string };

export interface UtxoChange {
  outpoint: Outpoint;
  entry: UtxoEntry;
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

export interface ConsensusEvents {
  blockAdded: { block: Block; hash: Hash };
  virtualChainChanged: VirtualChainChange;
  virtualDaaScoreChanged: { virtualDaaScore: bigint };
  sinkBlueScoreChanged: { sinkBlueScore: bigint };
  utxosChanged: { added: UtxoChange[]; removed: UtxoChange[] };
  pruningPointMoved: { pruningPoint: Hash };
}

export interface ConsensusOptions {
  params: ConsensusParams;
  genesis: Block;
  /** Milliseconds since the Unix epoch. */
  clock: () => number;
  maxBlockLevel?: number;
  subsidyParams?: SubsidyParams;
  massLimits?: BlockMassLimits;
  transactionLimits?: TransactionLimits;
  /** Virtual-parent candidates beyond the best half are shuffled, as kaspad does; inject for reproducible runs. */
  random?: () => number;
  /** Verifies transaction signatures; lib/kaspa's reference implementation when omitted. */
  secp256k1?: Secp256k1Backend;
  /** PoW matrices by pre-PoW hash, shared with in-process miners; each header generates its own when omitted. */
  powMatrixCache?: PowMatrixCache;
  /** Continue from this pruning-point state (Consensus.snapshot) instead of from genesis alone. */
  snapshot?: ConsensusSnapshot;
  /**
   * The UTXO set genesis commits (bootstrap.ts); empty when omitted. Checked against the genesis header's
   * utxoCommitment like an imported pruning-point set. Ignored with a snapshot, which carries its own set.
   */
  genesisUtxoSet?: readonly UtxoChange[];
}

export interface BlockInfo {
  hash: Hash;
  header: Header;
  transactions: Transaction[];
  transactionIds: Hash[];
  ghostdag: GhostdagData;
  status: BlockStatus;
  isChainBlock: boolean;
  children: Hash[];
  blockLevel: number;
  /** Why the block was disqualified from the chain, when it was. */
  disqualificationReason?: string;
}

export interface TemplateRequest {
  payScriptPublicKey: ScriptPublicKey;
  extraData?: Uint8Array;
  /** Candidates in priority order; invalid or conflicting ones are left out and reported. */
  transactions?: readonly Transaction[];
  /** Build on these parents instead of the virtual's (a side branch, e.g. to force a reorganisation). */
  parents?: readonly Hash[];
}

export interface BlockTemplate {
  block: Block;
  rejectedTransactions: { transactionId: Hash; message: string }[];
}

interface BlockRecord {
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

interface BlockContext {
  parents: BlockId[];
  ghostdag: GhostdagData;
  daaScore: bigint;
  bits: number;
  pastMedianTime: bigint;
  mergesetNonDaa: ReadonlySet<BlockId>;
  pruningSample: BlockId;
  pruningPoint: BlockId;
  mergeDepthRoot: BlockId;
  finalityPoint: BlockId;
}

interface VirtualState extends BlockContext {
  acceptance: AcceptanceState;
  utxoCommitment: Hash;
}

function outpointFromKey(key: OutpointKey): Outpoint {
  const separator = key.indexOf(':');
  return { transactionId: hexToBytes(key.slice(0, separator)), index: Number(key.slice(separator + 1)) };
}

/** Ascending `(blue work, hash)`: a topological order. */
function byBlueWork(a: BlockRecord, b: BlockRecord): number {
  return compareSortableBlocks({ id: a.id, blueWork: a.ghostdag.blueWork }, { id: b.id, blueWork: b.ghostdag.blueWork });
}

function scriptKey(scriptPublicKey: ScriptPublicKey): string {
  return `${scriptPublicKey.version}:${bytesToHex(scriptPublicKey.script)}`;
}

export class Consensus implements GhostdagStore, DaaStore, ParentsStore {
  readonly events = new TypedEmitter<ConsensusEvents>();
  readonly params: ConsensusParams;
  readonly genesisId: BlockId;
  private readonly clock: () => number;
  private readonly random: () => number;
  private readonly maxBlockLevel: number;
  private readonly subsidyParams: SubsidyParams;
  private readonly massLimitsOverride: BlockMassLimits | undefined;
  private readonly transactionLimitsOverride: TransactionLimits | undefined;
  private readonly records = new Map<BlockId, BlockRecord>();
  private readonly invalid = new Set<BlockId>();
  private readonly scriptCache = new ScriptVerificationCache();
  private readonly multisetCache = new MultisetElementCache();
  private readonly secp256k1: Secp256k1Backend | undefined;
  private readonly powMatrixCache: PowMatrixCache | undefined;
  /** What modifyBlockTemplate needs of each template handed out. */
  private readonly templateBases = new WeakMap<
    BlockTemplate,
    { state: VirtualState; coinbaseBasis: Omit<ExpectedCoinbaseInput, 'minerScriptPublicKey' | 'extraData'>; selectedHashes: Hash[] }
  >();
  private readonly tips = new Set<BlockId>();
  /** Stored blocks in the strict past of the pruning point: header only, and pruned as far as callers can tell. */
  private readonly pastPruningPoint = new Set<BlockId>();
  /** Of those, the ones kept only for the pinned windows and pruning samples: outside every reachability query. */
  private readonly windowOnly = new Set<BlockId>();
  private reachability: Reachability;
  private readonly ghostdagManager: GhostdagManager;
  private readonly difficultyManager: DifficultyManager;
  private readonly sinkUtxo = new Map<OutpointKey, UtxoEntry>();
  private readonly sinkView: UtxoView = { get: (key) => this.sinkUtxo.get(key) };
  private readonly addressIndex = new Map<string, Map<OutpointKey, UtxoEntry>>();
  private circulating = 0n;
  private sinkId: BlockId;
  /** The global pruning point: the virtual's expected pruning point (genesis until the chain is pruning-depth deep). */
  private pruningPointId: BlockId;
  private virtual: VirtualState;

  constructor(options: ConsensusOptions) {
    this.params = options.params;
    this.clock = options.clock;
    this.random = options.random ?? Math.random;
    this.secp256k1 = options.secp256k1;
    this.powMatrixCache = options.powMatrixCache;
    this.maxBlockLevel = options.maxBlockLevel ?? DEVNET_MAX_BLOCK_LEVEL;
    this.subsidyParams = options.subsidyParams ?? DEVNET_SUBSIDY_PARAMS;
    this.massLimitsOverride = options.massLimits;
    this.transactionLimitsOverride = options.transactionLimits;

    const genesis = options.genesis;
    const genesisHash = headerHash(genesis.header);
    this.genesisId = blockIdOf(genesisHash);
    this.reachability = new Reachability(this.genesisId);
    this.ghostdagManager = new GhostdagManager({
      genesis: this.genesisId,
      k: this.params.ghostdagK,
      store: this,
      workOf: (block) => this.record(block).work,
    });
    this.difficultyManager = new DifficultyManager({
      params: this.params,
      genesis: { id: this.genesisId, bits: genesis.header.bits },
      store: this,
    });
    const acceptedIdMerkleRoot = genesis.header.acceptedIdMerkleRoot;
    this.records.set(this.genesisId, {
      id: this.genesisId,
      hash: genesisHash,
      header: genesis.header,
      transactions: genesis.transactions,
      transactionIds: genesis.transactions.map(txIdOf),
      parents: [],
      parentsByLevel: [],
      ghostdag: this.ghostdagManager.genesisGhostdagData(),
      level: this.maxBlockLevel,
      work: calcWork(genesis.header.bits),
      mergesetNonDaa: new Set(),
      pruningSample: this.genesisId,
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
        acceptedIdMerkleRoot,
        lanes: LanesTree.EMPTY,
      },
    });
    this.tips.add(this.genesisId);
    this.sinkId = this.genesisId;
    this.pruningPointId = this.genesisId;
    if (options.snapshot !== undefined) this.restore(options.snapshot);
    else this.importGenesisUtxoSet(genesis.header.utxoCommitment, options.genesisUtxoSet ?? []);
    this.virtual = this.computeVirtual(this.sinkId, [], new UtxoDiff());
    // The address index covers the virtual's set, so it takes in what the first virtual accepts over the sink's.
    for (const [key, entry] of this.virtual.acceptance.diff.removed) this.indexUtxo({ outpoint: outpointFromKey(key), entry }, false);
    for (const [key, entry] of this.virtual.acceptance.diff.added) this.indexUtxo({ outpoint: outpointFromKey(key), entry }, true);
  }

  /** Genesis starts from the UTXO set its header commits (virtual_processor `import_pruning_point_utxo_set`'s check). */
  private importGenesisUtxoSet(commitment: Hash, utxos: readonly UtxoChange[]): void {
    const multiset = new MuHash();
    for (const { outpoint, entry } of utxos) multiset.addUtxo(outpoint, entry);
    if (compareBytes(multiset.finalize(), commitment) !== 0) {
      throw new Error(
        `the genesis UTXO set (${utxos.length} outputs) does not match the genesis header's utxoCommitment ${bytesToHex(commitment)}`,
      );
    }
    this.record(this.genesisId).acceptance!.multiset = multiset;
    for (const change of utxos) {
      this.sinkUtxo.set(outpointKey(change.outpoint), change.entry);
      this.indexUtxo(change, true);
    }
  }

  // ---- pruning and snapshots ----

  /**
   * Drops what the new pruning point leaves behind (pruning_processor/processor.rs `prune`, with the devnet's own
   * retention, see the header comment). Runs once per pruning point move, in time proportional to what is stored.
   */
  private prune(): void {
    const pruningPoint = this.pruningPointId;
    const pruningBlueScore = this.record(pruningPoint).ghostdag.blueScore;
    const windows = this.difficultyManager.pinPruningPointWindows(pruningPoint);
    const liveFloor = pruningBlueScore - BigInt(this.params.finalityDepth + this.params.mergeDepth);
    const keptForWindows = new Set<BlockId>([this.genesisId, ...windows.difficulty.map(({ id }) => id), ...windows.pastMedianTime.map(({ id }) => id)]);
    const sampleFloor = pruningBlueScore - BigInt(this.params.pruningDepth + this.params.finalityDepth);
    for (let sample = pruningPoint; sample !== this.genesisId; ) {
      const record = this.record(sample);
      if (record.ghostdag.blueScore < sampleFloor) break;
      keptForWindows.add(sample);
      sample = record.pruningSample;
    }
    const live = (record: BlockRecord) => record.ghostdag.blueScore >= liveFloor && !this.windowOnly.has(record.id);
    for (const record of this.records.values()) {
      if (live(record)) {
        keptForWindows.delete(record.id);
        if (record.id !== pruningPoint && !this.pastPruningPoint.has(record.id) && this.isDagAncestorOf(record.id, pruningPoint)) {
          this.pastPruningPoint.add(record.id);
          record.transactions = [];
          record.transactionIds = [];
          record.acceptance = undefined;
        }
      } else if (!keptForWindows.has(record.id)) {
        this.records.delete(record.id);
        this.tips.delete(record.id);
        this.pastPruningPoint.delete(record.id);
        this.windowOnly.delete(record.id);
      }
    }
    for (const id of keptForWindows) {
      const record = this.record(id);
      if (this.windowOnly.has(id)) continue;
      this.windowOnly.add(id);
      this.pastPruningPoint.add(id);
      this.tips.delete(id);
      record.transactions = [];
      record.transactionIds = [];
      record.acceptance = undefined;
    }
    for (const record of this.records.values()) {
      if (this.windowOnly.has(record.id)) {
        record.parents = [];
        record.children.length = 0;
        continue;
      }
      if (record.parents.some((parent) => !this.isLive(parent))) record.parents = record.parents.filter((parent) => this.isLive(parent));
      const children = record.children.filter((child) => this.records.has(child));
      if (children.length < record.children.length) record.children.splice(0, record.children.length, ...children);
    }
    this.rebuildReachability();
  }

  /**
   * The reachability index over the stored blocks with reachability data, in ascending blue work (a topological
   * order); a block whose selected parent is gone hangs under ORIGIN. Paths between kept blocks never pass through a
   * pruned one (what is kept is closed upward), so every ancestry answer among them stays exact.
   */
  private rebuildReachability(): void {
    this.reachability = new Reachability(ORIGIN_ID);
    const live = [...this.records.values()]
      .filter((record) => !this.windowOnly.has(record.id))
      .sort(byBlueWork);
    for (const { id, ghostdag } of live) {
      const merged = [...ghostdag.mergesetBlues.slice(1), ...ghostdag.mergesetReds].filter((block) => this.reachability.has(block));
      this.reachability.addBlock(id, this.reachability.has(ghostdag.selectedParent) ? ghostdag.selectedParent : ORIGIN_ID, merged);
    }
  }

  /** A stored block with reachability data (not kept for windows only). */
  private isLive(block: BlockId): boolean {
    return this.records.has(block) && !this.windowOnly.has(block);
  }

  hasWindowData(block: BlockId): boolean {
    if (!this.isLive(block)) return false;
    const { mergesetBlues, mergesetReds } = this.record(block).ghostdag;
    return mergesetBlues.every((merged) => this.isLive(merged)) && mergesetReds.every((merged) => this.isLive(merged));
  }

  /** parents_builder: pruned blocks (and those kept for windows only) are never compared. */
  hasReachabilityData(block: BlockId): boolean {
    return this.isLive(block);
  }

  /**
   * The state a node restarts from (consensus-snapshot.ts): every stored block outside the pruning point's strict
   * future, in ascending blue work, and the pruning point's UTXO set, multiset, lanes and pinned windows. The blocks
   * of its future replay on top of it.
   */
  snapshot(): ConsensusSnapshot {
    const pruningPoint = this.record(this.pruningPointId);
    const blocks: SnapshotBlock[] = [];
    const sorted = [...this.records.values()]
      .filter((record) => record.id === pruningPoint.id || this.windowOnly.has(record.id) || !this.isDagAncestorOf(pruningPoint.id, record.id))
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
        pastPruningPoint: this.pastPruningPoint.has(record.id),
        windowOnly: this.windowOnly.has(record.id),
      });
    }
    const rollback = new UtxoDiff();
    for (let current = this.sinkId; current !== pruningPoint.id; current = this.record(current).ghostdag.selectedParent) {
      rollback.applyReversed(this.record(current).acceptance!.diff);
    }
    const utxoSet = new Map(this.sinkUtxo);
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

  private restore(snapshot: ConsensusSnapshot): void {
    const pruningPoint = blockIdOf(snapshot.pruningPoint);
    this.records.clear();
    this.tips.clear();
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
      this.records.set(id, record);
      if (stored.pastPruningPoint) this.pastPruningPoint.add(id);
      if (stored.windowOnly) {
        this.windowOnly.add(id);
        continue;
      }
      for (const parent of record.parents) this.record(parent).children.push(id);
    }
    this.rebuildReachability();
    if (!this.records.has(this.genesisId)) throw new Error('the snapshot lacks genesis');
    for (const record of this.records.values()) {
      if (!this.windowOnly.has(record.id) && record.children.length === 0) this.tips.add(record.id);
    }
    const acceptance = this.record(pruningPoint);
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
      this.sinkUtxo.set(key, entry);
      this.indexUtxo({ outpoint: outpointFromKey(key), entry }, true);
    }
    this.difficultyManager.restorePinnedWindows(pruningPoint, snapshot.windows);
    this.sinkId = pruningPoint;
    this.pruningPointId = pruningPoint;
  }

  // ---- stores read by GHOSTDAG, the DAA window and the parents builder ----

  private record(block: BlockId): BlockRecord {
    const record = this.records.get(block);
    if (record === undefined) throw new Error(`unknown block ${block}`);
    return record;
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

  // ---- block insertion ----

  /**
   * `trusted`: a block this node accepted before (its own log replayed after a restart). Its indirect parents were
   * checked against the pruned state of that time, which a later pruning point changes, so they are not checked again.
   * `deferVirtual`: leave the virtual where it is (a replay inserts many blocks, then calls resolveVirtualNow once;
   * the chain's UTXO states are verified then, as after any reorganisation).
   */
  validateAndInsertBlock(
    block: Block,
    options: { allowNonDaaBlocks?: boolean; trusted?: boolean; deferVirtual?: boolean } = {},
  ): InsertResult {
    const hash = headerHash(block.header);
    const id = blockIdOf(hash);
    if (this.records.has(id)) return { type: 'success' };
    if (this.invalid.has(id)) return { type: 'reject', reason: 'blockInvalid', message: `block ${id} is known to be invalid` };
    if (!options.allowNonDaaBlocks) {
      const window = BigInt(this.params.difficultyWindowSize) * BigInt(this.params.difficultySampleRate);
      const virtualDaaScore = this.virtual.daaScore;
      if (virtualDaaScore > window && block.header.daaScore < virtualDaaScore - window) {
        return {
          type: 'reject',
          reason: 'blockInvalid',
          message: `block ${id} has a DAA score ${block.header.daaScore} too far below the virtual's ${virtualDaaScore}`,
        };
      }
    }
    let record: BlockRecord;
    try {
      record = this.validateBlock(block, hash, id, options.trusted === true);
    } catch (error) {
      if (!(error instanceof BlockInvalid)) throw error;
      if (error.cacheAsInvalid) this.invalid.add(id);
      return { type: 'reject', reason: 'blockInvalid', message: error.message };
    }
    this.commitBlock(record);
    this.events.emit('blockAdded', { block, hash });
    if (options.deferVirtual !== true) this.resolveVirtual();
    return { type: 'success' };
  }

  /** Resolves the virtual after blocks inserted with `deferVirtual`. */
  resolveVirtualNow(): void {
    this.resolveVirtual();
  }

  private validateBlock(block: Block, hash: Hash, id: BlockId, trusted: boolean): BlockRecord {
    const { header } = block;
    const level = validateHeaderInIsolation(header, {
      now: this.clock(),
      timestampDeviationTolerance: this.params.timestampDeviationTolerance,
      maxBlockParents: this.params.maxBlockParents,
      maxBlockLevel: this.maxBlockLevel,
      powMatrixCache: this.powMatrixCache,
    });
    const parents = header.parentsByLevel[0]!.map(blockIdOf);
    validateParentRelations(parents, {
      has: (block) => this.isLive(block),
      isInvalid: (block) => this.invalid.has(block),
      isDagAncestorOf: (ancestor, block) => this.isDagAncestorOf(ancestor, block),
    });
    const ghostdag = this.ghostdagManager.ghostdag(parents);
    const context = this.contextFor(parents, ghostdag);
    validateHeaderInContext(header, parents, {
      ...context,
      pruningPoint: this.pruningPointId,
      isDagAncestorOf: (ancestor, block) => this.isDagAncestorOf(ancestor, block),
      expectedVersion: this.blockVersionAt(header.daaScore),
      mergesetSizeLimit: this.params.mergesetSizeLimit,
      violatesMergeDepth: () => this.mergeDepthViolators(ghostdag, context.mergeDepthRoot).length > 0,
      expectedParents: () =>
        trusted
          ? header.parentsByLevel.map((level) => level.map(blockIdOf))
          : calcBlockParents(this, this.genesisId, this.maxBlockLevel, this.pruningPointId, parents),
    });
    const rules = this.rulesAt(header.daaScore);
    const transactionIds = validateBodyInIsolation(block, rules);
    validateBodyInContext(block, {
      ghostdagK: this.params.ghostdagK,
      pastMedianTime: context.pastMedianTime,
      subsidy: blockSubsidy(header.daaScore, this.subsidyParams),
      rules,
    });
    return {
      id,
      hash,
      header,
      transactions: block.transactions,
      transactionIds,
      parents,
      parentsByLevel: header.parentsByLevel.map((level) => level.map(blockIdOf)),
      ghostdag,
      level,
      work: calcWork(header.bits),
      mergesetNonDaa: context.mergesetNonDaa,
      pruningSample: context.pruningSample,
      mergeDepthRoot: context.mergeDepthRoot,
      finalityPoint: context.finalityPoint,
      children: [],
      status: 'utxoPendingVerification',
    };
  }

  /** The DAA score, bits, past median time and pruning data of a block with these parents and GHOSTDAG data. */
  private contextFor(parents: BlockId[], ghostdag: GhostdagData): BlockContext {
    const daaWindow = this.difficultyManager.blockDaaWindow(ghostdag);
    const { pruningSample, pruningPoint } = this.expectedPruningPoint(ghostdag);
    const selectedParent = this.record(ghostdag.selectedParent);
    return {
      mergeDepthRoot: this.blockAtDepth(ghostdag, this.params.mergeDepth, selectedParent.mergeDepthRoot),
      finalityPoint: this.blockAtDepth(ghostdag, this.params.finalityDepth, selectedParent.finalityPoint),
      parents,
      ghostdag,
      daaScore: daaWindow.daaScore,
      bits: this.difficultyManager.calculateDifficultyBits(ghostdag, daaWindow.window),
      pastMedianTime: this.difficultyManager.pastMedianTime(ghostdag),
      mergesetNonDaa: daaWindow.mergesetNonDaa,
      pruningSample,
      pruningPoint,
    };
  }

  /**
   * consensus/src/processes/block_depth.rs `calculate_block_at_depth`: the highest selected-chain block whose blue score
   * is below `blue score − depth`, found by walking up from the selected parent's point; genesis while the chain is
   * shallower than `depth`. kaspad starts the walk at the pruning point when the selected parent has no point (and
   * answers ORIGIN when the pruning point is less than `depth` deep), which for every block it validates (pruning
   * depth above its pruning point) gives this same exact block. A node replaying its log above a snapshot validates
   * blocks that close to the pruning point, so the walk never consults it: the answer stays the one given when the
   * block was first accepted. ORIGIN (no constraint) only when the selected parent's point is pruned.
   */
  private blockAtDepth(ghostdag: GhostdagData, depth: number, selectedParentPoint: BlockId): BlockId {
    const blueScore = ghostdag.blueScore;
    if (blueScore < BigInt(depth)) return this.genesisId;
    if (!this.isLive(selectedParentPoint)) return ORIGIN_ID;
    const required = blueScore - BigInt(depth);
    let current = selectedParentPoint;
    let next: BlockId | undefined = current;
    while (next !== undefined && this.record(next).ghostdag.blueScore < required) {
      current = next;
      next = this.chainChildToward(current, ghostdag.selectedParent);
    }
    return current;
  }

  /** The child of chain block `block` on the selected chain of `tip`, if `block` is below `tip`. */
  private chainChildToward(block: BlockId, tip: BlockId): BlockId | undefined {
    if (block === tip) return undefined;
    return this.record(block).children.find(
      (child) => this.record(child).ghostdag.selectedParent === block && this.isChainAncestorOf(child, tip),
    );
  }

  /** `check_bounded_merge_depth`: reds outside the merge depth root's future must be in the past of a kosherizing blue. */
  private mergeDepthViolators(ghostdag: GhostdagData, mergeDepthRoot: BlockId): BlockId[] {
    if (mergeDepthRoot === ORIGIN_ID) return [];
    const violating = ghostdag.mergesetReds.filter((red) => !this.isDagAncestorOf(mergeDepthRoot, red));
    if (violating.length === 0) return [];
    const kosherizing = ghostdag.mergesetBlues.filter((blue) => this.isChainAncestorOf(mergeDepthRoot, blue));
    return violating.filter((red) => !kosherizing.some((blue) => this.isDagAncestorOf(red, blue)));
  }

  /** consensus/src/processes/pruning.rs `expected_header_pruning_point_v2`. */
  private expectedPruningPoint(ghostdag: GhostdagData): { pruningSample: BlockId; pruningPoint: BlockId } {
    const finalityDepth = BigInt(this.params.finalityDepth);
    const pruningDepth = BigInt(this.params.pruningDepth);
    const steps = Math.ceil(this.params.pruningDepth / this.params.finalityDepth);
    const isPruningSample = (blueScore: bigint, ancestorBlueScore: bigint) =>
      ancestorBlueScore / finalityDepth < blueScore / finalityDepth;
    const selectedParent = this.record(ghostdag.selectedParent);
    const selectedParentBlueScore = selectedParent.ghostdag.blueScore;
    let pruningSample: BlockId;
    if (selectedParent.id === this.genesisId) {
      pruningSample = this.genesisId;
    } else {
      const parentSample = selectedParent.pruningSample;
      pruningSample = isPruningSample(selectedParentBlueScore, this.record(parentSample).ghostdag.blueScore)
        ? selectedParent.id
        : parentSample;
    }
    const isSelfSample = isPruningSample(ghostdag.blueScore, selectedParentBlueScore);
    const selectedParentPruningPoint = blockIdOf(selectedParent.header.pruningPoint);
    let current = pruningSample;
    for (let step = 1; ; step++) {
      if (current === this.genesisId) break;
      const currentRecord = this.record(current);
      if (currentRecord.ghostdag.blueScore + pruningDepth <= ghostdag.blueScore) break;
      if (isSelfSample && step === steps) break;
      if (current === selectedParentPruningPoint) break;
      current = currentRecord.pruningSample;
    }
    return { pruningSample, pruningPoint: current };
  }

  private commitBlock(record: BlockRecord): void {
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

  // ---- the virtual ----

  private isChainAncestorOf(ancestor: BlockId, block: BlockId): boolean {
    return this.reachability.isChainAncestorOf(ancestor, block);
  }

  /** Chain blocks from `to` down to, not including, `from` (a chain ancestor of `to`), in ascending order. */
  private forwardChain(from: BlockId, to: BlockId): BlockId[] {
    const chain: BlockId[] = [];
    for (let current = to; current !== from; current = this.record(current).ghostdag.selectedParent) chain.push(current);
    return chain.reverse();
  }

  /**
   * `calculate_utxo_state_relatively`: moves `overlay` (a diff over the sink's set, currently describing the state of
   * `from`) to the state of `to`, verifying chain blocks on the way. Returns the last UTXO-valid block reached: `to`
   * itself unless a block on its chain is disqualified.
   */
  private moveOverlay(overlay: UtxoDiff, from: BlockId, to: BlockId): BlockId {
    if (this.record(to).status === 'disqualifiedFromChain') return from;
    let splitPoint = from;
    while (!this.isChainAncestorOf(splitPoint, to)) {
      overlay.applyReversed(this.record(splitPoint).acceptance!.diff);
      splitPoint = this.record(splitPoint).ghostdag.selectedParent;
    }
    let diffPoint = splitPoint;
    for (const current of this.forwardChain(splitPoint, to)) {
      const record = this.record(current);
      if (record.ghostdag.selectedParent !== diffPoint) {
        if (record.status !== 'disqualifiedFromChain') {
          record.status = 'disqualifiedFromChain';
          record.disqualificationReason = 'its selected parent is disqualified from the chain';
        }
        continue;
      }
      if (record.status === 'disqualifiedFromChain') continue;
      if (record.acceptance === undefined) {
        const parentView = overlay.over(this.sinkView);
        const acceptance = this.reusableVirtualAcceptance(record, diffPoint) ?? this.acceptanceOf(record.ghostdag, record.header.daaScore, parentView);
        const error = this.utxoStateError(record, acceptance, parentView);
        if (error !== undefined) {
          record.status = 'disqualifiedFromChain';
          record.disqualificationReason = error;
          continue;
        }
        record.acceptance = acceptance;
        record.status = 'utxoValid';
      }
      overlay.applyDiff(record.acceptance.diff);
      diffPoint = current;
    }
    return diffPoint;
  }

  /**
   * A block mined from the current virtual's template has the virtual's parents, hence its GHOSTDAG data, DAA score
   * and selected-parent state: the acceptance already computed for the virtual is its own.
   */
  private reusableVirtualAcceptance(record: BlockRecord, selectedParentState: BlockId): AcceptanceState | undefined {
    const virtual = this.virtual;
    if (selectedParentState !== this.sinkId || record.ghostdag.selectedParent !== this.sinkId) return undefined;
    if (record.header.daaScore !== virtual.daaScore || record.parents.length !== virtual.parents.length) return undefined;
    const parents = new Set(virtual.parents);
    return record.parents.every((parent) => parents.has(parent)) ? virtual.acceptance : undefined;
  }

  private acceptanceOf(ghostdag: GhostdagData, povDaaScore: bigint, selectedParentView: UtxoView): AcceptanceState {
    const selectedParent = this.record(ghostdag.selectedParent);
    const orderedMergeset = consensusOrderedMergeset(ghostdag, this);
    return calculateAcceptance({
      orderedMergeset,
      transactionsOf: (block) => this.record(block).transactions,
      transactionIdsOf: (block) => this.record(block).transactionIds,
      selectedParentMultiset: selectedParent.acceptance!.multiset,
      selectedParentAcceptedIdMerkleRoot: selectedParent.header.acceptedIdMerkleRoot,
      selectedParentView,
      povDaaScore,
      coinbaseMaturity: BigInt(this.params.coinbaseMaturity),
      scriptCache: this.scriptCache,
      secp256k1: this.secp256k1,
      multisetCache: this.multisetCache,
      toccataActiveFor: (block) => this.toccataActiveAt(this.record(block).header.daaScore),
      seqCommit: this.toccataActiveAt(povDaaScore) ? seqCommitContext(ghostdag, povDaaScore, orderedMergeset, this.seqCommitStore) : undefined,
    });
  }

  /** `verify_expected_utxo_state`. */
  private utxoStateError(record: BlockRecord, acceptance: AcceptanceState, parentView: UtxoView): string | undefined {
    const { header } = record;
    const commitment = acceptance.multiset.finalize();
    if (compareBytes(commitment, header.utxoCommitment) !== 0) {
      return `bad UTXO commitment: header has ${bytesToHex(header.utxoCommitment)}, expected ${bytesToHex(commitment)}`;
    }
    if (compareBytes(acceptance.acceptedIdMerkleRoot, header.acceptedIdMerkleRoot) !== 0) {
      return `bad accepted id merkle root: expected ${bytesToHex(acceptance.acceptedIdMerkleRoot)}`;
    }
    const payload = decodeCoinbasePayload(record.transactions[0]!.payload);
    const expectedCoinbase = expectedCoinbaseTransaction({
      toccataActive: this.toccataActiveAt(header.daaScore),
      ghostdag: record.ghostdag,
      daaScore: header.daaScore,
      subsidy: blockSubsidy(header.daaScore, this.subsidyParams),
      rewards: acceptance.rewards,
      mergesetNonDaa: record.mergesetNonDaa,
      minerScriptPublicKey: payload.scriptPublicKey,
      extraData: payload.extraData,
    });
    if (compareBytes(transactionHash(expectedCoinbase), txHashOf(record.transactions[0]!)) !== 0) {
      return 'bad coinbase transaction';
    }
    const expectedPruningPoint = this.expectedPruningPoint(record.ghostdag).pruningPoint;
    if (blockIdOf(header.pruningPoint) !== expectedPruningPoint) {
      return `wrong header pruning point: expected ${expectedPruningPoint}`;
    }
    // Toccata's chain-qualification rule: the first direct parent is the selected parent.
    const firstParent = record.parents[0]!;
    if (this.toccataActiveAt(header.daaScore) && firstParent !== record.ghostdag.selectedParent) {
      return `block ${record.id} first direct parent is ${firstParent} but selected parent is ${record.ghostdag.selectedParent}`;
    }
    const view = acceptance.diff.over(parentView);
    for (const [index, tx] of record.transactions.entries()) {
      if (index === 0) continue;
      const result = validateTransactionInUtxoContext(tx, view, header.daaScore, {
        coinbaseMaturity: BigInt(this.params.coinbaseMaturity),
        checkScripts: true,
        scriptCache: this.scriptCache,
        secp256k1: this.secp256k1,
        transactionHash: txHashOf(tx),
        toccata: this.toccataActiveAt(header.daaScore),
      });
      if (!result.ok) return `transaction ${bytesToHex(record.transactionIds[index]!)} is invalid in its UTXO context: ${result.message}`;
    }
    return undefined;
  }

  /** `sink_search_algorithm`: the highest-blue-work tip whose chain is UTXO-valid, and the remaining candidates. */
  private findSink(overlay: UtxoDiff): { sink: BlockId; candidates: BlockId[] } {
    const sortable = (id: BlockId) => ({ id, blueWork: this.record(id).ghostdag.blueWork });
    const heap = [...this.tips].map(sortable);
    const finalityPoint = this.virtualFinalityPoint();
    let diffPoint = this.sinkId;
    for (;;) {
      heap.sort((a, b) => compareSortableBlocks(b, a));
      const candidate = heap.shift();
      if (candidate === undefined) throw new Error('a valid sink must exist');
      // Candidates off the finality point's chain violate finality and never become the sink.
      if (this.isChainAncestorOf(finalityPoint, candidate.id)) {
        diffPoint = this.moveOverlay(overlay, diffPoint, candidate.id);
        if (diffPoint === candidate.id) {
          const root = this.record(candidate.id).mergeDepthRoot;
          const filteringBlueWork = root === ORIGIN_ID ? 0n : this.record(root).ghostdag.blueWork;
          const candidates = heap.filter((block) => block.blueWork >= filteringBlueWork).map((block) => block.id);
          return { sink: candidate.id, candidates };
        }
      }
      for (const parent of this.record(candidate.id).parents) {
        if (!this.isDagAncestorOf(finalityPoint, parent)) continue;
        if (!heap.some((block) => this.isDagAncestorOf(parent, block.id))) heap.push(sortable(parent));
      }
    }
  }

  /** `virtual_finality_point`: the previous virtual's finality point, or the pruning point when that is not above it. */
  private virtualFinalityPoint(): BlockId {
    const { finalityPoint } = this.virtual;
    const pruningPoint = this.pruningPointId;
    return finalityPoint !== ORIGIN_ID && this.isChainAncestorOf(pruningPoint, finalityPoint) ? finalityPoint : pruningPoint;
  }

  /** `pick_virtual_parents`, ending with `remove_bounded_merge_breaking_parents`. */
  private pickVirtualParents(sink: BlockId, candidateList: BlockId[]): { parents: BlockId[]; ghostdag: GhostdagData } {
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
      if (candidates.some((other) => this.isDagAncestorOf(other, replacement))) continue;
      const kept = candidates.filter((other) => !this.isDagAncestorOf(replacement, other));
      candidates.splice(0, candidates.length, ...kept, replacement);
    }
    const ghostdag = this.ghostdagManager.ghostdag(parents);
    const root = this.blockAtDepth(ghostdag, this.params.mergeDepth, this.record(sink).mergeDepthRoot);
    const badReds = this.mergeDepthViolators(ghostdag, root);
    if (badReds.length === 0) return { parents, ghostdag };
    const kept = parents.filter((parent) => !badReds.some((red) => this.isDagAncestorOf(red, parent)));
    return { parents: kept, ghostdag: this.ghostdagManager.ghostdag(kept) };
  }

  private mergesetIncrease(
    selected: readonly BlockId[],
    candidate: BlockId,
    budget: number,
  ): { accepted: true; size: number } | { accepted: false; newCandidate: BlockId } {
    const queue = [...this.record(candidate).parents];
    const visited = new Set(queue);
    let increase = 1;
    for (let next = 0; next < queue.length; next++) {
      const current = queue[next]!;
      if (selected.some((block) => this.isDagAncestorOf(current, block))) continue;
      increase += 1;
      if (increase > budget) return { accepted: false, newCandidate: current };
      for (const parent of this.record(current).parents) {
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
    const context = this.contextFor(parents, ghostdag);
    const acceptance = this.acceptanceOf(ghostdag, context.daaScore, overlay.over(this.sinkView));
    return { ...context, acceptance, utxoCommitment: acceptance.multiset.finalize() };
  }

  private resolveVirtual(): void {
    const previousSink = this.sinkId;
    const previousVirtual = this.virtual;
    const overlay = new UtxoDiff();
    const { sink, candidates } = this.findSink(overlay);
    const virtual = this.computeVirtual(sink, candidates, overlay);

    const touched = new Set([...previousVirtual.acceptance.diff.keys(), ...overlay.keys(), ...virtual.acceptance.diff.keys()]);
    const newView = virtual.acceptance.diff.over(overlay.over(this.sinkView));
    const added: UtxoChange[] = [];
    const removed: UtxoChange[] = [];
    for (const key of touched) {
      const before = previousVirtual.acceptance.diff.getFrom(this.sinkView, key);
      const after = newView.get(key);
      if (before !== undefined && after !== undefined && entriesEqual(before, after)) continue;
      if (before !== undefined) removed.push({ outpoint: outpointFromKey(key), entry: before });
      if (after !== undefined) added.push({ outpoint: outpointFromKey(key), entry: after });
    }
    overlay.commitTo(this.sinkUtxo);
    this.sinkId = sink;
    this.virtual = virtual;
    // Only forward: right after a restart the virtual sits just above the snapshot's pruning point and expects an older one.
    const pruningPointMoved =
      virtual.pruningPoint !== this.pruningPointId &&
      this.record(virtual.pruningPoint).ghostdag.blueScore > this.record(this.pruningPointId).ghostdag.blueScore;
    if (pruningPointMoved) this.pruningPointId = virtual.pruningPoint;
    for (const change of removed) this.indexUtxo(change, false);
    for (const change of added) this.indexUtxo(change, true);

    if (sink !== previousSink) this.events.emit('virtualChainChanged', this.chainChange(previousSink, sink, true));
    if (added.length > 0 || removed.length > 0) this.events.emit('utxosChanged', { added, removed });
    const previousBlueScore = this.record(previousSink).ghostdag.blueScore;
    const sinkBlueScore = this.record(sink).ghostdag.blueScore;
    if (sinkBlueScore !== previousBlueScore) this.events.emit('sinkBlueScoreChanged', { sinkBlueScore });
    if (virtual.daaScore !== previousVirtual.daaScore) {
      this.events.emit('virtualDaaScoreChanged', { virtualDaaScore: virtual.daaScore });
    }
    // After the events above: the chain they describe may reach below the new pruning point (a deferred replay).
    if (pruningPointMoved) {
      this.prune();
      this.events.emit('pruningPointMoved', { pruningPoint: this.record(this.pruningPointId).hash });
    }
  }

  private indexUtxo(change: UtxoChange, add: boolean): void {
    const key = scriptKey(change.entry.scriptPublicKey);
    const outpoint = outpointKey(change.outpoint);
    let entries = this.addressIndex.get(key);
    if (add) {
      if (entries === undefined) this.addressIndex.set(key, (entries = new Map()));
      entries.set(outpoint, change.entry);
      this.circulating += change.entry.amount;
      return;
    }
    entries?.delete(outpoint);
    if (entries?.size === 0) this.addressIndex.delete(key);
    this.circulating -= change.entry.amount;
  }

  /** Removed chain blocks from `from` down to the common chain ancestor, then added ones up to `to`. */
  private chainChange(from: BlockId, to: BlockId, includeAcceptedTransactionIds: boolean): VirtualChainChange {
    const removed: BlockId[] = [];
    let common = from;
    while (!this.isChainAncestorOf(common, to)) {
      removed.push(common);
      common = this.record(common).ghostdag.selectedParent;
    }
    const added = this.forwardChain(common, to);
    return {
      removedChainBlockHashes: removed.map((id) => this.record(id).hash),
      addedChainBlockHashes: added.map((id) => this.record(id).hash),
      acceptedTransactionIds: includeAcceptedTransactionIds
        ? added.map((id) => {
            const record = this.record(id);
            return {
              acceptingBlockHash: record.hash,
              acceptedTransactionIds: [...record.acceptance!.acceptedTransactionIds],
            };
          })
        : [],
    };
  }

  private seqCommitStoreCache: SeqCommitStore | undefined;

  private get seqCommitStore(): SeqCommitStore {
    this.seqCommitStoreCache ??= {
      record: (id) => this.record(id),
      genesisId: this.genesisId,
      finalityDepth: this.params.finalityDepth,
      toccataActiveAt: (daaScore) => this.toccataActiveAt(daaScore),
      finalityPointOf: (ghostdag) =>
        this.blockAtDepth(ghostdag, this.params.finalityDepth, this.record(ghostdag.selectedParent).finalityPoint),
    };
    return this.seqCommitStoreCache;
  }

  private toccataActiveAt(daaScore: bigint): boolean {
    return isForkActive(this.params.toccataActivation, daaScore);
  }

  private blockVersionAt(daaScore: bigint): number {
    return this.toccataActiveAt(daaScore) ? BLOCK_VERSION_TOCCATA : BLOCK_VERSION;
  }

  /** The transaction and block limits in force at a DAA score (the options' overrides, else the fork's). */
  private rulesAt(daaScore: bigint): ForkRules {
    const toccata = this.toccataActiveAt(daaScore);
    return {
      toccata,
      transactionLimits: this.transactionLimitsOverride ?? transactionLimits(toccata),
      massLimits: this.massLimitsOverride ?? blockMassLimits(toccata),
      isolation: { toccata, ghostdagK: this.params.ghostdagK },
    };
  }

  // ---- block templates ----

  /** The virtual's header fields and transactions; solving the nonce yields a block this node accepts. */
  buildBlockTemplate(request: TemplateRequest): BlockTemplate {
    const { state, overlay } =
      request.parents === undefined
        ? { state: this.virtual, overlay: new UtxoDiff() }
        : this.sideBranchState(request.parents.map(blockIdOf));
    const view = state.acceptance.diff.over(overlay.over(this.sinkView));

    const { selected, selectedHashes, rejectedTransactions } = selectTemplateTransactions(request.transactions ?? [], {
      daaScore: state.daaScore,
      pastMedianTime: state.pastMedianTime,
      view,
      rules: this.rulesAt(state.daaScore),
      utxoOptions: { coinbaseMaturity: BigInt(this.params.coinbaseMaturity), scriptCache: this.scriptCache, secp256k1: this.secp256k1 },
    });

    const coinbaseBasis = {
      toccataActive: this.toccataActiveAt(state.daaScore),
      ghostdag: state.ghostdag,
      daaScore: state.daaScore,
      subsidy: blockSubsidy(state.daaScore, this.subsidyParams),
      rewards: state.acceptance.rewards,
      mergesetNonDaa: state.mergesetNonDaa,
    };
    const coinbase = expectedCoinbaseTransaction({
      ...coinbaseBasis,
      minerScriptPublicKey: request.payScriptPublicKey,
      extraData: request.extraData ?? new Uint8Array(0),
    });
    const transactions = [coinbase, ...selected];
    const header: Header = {
      version: this.blockVersionAt(state.daaScore),
      parentsByLevel: calcBlockParents(this, this.genesisId, this.maxBlockLevel, this.pruningPointId, state.parents).map((level) =>
        level.map(hexToBytes),
      ),
      hashMerkleRoot: merkleRoot([txHashOf(coinbase), ...selectedHashes]),
      acceptedIdMerkleRoot: state.acceptance.acceptedIdMerkleRoot,
      utxoCommitment: state.utxoCommitment,
      timestamp: this.templateTimestamp(state.pastMedianTime + 1n),
      bits: state.bits,
      nonce: 0n,
      daaScore: state.daaScore,
      blueScore: state.ghostdag.blueScore,
      blueWork: state.ghostdag.blueWork,
      pruningPoint: this.record(state.pruningPoint).hash,
    };
    const template = { block: { header, transactions }, rejectedTransactions };
    this.templateBases.set(template, { state, coinbaseBasis, selectedHashes });
    return template;
  }

  /** The later of `earliest` and now. */
  private templateTimestamp(earliest: bigint): bigint {
    const now = BigInt(this.clock());
    return earliest > now ? earliest : now;
  }

  /** Whether `template` (from buildBlockTemplate on the virtual) still builds on the current virtual state. */
  isTemplateCurrent(template: BlockTemplate): boolean {
    return this.templateBases.get(template)?.state === this.virtual;
  }

  /**
   * mining/src/block_template/builder.rs `modify_block_template`: the same template for other miner data, with only
   * the coinbase (and so the hash merkle root) replaced and the timestamp moved up to now. Equal to what
   * buildBlockTemplate would give for that miner data on the same state and transactions.
   */
  modifyBlockTemplate(template: BlockTemplate, miner: { payScriptPublicKey: ScriptPublicKey; extraData?: Uint8Array }): BlockTemplate {
    const basis = this.templateBases.get(template);
    if (basis === undefined) throw new Error('not a template built by this consensus');
    const coinbase = expectedCoinbaseTransaction({
      ...basis.coinbaseBasis,
      minerScriptPublicKey: miner.payScriptPublicKey,
      extraData: miner.extraData ?? new Uint8Array(0),
    });
    const { header, transactions } = template.block;
    const modified = {
      block: {
        header: {
          ...header,
          hashMerkleRoot: merkleRoot([txHashOf(coinbase), ...basis.selectedHashes]),
          timestamp: this.templateTimestamp(header.timestamp),
        },
        transactions: [coinbase, ...transactions.slice(1)],
      },
      rejectedTransactions: template.rejectedTransactions,
    };
    this.templateBases.set(modified, basis);
    return modified;
  }

  /** The virtual-like state of a block with the given parents (the selected parent must be chain-qualifiable). */
  private sideBranchState(parentIds: BlockId[]): { state: VirtualState; overlay: UtxoDiff } {
    for (const parent of parentIds) this.record(parent);
    const ghostdag = this.ghostdagManager.ghostdag(parentIds);
    const parents = [ghostdag.selectedParent, ...parentIds.filter((id) => id !== ghostdag.selectedParent)];
    const context = this.contextFor(parents, ghostdag);
    const overlay = new UtxoDiff();
    if (this.moveOverlay(overlay, this.sinkId, ghostdag.selectedParent) !== ghostdag.selectedParent) {
      throw new Error(`block ${ghostdag.selectedParent} is disqualified from the chain and cannot be built on`);
    }
    const acceptance = this.acceptanceOf(ghostdag, context.daaScore, overlay.over(this.sinkView));
    return { state: { ...context, acceptance, utxoCommitment: acceptance.multiset.finalize() }, overlay };
  }

  // ---- queries ----

  /**
   * Records that `tx`'s scripts verified (e.g. by the mempool), so templates and blocks carrying it skip the signature
   * checks: script validity depends only on the transaction and the outputs it spends. Verification dominates the cost
   * of a transaction (several milliseconds per Schnorr signature in pure JavaScript).
   */
  markScriptsVerified(tx: Transaction): void {
    this.scriptCache.add(bytesToHex(txHashOf(tx)));
  }

  /** The UTXO entry of an outpoint in the virtual state (what the mempool spends from). */
  getUtxo(outpoint: Outpoint): UtxoEntry | undefined {
    return this.virtual.acceptance.diff.getFrom(this.sinkView, outpointKey(outpoint));
  }

  virtualDaaScore(): bigint {
    return this.virtual.daaScore;
  }

  virtualBlueScore(): bigint {
    return this.virtual.ghostdag.blueScore;
  }

  virtualParents(): Hash[] {
    return this.virtual.parents.map((id) => this.record(id).hash);
  }

  virtualBits(): number {
    return this.virtual.bits;
  }

  /** The RPC `difficulty`: (2^255 − 1) / target of the virtual's bits. */
  difficulty(): number {
    return difficultyFromBits(this.virtual.bits);
  }

  pastMedianTime(): bigint {
    return this.virtual.pastMedianTime;
  }

  /** The mempool's VirtualUtxoView name for the virtual's past median time. */
  virtualPastMedianTime(): bigint {
    return this.virtual.pastMedianTime;
  }

  sink(): Hash {
    return this.record(this.sinkId).hash;
  }

  sinkBlueScore(): bigint {
    return this.record(this.sinkId).ghostdag.blueScore;
  }

  sinkTimestamp(): bigint {
    return this.record(this.sinkId).header.timestamp;
  }

  pruningPoint(): Hash {
    return this.record(this.pruningPointId).hash;
  }

  genesisHash(): Hash {
    return this.record(this.genesisId).hash;
  }

  getTips(): Hash[] {
    return [...this.tips].map((id) => this.record(id).hash);
  }

  /** Blocks and headers are stored together, so both counts are equal; pruned blocks do not count. */
  blockCount(): number {
    return this.records.size - this.pastPruningPoint.size;
  }

  /** False for pruned blocks, as kaspad's stores answer once the pruning processor removed them. */
  hasBlock(hash: Hash): boolean {
    return this.unprunedRecord(blockIdOf(hash)) !== undefined;
  }

  private unprunedRecord(id: BlockId): BlockRecord | undefined {
    return this.pastPruningPoint.has(id) ? undefined : this.records.get(id);
  }

  isChainBlock(hash: Hash): boolean {
    const id = blockIdOf(hash);
    return this.unprunedRecord(id) !== undefined && this.isChainAncestorOf(id, this.sinkId);
  }

  getBlock(hash: Hash): BlockInfo | undefined {
    const record = this.unprunedRecord(blockIdOf(hash));
    if (record === undefined) return undefined;
    return {
      hash: record.hash,
      header: record.header,
      transactions: record.transactions,
      transactionIds: record.transactionIds,
      ghostdag: record.ghostdag,
      status: record.status,
      isChainBlock: this.isChainAncestorOf(record.id, this.sinkId),
      children: record.children.map((id) => this.record(id).hash),
      blockLevel: record.level,
      disqualificationReason: record.disqualificationReason,
    };
  }

  /**
   * `get_seq_commit_lane_proof` for a selected-chain block under Toccata (seq-commit-state.ts); throws
   * ConsensusQueryError with kaspad's text for a block it cannot prove.
   */
  seqCommitLaneProof(blockHash: Hash, laneKey: Hash): SeqCommitLaneProof {
    return seqCommitLaneProof(blockHash, laneKey, {
      find: (id) => this.records.get(id),
      genesisId: this.genesisId,
      sinkId: this.sinkId,
      pruningPointId: this.pruningPointId,
      isChainAncestorOf: (ancestor, block) => this.isChainAncestorOf(ancestor, block),
      toccataActiveAt: (daaScore) => this.toccataActiveAt(daaScore),
    });
  }

  /** Acceptance data of a chain-qualified block: for each merged block, the transactions it accepted from it. */
  getAcceptanceData(hash: Hash): MergesetBlockAcceptance[] | undefined {
    return this.unprunedRecord(blockIdOf(hash))?.acceptance?.mergesetAcceptance;
  }

  /** The entries a chain-qualified block's acceptance spent from its selected parent's UTXO state (its diff's removals). */
  getAcceptanceSpentEntries(hash: Hash): ReadonlyMap<OutpointKey, UtxoEntry> | undefined {
    return this.unprunedRecord(blockIdOf(hash))?.acceptance?.diff.removed;
  }

  /**
   * rpc/service get_blocks_call over consensus `get_hashes_between` (sync/mod.rs `antipast_hashes_between`): `low`,
   * then each chain block's mergeset in consensus order from the common chain ancestor up to the sink (blocks in
   * past(low) left out), the sink, then the sink's anticone as seen from the virtual's parents. Without `low`, or
   * from genesis once it is pruned, the walk starts at the pruning point, the oldest block a pruned node can list.
   */
  getBlocks(lowHash?: Hash): Hash[] {
    const requested = lowHash === undefined ? this.genesisId : blockIdOf(lowHash);
    const low = requested === this.genesisId && this.pastPruningPoint.has(requested) ? this.pruningPointId : requested;
    if (this.unprunedRecord(low) === undefined) throw new Error(`unknown block ${low}`);
    const maxBlocks = this.params.mergesetSizeLimit + 1;
    let common = low;
    while (!this.isChainAncestorOf(common, this.sinkId)) common = this.record(common).ghostdag.selectedParent;
    const between: BlockId[] = [];
    let highestReached = common;
    for (const current of this.forwardChain(common, this.sinkId)) {
      const ghostdag = this.record(current).ghostdag;
      if (between.length + mergesetSize(ghostdag) > maxBlocks) break;
      for (const block of consensusOrderedMergeset(ghostdag, this)) {
        if (!this.isDagAncestorOf(block, low)) between.push(block);
      }
      highestReached = current;
    }
    if (highestReached !== common) between.push(highestReached);
    const anticone = highestReached === this.sinkId ? this.anticone(this.sinkId) : [];
    return [low, ...between, ...anticone].map((id) => this.record(id).hash);
  }

  /** traversal_manager.rs `anticone`: a breadth-first walk down from the virtual's parents, skipping past(block). */
  private anticone(block: BlockId): BlockId[] {
    const queue = [...this.virtual.parents];
    const visited = new Set(queue);
    const output: BlockId[] = [];
    for (let next = 0; next < queue.length; next++) {
      const current = queue[next]!;
      if (this.isDagAncestorOf(current, block)) continue;
      if (!this.isDagAncestorOf(block, current)) output.push(current);
      for (const parent of this.record(current).parents) {
        if (!visited.has(parent)) {
          visited.add(parent);
          queue.push(parent);
        }
      }
    }
    return output;
  }

  /** kaspad's GetVirtualChainFromBlock: chain blocks removed since `startHash` and those added up to the sink. */
  getVirtualChainFromBlock(startHash: Hash, includeAcceptedTransactionIds: boolean): VirtualChainChange {
    const start = blockIdOf(startHash);
    this.record(start);
    return this.chainChange(start, this.sinkId, includeAcceptedTransactionIds);
  }

  /** kaspad's utxoindex: the virtual UTXO entries paying to this script public key. */
  getUtxosByScriptPublicKey(scriptPublicKey: ScriptPublicKey): UtxoChange[] {
    const entries = this.addressIndex.get(scriptKey(scriptPublicKey));
    if (entries === undefined) return [];
    return [...entries].map(([key, entry]) => ({ outpoint: outpointFromKey(key), entry }));
  }

  getBalanceByScriptPublicKey(scriptPublicKey: ScriptPublicKey): bigint {
    let balance = 0n;
    for (const entry of this.addressIndex.get(scriptKey(scriptPublicKey))?.values() ?? []) balance += entry.amount;
    return balance;
  }

  /** GetCoinSupply: the sum of the virtual UTXO set, and the maximum. */
  coinSupply(): { circulatingSompi: bigint; maxSompi: bigint } {
    return { circulatingSompi: this.circulating, maxSompi: MAX_SOMPI };
  }

  /** The virtual UTXO set entries, for tests and diagnostics (a full scan). */
  utxoSetSnapshot(): Map<OutpointKey, UtxoEntry> {
    const snapshot = new Map(this.sinkUtxo);
    this.virtual.acceptance.diff.commitTo(snapshot);
    return snapshot;
  }

  /** The virtual's UTXO commitment (MuHash of the virtual UTXO set). */
  virtualUtxoCommitment(): Hash {
    return this.virtual.utxoCommitment;
  }
}

export function createConsensus(options: ConsensusOptions): Consensus {
  return new Consensus(options);
}
