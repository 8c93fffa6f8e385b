import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesToHex } from './bytes';
import {
  calcEcdsaSignatureHash,
  calcSchnorrSignatureHash,
  isValidSigHashType,
  SIG_HASH_ALL,
  SIG_HASH_ANY_ONE_CAN_PAY,
  SIG_HASH_NONE,
  SIG_HASH_SINGLE,
  SigHashReusedValues,
  VALID_SIG_HASH_TYPES,
  type SigHashType,
} from './sighash';
import {
  applySighashModification,
  arbitraryPopulatedTransaction,
  populatedFromVector,
  type PopulatedTransaction,
  type SighashVectors,
} from './test-support/signing-fixtures';
import { toccata, utxoEntryFromToccataVector } from './test-support/toccata-vectors';
import { readVectors, transactionFromVector } from './test-support/vectors';
import type { Transaction } from './types';

const { sighash } = readVectors<{ sighash: SighashVectors }>('kaspa-vectors.json');

function populatedBase(name: string): PopulatedTransaction {
  const base = sighash.baseTransactions[name];
  if (!base) throw new Error(`no base transaction ${name}`);
  return populatedFromVector(base);
}

function hex(tx: Transaction, populated: PopulatedTransaction, inputIndex: number, hashType: SigHashType, reused?: SigHashReusedValues) {
  return bytesToHex(calcSchnorrSignatureHash(tx, inputIndex, populated.utxos, hashType, reused));
}

function withInput(tx: Transaction, index: number, change: Partial<Transaction['inputs'][number]>): Transaction {
  return { ...tx, inputs: tx.inputs.map((input, i) => (i === index ? { ...input, ...change } : input)) };
}

describe('sighash types (consensus/core/src/hashing/sighash_type.rs)', () => {
  it('has the constants and allowed values of the source', () => {
    expect(sighash.sigHashTypes).toEqual({
      SIG_HASH_ALL,
      SIG_HASH_NONE,
      SIG_HASH_SINGLE,
      SIG_HASH_ANY_ONE_CAN_PAY,
      allowed: [...VALID_SIG_HASH_TYPES],
    });
  });

  it('accepts exactly the six allowed bytes', () => {
    const accepted = Array.from({ length: 256 }, (_, value) => value).filter(isValidSigHashType);
    expect(accepted).toEqual([0x01, 0x02, 0x04, 0x81, 0x82, 0x84]);
  });
});

describe('Schnorr sighash (sighash.rs::tests::test_signature_hash)', () => {
  it('covers all 33 source vectors', () => {
    expect(sighash.vectors).toHaveLength(33);
  });

  it.each(sighash.vectors.map((vector) => [vector.name, vector] as const))('%s', (_name, vector) => {
    if (!isValidSigHashType(vector.hashType)) throw new Error(`vector ${vector.name} has hash type ${vector.hashType}`);
    const populated = applySighashModification(populatedBase(vector.base), vector.modification);
    expect(hex(populated.tx, populated, vector.inputIndex, vector.hashType)).toBe(vector.expectedSchnorrSighash);
  });

  it('derives the ECDSA sighash from the Schnorr one', () => {
    const vector = sighash.derivedEcdsa;
    if (!isValidSigHashType(vector.hashType)) throw new Error('bad hash type');
    const { tx, utxos } = populatedBase(vector.base);
    expect(bytesToHex(calcSchnorrSignatureHash(tx, vector.inputIndex, utxos, vector.hashType))).toBe(vector.schnorrSighash);
    expect(bytesToHex(calcEcdsaSignatureHash(tx, vector.inputIndex, utxos, vector.hashType))).toBe(vector.expectedEcdsaSighash);
  });

  it('rejects bad arguments with actionable errors', () => {
    const { tx, utxos } = populatedBase('native');
    expect(() => calcSchnorrSignatureHash(tx, 3, utxos, SIG_HASH_ALL)).toThrow(/input index 3 is out of range/);
    expect(() => calcSchnorrSignatureHash(tx, 2, utxos.slice(0, 2), SIG_HASH_ALL)).toThrow(/no spent UTXO entry/);
    expect(() => calcSchnorrSignatureHash(tx, 0, utxos, 0x80 as SigHashType)).toThrow(/invalid sighash type 0x80/);
    const other = populatedBase('native');
    expect(() => calcSchnorrSignatureHash(tx, 0, utxos, SIG_HASH_ALL, new SigHashReusedValues(other.tx))).toThrow(/different transaction/);
  });
});

