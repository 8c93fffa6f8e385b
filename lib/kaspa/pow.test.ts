import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytes } from './bytes';
import { kHeavyHashFinal, powHash } from './hashing';
import { prePowHash } from './header';
import {
  MATRIX_SIZE,
  MAX_DIFFICULTY_TARGET,
  PowMatrixCache,
  PowState,
  Xoshiro256PlusPlus,
  blockLevelFromPow,
  calcWork,
  compactToTarget,
  difficultyFromBits,
  generateMatrix,
  heavyHash,
  kHeavyHash,
  levelWork,
  matrixRank,
  powHashPreimage,
  powValue,
  targetToCompact,
  type PowMatrix,
} from './pow';
import { headerFromVector, type HeaderVector } from './test-support/headers';
import { readVectors } from './test-support/vectors';

interface PowVectors {
  pow: {
    matrixGeneration: { seedPrePowHash: string; expectedMatrixRows: string[] };
    heavyHash: { matrixRows: string[]; inputHash: string; expected: string };
    cshakeEquivalence: {
      powHash: { prePowHash: string; timestamp: string; nonce: string; expected: string };
      kHeavyHashOf2a: { input: string; expected: string };
    };
    testnetGenesisPow: {
      header: HeaderVector;
      expectedPrePowHash: string;
      expectedPowHash: string;
      expectedFinalHash: string;
      targetHex: string;
      finalHashBitLength: number;
    };
  };
}

const { pow: vectors } = readVectors<PowVectors>('kaspa-vectors.json');

function matrixFromRows(rows: string[]): PowMatrix {
  return Uint16Array.from(rows.join(''), (digit) => parseInt(digit, 16));
}

function matrixToRows(matrix: PowMatrix): string[] {
  const rows: string[] = [];
  for (let row = 0; row < MATRIX_SIZE; row++) {
    rows.push(Array.from(matrix.subarray(row * MATRIX_SIZE, (row + 1) * MATRIX_SIZE), (entry) => entry.toString(16)).join(''));
  }
  return rows;
}

function compactDroppedBits(bits: number): bigint {
  return BigInt(Math.max(0, 8 * ((bits >>> 24) - 3)));
}

const arbHash = fc.uint8Array({ minLength: 32, maxLength: 32 });
const arbU64 = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });
const arbTarget = fc.bigInt({ min: 0n, max: (1n << 256n) - 1n });

describe('compact bits', () => {
  it('decodes the testnet genesis bits to its target', () => {
    const { header, targetHex } = vectors.testnetGenesisPow;
    expect(compactToTarget(header.bits)).toBe(BigInt('0x' + targetHex));
    expect(targetToCompact(BigInt('0x' + targetHex))).toBe(header.bits);
  });

  it('treats a mantissa with the sign bit as a zero target', () => {
    fc.assert(
      fc.property(fc.integer({ min: 4, max: 0x22 }), fc.integer({ min: 0x800000, max: 0xffffff }), (exponent, mantissa) => {
        expect(compactToTarget(((exponent << 24) | mantissa) >>> 0)).toBe(0n);
      }),
    );
  });

  it('round-trips every normalised compact value', () => {
    const normalisedBits = fc
      .tuple(fc.integer({ min: 4, max: 0x20 }), fc.integer({ min: 0x8000, max: 0x7fffff }))
      .map(([exponent, mantissa]) => ((exponent << 24) | mantissa) >>> 0);
    fc.assert(
      fc.property(normalisedBits, (bits) => {
        expect(targetToCompact(compactToTarget(bits))).toBe(bits);
      }),
    );
  });

  it('encodes a target by truncating it below its top mantissa bytes', () => {
    fc.assert(
      fc.property(arbTarget, (target) => {
        const bits = targetToCompact(target);
        const dropped = compactDroppedBits(bits);
        expect(compactToTarget(bits)).toBe((target >> dropped) << dropped);
        expect(bits & 0x800000).toBe(0);
      }),
    );
  });

  it('rejects values outside u256', () => {
    expect(() => targetToCompact(-1n)).toThrow(RangeError);
    expect(() => targetToCompact(1n << 256n)).toThrow(RangeError);
  });
});

