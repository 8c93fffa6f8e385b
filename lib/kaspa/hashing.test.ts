import { describe, expect, it } from 'vitest';
import { ByteWriter, bytesToHex, concatBytes, hexToBytes } from './bytes';
import {
  blake2bKeyed,
  blake3Keyed,
  ecdsaSigningHash,
  kHeavyHashFinal,
  powHash,
  type Blake2bDomain,
  type Blake3Domain,
} from './hashing';
import { toccata } from './test-support/toccata-vectors';
import { readVectors } from './test-support/vectors';

interface KeyedHasherVector {
  name: string;
  algorithm: 'blake2b-256-keyed' | 'blake3-keyed' | 'sha256';
  expectedCumulative: string[];
}

interface Vectors {
  keyedHashers: { inputs: string[]; vectors: KeyedHasherVector[] };
  pow: {
    cshakeEquivalence: {
      powHash: { prePowHash: string; timestamp: string; nonce: string; expected: string };
      kHeavyHashOf2a: { input: string; expected: string };
    };
  };
}

const { keyedHashers, pow } = readVectors<Vectors>('kaspa-vectors.json');

function hasherFor(vector: KeyedHasherVector): (data: Uint8Array) => Uint8Array {
  switch (vector.algorithm) {
    case 'blake2b-256-keyed':
      return (data) => blake2bKeyed(vector.name as Blake2bDomain, data);
    case 'blake3-keyed':
      return (data) => blake3Keyed(vector.name as Blake3Domain, data);
    case 'sha256':
      if (vector.name !== 'TransactionSigningHashECDSA') throw new Error(`unknown sha256 hasher ${vector.name}`);
      return ecdsaSigningHash;
  }
}

describe('keyed hashers (crypto/hashes/src/hashers.rs test vectors)', () => {
  const inputs = keyedHashers.inputs.map(hexToBytes);

  it.each(keyedHashers.vectors.map((vector) => [vector.name, vector] as const))('%s', (_name, vector) => {
    const hash = hasherFor(vector);
    expect(vector.expectedCumulative).toHaveLength(inputs.length);
    const digests = inputs.map((_, i) => bytesToHex(hash(concatBytes(...inputs.slice(0, i + 1)))));
    expect(digests).toEqual(vector.expectedCumulative);
  });
});

describe('Toccata BLAKE3 keyed hashers (toccata-vectors keyedHashersBlake3, hashers.rs::test_blake3_vectors)', () => {
  const inputs = toccata.keyedHashersBlake3.inputs.map(hexToBytes);

  it.each(toccata.keyedHashersBlake3.vectors.map((vector) => [vector.name, vector] as const))('%s', (name, vector) => {
    const key = new Uint8Array(32);
    key.set(new TextEncoder().encode(name));
    expect(bytesToHex(key)).toBe(vector.keyHex);
    expect(vector.expectedCumulative).toHaveLength(inputs.length);
    const digests = inputs.map((_, i) => bytesToHex(blake3Keyed(name as Blake3Domain, concatBytes(...inputs.slice(0, i + 1)))));
    expect(digests).toEqual(vector.expectedCumulative);
  });
});

describe('proof-of-work cSHAKE256 hashers (crypto/hashes/src/pow_hashers.rs)', () => {
  it('PowHash hashes pre_pow_hash ‖ u64le(timestamp) ‖ 32 zero bytes ‖ u64le(nonce)', () => {
    const vector = pow.cshakeEquivalence.powHash;
    const preimage = new ByteWriter()
      .bytes(hexToBytes(vector.prePowHash))
      .u64(BigInt(vector.timestamp))
      .bytes(new Uint8Array(32))
      .u64(BigInt(vector.nonce))
      .finish();
    expect(bytesToHex(powHash(preimage))).toBe(vector.expected);
  });

  it('KHeavyHash is cSHAKE256 customised with "HeavyHash"', () => {
    const vector = pow.cshakeEquivalence.kHeavyHashOf2a;
    expect(bytesToHex(kHeavyHashFinal(hexToBytes(vector.input)))).toBe(vector.expected);
  });
});
