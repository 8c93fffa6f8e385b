import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_DIFFICULTY_TARGET, compactToTarget } from '../../kaspa/pow';
import { difficultyBitsFromWindow, pastMedianTimeFromTimestamps, type DaaParams, type DifficultyBlock } from './difficulty';
import { compareSortableBlocks, type SortableBlock } from './ghostdag';
import { CRESCENDO_PARAMS } from './params';
import { MemoryDag, idFromCounter, idFromLabel, type BlockFields } from '../test-support/memory-dag';
import { dagShapeArbitrary } from '../test-support/random-dag';

/** rusty-kaspa's mainnet genesis (consensus/core/src/config/genesis.rs `GENESIS`). */
const MAINNET_GENESIS_FIELDS: BlockFields = { timestamp: 1637609671037n, bits: 486722099, daaScore: 1312860n };

/** The target of bits 0x1d00ffff, T in the comments below. */
const TARGET_1D00FFFF = 0xffffn << 208n;

function difficultyBlock(id: string, blueWork: bigint, timestamp: bigint, bits: number): DifficultyBlock {
  return { block: { id: idFromLabel(id), blueWork }, timestamp, bits };
}

describe('difficultyBitsFromWindow (SampledDifficultyManager::calculate_difficulty_bits)', () => {
  const params = { targetTimePerBlock: 100, difficultySampleRate: 1, maxDifficultyTarget: MAX_DIFFICULTY_TARGET };

  it('keeps the target when the window spans exactly the expected time', () => {
    // Drop the earliest (t=0); 3 blocks remain, expected 100 · 1 · 3 = 300 ms, measured 300 − 0.
    const window = [0n, 100n, 200n, 300n].map((t, i) => difficultyBlock(`b${i}`, BigInt(i), t, 0x1d00ffff));
    expect(difficultyBitsFromWindow(window, params)).toBe(0x1d00ffff);
  });

  it('halves the target when the window took half the expected time', () => {
    // T/2 = 0x7fff8 · 2^204, 223 bits: 28 bytes, mantissa 0x7fff80.
    const window = [0n, 50n, 100n, 150n].map((t, i) => difficultyBlock(`b${i}`, BigInt(i), t, 0x1d00ffff));
    expect(difficultyBitsFromWindow(window, params)).toBe(0x1c7fff80);
    expect(compactToTarget(0x1c7fff80)).toBe(TARGET_1D00FFFF / 2n);
  });

  it('averages the targets of all but the earliest block, flooring, then re-encodes', () => {
    // Earliest target (0x207fffff) is left out: avg = (T + T/2) / 2 = 0xbfff4 · 2^204. Its 28-byte mantissa
    // 0xbfff40 has the sign bit set, so it is shifted a byte further: 0x1d00bfff.
    const window = [
      difficultyBlock('early', 0n, 0n, 0x207fffff),
      difficultyBlock('b', 1n, 100n, 0x1d00ffff),
      difficultyBlock('c', 2n, 200n, 0x1c7fff80),
    ];
    expect(difficultyBitsFromWindow(window, params)).toBe(0x1d00bfff);
  });

  it('breaks a tie on the earliest timestamp by (blue work, hash)', () => {
    const lighter = difficultyBlock('x', 5n, 0n, 0x1c7fff80);
    const heavier = difficultyBlock('y', 6n, 0n, 0x1d00ffff);
    const last = difficultyBlock('z', 7n, 200n, 0x1d00ffff);
    // `lighter` is removed: avg = T, measured 200, expected 100 · 2 → T.
    expect(difficultyBitsFromWindow([heavier, last, lighter], params)).toBe(0x1d00ffff);
  });

  it('uses a span of at least 1 ms and caps the target at 2^255 − 1', () => {
    // avg T · 1 / (100 · 2) = T / 200 = 0x147acc… (217 bits): 28 bytes, mantissa 0x0147ac.
    const simultaneous = [0n, 0n, 0n].map((t, i) => difficultyBlock(`b${i}`, BigInt(i), t, 0x1d00ffff));
    expect(difficultyBitsFromWindow(simultaneous, params)).toBe(0x1c0147ac);
    const slow = [0n, 10n ** 12n].map((t, i) => difficultyBlock(`b${i}`, BigInt(i), t, 0x207fffff));
    expect(difficultyBitsFromWindow(slow, params)).toBe(0x207fffff);
  });
});

