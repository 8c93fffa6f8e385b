import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteWriter, bytesToHex, equalBytes } from './bytes';
import { powHash } from './hashing';
import { BLOCK_VERSION, BLOCK_VERSION_TOCCATA, blueWorkToBytes, headerHash, prePowHash } from './header';
import { GOREF_DEVNET_BLOCKS } from './test-support/goref-blocks';
import { headerFromVector, type HeaderVector } from './test-support/headers';
import { toccata } from './test-support/toccata-vectors';
import { readVectors } from './test-support/vectors';
import type { Hash, Header } from './types';

interface Vectors {
  headers: { vectors: { name: string; header: HeaderVector; expectedHeaderHash: string }[] };
  pow: { testnetGenesisPow: { header: HeaderVector; expectedPrePowHash: string; expectedPowHash: string } };
}

const { headers, pow } = readVectors<Vectors>('kaspa-vectors.json');

describe('header hash (consensus/core/src/config/genesis.rs::test_genesis_hashes)', () => {
  it.each(headers.vectors.map((vector) => [vector.name, vector] as const))('%s', (_name, vector) => {
    expect(bytesToHex(headerHash(headerFromVector(vector.header)))).toBe(vector.expectedHeaderHash);
  });
});

describe('header hash of devnet blocks (testing/integration/src/consensus_integration_tests.rs::json_test)', () => {
  it.each(GOREF_DEVNET_BLOCKS.map((block) => [block.name, block] as const))('%s', (_name, block) => {
    expect(bytesToHex(headerHash(headerFromVector(block.header)))).toBe(block.expectedHash);
  });
});

describe('pre-PoW hash', () => {
  const vector = pow.testnetGenesisPow;
  const header = headerFromVector(vector.header);

  it('hashes the header with timestamp and nonce zeroed', () => {
    expect(bytesToHex(prePowHash(header))).toBe(vector.expectedPrePowHash);
    expect(bytesToHex(headerHash({ ...header, timestamp: 0n, nonce: 0n }))).toBe(vector.expectedPrePowHash);
  });

  it('feeds the PoW hash together with the real timestamp and nonce', () => {
    const preimage = new ByteWriter()
      .bytes(prePowHash(header))
      .u64(header.timestamp)
      .bytes(new Uint8Array(32))
      .u64(header.nonce)
      .finish();
    expect(bytesToHex(powHash(preimage))).toBe(vector.expectedPowHash);
  });
});

describe('blue work encoding (consensus/core/src/hashing/header.rs::test_hash_blue_work)', () => {
  it('writes zero as an empty byte string and 123456 as 01 e2 40', () => {
    expect(new ByteWriter().varBytes(blueWorkToBytes(0n)).finish()).toEqual(new Uint8Array(8));
    expect(new ByteWriter().varBytes(blueWorkToBytes(123456n)).finish()).toEqual(
      new Uint8Array([3, 0, 0, 0, 0, 0, 0, 0, 1, 226, 64]),
    );
  });

  it('is the minimal big-endian encoding of any u192', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: (1n << 192n) - 1n }), (work) => {
        const bytes = blueWorkToBytes(work);
        expect(bytes[0]).not.toBe(0);
        expect(BigInt(`0x${bytesToHex(bytes)}`)).toBe(work);
      }),
    );
  });

  it('rejects values outside u192', () => {
    expect(() => blueWorkToBytes(-1n)).toThrow(RangeError);
    expect(() => blueWorkToBytes(1n << 192n)).toThrow(RangeError);
  });
});

const hashArb = fc.uint8Array({ minLength: 32, maxLength: 32 });
const u64Arb = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });
const parentsArb = fc.array(fc.array(hashArb, { minLength: 1, maxLength: 3 }), { maxLength: 3 });

const headerArb: fc.Arbitrary<Header> = fc.record({
  version: fc.integer({ min: 0, max: 0xffff }),
  parentsByLevel: parentsArb,
  hashMerkleRoot: hashArb,
  acceptedIdMerkleRoot: hashArb,
  utxoCommitment: hashArb,
  timestamp: u64Arb,
  bits: fc.integer({ min: 0, max: 0xffffffff }),
  nonce: u64Arb,
  daaScore: u64Arb,
  blueScore: u64Arb,
  blueWork: fc.bigInt({ min: 0n, max: (1n << 192n) - 1n }),
  pruningPoint: hashArb,
});

