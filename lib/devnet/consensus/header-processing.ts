/**
 * What consensus does when a header arrives, after rusty-kaspa v2.0.1 consensus/src/pipeline/header_processor: the
 * checks in isolation, the parent relations, GHOSTDAG over the parents, then the block's context (DAA score and bits
 * from its difficulty window, past median time, merge depth root and finality point of block_depth.rs, the pruning
 * point pruning.rs expects) and the pre- and post-PoW checks against it (header-validation.ts).
 *
 * Invariants: nothing here writes the store, so a header that fails leaves consensus untouched; and a block's context
 * is a function of its parents and the stored DAG alone, which is why the virtual and templates ask for theirs here
 * too and always agree with what a block built on the same parents is checked against.
 */
import type { PowMatrixCache } from '../../kaspa/pow';
import type { Header } from '../../kaspa/types';
import type { ConsensusStore } from './consensus-store';
import type { ConsensusRules } from './consensus-rules';
import type { DifficultyManager } from './difficulty';
import { blockIdOf, ORIGIN_ID, type BlockId, type GhostdagData, type GhostdagManager } from './ghostdag';
import { validateHeaderInContext, validateHeaderInIsolation, validateParentRelations } from './header-validation';
import type { ConsensusParams } from './params';
import { calcBlockParents } from './parents-builder';

export interface BlockContext {
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

export interface ValidatedHeader {
  level: number;
  context: BlockContext;
}

export interface HeaderProcessorOptions {
  store: ConsensusStore;
  rules: ConsensusRules;
  ghostdagManager: GhostdagManager;
  difficultyManager: DifficultyManager;
  /** Milliseconds since the Unix epoch. */
  clock: () => number;
  maxBlockLevel: number;
  powMatrixCache: PowMatrixCache | undefined;
}

export class HeaderProcessor {
  private readonly store: ConsensusStore;
  private readonly rules: ConsensusRules;
  private readonly params: ConsensusParams;
  private readonly ghostdagManager: GhostdagManager;
  private readonly difficultyManager: DifficultyManager;
  private readonly clock: () => number;
  private readonly maxBlockLevel: number;
  private readonly powMatrixCache: PowMatrixCache | undefined;

  constructor(options: HeaderProcessorOptions) {
    this.store = options.store;
    this.rules = options.rules;
    this.params = options.rules.params;
    this.ghostdagManager = options.ghostdagManager;
    this.difficultyManager = options.difficultyManager;
    this.clock = options.clock;
    this.maxBlockLevel = options.maxBlockLevel;
    this.powMatrixCache = options.powMatrixCache;
  }

  /**
   * Throws BlockInvalid for a header consensus rejects. `trusted`: a header this node accepted before, whose indirect
   * parents are not checked again (see Consensus.validateAndInsertBlock).
   */
  validateHeader(header: Header, trusted: boolean): ValidatedHeader {
    const store = this.store;
    const level = validateHeaderInIsolation(header, {
      now: this.clock(),
      timestampDeviationTolerance: this.params.timestampDeviationTolerance,
      maxBlockParents: this.params.maxBlockParents,
      maxBlockLevel: this.maxBlockLevel,
      powMatrixCache: this.powMatrixCache,
    });
    const parents = header.parentsByLevel[0]!.map(blockIdOf);
    validateParentRelations(parents, {
      has: (block) => store.isLive(block),
      isInvalid: (block) => store.invalid.has(block),
      isDagAncestorOf: (ancestor, block) => store.isDagAncestorOf(ancestor, block),
    });
    const ghostdag = this.ghostdagManager.ghostdag(parents);
    const context = this.contextFor(parents, ghostdag);
    validateHeaderInContext(header, parents, {
      ...context,
      pruningPoint: store.pruningPointId,
      isDagAncestorOf: (ancestor, block) => store.isDagAncestorOf(ancestor, block),
      expectedVersion: this.rules.blockVersionAt(header.daaScore),
      mergesetSizeLimit: this.params.mergesetSizeLimit,
      violatesMergeDepth: () => this.mergeDepthViolators(ghostdag, context.mergeDepthRoot).length > 0,
      expectedParents: () =>
        trusted
          ? header.parentsByLevel.map((level) => level.map(blockIdOf))
          : calcBlockParents(store, store.genesisId, this.maxBlockLevel, store.pruningPointId, parents),
    });
    return { level, context };
  }

