/**
 * Proof of work: compact difficulty bits, work, the RPC difficulty ratio and kHeavyHash
 * (consensus/pow/src/{lib,matrix,xoshiro}.rs, math/src/lib.rs, consensus/src/processes/difficulty.rs).
 *
 * A PoW value is the final 32-byte hash read as a little-endian 256-bit integer; a block is valid when it is
 * at most the target its `bits` encode.
 */
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { bytesToHex } from './bytes';
import { kHeavyHashFinal, powHash } from './hashing';
import { prePowHash } from './header';
import { keccakF1600 } from './keccak';
import type { Header } from './types';

const U256_MASK = (1n << 256n) - 1n;
const U64_MASK = (1n << 64n) - 1n;

/** Highest target any Kaspa network allows (2^255 − 1); also the numerator of the RPC difficulty ratio. */
export const MAX_DIFFICULTY_TARGET = (1n << 255n) - 1n;
const MAX_DIFFICULTY_TARGET_F64 = Number(MAX_DIFFICULTY_TARGET);

/**
 * Decodes Bitcoin-style compact bits. A mantissa above 0x7FFFFF (the sign bit) yields 0. Like kaspad's release
 * build, the shift wraps modulo 256 and bits shifted past 2^256 are dropped (no valid header reaches either case).
 */
export function compactToTarget(bits: number): bigint {
  const bitsU32 = bits >>> 0;
  const exponent = bitsU32 >>> 24;
  let mantissa = bitsU32 & 0xffffff;
  let shift = 0;
  if (exponent <= 3) mantissa >>>= 8 * (3 - exponent);
  else shift = (8 * (exponent - 3)) % 256;
  if (mantissa > 0x7fffff) return 0n;
  return (BigInt(mantissa) << BigInt(shift)) & U256_MASK;
}

function assertU256(value: bigint, what: string): void {
  if (value < 0n || value > U256_MASK) {
    throw new RangeError(`${what} must be an unsigned 256-bit integer, got ${value}`);
  }
}

function bitLength(value: bigint): number {
  return value === 0n ? 0 : value.toString(2).length;
}

/** Encodes a target as compact bits, truncating it to its top two or three bytes (Bitcoin's GetCompact). */
export function targetToCompact(target: bigint): number {
  assertU256(target, 'target');
  let size = Math.ceil(bitLength(target) / 8);
  let compact =
    size <= 3
      ? Number(((target & U64_MASK) << BigInt(8 * (3 - size))) & 0xffffffffn)
      : Number(target >> BigInt(8 * (size - 3)));
  if (compact & 0x00800000) {
    compact >>>= 8;
    size += 1;
  }
  return (compact | (size << 24)) >>> 0;
}

/** Expected hashes to find a block at this target: floor(2^256 / (target + 1)); the blue-work increment. */
export function calcWork(bits: number): bigint {
  return (1n << 256n) / (compactToTarget(bits) + 1n);
}

/** Difficulty as kaspad's RPC reports it: (2^255 − 1) / target in f64 (Infinity for a zero target). */
export function difficultyFromBits(bits: number): number {
  return MAX_DIFFICULTY_TARGET_F64 / Number(compactToTarget(bits));
}

/** Pruning-proof block level: max(0, maxBlockLevel − bit length of the PoW value). */
export function blockLevelFromPow(pow: bigint, maxBlockLevel: number): number {
  assertU256(pow, 'pow');
  return Math.max(0, maxBlockLevel - bitLength(pow));
}

const MAX_WORK_LEVEL = 128;

/** Pruning-proof work of a level-`level` block: 0 at level 0, else 2^min(level + 256 − maxBlockLevel, 128). */
export function levelWork(level: number, maxBlockLevel: number): bigint {
  if (level === 0) return 0n;
  return 1n << BigInt(Math.min(level + 256 - maxBlockLevel, MAX_WORK_LEVEL));
}

/** The per-header matrix size: 64 × 64 entries of 4 bits. */
export const MATRIX_SIZE = 64;

/**
 * xoshiro256++ over 64-bit words; seeded with the four little-endian words of a 32-byte hash. Each word is kept as
 * two u32 halves (`state[2k]` low, `state[2k + 1]` high) so generation needs no BigInt.
 */