describe('pastMedianTimeFromTimestamps (SampledPastMedianTimeManager::calc_past_median_time)', () => {
  it('averages the 11 central timestamps with rounding', () => {
    // 1..27: frame [8, 19) holds 9..19, (154 + 5) / 11 = 14.
    const timestamps = Array.from({ length: 27 }, (_, i) => BigInt(27 - i));
    expect(pastMedianTimeFromTimestamps(timestamps)).toBe(14n);
  });

  it('takes the later of two equally central frames', () => {
    // 12 values 0, 100, …, 1100: end = ceil(23 / 2) = 12, frame 100..1100, (6600 + 5) / 11 = 600 (not 500).
    expect(pastMedianTimeFromTimestamps(Array.from({ length: 12 }, (_, i) => BigInt(i * 100)))).toBe(600n);
  });

  it('averages the whole window when it is smaller than the frame', () => {
    // (10 + 20 + 30 + 41 + 2) / 4 = 25.
    expect(pastMedianTimeFromTimestamps([41n, 10n, 30n, 20n])).toBe(25n);
  });
});

const SMALL_WINDOW_PARAMS: DaaParams = {
  ...CRESCENDO_PARAMS,
  difficultyWindowSize: 2,
  difficultySampleRate: 2,
  pastMedianTimeWindowSize: 2,
  pastMedianTimeSampleRate: 2,
};

