import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytes } from './bytes';
import { EMPTY_MUHASH, MUHASH_SERIALIZED_SIZE, MuHash, MuHashOverflowError, utxoElementBytes } from './muhash';
import { readVectors, transactionFromVector, type TransactionVector } from './test-support/vectors';
import { transactionId } from './transaction';

interface MuHashVectors {
  muhash: {
    emptyMuHash: { expected: string };
    singleAndCumulative: { data: string; expectedSingleElementFinalize: string; expectedCumulativeFinalize: string }[];
    addAddRemove: { elements: Record<'e0' | 'e1' | 'e2', string>; expected: string };
    serialize: { expectedSerialized384: string };
    derivedUtxoElement: {
      outpoint: { transactionId: string; index: number };
      utxoEntry: {
        amount: string;
        scriptPublicKey: { version: number; script: string };
        blockDaaScore: string;
        isCoinbase: boolean;
        covenantId: string | null;
      };
      expectedElementBytes: string;
      expectedSingleUtxoMuHash: string;
    };
  };
  computeMassExamples: { vectors: { tx: TransactionVector }[] };
}

const vectors = readVectors<MuHashVectors>('kaspa-vectors.json');
const { muhash } = vectors;

function elementFromByte(byte: number): Uint8Array {
  const element = new Uint8Array(32);
  element[0] = byte;
  return element;
}

const finalizeHex = (set: MuHash) => bytesToHex(set.finalize());

describe('MuHash known answers (crypto/muhash/src/lib.rs tests)', () => {
  it('hashes the empty set to EMPTY_MUHASH', () => {
    expect(bytesToHex(EMPTY_MUHASH)).toBe(muhash.emptyMuHash.expected);
    expect(finalizeHex(new MuHash())).toBe(muhash.emptyMuHash.expected);
  });

  it('hashes each vector alone (test_vectors_hash)', () => {
    for (const vector of muhash.singleAndCumulative) {
      expect(finalizeHex(new MuHash().addElement(hexToBytes(vector.data)))).toBe(vector.expectedSingleElementFinalize);
    }
  });

  it('accumulates and then removes the vectors (test_vectors_add_remove)', () => {
    const set = new MuHash();
    for (const vector of muhash.singleAndCumulative) {
      set.addElement(hexToBytes(vector.data));
      expect(finalizeHex(set)).toBe(vector.expectedCumulativeFinalize);
    }
    const reversed = [...muhash.singleAndCumulative].reverse();
    reversed.forEach((vector, i) => {
      set.removeElement(hexToBytes(vector.data));
      const previous = reversed[i + 1];
      expect(finalizeHex(set)).toBe(previous ? previous.expectedCumulativeFinalize : muhash.emptyMuHash.expected);
    });
  });

  it('cancels a set against its inverse (test_vectors_combine_subtract)', () => {
    const added = new MuHash();
    const removed = new MuHash();
    for (const vector of muhash.singleAndCumulative) {
      added.addElement(hexToBytes(vector.data));
      removed.removeElement(hexToBytes(vector.data));
    }
    const addedCopy = added.clone();
    added.combine(removed);
    removed.combine(addedCopy);
    expect(finalizeHex(added)).toBe(muhash.emptyMuHash.expected);
    expect(finalizeHex(removed)).toBe(muhash.emptyMuHash.expected);
  });

  it('adds two elements and removes a third (test_new_pre_computed)', () => {
    const { elements, expected } = muhash.addAddRemove;
    const set = new MuHash().addElement(hexToBytes(elements.e0)).addElement(hexToBytes(elements.e1));
    expect(finalizeHex(set.removeElement(hexToBytes(elements.e2)))).toBe(expected);
  });

  it('serializes and restores a set (test_serialize)', () => {
    const set = new MuHash().addElement(elementFromByte(1)).addElement(elementFromByte(2));
    const serialized = set.serialize();
    expect(bytesToHex(serialized)).toBe(muhash.serialize.expectedSerialized384);
    expect(MuHash.fromSerialized(serialized).finalize()).toEqual(set.finalize());
    expect(() => MuHash.fromSerialized(new Uint8Array(MUHASH_SERIALIZED_SIZE).fill(255))).toThrow(MuHashOverflowError);
    expect(() => MuHash.fromSerialized(new Uint8Array(10))).toThrow(RangeError);
  });

  it('serializes the zero element as zeros and keeps it absorbing', () => {
    const zero = MuHash.fromSerialized(new Uint8Array(MUHASH_SERIALIZED_SIZE));
    zero.removeElement(elementFromByte(3));
    expect(zero.serialize()).toEqual(new Uint8Array(MUHASH_SERIALIZED_SIZE));
  });
});

