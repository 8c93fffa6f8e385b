import { describe, expect, it } from 'vitest';
import { MAX_DIFFICULTY_TARGET } from '../../kaspa/pow';
import { CRESCENDO_PARAMS, FORK_ALWAYS, FORK_NEVER, isForkActive, targetTimePerBlockFor } from './params';

/** bps.rs `calculate_ghostdag_k`: the smallest k whose Poisson(x) tail mass is below delta. */
function ghostdagK(x: number, delta: number): number {
  let k = 0;
  let sigma = 0;
  let fraction = 1;
  const exp = Math.exp(-x);
  for (;;) {
    sigma += exp * fraction;
    if (1 - sigma < delta) return k;
    k += 1;
    fraction *= x / k;
  }
}

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

describe('CRESCENDO_PARAMS', () => {
  const bps = 1000 / CRESCENDO_PARAMS.targetTimePerBlock;

  it('derives the blockrate values the way bps.rs does for 10 BPS', () => {
    // NETWORK_DELAY_BOUND = 5 s, GHOSTDAG_TAIL_DELTA = 0.01.
    const k = ghostdagK(2 * 5 * bps, 0.01);
    expect(bps).toBe(10);
    expect(CRESCENDO_PARAMS.ghostdagK).toBe(k);
    expect(CRESCENDO_PARAMS.maxBlockParents).toBe(clamp(Math.floor(k / 2), 10, 16));
    expect(CRESCENDO_PARAMS.mergesetSizeLimit).toBe(clamp(2 * k, 180, 512));
    const { finalityDepth, mergeDepth, mergesetSizeLimit } = CRESCENDO_PARAMS;
    const pruningLowerBound = finalityDepth + 2 * mergeDepth + 4 * mergesetSizeLimit * k + 2 * k + 2;
    expect(CRESCENDO_PARAMS.pruningDepth).toBe(Math.max(pruningLowerBound, bps * 108_000));
  });

  it('derives the window sizes from their durations (constants.rs)', () => {
    expect(CRESCENDO_PARAMS.difficultyWindowSize).toBe(Math.ceil(2641 / 4));
    expect(CRESCENDO_PARAMS.difficultySampleRate).toBe(bps * 4);
    expect(CRESCENDO_PARAMS.pastMedianTimeWindowSize).toBe(
      Math.ceil((2 * CRESCENDO_PARAMS.timestampDeviationTolerance - 1) / 10),
    );
    expect(CRESCENDO_PARAMS.pastMedianTimeSampleRate).toBe(bps * 10);
    expect(CRESCENDO_PARAMS.maxDifficultyTarget).toBe(MAX_DIFFICULTY_TARGET);
  });
});

describe('isForkActive', () => {
  it('applies a fork from its activation score on, never before, and never for FORK_NEVER', () => {
    expect(isForkActive(FORK_ALWAYS, 0n)).toBe(true);
    expect(isForkActive(100n, 99n)).toBe(false);
    expect(isForkActive(100n, 100n)).toBe(true);
    expect(isForkActive(FORK_NEVER, FORK_NEVER)).toBe(false);
    expect(CRESCENDO_PARAMS.toccataActivation).toBe(FORK_NEVER);
  });
});

describe('targetTimePerBlockFor', () => {
  it('is whole milliseconds for every rate, so the integer window arithmetic takes it', () => {
    expect(targetTimePerBlockFor(10)).toBe(100);
    expect(targetTimePerBlockFor(3)).toBe(333);
    expect(targetTimePerBlockFor(0.3)).toBe(3333);
    for (const rate of [0.7, 3, 7, 11, 13, 50]) {
      const target = targetTimePerBlockFor(rate);
      expect(Number.isInteger(target)).toBe(true);
      expect(() => BigInt(target * CRESCENDO_PARAMS.difficultySampleRate)).not.toThrow();
    }
  });
});
