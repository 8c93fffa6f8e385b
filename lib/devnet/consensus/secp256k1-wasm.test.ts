import { secp256k1 } from '@noble/curves/secp256k1.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { payToPublicKeyEcdsaScript, payToPublicKeyScript } from '../../kaspa/address';
import { bytesToHex, hexToBytes } from '../../kaspa/bytes';
import {
  nobleSecp256k1,
  signPersonalMessage,
  signTransaction,
  verifyP2pkInput,
  verifyPersonalMessage,
  type Secp256k1Backend,
} from '../../kaspa/signing';
import { readVectors } from '../../kaspa/test-support/vectors';
import { SUBNETWORK_ID_NATIVE, type Transaction, type UtxoEntry } from '../../kaspa/types';
import { wasmSecp256k1 } from './secp256k1-wasm';

interface PersonalMessageVector {
  message: string;
  privateKey: string;
  auxRand: string;
  xOnlyPublicKey: string;
  expectedSignature: string;
}

const { personalMessage } = readVectors<{ personalMessage: { vectors: PersonalMessageVector[] } }>('kaspa-vectors.json');

const privateKey = fc.uint8Array({ minLength: 32, maxLength: 32 }).filter((key) => secp256k1.utils.isValidSecretKey(key));
const bytes32 = fc.uint8Array({ minLength: 32, maxLength: 32 });

function flipBit(bytes: Uint8Array, bit: number): Uint8Array {
  const copy = bytes.slice();
  const index = bit % (copy.length * 8);
  copy[index >> 3]! ^= 1 << (index & 7);
  return copy;
}

const backends: readonly Secp256k1Backend[] = [nobleSecp256k1, wasmSecp256k1];