describe('work and difficulty', () => {
  it('gives the work of each level target within 1% of the level work (difficulty.rs::test_target_levels)', () => {
    const maxBlockLevel = 225;
    for (let level = 1; level <= maxBlockLevel; level++) {
      const levelTarget = (1n << BigInt(Math.max(maxBlockLevel - level, 128))) - 1n;
      expect(blockLevelFromPow(levelTarget, maxBlockLevel)).toBe(Math.min(level, maxBlockLevel - 128));
      const trueWork = calcWork(targetToCompact(levelTarget));
      const estimate = levelWork(level, maxBlockLevel);
      expect((trueWork - estimate) * 100n <= estimate).toBe(true);
    }
    expect(levelWork(0, 255)).toBe(0n);
  });

  it('computes work as floor(2^256 / (target + 1)), decreasing as the target grows', () => {
    fc.assert(
      fc.property(fc.integer({ min: 4, max: 0x20 }), fc.integer({ min: 1, max: 0x7fffff }), (exponent, mantissa) => {
        const bits = ((exponent << 24) | mantissa) >>> 0;
        const target = compactToTarget(bits);
        const work = calcWork(bits);
        expect(work * (target + 1n) <= 1n << 256n).toBe(true);
        expect((work + 1n) * (target + 1n) > 1n << 256n).toBe(true);
      }),
    );
    expect(calcWork(targetToCompact(MAX_DIFFICULTY_TARGET))).toBe(2n);
  });

  it('reports difficulty 1 at the maximum target and scales inversely with the target', () => {
    expect(difficultyFromBits(0x2100ffff)).toBe(Number(MAX_DIFFICULTY_TARGET) / Number(0xffffn << 240n));
    const genesisBits = vectors.testnetGenesisPow.header.bits;
    expect(difficultyFromBits(genesisBits)).toBeCloseTo(2 ** 255 / Number(compactToTarget(genesisBits)), 6);
    expect(difficultyFromBits(0x1d7fffff) / difficultyFromBits(0x1e7fffff)).toBeCloseTo(256, 9);
    expect(difficultyFromBits(0)).toBe(Infinity);
  });
});

describe('matrix', () => {
  it('generates the matrix of hash 2a…2a (matrix.rs::test_generate_matrix)', () => {
    const matrix = generateMatrix(hexToBytes(vectors.matrixGeneration.seedPrePowHash));
    expect(matrixToRows(matrix)).toEqual(vectors.matrixGeneration.expectedMatrixRows);
  });

  it('computes ranks like consensus (matrix.rs::test_compute_rank)', () => {
    const zero = new Uint16Array(MATRIX_SIZE * MATRIX_SIZE);
    expect(matrixRank(zero)).toBe(0);
    const rng = new Xoshiro256PlusPlus(new Uint8Array(32).fill(42));
    const full = zero.map(() => Number(rng.nextU64() & 0xffffn));
    expect(matrixRank(full)).toBe(64);
    full.copyWithin(0, MATRIX_SIZE, 2 * MATRIX_SIZE);
    expect(matrixRank(full)).toBe(63);
  });

  it('runs xoshiro256++ on u32 halves exactly as the 64-bit definition (xoshiro.rs) does', () => {
    const mask = (1n << 64n) - 1n;
    const rotl = (value: bigint, shift: bigint) => ((value << shift) | (value >> (64n - shift))) & mask;
    fc.assert(
      fc.property(arbHash.filter((seed) => seed.some((byte) => byte !== 0)), (seed) => {
        const view = new DataView(seed.buffer, seed.byteOffset, seed.byteLength);
        const s = [0, 8, 16, 24].map((offset) => view.getBigUint64(offset, true));
        const generator = new Xoshiro256PlusPlus(seed);
        for (let step = 0; step < 40; step++) {
          const expected = (rotl((s[0]! + s[3]!) & mask, 23n) + s[0]!) & mask;
          const t = (s[1]! << 17n) & mask;
          s[2]! ^= s[0]!;
          s[3]! ^= s[1]!;
          s[1]! ^= s[2]!;
          s[0]! ^= s[3]!;
          s[2]! ^= t;
          s[3] = rotl(s[3]!, 45n);
          expect(generator.nextU64()).toBe(expected);
        }
      }),
      { numRuns: 30 },
    );
  });

  it('only ever returns full-rank matrices of 4-bit entries', () => {
    fc.assert(
      fc.property(arbHash, (seed) => {
        const matrix = generateMatrix(seed);
        expect(matrix.every((entry) => entry < 16)).toBe(true);
        expect(matrixRank(matrix)).toBe(64);
      }),
      { numRuns: 20 },
    );
  });

  it('computes the heavy hash of the source test matrix (matrix.rs::test_heavy_hash)', () => {
    const { matrixRows, inputHash, expected } = vectors.heavyHash;
    expect(bytesToHex(heavyHash(matrixFromRows(matrixRows), hexToBytes(inputHash)))).toBe(expected);
  });
});

describe('cSHAKE256 PoW hashers', () => {
  it('hashes prePowHash ‖ timestamp ‖ zeros ‖ nonce with cSHAKE256("ProofOfWorkHash")', () => {
    const { prePowHash, timestamp, nonce, expected } = vectors.cshakeEquivalence.powHash;
    const preimage = powHashPreimage(hexToBytes(prePowHash), BigInt(timestamp), BigInt(nonce));
    expect(preimage.length).toBe(80);
    expect(bytesToHex(powHash(preimage))).toBe(expected);
  });

  it('finalises with cSHAKE256("HeavyHash")', () => {
    const { input, expected } = vectors.cshakeEquivalence.kHeavyHashOf2a;
    expect(bytesToHex(kHeavyHashFinal(hexToBytes(input)))).toBe(expected);
  });
});

