import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesToHex } from './bytes';
import { readVectors, transactionFromVector, type TransactionVector } from './test-support/vectors';
import { transactionHash, transactionId } from './transaction';

interface Vectors {
  transactions: { vectors: { name: string; tx: TransactionVector; expectedId: string; expectedHash: string }[] };
}

const { transactions } = readVectors<Vectors>('kaspa-vectors.json');

describe('transaction id and hash (consensus/core/src/hashing/tx.rs)', () => {
  it.each(transactions.vectors.map((vector) => [vector.name, vector] as const))('%s', (_name, vector) => {
    const tx = transactionFromVector(vector.tx);
    expect(bytesToHex(transactionId(tx))).toBe(vector.expectedId);
    expect(bytesToHex(transactionHash(tx))).toBe(vector.expectedHash);
  });

  it('ids ignore signature scripts while hashes cover them', () => {
    const base = transactionFromVector(transactions.vectors[2]!.tx);
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 80 }), (script) => {
        const signed = { ...base, inputs: base.inputs.map((input) => ({ ...input, signatureScript: script })) };
        expect(bytesToHex(transactionId(signed))).toBe(bytesToHex(transactionId(base)));
        const differs = bytesToHex(script) !== bytesToHex(base.inputs[0]!.signatureScript);
        expect(bytesToHex(transactionHash(signed)) !== bytesToHex(transactionHash(base))).toBe(differs);
      }),
    );
  });
});
