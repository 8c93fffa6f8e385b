import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytes } from './bytes';
import { blake3Keyed } from './hashing';
import { toccata } from './test-support/toccata-vectors';
import { readVectors, transactionFromVector, type TransactionVector } from './test-support/vectors';
import { payloadDigest, serializeTransaction, transactionHash, transactionId } from './transaction';

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

describe('version 1 transactions (toccata-vectors transactionsV1, consensus/core/src/hashing/tx.rs)', () => {
  it.each(toccata.transactionsV1.vectors.map((vector) => [vector.name, vector] as const))('%s', (_name, vector) => {
    const tx = transactionFromVector(vector.tx);
    expect(bytesToHex(transactionId(tx))).toBe(vector.expectedId);
    const expectedHash = vector.expectedHash ?? vector.derivedHash?.value;
    expect(expectedHash).toBeDefined();
    expect(bytesToHex(transactionHash(tx))).toBe(expectedHash);
    if (vector.derivedRestDigest) {
      const rest = serializeTransaction(tx, { excludePayload: true, excludeSignatureScript: true, excludeMassCommit: true });
      expect(bytesToHex(blake3Keyed('TransactionRest', rest))).toBe(vector.derivedRestDigest.value);
      expect(bytesToHex(payloadDigest(tx.payload))).toBe(vector.derivedRestDigest.payloadDigest);
    }
  });

  it('a compute budget changes the hash but never the id; a covenant binding changes both', () => {
    const base = transactionFromVector(toccata.transactionsV1.vectors.find((vector) => vector.tx.outputs.some((o) => o.covenant))!.tx);
    const budget = { ...base, inputs: base.inputs.map((input) => ({ ...input, computeBudget: (input.computeBudget ?? 0) + 1 })) };
    expect(bytesToHex(transactionId(budget))).toBe(bytesToHex(transactionId(base)));
    expect(bytesToHex(transactionHash(budget))).not.toBe(bytesToHex(transactionHash(base)));
    const unbound = { ...base, outputs: base.outputs.map((output) => ({ ...output, covenant: null })) };
    expect(bytesToHex(transactionId(unbound))).not.toBe(bytesToHex(transactionId(base)));
  });
});

describe('payload digest (toccata-vectors digests)', () => {
  it.each(toccata.digests.vectors.map((vector) => [vector.payload || '(empty)', vector] as const))('%s', (_payload, vector) => {
    expect(bytesToHex(payloadDigest(hexToBytes(vector.payload)))).toBe(vector.expected);
  });
});
