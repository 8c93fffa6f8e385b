/**
 * The devnet node's consensus: the block DAG, GHOSTDAG, the virtual block and its UTXO state, all in memory, following
 * rusty-kaspa v2.0.1 under the rules of consensus-rules.ts. A block goes through the processors of rusty-kaspa's
 * consensus/src/pipeline, each its own unit over the state they share (consensus-store.ts):
 * - header-processing.ts: header validation in isolation, parent relations, pre- and post-PoW, the block's context;
 * - body-processing.ts: body validation in isolation and in header context;
 * - virtual-processing.ts: the sink, the virtual's parents and its UTXO state, over chain-qualification.ts;
 * - pruning-processing.ts: what a moving pruning point drops, the snapshot a node restarts from.
 * block-templates.ts builds on the virtual, utxo-index.ts indexes the virtual's UTXO set by script, and
 * dag-traversal.ts answers sync queries.
 *
 * This class wires them together and is all the rest of the node sees. Invariants: a block that fails header or body
 * validation is rejected and leaves every structure untouched; events go out only once the state they describe is in
 * place (blockAdded once the block is stored, the virtual's once it is resolved, pruningPointMoved once pruned), so a
 * listener reading consensus back sees what it was told.
 * Merge depth (bounded merge) and finality are enforced as in block_depth.rs.
 * Scripts: P2PK, P2PK-ECDSA and P2SH spends run (P2SH redeem scripts other than P2PK on lib/kaspa/script-engine.ts,
 * which covers the Kasplex envelope); a spend needing an opcode the engine lacks fails.
 */
import { bytesToHex } from '../../kaspa/bytes';
import { headerHash } from '../../kaspa/header';
import { MAX_SOMPI } from '../../kaspa/amount';
import type { BlockMassLimits } from '../../kaspa/mass';
import type { SeqCommitLaneProof } from '../../kaspa/smt-proof';
import { calcWork, difficultyFromBits, type PowMatrixCache } from '../../kaspa/pow';
import type { Secp256k1Backend } from '../../kaspa/signing';
import { DEVNET_SUBSIDY_PARAMS, type SubsidyParams } from '../../kaspa/subsidy';
import type { Hash, Header, Outpoint, ScriptPublicKey, Transaction, UtxoEntry } from '../../kaspa/types';
import { MultisetElementCache, type MergesetBlockAcceptance } from './acceptance';
import { BlockTemplateBuilder, type BlockTemplate, type TemplateRequest } from './block-templates';
import { BodyProcessor } from './body-processing';
import { BlockInvalid } from './body-validation';
import type { ConsensusSnapshot } from './consensus-snapshot';
import { ChainQualifier } from './chain-qualification';
import { ConsensusRules } from './consensus-rules';
import { ConsensusStore, genesisRecord, type BlockRecord, type BlockStatus } from './consensus-store';
import { blocksFrom } from './dag-traversal';
import { DifficultyManager, type DaaStore } from './difficulty';
import { TypedEmitter } from './events';
import type { Block } from './genesis';
import { blockIdOf, GhostdagManager, type BlockId, type GhostdagData, type GhostdagStore } from './ghostdag';
import { HeaderProcessor } from './header-processing';
import type { ConsensusParams } from './params';
import { PruningProcessor } from './pruning-processing';
import { seqCommitLaneProof } from './seq-commit-state';
import type { TransactionLimits } from './transaction-validator';
import { txHashOf } from './transaction-facts';
import { ScriptVerificationCache } from './tx-validation';
import type { OutpointKey } from './utxo-diff';
import { UtxoIndex, type UtxoChange } from './utxo-index';
import { VirtualProcessor, type VirtualChainChange, type VirtualState } from './virtual-processing';

export type { Block } from './genesis';
export type { BlockTemplate, TemplateRequest } from './block-templates';
export type { BlockStatus } from './consensus-store';
export type { UtxoChange } from './utxo-index';
export type { AcceptedTransactionIds, VirtualChainChange } from './virtual-processing';

/** consensus/core/src/constants.rs: header version 1 before Toccata, 2 from its activation (`Params::block_version`). */
export { BLOCK_VERSION, BLOCK_VERSION_TOCCATA } from '../../kaspa/header';
/** DEVNET_PARAMS.max_block_level. */
export const DEVNET_MAX_BLOCK_LEVEL = 250;