type FieldValue = Header[keyof Header];

function sameValue(a: FieldValue, b: FieldValue): boolean {
  if (a instanceof Uint8Array && b instanceof Uint8Array) return equalBytes(a, b);
  if (Array.isArray(a) && Array.isArray(b)) {
    const hex = (levels: Hash[][]) => JSON.stringify(levels.map((level) => level.map(bytesToHex)));
    return hex(a) === hex(b);
  }
  return a === b;
}

const fieldArbs: { [K in keyof Header]: fc.Arbitrary<Header[K]> } = {
  version: fc.integer({ min: 0, max: 0xffff }),
  parentsByLevel: parentsArb,
  hashMerkleRoot: hashArb,
  acceptedIdMerkleRoot: hashArb,
  utxoCommitment: hashArb,
  timestamp: u64Arb,
  bits: fc.integer({ min: 0, max: 0xffffffff }),
  nonce: u64Arb,
  daaScore: u64Arb,
  blueScore: u64Arb,
  blueWork: fc.bigInt({ min: 0n, max: (1n << 192n) - 1n }),
  pruningPoint: hashArb,
};

describe('header hash commits to every field', () => {
  it.each(Object.keys(fieldArbs) as (keyof Header)[])('changing %s changes the hash', (field) => {
    const valueArb = fieldArbs[field] as fc.Arbitrary<FieldValue>;
    fc.assert(
      fc.property(headerArb, valueArb, (header, value) => {
        fc.pre(!sameValue(header[field], value));
        expect(bytesToHex(headerHash({ ...header, [field]: value }))).not.toBe(bytesToHex(headerHash(header)));
      }),
      { numRuns: 40 },
    );
  });

  it('moving a parent to the next level changes the hash although the parent bytes stay in order', () => {
    fc.assert(
      fc.property(headerArb, fc.array(hashArb, { minLength: 2, maxLength: 4 }), (header, level) => {
        const together = { ...header, parentsByLevel: [level] };
        const split = { ...header, parentsByLevel: [level.slice(0, -1), level.slice(-1)] };
        expect(bytesToHex(headerHash(split))).not.toBe(bytesToHex(headerHash(together)));
      }),
      { numRuns: 40 },
    );
  });

  it('prePowHash ignores timestamp and nonce but nothing else', () => {
    fc.assert(
      fc.property(headerArb, u64Arb, u64Arb, (header, timestamp, nonce) => {
        expect(bytesToHex(prePowHash({ ...header, timestamp, nonce }))).toBe(bytesToHex(prePowHash(header)));
      }),
      { numRuns: 40 },
    );
  });
});

describe('version 2 headers (toccata-vectors headerV2)', () => {
  it.each(toccata.headerV2.blueWorkEncoding.map((vector) => [vector.blueWork, vector] as const))(
    'blue work %s is hashed as u64le(len) ‖ stripped big-endian bytes',
    (_work, vector) => {
      expect(bytesToHex(new ByteWriter().varBytes(blueWorkToBytes(BigInt(vector.blueWork))).finish())).toBe(vector.preimage);
    },
  );

  it.each(toccata.headerV2.derivedVectors.map((vector) => [vector.name, vector] as const))('%s', (_name, vector) => {
    expect(bytesToHex(headerHash(headerFromVector(vector.header)))).toBe(vector.expectedHeaderHash);
  });

  it('hashes a version 2 header with the version 1 preimage, differing only in the version field', () => {
    expect(BLOCK_VERSION_TOCCATA).toBe(BLOCK_VERSION + 1);
    const [v1, v2] = toccata.headerV2.derivedVectors.map((vector) => headerFromVector(vector.header));
    expect({ ...v1!, version: BLOCK_VERSION_TOCCATA }).toEqual(v2);
  });
});
