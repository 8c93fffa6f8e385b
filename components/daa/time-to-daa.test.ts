import { describe, expect, it } from 'vitest';
import { timeToDaaScore, type StampedBlock } from './time-to-daa';

/** A chain whose DAA score advances `rate` per second from `genesisTime`, with jitter-free or drifting stamps. */
function chain(options: { first: bigint; last: bigint; genesisTime: number; msPerScore: (score: bigint) => number }) {
  const blocks: StampedBlock[] = [];
  let time = options.genesisTime;
  for (let score = options.first; score <= options.last; score += 3n) {
    blocks.push({ daaScore: score, timestamp: Math.round(time) });
    time += options.msPerScore(score) * 3;
  }
  const lookups: [bigint, bigint][] = [];
  return {
    blocks,
    lookups,
    between: async (start: bigint, end: bigint) => {
      lookups.push([start, end]);
      return blocks.filter((block) => block.daaScore >= start && block.daaScore <= end).reverse();
    },
  };
}

describe('timeToDaaScore', () => {
  it('finds the last block at or before the time when the rate holds', async () => {
    const c = chain({ first: 0n, last: 30_000n, genesisTime: 1_000_000, msPerScore: () => 100 });
    const tip = c.blocks.at(-1)!;
    const target = c.blocks[4000]!;
    const result = await timeToDaaScore({
      time: target.timestamp + 50,
      virtualDaaScore: tip.daaScore,
      now: tip.timestamp,
      blocksPerSecond: 10,
      blocksBetween: c.between,
    });
    expect(result).toMatchObject({ score: target.daaScore, exact: true, clamped: null, lookups: 1 });
  });

  it('corrects an estimate that is off because the chain ran slower than the target rate', async () => {
    const c = chain({ first: 0n, last: 30_000n, genesisTime: 1_000_000, msPerScore: (score) => (score < 15_000n ? 200 : 100) });
    const tip = c.blocks.at(-1)!;
    const target = c.blocks[1000]!;
    const result = await timeToDaaScore({
      time: target.timestamp,
      virtualDaaScore: tip.daaScore,
      now: tip.timestamp,
      blocksPerSecond: 10,
      blocksBetween: c.between,
    });
    expect(result.exact).toBe(true);
    expect(result.score).toBe(target.daaScore);
    expect(result.estimate).not.toBe(target.daaScore);
    expect(result.lookups).toBeGreaterThan(1);
  });

  it('clamps a future time to the virtual DAA score without any lookup', async () => {
    const c = chain({ first: 0n, last: 300n, genesisTime: 0, msPerScore: () => 100 });
    const result = await timeToDaaScore({ time: 10_000, virtualDaaScore: 300n, now: 5_000, blocksPerSecond: 10, blocksBetween: c.between });
    expect(result).toEqual({ estimate: 300n, score: 300n, lookups: 0, exact: false, clamped: 'future' });
    expect(c.lookups).toEqual([]);
  });

  it('clamps a time before the oldest block to that block', async () => {
    const c = chain({ first: 0n, last: 3_000n, genesisTime: 1_000_000, msPerScore: () => 100 });
    const tip = c.blocks.at(-1)!;
    const result = await timeToDaaScore({ time: 10, virtualDaaScore: tip.daaScore, now: tip.timestamp, blocksPerSecond: 10, blocksBetween: c.between });
    expect(result).toMatchObject({ score: 0n, clamped: 'past', exact: false });
  });

  it('stops after the lookup budget and keeps its best guess', async () => {
    const c = chain({ first: 0n, last: 30_000n, genesisTime: 1_000_000, msPerScore: () => 100 });
    const tip = c.blocks.at(-1)!;
    const result = await timeToDaaScore({
      time: c.blocks[5000]!.timestamp,
      virtualDaaScore: tip.daaScore,
      now: tip.timestamp + 500_000,
      blocksPerSecond: 10,
      blocksBetween: c.between,
      maxLookups: 1,
    });
    expect(result.lookups).toBe(1);
    expect(result.exact).toBe(false);
    expect(c.lookups).toHaveLength(1);
  });
});