describe('Schnorr sighash properties', () => {
  const hashTypes = fc.constantFrom(...VALID_SIG_HASH_TYPES);

  it('gives the same hashes with one cache shared by every input and hash type as with fresh computations', () => {
    fc.assert(
      fc.property(arbitraryPopulatedTransaction(), (populated) => {
        const reused = new SigHashReusedValues(populated.tx);
        for (const hashType of VALID_SIG_HASH_TYPES) {
          for (let index = 0; index < populated.tx.inputs.length; index++) {
            expect(hex(populated.tx, populated, index, hashType, reused)).toBe(hex(populated.tx, populated, index, hashType));
          }
        }
      }),
      { numRuns: 40 },
    );
  });

  it('never covers signature scripts, the storage-mass commitment or v1 compute commits', () => {
    fc.assert(
      fc.property(arbitraryPopulatedTransaction(), hashTypes, fc.uint8Array({ maxLength: 70 }), fc.nat({ max: 255 }), (populated, hashType, script, count) => {
        const { tx } = populated;
        const changed: Transaction = {
          ...tx,
          storageMass: tx.storageMass + 1n,
          inputs: tx.inputs.map((input) => ({
            ...input,
            signatureScript: script,
            ...(tx.version >= 1 ? { sigOpCount: count, computeBudget: (input.computeBudget ?? 0) ^ 1 } : {}),
          })),
        };
        for (let index = 0; index < tx.inputs.length; index++) {
          expect(hex(changed, populated, index, hashType)).toBe(hex(tx, populated, index, hashType));
        }
      }),
    );
  });

  it('covers the signed input’s own sig-op count in version 0 only', () => {
    fc.assert(
      fc.property(arbitraryPopulatedTransaction(), hashTypes, (populated, hashType) => {
        const { tx } = populated;
        const changed = withInput(tx, 0, { sigOpCount: (tx.inputs[0]!.sigOpCount + 1) % 256 });
        expect(hex(changed, populated, 0, hashType) === hex(tx, populated, 0, hashType)).toBe(tx.version >= 1);
      }),
    );
  });

  it('ignores every other input under ANYONECANPAY and every other spent entry always', () => {
    fc.assert(
      fc.property(
        arbitraryPopulatedTransaction().filter(({ tx }) => tx.inputs.length > 1),
        hashTypes,
        fc.nat({ max: 0xffff }),
        (populated, hashType, newIndex) => {
          const { tx, utxos } = populated;
          const otherEntries = { tx, utxos: utxos.map((utxo, i) => (i === 0 ? utxo : { ...utxo, amount: utxo.amount ^ 1n })) };
          expect(hex(tx, otherEntries, 0, hashType)).toBe(hex(tx, populated, 0, hashType));

          const other = tx.inputs[1]!;
          const changed = withInput(tx, 1, {
            previousOutpoint: { ...other.previousOutpoint, index: other.previousOutpoint.index === newIndex ? newIndex + 1 : newIndex },
            sequence: other.sequence ^ 1n,
            sigOpCount: tx.version === 0 ? (other.sigOpCount + 1) % 256 : other.sigOpCount,
          });
          const anyoneCanPay = (hashType & SIG_HASH_ANY_ONE_CAN_PAY) !== 0;
          expect(hex(changed, populated, 0, hashType) === hex(tx, populated, 0, hashType)).toBe(anyoneCanPay);
        },
      ),
    );
  });

  it('signs all outputs (ALL), none (NONE) or only the output at the input’s index (SINGLE)', () => {
    fc.assert(
      fc.property(arbitraryPopulatedTransaction({ minOutputs: 1 }), hashTypes, fc.nat({ max: 3 }), (populated, hashType, pick) => {
        const { tx } = populated;
        const outputIndex = pick % tx.outputs.length;
        const changed: Transaction = {
          ...tx,
          outputs: tx.outputs.map((output, i) => (i === outputIndex ? { ...output, value: output.value ^ 1n } : output)),
        };
        for (let index = 0; index < tx.inputs.length; index++) {
          const base = hashType & 0x07;
          const covered = base === SIG_HASH_ALL || (base === SIG_HASH_SINGLE && index === outputIndex);
          expect(hex(changed, populated, index, hashType) !== hex(tx, populated, index, hashType)).toBe(covered);
        }
      }),
    );
  });
});

describe('version 1 sighash (toccata-vectors sighashV1, sighash.rs::tests::test_signature_hash)', () => {
  const { baseTransactions, vectors, derivedVectors } = toccata.sighashV1;

  function populatedToccataBase(name: string): PopulatedTransaction {
    const base = baseTransactions[name];
    if (!base) throw new Error(`no base transaction ${name}`);
    return { tx: transactionFromVector(base.tx), utxos: base.utxoEntries.map(utxoEntryFromToccataVector) };
  }

  it.each(vectors.map((vector) => [vector.name, vector] as const))('%s', (_name, vector) => {
    const populated = applySighashModification(populatedToccataBase(vector.base), vector.modification);
    expect(hex(populated.tx, populated, vector.inputIndex, vector.hashType as SigHashType)).toBe(vector.expectedSchnorrSighash);
  });

  it.each(derivedVectors.map((vector) => [`${vector.base} type ${vector.hashType} input ${vector.inputIndex}${vector.ecdsa ? ' ECDSA' : ''}`, vector] as const))(
    'derived: %s',
    (_name, vector) => {
      const { tx, utxos } = populatedToccataBase(vector.base);
      const hashType = vector.hashType as SigHashType;
      const actual = vector.ecdsa
        ? calcEcdsaSignatureHash(tx, vector.inputIndex, utxos, hashType)
        : calcSchnorrSignatureHash(tx, vector.inputIndex, utxos, hashType);
      expect(bytesToHex(actual)).toBe(vector.ecdsa ? vector.expectedEcdsaSighash : vector.expectedSchnorrSighash);
    },
  );

  it('the covenant base differs from native_v1 only by its covenant binding, which is signed', () => {
    const plain = populatedToccataBase('native_v1');
    const bound = populatedToccataBase('native_v1_covenant');
    const [first, ...rest] = bound.tx.outputs;
    expect({ ...bound.tx, outputs: [{ ...first!, covenant: null }, ...rest] }).toEqual(plain.tx);
    expect(hex(bound.tx, bound, 0, SIG_HASH_ALL)).not.toBe(hex(plain.tx, plain, 0, SIG_HASH_ALL));
    expect(hex(bound.tx, bound, 0, SIG_HASH_NONE)).toBe(hex(plain.tx, plain, 0, SIG_HASH_NONE));
  });
});