export class Xoshiro256PlusPlus {
  private readonly state = new Uint32Array(8);

  constructor(seed: Uint8Array) {
    if (seed.length !== 32) throw new RangeError(`xoshiro seed must be 32 bytes, got ${seed.length}`);
    if (seed.every((byte) => byte === 0)) throw new RangeError('an all-zero seed makes xoshiro emit zeros forever');
    const view = new DataView(seed.buffer, seed.byteOffset, seed.byteLength);
    for (let i = 0; i < 8; i++) this.state[i] = view.getUint32(4 * i, true);
  }

  /** Advances the generator and writes the output word's low half to out[0] and its high half to out[1]. */
  nextU64Halves(out: Uint32Array): void {
    const s = this.state;
    const s0Low = s[0]!;
    const s0High = s[1]!;
    const s1Low = s[2]!;
    const s1High = s[3]!;
    const s2Low = s[4]!;
    const s2High = s[5]!;
    const s3Low = s[6]!;
    const s3High = s[7]!;

    // result = rotl(s0 + s3, 23) + s0
    let sumLow = (s0Low + s3Low) >>> 0;
    let sumHigh = (s0High + s3High + (sumLow < s0Low ? 1 : 0)) >>> 0;
    const rotatedLow = ((sumLow << 23) | (sumHigh >>> 9)) >>> 0;
    const rotatedHigh = ((sumHigh << 23) | (sumLow >>> 9)) >>> 0;
    sumLow = (rotatedLow + s0Low) >>> 0;
    sumHigh = (rotatedHigh + s0High + (sumLow < rotatedLow ? 1 : 0)) >>> 0;
    out[0] = sumLow;
    out[1] = sumHigh;

    // t = s1 << 17; s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t; s3 = rotl(s3, 45)
    const tLow = (s1Low << 17) >>> 0;
    const tHigh = ((s1High << 17) | (s1Low >>> 15)) >>> 0;
    const n2Low = s2Low ^ s0Low;
    const n2High = s2High ^ s0High;
    const n3Low = s3Low ^ s1Low;
    const n3High = s3High ^ s1High;
    s[2] = s1Low ^ n2Low;
    s[3] = s1High ^ n2High;
    s[0] = s0Low ^ n3Low;
    s[1] = s0High ^ n3High;
    s[4] = n2Low ^ tLow;
    s[5] = n2High ^ tHigh;
    // A rotation by 45 is a swap of the halves followed by a rotation by 13.
    s[6] = (n3High << 13) | (n3Low >>> 19);
    s[7] = (n3Low << 13) | (n3High >>> 19);
  }

  nextU64(): bigint {
    const halves = new Uint32Array(2);
    this.nextU64Halves(halves);
    return (BigInt(halves[1]!) << 32n) | BigInt(halves[0]!);
  }
}

/** A 64 × 64 matrix, row-major. */
export type PowMatrix = Uint16Array;

/** Fills `matrix` with 4-bit entries, 16 per output word, least significant nibble first. */
function fillRandomMatrix(generator: Xoshiro256PlusPlus, matrix: PowMatrix, halves: Uint32Array): void {
  for (let i = 0; i < matrix.length; i += 16) {
    generator.nextU64Halves(halves);
    const low = halves[0]!;
    const high = halves[1]!;
    for (let nibble = 0; nibble < 8; nibble++) {
      matrix[i + nibble] = (low >>> (4 * nibble)) & 0xf;
      matrix[i + 8 + nibble] = (high >>> (4 * nibble)) & 0xf;
    }
  }
}

