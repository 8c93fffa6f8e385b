/**
 * MuHash3072, the rolling multiset hash behind the header's UTXO commitment
 * (crypto/muhash, consensus/core/src/muhash.rs).
 *
 * An element is BLAKE2b-keyed("MuHashElement") of its bytes, expanded by ChaCha20 (that hash as key, zero nonce) into a
 * 3072-bit little-endian number. The set is the product of its elements modulo p = 2^3072 − 1103717, kept as a fraction
 * (added elements multiply the numerator, removed ones the denominator) so removal needs no inverse until finalizing.
 */
import { chacha20 } from '@noble/ciphers/chacha.js';
import { ByteWriter, hexToBytes } from './bytes';
import { blake2bKeyed } from './hashing';
import { isCoinbase, transactionId } from './transaction';
import type { Hash, Outpoint, Transaction, UtxoEntry } from './types';

export const MUHASH_SERIALIZED_SIZE = 384;
/** Finalized hash of the empty set. */
export const EMPTY_MUHASH: Hash = hexToBytes('544eb3142c000f0ad2c76ac41f4222abbababed830eeafee4b6dc56b52d5cac0');

const ELEMENT_BITS = 3072n;
const PRIME_DIFF = 1103717n;
const PRIME = (1n << ELEMENT_BITS) - PRIME_DIFF;
const LOW_MASK = (1n << ELEMENT_BITS) - 1n;

export class MuHashOverflowError extends Error {
  override name = 'MuHashOverflowError';
}

/** x mod p using 2^3072 ≡ 1103717 (mod p): fold the high part down instead of dividing. */
function reduce(x: bigint): bigint {
  while (x > LOW_MASK) x = (x & LOW_MASK) + (x >> ELEMENT_BITS) * PRIME_DIFF;
  return x >= PRIME ? x - PRIME : x;
}

const LEHMER_DIGIT_BITS = 48;
const SINGLE_PRECISION_LIMIT = 1n << BigInt(LEHMER_DIGIT_BITS);

/**
 * Modular inverse by Lehmer's extended Euclid: most quotient steps run on the leading 48 bits in doubles (exact below
 * 2^53) and are applied to the big numbers in one batch. Zero maps to zero, as in rusty-kaspa.
 */
function inverse(value: bigint): bigint {
  let r0 = PRIME;
  let r1 = reduce(value);
  if (r1 === 0n) return 0n;
  let t0 = 0n;
  let t1 = 1n;
  while (r1 >= SINGLE_PRECISION_LIMIT) {
    const shift = BigInt(Math.max(0, r0.toString(16).length * 4 - LEHMER_DIGIT_BITS));
    let x = Number(r0 >> shift);
    let y = Number(r1 >> shift);
    let a = 1;
    let b = 0;
    let c = 0;
    let d = 1;
    while (y + c !== 0 && y + d !== 0) {
      const q = Math.floor((x + a) / (y + c));
      if (q !== Math.floor((x + b) / (y + d))) break;
      [a, c] = [c, a - q * c];
      [b, d] = [d, b - q * d];
      [x, y] = [y, x - q * y];
    }
    if (b === 0) {
      const q = r0 / r1;
      [r0, r1] = [r1, r0 - q * r1];
      [t0, t1] = [t1, t0 - q * t1];
    } else {
      const [A, B, C, D] = [BigInt(a), BigInt(b), BigInt(c), BigInt(d)];
      [r0, r1] = [A * r0 + B * r1, C * r0 + D * r1];
      [t0, t1] = [A * t0 + B * t1, C * t0 + D * t1];
    }
  }
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [t0, t1] = [t1, t0 - q * t1];
  }
  const result = t0 % PRIME;
  return result < 0n ? result + PRIME : result;
}

const HEX_BYTES = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

function fromLittleEndian(bytes: Uint8Array): bigint {
  let hex = '0x';
  for (let i = bytes.length - 1; i >= 0; i--) hex += HEX_BYTES[bytes[i]!];
  return BigInt(hex);
}

function toLittleEndian(value: bigint): Uint8Array {
  return hexToBytes(value.toString(16).padStart(2 * MUHASH_SERIALIZED_SIZE, '0')).reverse();
}

const CHACHA_NONCE = new Uint8Array(12);
const ZERO_ELEMENT = new Uint8Array(MUHASH_SERIALIZED_SIZE);
const elementBuffer = new Uint8Array(MUHASH_SERIALIZED_SIZE);