describe('DAA score and sampled windows (window.rs, difficulty.rs)', () => {
  // G ← c1 ← … ← c6 and a side block s ← G; full DAA window = 2 · 2 = 4 blue-score units.
  function smallDag() {
    const memory = new MemoryDag({
      genesis: idFromLabel('G'),
      k: 10,
      work: 'unit',
      genesisFields: { timestamp: 1000n, bits: 0x1e7fffff, daaScore: 0n },
      daaParams: SMALL_WINDOW_PARAMS,
    });
    let tip = memory.genesis;
    for (let height = 1; height <= 6; height++) {
      memory.addBlock(idFromLabel(`c${height}`), [tip], 1000n + BigInt(height) * 100n);
      tip = idFromLabel(`c${height}`);
    }
    memory.addBlock(idFromLabel('s'), [memory.genesis], 1050n);
    return memory;
  }
  const labels = (window: readonly { id: string }[]) =>
    window.map((block) => ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 's'].find((label) => idFromLabel(label) === block.id));

  it('gives the first chain block its genesis DAA score (genesis never counts) and counts each chain block after', () => {
    const memory = smallDag();
    expect([1, 2, 3, 4, 5, 6].map((height) => memory.daaScore(idFromLabel(`c${height}`)))).toEqual([0n, 1n, 2n, 3n, 4n, 5n]);
    expect(memory.daaScore(idFromLabel('s'))).toBe(0n);
  });

  it('leaves out merged blocks below the lowest DAA blue score', () => {
    const memory = smallDag();
    const manager = memory.difficultyManager!;
    // m: SP c6 (score 6), s blue; blue score 8, lowest DAA blue score 8 − 4 = 4 > score(s) = 1.
    const late = memory.ghostdagManager.ghostdag([idFromLabel('c6'), idFromLabel('s')]);
    expect(late.blueScore).toBe(8n);
    expect(manager.lowestDaaBlueScore(late)).toBe(4n);
    const lateWindow = manager.blockDaaWindow(late);
    expect(lateWindow.mergesetNonDaa).toEqual(new Set([idFromLabel('s')]));
    expect(lateWindow.daaScore).toBe(5n + 2n - 1n);
    // m': SP c3, blue score 5, lowest 1 ≤ score(s): s counts.
    const early = memory.ghostdagManager.ghostdag([idFromLabel('c3'), idFromLabel('s')]);
    const earlyWindow = manager.blockDaaWindow(early);
    expect(earlyWindow.mergesetNonDaa.size).toBe(0);
    expect(earlyWindow.daaScore).toBe(2n + 2n);
  });

  it('samples the n-th DAA block of a mergeset when (its selected parent DAA score + n) divides by the rate', () => {
    const memory = smallDag();
    const manager = memory.difficultyManager!;
    // c6: c5 (4 + 1 odd) no, c4 (3 + 1) yes, c3 (2 + 1) no, c2 (1 + 1) yes; full, c1 cannot enter.
    expect(labels(manager.blockWindow(memory.ghostdagData(idFromLabel('c6')), 'difficulty'))).toEqual(['c4', 'c2']);
    // m: c6 (5 + 1) yes, s non-DAA; merged with the window of c6, the two highest remain.
    const late = memory.ghostdagManager.ghostdag([idFromLabel('c6'), idFromLabel('s')]);
    expect(labels(manager.blockDaaWindow(late).window)).toEqual(['c6', 'c4']);
    // m': c3 (2 + 1) no, s is the 2nd DAA block (2 + 2) yes; window of c3 holds c2.
    const early = memory.ghostdagManager.ghostdag([idFromLabel('c3'), idFromLabel('s')]);
    expect(labels(manager.blockDaaWindow(early).window)).toEqual(['c2', 's']);
  });

  it('builds the same windows with and without the window cache, and as the definition says', () => {
    fc.assert(
      fc.property(
        dagShapeArbitrary({ maxBlocks: 40, maxReach: 5 }),
        fc.record({
          difficultyWindowSize: fc.integer({ min: 2, max: 6 }),
          difficultySampleRate: fc.integer({ min: 1, max: 3 }),
          pastMedianTimeWindowSize: fc.integer({ min: 1, max: 6 }),
          pastMedianTimeSampleRate: fc.integer({ min: 1, max: 3 }),
        }),
        (shape, windowParams) => {
          const daaParams = { ...CRESCENDO_PARAMS, ...windowParams };
          const options = { genesis: shape.genesis, k: 3, work: 'unit' as const, daaParams };
          const cached = new MemoryDag(options);
          const uncached = new MemoryDag({ ...options, windowCacheCapacity: 0 });
          for (const { id, parents } of shape.blocks) {
            const timestamp = BigInt(1 + cached.blocks.length);
            cached.addBlock(id, parents, timestamp);
            uncached.addBlock(id, parents, timestamp);
          }
          for (const { id } of shape.blocks) {
            const data = cached.ghostdagData(id);
            expect(uncached.fields(id)).toEqual(cached.fields(id));
            const shapes = [
              ['difficulty', windowParams.difficultyWindowSize, windowParams.difficultySampleRate],
              ['pastMedianTime', windowParams.pastMedianTimeWindowSize, windowParams.pastMedianTimeSampleRate],
            ] as const;
            for (const [kind, size, rate] of shapes) {
              const window = cached.difficultyManager!.blockWindow(data, kind);
              expect(uncached.difficultyManager!.blockWindow(data, kind)).toEqual(window);
              expect(window).toEqual(definitionWindow(cached, id, size, rate));
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('block windows of consensus_integration_tests.rs::block_window_test', () => {
  it('lists the 10-block varying window of each block, highest (blue work, hash) first', () => {
    const cases: [id: string, parents: string[], window: string[]][] = [
      ['B', ['A'], []],
      ['C', ['B'], ['B']],
      ['D', ['B'], ['B']],
      ['E', ['D', 'C'], ['D', 'C', 'B']],
      ['F', ['D', 'C'], ['D', 'C', 'B']],
      ['G', ['A'], []],
      ['H', ['G'], ['G']],
      ['I', ['H', 'F'], ['F', 'H', 'D', 'C', 'G', 'B']],
      ['J', ['I'], ['I', 'F', 'H', 'D', 'C', 'G', 'B']],
      ['K', ['J'], ['J', 'I', 'F', 'H', 'D', 'C', 'G', 'B']],
      ['L', ['K'], ['K', 'J', 'I', 'F', 'H', 'D', 'C', 'G', 'B']],
      ['M', ['L'], ['L', 'K', 'J', 'I', 'F', 'H', 'D', 'C', 'G', 'B']],
      ['N', ['M'], ['M', 'L', 'K', 'J', 'I', 'F', 'H', 'D', 'C', 'G']],
      ['O', ['N'], ['N', 'M', 'L', 'K', 'J', 'I', 'F', 'H', 'D', 'C']],
    ];
    const memory = new MemoryDag({
      genesis: idFromLabel('A'),
      k: 1,
      work: 'bits',
      genesisFields: MAINNET_GENESIS_FIELDS,
      daaParams: CRESCENDO_PARAMS,
    });
    for (const [id, parents, expected] of cases) {
      const data = memory.addBlock(idFromLabel(id), parents.map(idFromLabel));
      const window = memory.difficultyManager!.blockWindow(data, { size: 10 });
      expect({ id, window: window.map((block) => block.id) }).toEqual({ id, window: expected.map(idFromLabel) });
    }
  });
});

/**
 * consensus_integration_tests.rs::difficulty_test ("MAINNET with sampled window"): k = 1, an 11-sample difficulty
 * window sampled every 6 blocks, a 13-sample median-time window sampled every 3, 100 ms blocks.
 */
describe('difficulty adjustment of consensus_integration_tests.rs::difficulty_test', () => {
  const params: DaaParams = {
    ...CRESCENDO_PARAMS,
    difficultyWindowSize: 11,
    difficultySampleRate: 6,
    pastMedianTimeSampleRate: 3,
    pastMedianTimeWindowSize: 13,
  };
  const sampleRate = BigInt(params.difficultySampleRate);
  const expandedWindowSize = params.difficultyWindowSize * params.difficultySampleRate;
  const target = (bits: number) => compactToTarget(bits);

  it('keeps, raises and lowers the difficulty as the block rate dictates', () => {
    const memory = new MemoryDag({
      genesis: idFromCounter(0),
      k: 1,
      work: 'bits',
      genesisFields: MAINNET_GENESIS_FIELDS,
      daaParams: params,
    });
    const manager = memory.difficultyManager!;
    const genesisBits = MAINNET_GENESIS_FIELDS.bits;
    let counter = 1;
    const addBlock = (parents: string[], timestamp?: bigint) => {
      const selectedParent = memory.ghostdagManager.findSelectedParent(parents);
      const id = idFromCounter(counter++);
      memory.addBlock(id, parents, timestamp ?? memory.timestamp(selectedParent) + BigInt(params.targetTimePerBlock));
      return { id, ...memory.fields(id) };
    };
    const addBlockWithMinTime = (parents: string[]) =>
      addBlock(parents, manager.pastMedianTime(memory.ghostdagManager.ghostdag(parents)) + 1n);
    const fullWindowBits = (block: string) => {
      const data = memory.ghostdagData(block);
      const window = manager.blockWindow(data, { size: expandedWindowSize });
      expect(window).toHaveLength(expandedWindowSize);
      return manager.calculateDifficultyBits(data, window);
    };

    // Stage 0: until the first window exists the difficulty stays put.
    let tip = { id: memory.genesis, ...memory.fields(memory.genesis) };
    for (let i = 0; i < expandedWindowSize; i++) {
      tip = addBlock([tip.id]);
      expect(tip.bits).toBe(genesisBits);
    }
    // Stage 1: blocks at the target rate keep it.
    for (let i = 0; i < expandedWindowSize + 10; i++) {
      tip = addBlock([tip.id]);
      expect(tip.bits).toBe(genesisBits);
    }
    const stage1Bits = fullWindowBits(tip.id);

    // Stage 2: one sampled block at the minimal timestamp affects only its future.
    for (let i = 0n; i < sampleRate; i++) {
      if ((tip.daaScore + 1n) % sampleRate === 0n) {
        tip = addBlockWithMinTime([tip.id]);
        break;
      }
      tip = addBlock([tip.id]);
    }
    expect(tip.bits).toBe(genesisBits);
    expect(fullWindowBits(tip.id)).toBe(stage1Bits);
    for (let i = 0n; i < sampleRate; i++) tip = addBlock([tip.id]);
    const stage2Bits = fullWindowBits(tip.id);
    expect(target(tip.bits)).toBeLessThan(target(genesisBits));
    expect(target(stage2Bits)).toBeLessThan(target(stage1Bits));
    const oneBlockInThePastBits = tip.bits;

    // Stage 3: a faster block rate raises the difficulty, never lowers it.
    for (let i = 0; i < expandedWindowSize; i++) {
      const previousBits = tip.bits;
      tip = addBlockWithMinTime([tip.id]);
      expect(target(tip.bits)).toBeLessThanOrEqual(target(previousBits));
    }
    const stage3Bits = fullWindowBits(tip.id);
    expect(target(tip.bits)).toBeLessThan(target(oneBlockInThePastBits));
    expect(target(stage3Bits)).toBeLessThan(target(stage2Bits));

    // Stage 4: back at the target rate until the difficulty settles.
    let sameBitsCount = 0;
    while (sameBitsCount < expandedWindowSize + 1) {
      const previousBits = tip.bits;
      tip = addBlock([tip.id]);
      sameBitsCount = tip.bits === previousBits ? sameBitsCount + 1 : 0;
    }
    const stage4Bits = fullWindowBits(tip.id);

    // Stage 5: one slow sampled block lowers the difficulty of its future only.
    const preSlowBlockBits = tip.bits;
    for (let i = 0n; i < sampleRate; i++) {
      if ((tip.daaScore + 1n) % sampleRate === 0n) {
        tip = addBlock([tip.id], tip.timestamp + BigInt(params.targetTimePerBlock) * 3n);
        break;
      }
      tip = addBlock([tip.id]);
    }
    expect(tip.bits).toBe(preSlowBlockBits);
    expect(fullWindowBits(tip.id)).toBe(stage4Bits);
    for (let i = 0n; i < sampleRate; i++) tip = addBlock([tip.id]);
    const stage5Bits = fullWindowBits(tip.id);
    expect(target(tip.bits)).toBeGreaterThan(target(preSlowBlockBits));
    expect(target(stage5Bits)).toBeGreaterThan(target(stage4Bits));

    // Stage 6: red blocks with low timestamps inside the window raise the difficulty of the block merging them.
    const splitBlock = tip.id;
    const redChainLength = Math.max(params.difficultySampleRate * 2, 10);
    const growChain = (from: string, length: number) => {
      let chainTip = from;
      for (let i = 0; i < length; i++) chainTip = addBlock([chainTip]).id;
      return chainTip;
    };
    let blueTip = growChain(splitBlock, expandedWindowSize);
    let redTip = growChain(splitBlock, redChainLength);
    let withRedPast = addBlock([redTip, blueTip]);
    let withoutRedPast = addBlock([blueTip]);
    expect(target(withRedPast.bits)).toBeLessThan(target(withoutRedPast.bits));
    expect(target(fullWindowBits(withRedPast.id))).toBeLessThan(target(fullWindowBits(withoutRedPast.id)));

    // Stage 7: once the blue chain outgrows the window, the red blocks no longer count.
    blueTip = growChain(splitBlock, expandedWindowSize + redChainLength + params.difficultySampleRate);
    redTip = growChain(splitBlock, redChainLength);
    withRedPast = addBlock([redTip, blueTip]);
    withoutRedPast = addBlock([blueTip]);
    expect(withRedPast.bits).toBe(withoutRedPast.bits);
    expect(fullWindowBits(withRedPast.id)).toBe(fullWindowBits(withoutRedPast.id));
  });
});

describe('difficulty under a steady block rate', () => {
  it('holds the bits at the target rate, raises the difficulty when faster and lowers it when slower', () => {
    fc.assert(
      fc.property(
        fc.record({
          difficultyWindowSize: fc.integer({ min: 2, max: 8 }),
          difficultySampleRate: fc.integer({ min: 1, max: 4 }),
          targetTimePerBlock: fc.integer({ min: 50, max: 2000 }),
        }),
        fc.constantFrom(0.25, 0.5, 0.8, 1, 1.25, 2, 4),
        (windowParams, pace) => {
          const daaParams = { ...CRESCENDO_PARAMS, ...windowParams };
          const genesisBits = 0x1d00ffff;
          const memory = new MemoryDag({
            genesis: idFromCounter(0),
            k: 1,
            work: 'bits',
            genesisFields: { timestamp: 0n, bits: genesisBits, daaScore: 0n },
            daaParams,
          });
          const interval = BigInt(Math.round(windowParams.targetTimePerBlock * pace));
          let tip = memory.genesis;
          let previousTarget = TARGET_1D00FFFF;
          const blocks = 3 * windowParams.difficultyWindowSize * windowParams.difficultySampleRate + 2;
          for (let height = 1; height <= blocks; height++) {
            const id = idFromCounter(height);
            memory.addBlock(id, [tip], BigInt(height) * interval);
            tip = id;
            const current = compactToTarget(memory.bits(tip));
            if (pace === 1) expect(current).toBe(TARGET_1D00FFFF);
            else if (pace < 1) expect(current).toBeLessThanOrEqual(previousTarget);
            else expect(current).toBeGreaterThanOrEqual(previousTarget);
            previousTarget = current;
          }
          if (pace < 1) expect(previousTarget).toBeLessThan(TARGET_1D00FFFF);
          if (pace > 1) expect(previousTarget).toBeGreaterThan(TARGET_1D00FFFF);
        },
      ),
      { numRuns: 60 },
    );
  });
});

/**
 * The window of a block by definition: the `size` highest `(blue work, hash)` samples over the mergesets of the block
 * and of its chain ancestors, stopping at the chain block whose selected parent is genesis.
 */
function definitionWindow(memory: MemoryDag, block: string, size: number, rate: number): SortableBlock[] {
  const manager = memory.difficultyManager!;
  const sortable = (id: string) => ({ id, blueWork: memory.ghostdagData(id).blueWork });
  const samples: SortableBlock[] = [];
  for (let current = block; memory.ghostdagData(current).selectedParent !== memory.genesis; ) {
    const data = memory.ghostdagData(current);
    const lowest = manager.lowestDaaBlueScore(data);
    const rest = [...data.mergesetBlues.slice(1), ...data.mergesetReds].map(sortable).sort(compareSortableBlocks).reverse();
    let index = 0n;
    for (const candidate of [sortable(data.selectedParent), ...rest]) {
      if (memory.ghostdagData(candidate.id).blueScore < lowest) continue;
      index += 1n;
      if ((memory.daaScore(data.selectedParent) + index) % BigInt(rate) === 0n) samples.push(candidate);
    }
    current = data.selectedParent;
  }
  return samples.sort(compareSortableBlocks).reverse().slice(0, size);
}