/** Rank by floating-point Gauss–Jordan elimination, operation for operation as consensus computes it. */
export function matrixRank(matrix: PowMatrix): number {
  const EPS = 1e-9;
  const m = Float64Array.from(matrix);
  const rowSelected = new Uint8Array(MATRIX_SIZE);
  let rank = 0;
  for (let i = 0; i < MATRIX_SIZE; i++) {
    let j = 0;
    while (j < MATRIX_SIZE && (rowSelected[j] || !(Math.abs(m[j * MATRIX_SIZE + i]!) > EPS))) j++;
    if (j === MATRIX_SIZE) continue;
    rank++;
    rowSelected[j] = 1;
    const pivotRow = j * MATRIX_SIZE;
    // Only columns after i change below, so the pivot and each row's factor (column i) stay fixed in their loops.
    const pivot = m[pivotRow + i]!;
    for (let p = i + 1; p < MATRIX_SIZE; p++) m[pivotRow + p] = m[pivotRow + p]! / pivot;
    for (let k = 0; k < MATRIX_SIZE; k++) {
      const row = k * MATRIX_SIZE;
      const factor = m[row + i]!;
      if (k === j || !(Math.abs(factor) > EPS)) continue;
      for (let p = i + 1; p < MATRIX_SIZE; p++) m[row + p] = m[row + p]! - m[pivotRow + p]! * factor;
    }
  }
  return rank;
}

/** The header's matrix: random 4-bit entries from xoshiro256++(prePowHash), redrawn until full rank. */
export function generateMatrix(prePowHash: Uint8Array): PowMatrix {
  const generator = new Xoshiro256PlusPlus(prePowHash);
  const matrix = new Uint16Array(MATRIX_SIZE * MATRIX_SIZE);
  const halves = new Uint32Array(2);
  for (;;) {
    fillRandomMatrix(generator, matrix, halves);
    if (matrixRank(matrix) === MATRIX_SIZE) return matrix;
  }
}

/**
 * Matrices by pre-PoW hash, least recently used evicted first. A matrix depends on the pre-PoW hash alone, so a hit is
 * exact: a node that validates a block its own miner solved reuses the matrix the miner generated. Matrices handed
 * out are shared and must not be modified.
 */
export class PowMatrixCache {
  private readonly matrices = new Map<string, PowMatrix>();

  constructor(private readonly capacity = 128) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`a cache capacity is a positive integer, got ${capacity}`);
  }

  get size(): number {
    return this.matrices.size;
  }

  matrixFor(prePowHash: Uint8Array): PowMatrix {
    const key = bytesToHex(prePowHash);
    const cached = this.matrices.get(key);
    if (cached !== undefined) {
      this.matrices.delete(key);
      this.matrices.set(key, cached);
      return cached;
    }
    const matrix = generateMatrix(prePowHash);
    if (this.matrices.size >= this.capacity) this.matrices.delete(this.matrices.keys().next().value!);
    this.matrices.set(key, matrix);
    return matrix;
  }
}

function assertHash(hash: Uint8Array, what: string): void {
  if (hash.length !== 32) throw new RangeError(`${what} must be 32 bytes, got ${hash.length}`);
}

/**
 * The heavy hash of a 32-byte hash: matrix × its 64 nibbles (high nibble first), each sum shifted right by 10, pairs
 * repacked into bytes and XORed with the hash, then cSHAKE256("HeavyHash").
 */
export function heavyHash(matrix: PowMatrix, hash: Uint8Array): Uint8Array {
  assertHash(hash, 'heavy-hash input');
  const product = new Uint8Array(32);
  for (let i = 0; i < 32; i++) {
    const high = 2 * i * MATRIX_SIZE;
    const low = high + MATRIX_SIZE;
    let sumHigh = 0;
    let sumLow = 0;
    for (let j = 0; j < 32; j++) {
      const byte = hash[j]!;
      sumHigh += matrix[high + 2 * j]! * (byte >> 4) + matrix[high + 2 * j + 1]! * (byte & 0xf);
      sumLow += matrix[low + 2 * j]! * (byte >> 4) + matrix[low + 2 * j + 1]! * (byte & 0xf);
    }
    product[i] = (((sumHigh >> 10) << 4) | (sumLow >> 10)) ^ hash[i]!;
  }
  return kHeavyHashFinal(product);
}

