/**
 * Block header hashing (consensus/core/src/hashing/header.rs) and the pre-PoW hash that seeds kHeavyHash
 * (consensus/pow/src/lib.rs: the header hash with timestamp and nonce zeroed). A version 2 (Toccata) header hashes with
 * the same preimage as version 1; only the meaning of accepted_id_merkle_root changes.
 */
import { ByteWriter, hexToBytes } from './bytes';
import { blake2bKeyed, HASH_SIZE } from './hashing';
import type { Hash, Header } from './types';

/** Header versions (consensus/core/src/constants.rs): 1 until Toccata, 2 from it on (accepted_id_merkle_root = KIP-21 seq commit). */
export const BLOCK_VERSION = 1;
export const BLOCK_VERSION_TOCCATA = 2;

const BLUE_WORK_LIMIT = 1n << 192n;

/** Blue work as big-endian bytes without leading zeros (zero is the empty string), as headers hash it. */
export function blueWorkToBytes(blueWork: bigint): Uint8Array {
  if (blueWork < 0n || blueWork >= BLUE_WORK_LIMIT) throw new RangeError(`blue work is not a u192: ${blueWork}`);
  if (blueWork === 0n) return new Uint8Array(0);
  const hex = blueWork.toString(16);
  return hexToBytes(hex.length % 2 === 0 ? hex : `0${hex}`);
}

function requireHash(value: Hash, field: string): Hash {
  if (value.length !== HASH_SIZE) throw new RangeError(`${field} must be ${HASH_SIZE} bytes, got ${value.length}`);
  return value;
}

export interface HeaderHashOverrides {
  timestamp?: bigint;
  nonce?: bigint;
}

/** Writes the header preimage: parents levels and each level are u64-length-prefixed, blue score precedes blue work. */
export function writeHeader(writer: ByteWriter, header: Header, overrides: HeaderHashOverrides = {}): void {
  writer.u16(header.version).u64(header.parentsByLevel.length);
  for (const level of header.parentsByLevel) {
    writer.u64(level.length);
    for (const parent of level) writer.bytes(requireHash(parent, 'parent'));
  }
  writer
    .bytes(requireHash(header.hashMerkleRoot, 'hashMerkleRoot'))
    .bytes(requireHash(header.acceptedIdMerkleRoot, 'acceptedIdMerkleRoot'))
    .bytes(requireHash(header.utxoCommitment, 'utxoCommitment'))
    .u64(overrides.timestamp ?? header.timestamp)
    .u32(header.bits)
    .u64(overrides.nonce ?? header.nonce)
    .u64(header.daaScore)
    .u64(header.blueScore)
    .varBytes(blueWorkToBytes(header.blueWork))
    .bytes(requireHash(header.pruningPoint, 'pruningPoint'));
}

function hashHeader(header: Header, overrides?: HeaderHashOverrides): Hash {
  const writer = new ByteWriter();
  writeHeader(writer, header, overrides);
  return blake2bKeyed('BlockHash', writer.finish());
}

/** The block hash. */
export function headerHash(header: Header): Hash {
  return hashHeader(header);
}

/** The header hash with timestamp and nonce set to 0: PoW's matrix seed and the first block of its preimage. */
export function prePowHash(header: Header): Hash {
  return hashHeader(header, { timestamp: 0n, nonce: 0n });
}