export { ConsensusQueryError } from './seq-commit-state';

export type InsertResult = { type: 'success' } | { type: 'reject'; reason: 'blockInvalid'; message: string };

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


export class Consensus implements GhostdagStore, DaaStore {
  readonly events = new TypedEmitter<ConsensusEvents>();
  readonly params: ConsensusParams;
  readonly genesisId: BlockId;
  private readonly store: ConsensusStore;
  private readonly rules: ConsensusRules;
  private readonly scriptCache = new ScriptVerificationCache();
  private readonly utxoIndex = new UtxoIndex();
  private readonly headerProcessor: HeaderProcessor;
  private readonly bodyProcessor: BodyProcessor;
  private readonly virtualProcessor: VirtualProcessor;
  private readonly pruning: PruningProcessor;
  private readonly templates: BlockTemplateBuilder;

  constructor(options: ConsensusOptions) {
    const params = (this.params = options.params);
    const maxBlockLevel = options.maxBlockLevel ?? DEVNET_MAX_BLOCK_LEVEL;
    const rules = (this.rules = new ConsensusRules(params, {
      subsidyParams: options.subsidyParams ?? DEVNET_SUBSIDY_PARAMS,
      massLimits: options.massLimits,
      transactionLimits: options.transactionLimits,
    }));
    const genesis = options.genesis;
    const genesisHash = headerHash(genesis.header);
    const genesisId = (this.genesisId = blockIdOf(genesisHash));
    const store = (this.store = new ConsensusStore(genesisId));
    const ghostdagManager = new GhostdagManager({ genesis: genesisId, k: params.ghostdagK, store, workOf: (block) => store.record(block).work });
    const difficultyManager = new DifficultyManager({ params, genesis: { id: genesisId, bits: genesis.header.bits }, store });
    store.insertGenesis(genesisRecord(genesis, genesisHash, genesisId, ghostdagManager.genesisGhostdagData(), maxBlockLevel));
    this.pruning = new PruningProcessor(store, params, difficultyManager, this.utxoIndex);
    if (options.snapshot !== undefined) this.pruning.restore(options.snapshot);
    else this.pruning.importGenesisUtxoSet(genesis.header.utxoCommitment, options.genesisUtxoSet ?? []);
    const headerProcessor = (this.headerProcessor = new HeaderProcessor({
      store,
      rules,
      ghostdagManager,
      difficultyManager,
      clock: options.clock,
      maxBlockLevel,
      powMatrixCache: options.powMatrixCache,
    }));
    this.bodyProcessor = new BodyProcessor(rules);
    const chainQualifier = new ChainQualifier({
      store,
      rules,
      headerProcessor,
      scriptCache: this.scriptCache,
      multisetCache: new MultisetElementCache(),
      secp256k1: options.secp256k1,
      templateBasis: () => this.virtual,
    });
    const virtualProcessor = (this.virtualProcessor = new VirtualProcessor({
      store,
      rules,
      ghostdagManager,
      headerProcessor,
      chainQualifier,
      utxoIndex: this.utxoIndex,
      random: options.random ?? Math.random,
    }));
    this.templates = new BlockTemplateBuilder({
      store,
      rules,
      ghostdagManager,
      headerProcessor,
      chainQualifier,
      virtualProcessor,
      scriptCache: this.scriptCache,
      secp256k1: options.secp256k1,
      clock: options.clock,
      maxBlockLevel,
    });
  }

  private get virtual(): VirtualState {
    return this.virtualProcessor.virtual;
  }

  // ---- the store GHOSTDAG and the DAA windows read (RPC estimates run their own managers over it) ----

  hasWindowData(block: BlockId): boolean {
    return this.store.hasWindowData(block);
  }

  parents(block: BlockId): readonly BlockId[] {
    return this.store.parents(block);
  }

  ghostdagData(block: BlockId): GhostdagData {
    return this.store.ghostdagData(block);
  }

  isDagAncestorOf(ancestor: BlockId, block: BlockId): boolean {
    return this.store.isDagAncestorOf(ancestor, block);
  }

  timestamp(block: BlockId): bigint {
    return this.store.timestamp(block);
  }