describe('UTXO elements', () => {
  const { derivedUtxoElement } = muhash;
  const outpoint = {
    transactionId: hexToBytes(derivedUtxoElement.outpoint.transactionId),
    index: derivedUtxoElement.outpoint.index,
  };
  const entry = {
    amount: BigInt(derivedUtxoElement.utxoEntry.amount),
    scriptPublicKey: {
      version: derivedUtxoElement.utxoEntry.scriptPublicKey.version,
      script: hexToBytes(derivedUtxoElement.utxoEntry.scriptPublicKey.script),
    },
    blockDaaScore: BigInt(derivedUtxoElement.utxoEntry.blockDaaScore),
    isCoinbase: derivedUtxoElement.utxoEntry.isCoinbase,
  };

  it('serializes outpoint and entry as consensus write_utxo does', () => {
    expect(bytesToHex(utxoElementBytes(outpoint, entry))).toBe(derivedUtxoElement.expectedElementBytes);
    expect(finalizeHex(new MuHash().addUtxo(outpoint, entry))).toBe(derivedUtxoElement.expectedSingleUtxoMuHash);
    expect(finalizeHex(new MuHash().addUtxo(outpoint, entry).removeUtxo(outpoint, entry))).toBe(muhash.emptyMuHash.expected);
  });

  it('appends the covenant id only when the entry has one', () => {
    const covenantId = new Uint8Array(32).fill(9);
    const plain = utxoElementBytes(outpoint, { ...entry, covenantId: null });
    const bound = utxoElementBytes(outpoint, { ...entry, covenantId });
    expect(bound).toEqual(new Uint8Array([...plain, ...covenantId]));
  });

  it('applies a transaction as removing its spent entries and adding its outputs', () => {
    const tx = transactionFromVector(vectors.computeMassExamples.vectors[0]!.tx);
    const spent = { ...entry, amount: 1_000_000_000n };
    const daaScore = 1234n;
    const applied = new MuHash().addUtxo(tx.inputs[0]!.previousOutpoint, spent).addTransaction(tx, [spent], daaScore);
    const expected = new MuHash();
    const id = transactionId(tx);
    tx.outputs.forEach((output, index) =>
      expected.addUtxo(
        { transactionId: id, index },
        { amount: output.value, scriptPublicKey: output.scriptPublicKey, blockDaaScore: daaScore, isCoinbase: false },
      ),
    );
    expect(applied.finalize()).toEqual(expected.finalize());
    expect(() => new MuHash().addTransaction(tx, [], daaScore)).toThrow(RangeError);
  });
});

describe('MuHash properties', () => {
  const arbElements = fc.array(fc.uint8Array({ minLength: 0, maxLength: 48 }), { minLength: 1, maxLength: 6 });

  it('returns to the empty hash after removing everything that was added', () => {
    fc.assert(
      fc.property(arbElements, (elements) => {
        const set = new MuHash();
        for (const element of elements) set.addElement(element);
        for (const element of elements) set.removeElement(element);
        expect(set.finalize()).toEqual(EMPTY_MUHASH);
      }),
      { numRuns: 25 },
    );
  });

  it('does not depend on the order of additions and removals', () => {
    const arbOperations = fc.array(fc.tuple(fc.boolean(), fc.uint8Array({ maxLength: 40 })), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(
        arbOperations.chain((operations) => fc.tuple(fc.constant(operations), fc.shuffledSubarray(operations, { minLength: operations.length }))),
        ([operations, shuffled]) => {
          const apply = (list: [boolean, Uint8Array][]) => {
            const set = new MuHash();
            for (const [add, element] of list) {
              if (add) set.addElement(element);
              else set.removeElement(element);
            }
            return set.finalize();
          };
          expect(apply(shuffled)).toEqual(apply(operations));
        },
      ),
      { numRuns: 25 },
    );
  });

  it('combines sets like adding their elements directly, and round-trips serialization', () => {
    fc.assert(
      fc.property(arbElements, arbElements, (left, right) => {
        const direct = new MuHash();
        const leftSet = new MuHash();
        const rightSet = new MuHash();
        for (const element of left) {
          direct.addElement(element);
          leftSet.addElement(element);
        }
        for (const element of right) {
          direct.removeElement(element);
          rightSet.removeElement(element);
        }
        expect(leftSet.combine(rightSet).finalize()).toEqual(direct.finalize());
        expect(MuHash.fromSerialized(direct.serialize()).finalize()).toEqual(direct.finalize());
      }),
      { numRuns: 15 },
    );
  });
});