/** The preimage of the first PoW hash: prePowHash ‖ u64le(timestamp) ‖ 32 zero bytes ‖ u64le(nonce). */
export function powHashPreimage(prePowHash: Uint8Array, timestamp: bigint, nonce: bigint): Uint8Array {
  assertHash(prePowHash, 'pre-PoW hash');
  const preimage = new Uint8Array(80);
  const view = new DataView(preimage.buffer);
  preimage.set(prePowHash);
  view.setBigUint64(32, BigInt.asUintN(64, timestamp), true);
  view.setBigUint64(72, BigInt.asUintN(64, nonce), true);
  return preimage;
}

/** kHeavyHash of one nonce the plain way (allocating); PowState computes the same value much faster. */
export function kHeavyHash(matrix: PowMatrix, prePowHash: Uint8Array, timestamp: bigint, nonce: bigint): Uint8Array {
  return heavyHash(matrix, powHash(powHashPreimage(prePowHash, timestamp, nonce)));
}

/** Reads 32 bytes as a little-endian unsigned integer. */
export function powValue(hash: Uint8Array): bigint {
  assertHash(hash, 'PoW hash');
  let value = 0n;
  for (let i = 31; i >= 0; i--) value = (value << 8n) | BigInt(hash[i]!);
  return value;
}

// cSHAKE256 on raw Keccak-f[1600] lanes: a state is 50 u32 words (lane i = words 2i, 2i+1, little-endian), so byte b
// of the sponge is byte (b & 3) of word b >> 2.
const CSHAKE256_RATE = 136;
const CSHAKE_DOMAIN_PADDING = 0x04;
const FINAL_PADDING = 0x80;

function xorByte(state: Uint32Array, offset: number, byte: number): void {
  state[offset >> 2] = state[offset >> 2]! ^ (byte << (8 * (offset & 3)));
}

/**
 * State after absorbing bytepad(encode_string("") ‖ encode_string(S), rate), with the padding of a single-block
 * `messageLength`-byte message already applied: XOR the message in and permute once to get the digest.
 */
function cshake256BaseState(customization: string, messageLength: number): Uint32Array {
  const name = utf8ToBytes(customization);
  if (name.length * 8 > 255) throw new RangeError('customization too long for a one-byte length encoding');
  const header = [1, CSHAKE256_RATE, 1, 0, 1, name.length * 8];
  const state = new Uint32Array(50);
  header.forEach((byte, i) => xorByte(state, i, byte));
  name.forEach((byte, i) => xorByte(state, header.length + i, byte));
  keccakF1600(state);
  xorByte(state, messageLength, CSHAKE_DOMAIN_PADDING);
  xorByte(state, CSHAKE256_RATE - 1, FINAL_PADDING);
  return state;
}

const POW_HASH_BASE = cshake256BaseState('ProofOfWorkHash', 80);
const HEAVY_HASH_BASE = cshake256BaseState('HeavyHash', 32);
const NONCE_WORD = 72 / 4;

export interface PowStateInput {
  prePowHash: Uint8Array;
  /** Header timestamp in milliseconds. */
  timestamp: bigint;
  bits: number;
  /** Where the matrix is looked up; generated afresh when omitted. */
  matrixCache?: PowMatrixCache;
}

/**
 * Everything about a header's PoW that does not depend on the nonce, computed once: the matrix, the target and the
 * absorbed cSHAKE states. Hashing a nonce then costs two Keccak permutations and one matrix product, with no
 * allocation; `checkPowWords` avoids BigInt entirely for miners' inner loops.
 */
export class PowState {
  readonly matrix: PowMatrix;
  readonly target: bigint;
  private readonly targetWords = new Uint32Array(8);
  private readonly powBase = new Uint32Array(POW_HASH_BASE);
  private readonly powWork = new Uint32Array(50);
  private readonly heavyWork = new Uint32Array(50);
  private readonly nibbles = new Int32Array(MATRIX_SIZE);
  /**
   * Rows 2i and 2i + 1 packed as (row 2i) << 16 | (row 2i + 1), so one multiply-add serves both rows: a row's sum is
   * at most 64 · 15 · 15 = 14,400 < 2^16, so the halves never carry into each other and the total stays below 2^30.
   */
  private readonly packedRowPairs = new Int32Array((MATRIX_SIZE / 2) * MATRIX_SIZE);