describe('PowState', () => {
  const genesis = vectors.testnetGenesisPow;
  const genesisState = new PowState({
    prePowHash: hexToBytes(genesis.expectedPrePowHash),
    timestamp: BigInt(genesis.header.timestamp),
    bits: genesis.header.bits,
  });

  it('reproduces the testnet-10 genesis proof of work', () => {
    const header = headerFromVector(genesis.header);
    expect(bytesToHex(prePowHash(header))).toBe(genesis.expectedPrePowHash);
    const nonce = header.nonce;
    const preimage = powHashPreimage(hexToBytes(genesis.expectedPrePowHash), BigInt(genesis.header.timestamp), nonce);
    expect(bytesToHex(powHash(preimage))).toBe(genesis.expectedPowHash);

    const pow = genesisState.calculatePow(nonce);
    expect(pow).toBe(powValue(hexToBytes(genesis.expectedFinalHash)));
    expect(pow.toString(2).length).toBe(genesis.finalHashBitLength);
    expect(genesisState.target).toBe(BigInt('0x' + genesis.targetHex));
    expect(genesisState.checkPow(nonce)).toBe(true);
    expect(PowState.fromHeader(header).calculatePow(nonce)).toBe(pow);
  });

  it('matches the plain cSHAKE + matrix computation for any header and nonce', () => {
    fc.assert(
      fc.property(arbHash, arbU64, fc.array(arbU64, { minLength: 1, maxLength: 4 }), (prePowHash, timestamp, nonces) => {
        const state = new PowState({ prePowHash, timestamp, bits: 0x1e7fffff });
        for (const nonce of nonces) {
          expect(state.calculatePow(nonce)).toBe(powValue(kHeavyHash(state.matrix, prePowHash, timestamp, nonce)));
        }
      }),
      { numRuns: 15 },
    );
  });

  it('passes a nonce exactly when its PoW value is at most the target', () => {
    fc.assert(
      fc.property(arbU64, (nonce) => {
        const pow = genesisState.calculatePow(nonce);
        expect(genesisState.checkPow(nonce)).toBe(pow <= genesisState.target);
        const low = Number(nonce & 0xffffffffn);
        const high = Number(nonce >> 32n);
        expect(genesisState.checkPowWords(low, high)).toBe(genesisState.checkPow(nonce));
      }),
      { numRuns: 200 },
    );
  });

  it('compares against targets that share the top 23 bits of the PoW value', () => {
    const input = { prePowHash: hexToBytes(genesis.expectedPrePowHash), timestamp: BigInt(genesis.header.timestamp) };
    fc.assert(
      fc.property(arbU64, (nonce) => {
        const pow = genesisState.calculatePow(nonce);
        const below = targetToCompact(pow);
        const above = targetToCompact(compactToTarget(below) + (1n << compactDroppedBits(below)));
        expect(compactToTarget(above) > pow).toBe(true);
        expect(new PowState({ ...input, bits: below }).checkPow(nonce)).toBe(compactToTarget(below) === pow);
        expect(new PowState({ ...input, bits: above }).checkPow(nonce)).toBe(true);
      }),
      { numRuns: 5 },
    );
    expect(new PowState({ ...input, bits: 0 }).checkPow(7n)).toBe(false);
  });

  it('takes matrices from a PowMatrixCache: generated once per pre-PoW hash, least recently used evicted', () => {
    const cache = new PowMatrixCache(2);
    const [a, b, c] = [1, 2, 3].map((fill) => new Uint8Array(32).fill(fill)) as [Uint8Array, Uint8Array, Uint8Array];
    const fromA = cache.matrixFor(a);
    expect(fromA).toEqual(generateMatrix(a));
    expect(new PowState({ prePowHash: a, timestamp: 5n, bits: 0x1e7fffff, matrixCache: cache }).matrix).toBe(fromA);
    const fromB = cache.matrixFor(b);
    expect(cache.matrixFor(a)).toBe(fromA);
    cache.matrixFor(c);
    expect(cache.size).toBe(2);
    expect(cache.matrixFor(a)).toBe(fromA);
    const regeneratedB = cache.matrixFor(b);
    expect(regeneratedB).not.toBe(fromB);
    expect(regeneratedB).toEqual(fromB);
    const header = headerFromVector(genesis.header);
    const cached = PowState.fromHeader(header, new PowMatrixCache()).calculatePow(header.nonce);
    expect(cached).toBe(genesisState.calculatePow(header.nonce));
  });

  it('rejects nonces outside u64 and pre-PoW hashes that are not 32 bytes', () => {
    expect(() => genesisState.checkPow(-1n)).toThrow(RangeError);
    expect(() => genesisState.calculatePow(1n << 64n)).toThrow(RangeError);
    expect(() => new PowState({ prePowHash: new Uint8Array(31), timestamp: 0n, bits: 0 })).toThrow(RangeError);
  });
});
