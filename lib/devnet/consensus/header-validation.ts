/**
 * Header validation, rusty-kaspa v2.0.1 consensus/src/pipeline/header_processor: in isolation (future timestamp,
 * parent counts, proof of work), parent relations, and in context (pruning-point future, DAA score and bits, then the
 * post-PoW checks: version by the Toccata activation, blue score and work, past median time, mergeset size, bounded
 * merge depth, parents by level). Pre-PoW failures can be fixed by resubmitting; post-PoW ones mark the block invalid.
 */
import { blockLevelFromPow, compactToTarget, PowState, type PowMatrixCache } from '../../kaspa/pow';
import type { Header } from '../../kaspa/types';
import { BlockInvalid } from './body-validation';
import { blockIdOf, mergesetSize, type BlockId, type GhostdagData } from './ghostdag';

export interface IsolationContext {
  /** The local clock, ms. */
  now: number;
  /** Seconds a timestamp may run ahead of the clock. */
  timestampDeviationTolerance: number;
  maxBlockParents: number;
  maxBlockLevel: number;
  powMatrixCache?: PowMatrixCache;
}

/** Returns the block level its proof of work gives. */
export function validateHeaderInIsolation(header: Header, context: IsolationContext): number {
  const maxBlockTime = BigInt(context.now) + BigInt(context.timestampDeviationTolerance) * 1000n;
  if (header.timestamp > maxBlockTime) {
    throw new BlockInvalid(`block timestamp ${header.timestamp} is too far into the future (the limit is ${maxBlockTime})`, false);
  }
  const direct = header.parentsByLevel[0] ?? [];
  if (direct.length === 0) throw new BlockInvalid('block has no parents', false);
  if (direct.length > context.maxBlockParents) {
    throw new BlockInvalid(`block has ${direct.length} parents, above the limit of ${context.maxBlockParents}`, false);
  }
  const ids = direct.map(blockIdOf);
  if (new Set(ids).size !== ids.length) throw new BlockInvalid('block has duplicate parents', false);
  const pow = PowState.fromHeader(header, context.powMatrixCache).calculatePow(header.nonce);
  if (pow > compactToTarget(header.bits)) throw new BlockInvalid('block has invalid proof of work', false);
  return blockLevelFromPow(pow, context.maxBlockLevel);
}

export interface ParentStore {
  has(block: BlockId): boolean;
  isInvalid(block: BlockId): boolean;
  isDagAncestorOf(ancestor: BlockId, block: BlockId): boolean;
}

export function validateParentRelations(parents: readonly BlockId[], store: ParentStore): void {
  const missing = parents.filter((parent) => !store.has(parent));
  const invalidParent = parents.find((parent) => store.isInvalid(parent));
  if (invalidParent !== undefined) throw new BlockInvalid(`block has an invalid parent ${invalidParent}`, false);
  if (missing.length > 0) throw new BlockInvalid(`block is missing parents: ${missing.join(', ')}`, false);
  for (const a of parents) {
    for (const b of parents) {
      if (a !== b && store.isDagAncestorOf(a, b)) throw new BlockInvalid(`block parent ${a} is an ancestor of parent ${b}`, false);
    }
  }
}

export interface HeaderContext {
  ghostdag: GhostdagData;
  daaScore: bigint;
  bits: number;
  pastMedianTime: bigint;
  pruningPoint: BlockId;
  isDagAncestorOf(ancestor: BlockId, block: BlockId): boolean;
  /** The header version at the header's DAA score (`Params::block_version`). */
  expectedVersion: number;
  mergesetSizeLimit: number;
  /** Whether a red of the mergeset lies beyond the merge depth without a kosherizing blue. */
  violatesMergeDepth(): boolean;
  /** `calc_block_parents` for the direct parents. */
  expectedParents(): readonly (readonly BlockId[])[];
}

export function validateHeaderInContext(header: Header, parents: readonly BlockId[], context: HeaderContext): void {
  const { ghostdag } = context;
  if (!parents.some((parent) => context.isDagAncestorOf(context.pruningPoint, parent))) {
    throw new BlockInvalid(`block is not in the future of the pruning point ${context.pruningPoint}`, false);
  }
  if (context.daaScore !== header.daaScore) {
    throw new BlockInvalid(`expected header DAA score ${context.daaScore} but got ${header.daaScore}`, false);
  }
  if (context.bits !== header.bits) {
    throw new BlockInvalid(`block bits 0x${header.bits.toString(16)} differ from the expected 0x${context.bits.toString(16)}`, false);
  }
  // v2.0.1 checks the version in context (`check_header_version_in_context`), first of the post-PoW checks.
  if (header.version !== context.expectedVersion) {
    throw new BlockInvalid(`wrong block version: got ${header.version} but expected ${context.expectedVersion}`, true);
  }
  if (ghostdag.blueScore !== header.blueScore) {
    throw new BlockInvalid(`expected header blue score ${ghostdag.blueScore} but got ${header.blueScore}`, true);
  }
  if (ghostdag.blueWork !== header.blueWork) {
    throw new BlockInvalid(`expected header blue work ${ghostdag.blueWork} but got ${header.blueWork}`, true);
  }
  if (header.timestamp <= context.pastMedianTime) {
    throw new BlockInvalid(`block timestamp ${header.timestamp} is not after the past median time ${context.pastMedianTime}`, true);
  }
  if (mergesetSize(ghostdag) > context.mergesetSizeLimit) {
    throw new BlockInvalid(`mergeset size ${mergesetSize(ghostdag)} is above the limit ${context.mergesetSizeLimit}`, true);
  }
  if (context.violatesMergeDepth()) {
    throw new BlockInvalid('block merges a red block beyond the merge depth (violating bounded merge depth)', true);
  }
  const expected = context.expectedParents();
  const actual = header.parentsByLevel;
  const levelsMatch =
    actual.length === expected.length &&
    expected.every((level, index) => {
      const given = actual[index]!.map(blockIdOf);
      const set = new Set(given);
      return given.length === level.length && set.size === level.length && level.every((parent) => set.has(parent));
    });
  if (!levelsMatch) throw new BlockInvalid('block has unexpected indirect parents (parents by level)', true);
}