  bits(block: BlockId): number {
    return this.store.bits(block);
  }

  daaScore(block: BlockId): bigint {
    return this.store.daaScore(block);
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
    if (this.store.records.has(id)) return { type: 'success' };
    if (this.store.invalid.has(id)) return { type: 'reject', reason: 'blockInvalid', message: `block ${id} is known to be invalid` };
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
      if (error.cacheAsInvalid) this.store.invalid.add(id);
      return { type: 'reject', reason: 'blockInvalid', message: error.message };
    }
    this.store.insert(record);
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
    const { level, context } = this.headerProcessor.validateHeader(header, trusted);
    const transactionIds = this.bodyProcessor.validateBody(block, context.pastMedianTime);
    return {
      id,
      hash,
      header,
      transactions: block.transactions,
      transactionIds,
      parents: context.parents,
      parentsByLevel: header.parentsByLevel.map((level) => level.map(blockIdOf)),
      ghostdag: context.ghostdag,
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

  private resolveVirtual(): void {
    const previousSink = this.store.sinkId;
    const previousVirtual = this.virtual;
    const { added, removed, pruningPointMoved } = this.virtualProcessor.resolve();
    const sink = this.store.sinkId;
    const virtual = this.virtual;
    if (sink !== previousSink) this.events.emit('virtualChainChanged', this.virtualProcessor.chainChange(previousSink, sink, true));
    if (added.length > 0 || removed.length > 0) this.events.emit('utxosChanged', { added, removed });
    const previousBlueScore = this.store.record(previousSink).ghostdag.blueScore;
    const sinkBlueScore = this.store.record(sink).ghostdag.blueScore;
    if (sinkBlueScore !== previousBlueScore) this.events.emit('sinkBlueScoreChanged', { sinkBlueScore });
    if (virtual.daaScore !== previousVirtual.daaScore) {
      this.events.emit('virtualDaaScoreChanged', { virtualDaaScore: virtual.daaScore });
    }
    // After the events above: the chain they describe may reach below the new pruning point (a deferred replay).
    if (pruningPointMoved) {
      this.pruning.prune();
      this.events.emit('pruningPointMoved', { pruningPoint: this.store.record(this.store.pruningPointId).hash });
    }
  }

  // ---- pruning and snapshots ----

  /** The pruning point's state (pruning-processing.ts); a consensus created from it continues from the pruning point. */
  snapshot(): ConsensusSnapshot {
    return this.pruning.snapshot();
  }

  // ---- block templates ----

  /** The virtual's header fields and transactions; solving the nonce yields a block this node accepts. */
  buildBlockTemplate(request: TemplateRequest): BlockTemplate {
    return this.templates.build(request);
  }

  /** Whether `template` (from buildBlockTemplate on the virtual) still builds on the current virtual state. */
  isTemplateCurrent(template: BlockTemplate): boolean {
    return this.templates.isCurrent(template);
  }

  /**
   * mining/src/block_template/builder.rs `modify_block_template`: the same template for other miner data, with only
   * the coinbase (and so the hash merkle root) replaced and the timestamp moved up to now. Equal to what
   * buildBlockTemplate would give for that miner data on the same state and transactions.
   */
  modifyBlockTemplate(template: BlockTemplate, miner: { payScriptPublicKey: ScriptPublicKey; extraData?: Uint8Array }): BlockTemplate {
    return this.templates.modify(template, miner);
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
    return this.virtualProcessor.getUtxo(outpoint);
  }

  virtualDaaScore(): bigint {
    return this.virtual.daaScore;
  }

  virtualBlueScore(): bigint {
    return this.virtual.ghostdag.blueScore;
  }

  virtualParents(): Hash[] {
    return this.virtual.parents.map((id) => this.store.record(id).hash);
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
    return this.store.record(this.store.sinkId).hash;
  }

  sinkBlueScore(): bigint {
    return this.store.record(this.store.sinkId).ghostdag.blueScore;
  }

  sinkTimestamp(): bigint {
    return this.store.record(this.store.sinkId).header.timestamp;
  }

  pruningPoint(): Hash {
    return this.store.record(this.store.pruningPointId).hash;
  }

  genesisHash(): Hash {
    return this.store.record(this.store.genesisId).hash;
  }

  getTips(): Hash[] {
    return [...this.store.tips].map((id) => this.store.record(id).hash);
  }

  /** Blocks and headers are stored together, so both counts are equal; pruned blocks do not count. */
  blockCount(): number {
    return this.store.records.size - this.store.pastPruningPoint.size;
  }

  /** False for pruned blocks, as kaspad's stores answer once the pruning processor removed them. */
  hasBlock(hash: Hash): boolean {
    return this.store.unprunedRecord(blockIdOf(hash)) !== undefined;
  }

  isChainBlock(hash: Hash): boolean {
    const id = blockIdOf(hash);
    return this.store.unprunedRecord(id) !== undefined && this.store.isChainAncestorOf(id, this.store.sinkId);
  }

  getBlock(hash: Hash): BlockInfo | undefined {
    const record = this.store.unprunedRecord(blockIdOf(hash));
    if (record === undefined) return undefined;
    return {
      hash: record.hash,
      header: record.header,
      transactions: record.transactions,
      transactionIds: record.transactionIds,
      ghostdag: record.ghostdag,
      status: record.status,
      isChainBlock: this.store.isChainAncestorOf(record.id, this.store.sinkId),
      children: record.children.map((id) => this.store.record(id).hash),
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
      find: (id) => this.store.records.get(id),
      genesisId: this.store.genesisId,
      sinkId: this.store.sinkId,
      pruningPointId: this.store.pruningPointId,
      isChainAncestorOf: (ancestor, block) => this.store.isChainAncestorOf(ancestor, block),
      toccataActiveAt: (daaScore) => this.rules.toccataActiveAt(daaScore),
    });
  }

