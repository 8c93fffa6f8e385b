import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesToHex } from './bytes';
import { blake2bKeyed, ZERO_HASH } from './hashing';
import {
  acceptedIdMerkleRoot,
  acceptedIdMerkleRootPreCrescendo,
  hashMerkleRoot,
  hashMerkleRootPreCrescendo,
  merkleBranchHash,
  merkleRoot,
} from './merkle';
import { GOREF_DEVNET_BLOCKS } from './test-support/goref-blocks';
import { readVectors, transactionFromVector, type TransactionVector } from './test-support/vectors';

interface Vectors {
  merkle: { vectors: { name: string; txs?: TransactionVector[]; expectedHashMerkleRoot: string }[] };
  headers: { vectors: { name: string; header: { hashMerkleRoot: string }; coinbaseTx: TransactionVector }[] };
}

const { merkle, headers } = readVectors<Vectors>('kaspa-vectors.json');

const leaf = (label: number) => blake2bKeyed('TransactionHash', new Uint8Array([label]));
const hex = bytesToHex;
const hashArb = fc.uint8Array({ minLength: 32, maxLength: 32 });

describe('hash merkle root (consensus/core/src/merkle.rs::merkle_root_test)', () => {
  const [original, withMass, preCrescendo] = merkle.vectors;
  const txs = original!.txs!.map(transactionFromVector);
  const txsWithMass = txs.map((tx, i) => (i === 0 ? { ...tx, storageMass: 7n } : tx));

  it(original!.name, () => {
    expect(hex(hashMerkleRoot(txs))).toBe(original!.expectedHashMerkleRoot);
  });

  it(withMass!.name, () => {
    expect(hex(hashMerkleRoot(txsWithMass))).toBe(withMass!.expectedHashMerkleRoot);
  });

  it(preCrescendo!.name, () => {
    expect(hex(hashMerkleRootPreCrescendo(txsWithMass))).toBe(preCrescendo!.expectedHashMerkleRoot);
  });
});

describe('genesis hash merkle roots (consensus/core/src/config/genesis.rs::test_genesis_hashes)', () => {
  it.each(headers.vectors.map((vector) => [vector.name, vector] as const))('%s', (_name, vector) => {
    expect(hex(hashMerkleRoot([transactionFromVector(vector.coinbaseTx)]))).toBe(vector.header.hashMerkleRoot);
  });
});

describe('devnet block hash merkle roots (testing/integration/src/consensus_integration_tests.rs::json_test)', () => {
  it.each(GOREF_DEVNET_BLOCKS.map((block) => [block.name, block] as const))('%s', (_name, block) => {
    expect(hex(hashMerkleRoot(block.transactions.map(transactionFromVector)))).toBe(block.header.hashMerkleRoot);
  });
});

describe('merkle tree shape (crypto/merkle/src/lib.rs tests)', () => {
  it('has ZERO_HASH as the root of no leaves and the leaf itself as the root of one', () => {
    expect(merkleRoot([])).toEqual(ZERO_HASH);
    expect(merkleRoot([leaf(1)])).toEqual(leaf(1));
  });

  it('pairs a lone node with ZERO_HASH and leaves empty subtrees out', () => {
    const [a, b, c, d, e] = [1, 2, 3, 4, 5].map(leaf) as [Uint8Array, Uint8Array, Uint8Array, Uint8Array, Uint8Array];
    const h = merkleBranchHash;
    expect(merkleRoot([a, b])).toEqual(h(a, b));
    expect(merkleRoot([a, b, c])).toEqual(h(h(a, b), h(c, ZERO_HASH)));
    expect(merkleRoot([a, b, c, d])).toEqual(h(h(a, b), h(c, d)));
    expect(merkleRoot([a, b, c, d, e])).toEqual(h(h(h(a, b), h(c, d)), h(h(e, ZERO_HASH), ZERO_HASH)));
  });

  it('depends on leaf order', () => {
    fc.assert(
      fc.property(hashArb, hashArb, (a, b) => {
        fc.pre(hex(a) !== hex(b));
        expect(hex(merkleRoot([a, b]))).not.toBe(hex(merkleRoot([b, a])));
      }),
      { numRuns: 30 },
    );
  });

  it('uses the given branch hasher', () => {
    const concatenateFirstBytes = (left: Uint8Array, right: Uint8Array) => new Uint8Array([left[0]!, right[0]!]);
    const root = merkleRoot([new Uint8Array([7]), new Uint8Array([9])], concatenateFirstBytes);
    expect(root).toEqual(new Uint8Array([7, 9]));
  });
});

describe('accepted id merkle roots', () => {
  it('pre-Crescendo: sorts the ids by bytes first, so acceptance order does not matter', () => {
    fc.assert(
      fc.property(fc.array(hashArb, { minLength: 2, maxLength: 9 }), (ids) => {
        const sorted = [...ids].sort((x, y) => hex(x).localeCompare(hex(y)));
        expect(hex(acceptedIdMerkleRootPreCrescendo(ids))).toBe(hex(merkleRoot(sorted)));
        expect(hex(acceptedIdMerkleRootPreCrescendo([...ids].reverse()))).toBe(hex(merkleRoot(sorted)));
      }),
      { numRuns: 30 },
    );
  });

  it('Crescendo: MerkleBranchHash(selected parent root ‖ merkle root of ids in mergeset order)', () => {
    const parentRoot = leaf(9);
    const ids = [leaf(3), leaf(1), leaf(2)];
    expect(acceptedIdMerkleRoot(parentRoot, ids)).toEqual(merkleBranchHash(parentRoot, merkleRoot(ids)));
    expect(acceptedIdMerkleRoot(parentRoot, [])).toEqual(merkleBranchHash(parentRoot, ZERO_HASH));
    expect(hex(acceptedIdMerkleRoot(parentRoot, [leaf(1), leaf(2), leaf(3)]))).not.toBe(
      hex(acceptedIdMerkleRoot(parentRoot, ids)),
    );
  });

  it('Crescendo: chains to the selected parent root', () => {
    fc.assert(
      fc.property(hashArb, hashArb, fc.array(hashArb, { maxLength: 4 }), (parentA, parentB, ids) => {
        fc.pre(hex(parentA) !== hex(parentB));
        expect(hex(acceptedIdMerkleRoot(parentA, ids))).not.toBe(hex(acceptedIdMerkleRoot(parentB, ids)));
      }),
      { numRuns: 30 },
    );
  });
});