describe('the WebAssembly libsecp256k1 backend against the noble reference', () => {
  it('derives the same keys and produces the same Schnorr and ECDSA signatures', () => {
    fc.assert(
      fc.property(privateKey, bytes32, bytes32, (key, hash, auxRand) => {
        expect(bytesToHex(wasmSecp256k1.schnorrPublicKey(key))).toBe(bytesToHex(nobleSecp256k1.schnorrPublicKey(key)));
        expect(bytesToHex(wasmSecp256k1.ecdsaPublicKey(key))).toBe(bytesToHex(nobleSecp256k1.ecdsaPublicKey(key)));
        expect(bytesToHex(wasmSecp256k1.signSchnorr(hash, key, auxRand))).toBe(
          bytesToHex(nobleSecp256k1.signSchnorr(hash, key, auxRand)),
        );
        expect(bytesToHex(wasmSecp256k1.signEcdsa(hash, key))).toBe(bytesToHex(nobleSecp256k1.signEcdsa(hash, key)));
      }),
      { numRuns: 25 },
    );
  });

  it("verifies each other's signatures, and both reject any flipped bit of message, signature or key", () => {
    fc.assert(
      fc.property(privateKey, bytes32, bytes32, fc.nat(), (key, hash, auxRand, bit) => {
        for (const signer of backends) {
          const schnorrKey = signer.schnorrPublicKey(key);
          const schnorrSignature = signer.signSchnorr(hash, key, auxRand);
          const ecdsaKey = signer.ecdsaPublicKey(key);
          const ecdsaSignature = signer.signEcdsa(hash, key);
          for (const verifier of backends) {
            expect(verifier.verifySchnorr(schnorrSignature, hash, schnorrKey)).toBe(true);
            expect(verifier.verifySchnorr(schnorrSignature, flipBit(hash, bit), schnorrKey)).toBe(false);
            expect(verifier.verifySchnorr(flipBit(schnorrSignature, bit), hash, schnorrKey)).toBe(false);
            expect(verifier.verifySchnorr(schnorrSignature, hash, flipBit(schnorrKey, bit))).toBe(false);
            expect(verifier.verifyEcdsa(ecdsaSignature, hash, ecdsaKey)).toBe(true);
            expect(verifier.verifyEcdsa(ecdsaSignature, flipBit(hash, bit), ecdsaKey)).toBe(false);
            expect(verifier.verifyEcdsa(flipBit(ecdsaSignature, bit), hash, ecdsaKey)).toBe(false);
            expect(verifier.verifyEcdsa(ecdsaSignature, hash, flipBit(ecdsaKey, bit))).toBe(false);
          }
        }
      }),
      { numRuns: 10 },
    );
  });

  it('rejects high-S ECDSA signatures, as the reference does', () => {
    fc.assert(
      fc.property(privateKey, bytes32, (key, hash) => {
        const signature = secp256k1.Signature.fromBytes(wasmSecp256k1.signEcdsa(hash, key));
        const highS = new secp256k1.Signature(signature.r, secp256k1.Point.Fn.ORDER - signature.s).toBytes('compact');
        expect(wasmSecp256k1.verifyEcdsa(highS, hash, wasmSecp256k1.ecdsaPublicKey(key))).toBe(false);
        expect(nobleSecp256k1.verifyEcdsa(highS, hash, nobleSecp256k1.ecdsaPublicKey(key))).toBe(false);
      }),
      { numRuns: 10 },
    );
  });

  it('returns false instead of throwing for a key off the curve or a scalar above the group order', () => {
    const hash = new Uint8Array(32).fill(7);
    const offCurve = new Uint8Array(32).fill(0xff);
    const signature = wasmSecp256k1.signSchnorr(hash, new Uint8Array(32).fill(1), new Uint8Array(32));
    expect(wasmSecp256k1.verifySchnorr(signature, hash, offCurve)).toBe(false);
    const overflowingS = Uint8Array.of(...signature.subarray(0, 32), ...new Uint8Array(32).fill(0xff));
    expect(wasmSecp256k1.verifySchnorr(overflowingS, hash, wasmSecp256k1.schnorrPublicKey(new Uint8Array(32).fill(1)))).toBe(false);
    expect(wasmSecp256k1.verifyEcdsa(new Uint8Array(64).fill(0xff), hash, Uint8Array.of(2, ...offCurve))).toBe(false);
  });

  it.each(personalMessage.vectors.map((vector, index) => [index, vector] as const))(
    'signs personal-message test case %i (wallet/core/src/message.rs::tests) as the vector says',
    (_index, vector) => {
      const key = hexToBytes(vector.privateKey);
      const signature = signPersonalMessage(vector.message, key, hexToBytes(vector.auxRand), wasmSecp256k1);
      expect(bytesToHex(signature)).toBe(vector.expectedSignature);
      expect(verifyPersonalMessage(vector.message, signature, hexToBytes(vector.xOnlyPublicKey), wasmSecp256k1)).toBe(true);
    },
  );

  it('signs transactions the reference verifies, input by input, for both schemes', () => {
    const key = new Uint8Array(32).fill(3);
    const entries: UtxoEntry[] = [
      { amount: 5_000n, scriptPublicKey: payToPublicKeyScript(nobleSecp256k1.schnorrPublicKey(key)), blockDaaScore: 1n, isCoinbase: false },
      { amount: 7_000n, scriptPublicKey: payToPublicKeyEcdsaScript(nobleSecp256k1.ecdsaPublicKey(key)), blockDaaScore: 2n, isCoinbase: false },
    ];
    const tx: Transaction = {
      version: 0,
      inputs: entries.map((_, index) => ({
        previousOutpoint: { transactionId: new Uint8Array(32).fill(index + 1), index },
        signatureScript: new Uint8Array(),
        sequence: 0n,
        sigOpCount: 1,
      })),
      outputs: [{ value: 11_000n, scriptPublicKey: entries[0]!.scriptPublicKey, covenant: null }],
      lockTime: 0n,
      subnetworkId: SUBNETWORK_ID_NATIVE,
      gas: 0n,
      payload: new Uint8Array(),
      storageMass: 0n,
    };
    const signed = signTransaction(tx, [key], entries, { backend: wasmSecp256k1 });
    for (const verifier of backends) {
      expect(entries.map((_, index) => verifyP2pkInput(signed, index, entries, undefined, verifier))).toMatchObject([
        { status: 'valid', scheme: 'schnorr' },
        { status: 'valid', scheme: 'ecdsa' },
      ]);
    }
  });
});