  /** Acceptance data of a chain-qualified block: for each merged block, the transactions it accepted from it. */
  getAcceptanceData(hash: Hash): MergesetBlockAcceptance[] | undefined {
    return this.store.unprunedRecord(blockIdOf(hash))?.acceptance?.mergesetAcceptance;
  }

  /** The entries a chain-qualified block's acceptance spent from its selected parent's UTXO state (its diff's removals). */
  getAcceptanceSpentEntries(hash: Hash): ReadonlyMap<OutpointKey, UtxoEntry> | undefined {
    return this.store.unprunedRecord(blockIdOf(hash))?.acceptance?.diff.removed;
  }

  /** The hashes a syncing peer asks for after `lowHash` (dag-traversal.ts). */
  getBlocks(lowHash?: Hash): Hash[] {
    return blocksFrom(this.store, lowHash, this.virtual.parents, this.params.mergesetSizeLimit + 1);
  }

  /** kaspad's GetVirtualChainFromBlock: chain blocks removed since `startHash` and those added up to the sink. */
  getVirtualChainFromBlock(startHash: Hash, includeAcceptedTransactionIds: boolean): VirtualChainChange {
    const start = blockIdOf(startHash);
    this.store.record(start);
    return this.virtualProcessor.chainChange(start, this.store.sinkId, includeAcceptedTransactionIds);
  }

  /** kaspad's utxoindex: the virtual UTXO entries paying to this script public key. */
  getUtxosByScriptPublicKey(scriptPublicKey: ScriptPublicKey): UtxoChange[] {
    return this.utxoIndex.utxosOf(scriptPublicKey);
  }

  getBalanceByScriptPublicKey(scriptPublicKey: ScriptPublicKey): bigint {
    return this.utxoIndex.balanceOf(scriptPublicKey);
  }

  /** GetCoinSupply: the sum of the virtual UTXO set, and the maximum. */
  coinSupply(): { circulatingSompi: bigint; maxSompi: bigint } {
    return { circulatingSompi: this.utxoIndex.circulating, maxSompi: MAX_SOMPI };
  }

  /** The virtual UTXO set entries, for tests and diagnostics (a full scan). */
  utxoSetSnapshot(): Map<OutpointKey, UtxoEntry> {
    return this.virtualProcessor.utxoSetSnapshot();
  }

  /** The virtual's UTXO commitment (MuHash of the virtual UTXO set). */
  virtualUtxoCommitment(): Hash {
    return this.virtual.utxoCommitment;
  }
}

export function createConsensus(options: ConsensusOptions): Consensus {
  return new Consensus(options);
}