  /** The DAA score, bits, past median time and pruning data of a block with these parents and GHOSTDAG data. */
  contextFor(parents: BlockId[], ghostdag: GhostdagData): BlockContext {
    const daaWindow = this.difficultyManager.blockDaaWindow(ghostdag);
    const { pruningSample, pruningPoint } = this.expectedPruningPoint(ghostdag);
    const selectedParent = this.store.record(ghostdag.selectedParent);
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
  blockAtDepth(ghostdag: GhostdagData, depth: number, selectedParentPoint: BlockId): BlockId {
    const blueScore = ghostdag.blueScore;
    if (blueScore < BigInt(depth)) return this.store.genesisId;
    if (!this.store.isLive(selectedParentPoint)) return ORIGIN_ID;
    const required = blueScore - BigInt(depth);
    let current = selectedParentPoint;
    let next: BlockId | undefined = current;
    while (next !== undefined && this.store.record(next).ghostdag.blueScore < required) {
      current = next;
      next = this.chainChildToward(current, ghostdag.selectedParent);
    }
    return current;
  }

  /** The child of chain block `block` on the selected chain of `tip`, if `block` is below `tip`. */
  private chainChildToward(block: BlockId, tip: BlockId): BlockId | undefined {
    if (block === tip) return undefined;
    return this.store.record(block).children.find(
      (child) => this.store.record(child).ghostdag.selectedParent === block && this.store.isChainAncestorOf(child, tip),
    );
  }

  /** `check_bounded_merge_depth`: reds outside the merge depth root's future must be in the past of a kosherizing blue. */
  mergeDepthViolators(ghostdag: GhostdagData, mergeDepthRoot: BlockId): BlockId[] {
    if (mergeDepthRoot === ORIGIN_ID) return [];
    const violating = ghostdag.mergesetReds.filter((red) => !this.store.isDagAncestorOf(mergeDepthRoot, red));
    if (violating.length === 0) return [];
    const kosherizing = ghostdag.mergesetBlues.filter((blue) => this.store.isChainAncestorOf(mergeDepthRoot, blue));
    return violating.filter((red) => !kosherizing.some((blue) => this.store.isDagAncestorOf(red, blue)));
  }

  /**
   * consensus/src/processes/pruning.rs `expected_header_pruning_point_v2`: a pruning sample (one per finality depth of
   * blue score) once it is pruning-depth deep.
   */
  expectedPruningPoint(ghostdag: GhostdagData): { pruningSample: BlockId; pruningPoint: BlockId } {
    const genesisId = this.store.genesisId;
    const finalityDepth = BigInt(this.params.finalityDepth);
    const pruningDepth = BigInt(this.params.pruningDepth);
    const steps = Math.ceil(this.params.pruningDepth / this.params.finalityDepth);
    const isPruningSample = (blueScore: bigint, ancestorBlueScore: bigint) =>
      ancestorBlueScore / finalityDepth < blueScore / finalityDepth;
    const selectedParent = this.store.record(ghostdag.selectedParent);
    const selectedParentBlueScore = selectedParent.ghostdag.blueScore;
    let pruningSample: BlockId;
    if (selectedParent.id === genesisId) {
      pruningSample = genesisId;
    } else {
      const parentSample = selectedParent.pruningSample;
      pruningSample = isPruningSample(selectedParentBlueScore, this.store.record(parentSample).ghostdag.blueScore)
        ? selectedParent.id
        : parentSample;
    }
    const isSelfSample = isPruningSample(ghostdag.blueScore, selectedParentBlueScore);
    const selectedParentPruningPoint = blockIdOf(selectedParent.header.pruningPoint);
    let current = pruningSample;
    for (let step = 1; ; step++) {
      if (current === genesisId) break;
      const currentRecord = this.store.record(current);
      if (currentRecord.ghostdag.blueScore + pruningDepth <= ghostdag.blueScore) break;
      if (isSelfSample && step === steps) break;
      if (current === selectedParentPruningPoint) break;
      current = currentRecord.pruningSample;
    }
    return { pruningSample, pruningPoint: current };
  }
}