/** The group element of `data` (not yet reduced; always below 2^3072). */
export function muHashElement(data: Uint8Array): bigint {
  const seed = blake2bKeyed('MuHashElement', data);
  return fromLittleEndian(chacha20(seed, CHACHA_NONCE, ZERO_ELEMENT, elementBuffer));
}

/**
 * The MuHash element of a UTXO: txid ‖ u32le(index) ‖ u64le(block DAA score) ‖ u64le(amount) ‖ u8(is coinbase) ‖
 * u16le(script version) ‖ u64le(script length) ‖ script, then the covenant id when the entry has one.
 */
export function utxoElementBytes(outpoint: Outpoint, entry: UtxoEntry): Uint8Array {
  const writer = new ByteWriter()
    .bytes(outpoint.transactionId)
    .u32(outpoint.index)
    .u64(entry.blockDaaScore)
    .u64(entry.amount)
    .u8(entry.isCoinbase ? 1 : 0)
    .u16(entry.scriptPublicKey.version)
    .varBytes(entry.scriptPublicKey.script);
  if (entry.covenantId) writer.bytes(entry.covenantId);
  return writer.finish();
}

export class MuHash {
  private numerator = 1n;
  private denominator = 1n;

  /** Restores a set from its 384-byte serialization; values ≥ p are rejected as rusty-kaspa does. */
  static fromSerialized(bytes: Uint8Array): MuHash {
    if (bytes.length !== MUHASH_SERIALIZED_SIZE) {
      throw new RangeError(`serialized MuHash must be ${MUHASH_SERIALIZED_SIZE} bytes, got ${bytes.length}`);
    }
    const value = fromLittleEndian(bytes);
    if (value >= PRIME) throw new MuHashOverflowError('serialized MuHash is not below the MuHash prime');
    const muHash = new MuHash();
    muHash.numerator = value;
    return muHash;
  }

  clone(): MuHash {
    const copy = new MuHash();
    copy.numerator = this.numerator;
    copy.denominator = this.denominator;
    return copy;
  }

  addElement(data: Uint8Array): this {
    this.numerator = reduce(this.numerator * muHashElement(data));
    return this;
  }

  removeElement(data: Uint8Array): this {
    this.denominator = reduce(this.denominator * muHashElement(data));
    return this;
  }

  addUtxo(outpoint: Outpoint, entry: UtxoEntry): this {
    return this.addElement(utxoElementBytes(outpoint, entry));
  }

  removeUtxo(outpoint: Outpoint, entry: UtxoEntry): this {
    return this.removeElement(utxoElementBytes(outpoint, entry));
  }

  /**
   * Applies an accepted transaction: removes the entries its inputs spend (`spentEntries[i]` for input i) and adds its
   * outputs as new entries created at `blockDaaScore` (the accepting block's DAA score).
   */
  addTransaction(tx: Transaction, spentEntries: readonly UtxoEntry[], blockDaaScore: bigint): this {
    if (spentEntries.length !== tx.inputs.length) {
      throw new RangeError(`expected ${tx.inputs.length} spent entries, got ${spentEntries.length}`);
    }
    tx.inputs.forEach((input, i) => this.removeUtxo(input.previousOutpoint, spentEntries[i]!));
    const id = transactionId(tx);
    const coinbase = isCoinbase(tx);
    tx.outputs.forEach((output, index) =>
      this.addUtxo(
        { transactionId: id, index },
        {
          amount: output.value,
          scriptPublicKey: output.scriptPublicKey,
          blockDaaScore,
          isCoinbase: coinbase,
          covenantId: output.covenant?.covenantId ?? null,
        },
      ),
    );
    return this;
  }

  /** Adds every element of `other` (and removes every element it removes). */
  combine(other: MuHash): this {
    this.numerator = reduce(this.numerator * other.numerator);
    this.denominator = reduce(this.denominator * other.denominator);
    return this;
  }

  private normalize(): bigint {
    if (this.denominator !== 1n) {
      this.numerator = reduce(this.numerator * inverse(this.denominator));
      this.denominator = 1n;
    }
    return this.numerator;
  }

  /** The set as numerator / denominator mod p, 384 bytes little-endian. */
  serialize(): Uint8Array {
    return toLittleEndian(this.normalize());
  }

  finalize(): Hash {
    return blake2bKeyed('MuHashFinalize', this.serialize());
  }
}