  constructor({ prePowHash, timestamp, bits, matrixCache }: PowStateInput) {
    assertHash(prePowHash, 'pre-PoW hash');
    this.matrix = matrixCache ? matrixCache.matrixFor(prePowHash) : generateMatrix(prePowHash);
    for (let i = 0; i < MATRIX_SIZE / 2; i++) {
      for (let c = 0; c < MATRIX_SIZE; c++) {
        this.packedRowPairs[i * MATRIX_SIZE + c] =
          (this.matrix[2 * i * MATRIX_SIZE + c]! << 16) | this.matrix[(2 * i + 1) * MATRIX_SIZE + c]!;
      }
    }
    this.target = compactToTarget(bits);
    for (let i = 0; i < 8; i++) this.targetWords[i] = Number((this.target >> BigInt(32 * i)) & 0xffffffffn);
    powHashPreimage(prePowHash, timestamp, 0n).forEach((byte, i) => xorByte(this.powBase, i, byte));
  }

  static fromHeader(header: Header, matrixCache?: PowMatrixCache): PowState {
    return new PowState({ prePowHash: prePowHash(header), timestamp: header.timestamp, bits: header.bits, matrixCache });
  }

  /** Hashes the nonce given as two u32 halves; the result is left in the internal state (words 0..7). */
  private hashNonce(nonceLow: number, nonceHigh: number): Uint32Array {
    const pow = this.powWork;
    pow.set(this.powBase);
    pow[NONCE_WORD] = pow[NONCE_WORD]! ^ nonceLow;
    pow[NONCE_WORD + 1] = pow[NONCE_WORD + 1]! ^ nonceHigh;
    keccakF1600(pow);

    const nibbles = this.nibbles;
    for (let w = 0; w < 8; w++) {
      const word = pow[w]!;
      for (let k = 0; k < 4; k++) {
        const byte = (word >>> (8 * k)) & 0xff;
        nibbles[8 * w + 2 * k] = byte >> 4;
        nibbles[8 * w + 2 * k + 1] = byte & 0xf;
      }
    }

    const heavy = this.heavyWork;
    heavy.set(HEAVY_HASH_BASE);
    const rows = this.packedRowPairs;
    for (let i = 0; i < 32; i++) {
      const base = i << 6;
      let sums = 0;
      for (let c = 0; c < MATRIX_SIZE; c += 4) {
        sums +=
          rows[base + c]! * nibbles[c]! +
          rows[base + c + 1]! * nibbles[c + 1]! +
          rows[base + c + 2]! * nibbles[c + 2]! +
          rows[base + c + 3]! * nibbles[c + 3]!;
      }
      const hashByte = (pow[i >> 2]! >>> ((i & 3) << 3)) & 0xff;
      const product = ((((sums >>> 16) >> 10) << 4) | ((sums & 0xffff) >> 10)) ^ hashByte;
      heavy[i >> 2] = heavy[i >> 2]! ^ (product << ((i & 3) << 3));
    }
    keccakF1600(heavy);
    return heavy;
  }

  /** True when the PoW value of the nonce (given as u32 halves) is at most the target. */
  checkPowWords(nonceLow: number, nonceHigh: number): boolean {
    const result = this.hashNonce(nonceLow, nonceHigh);
    const target = this.targetWords;
    for (let w = 7; w >= 0; w--) {
      const value = result[w]!;
      const limit = target[w]!;
      if (value !== limit) return value < limit;
    }
    return true;
  }

  checkPow(nonce: bigint): boolean {
    const [low, high] = splitNonce(nonce);
    return this.checkPowWords(low, high);
  }

  /** The PoW value of the nonce as an unsigned 256-bit integer. */
  calculatePow(nonce: bigint): bigint {
    const [low, high] = splitNonce(nonce);
    const result = this.hashNonce(low, high);
    let value = 0n;
    for (let w = 7; w >= 0; w--) value = (value << 32n) | BigInt(result[w]!);
    return value;
  }
}

function splitNonce(nonce: bigint): [number, number] {
  if (nonce < 0n || nonce > U64_MASK) throw new RangeError(`nonce must be a u64, got ${nonce}`);
  return [Number(nonce & 0xffffffffn), Number(nonce >> 32n)];
}
