import { secp256k1 } from '@noble/curves/secp256k1.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { payToPublicKeyEcdsaScript, payToPublicKeyScript, payToScriptHashScript } from './address';
import { bytesToHex, hexToBytes } from './bytes';
import { calcSchnorrSignatureHash, SIG_HASH_ALL, SIG_HASH_NONE, SigHashReusedValues, VALID_SIG_HASH_TYPES, type SigHashType } from './sighash';
import {
  ecdsaPublicKey,
  personalMessageHash,
  schnorrPublicKey,
  signEcdsa,
  signInput,
  signPersonalMessage,
  signSchnorr,
  signTransaction,
  SigningError,
  verifyEcdsa,
  verifyP2pkInput,
  verifyPersonalMessage,
  verifySchnorr,
} from './signing';
import { populatedFromVector, type PopulatedTransaction, type SighashVectors } from './test-support/signing-fixtures';
import { readVectors } from './test-support/vectors';
import { SUBNETWORK_ID_NATIVE, type ScriptPublicKey, type Transaction, type UtxoEntry } from './types';

interface PersonalMessageVector {
  message: string;
  privateKey: string;
  auxRand: string;
  xOnlyPublicKey: string;
  expectedSignature: string;
  derivedMessageHash: string;
}

const { sighash, personalMessage } = readVectors<{ sighash: SighashVectors; personalMessage: { vectors: PersonalMessageVector[] } }>(
  'kaspa-vectors.json',
);

const spk = (script: string): ScriptPublicKey => ({ version: 0, script: hexToBytes(script) });

/**
 * A mainnet transaction spending a P2PK output, from
 * consensus/src/processes/transaction_validator/tx_validation_in_utxo_context.rs::tests::check_signature_test
 * (check_incorrect_signature_test presents the same transaction as spending the other output's script).
 */
function mainnetSignedTransaction(variant: 'correct' | 'incorrect'): PopulatedTransaction {
  const spent = spk('20e1d5835e09f3c3dad209debcb7b3bf3fb0e0d9642471f5db36c9ea58338b06beac');
  const other = spk('200749c89953b463d1e186a16a941f9354fa3fff313c391149e47961b95dd4df28ac');
  const first = { value: 10360487799n, scriptPublicKey: other, covenant: null };
  const second = { value: 10518958752n, scriptPublicKey: spent, covenant: null };
  return {
    tx: {
      version: 0,
      inputs: [
        {
          previousOutpoint: { transactionId: hexToBytes('746915c8dfc5e1550eacbe1d87625a105750cf1a65aaddd1baa60f8bcf7e953c'), index: 1 },
          signatureScript: hexToBytes(
            '4176cf2ee56b3eed1e8da083851f41cae11532fc70a63ca1ca9f17bc9a4c2fd3dcdf60df1c1a57465f0d112995a6f289511c8e0a79c806fb79165544a439d11c0201',
          ),
          sequence: 0n,
          sigOpCount: 1,
        },
      ],
      outputs: [first, second],
      lockTime: 0n,
      subnetworkId: SUBNETWORK_ID_NATIVE,
      gas: 0n,
      payload: new Uint8Array(),
      storageMass: 0n,
    },
    utxos: [{ amount: 20879456551n, scriptPublicKey: variant === 'correct' ? spent : other, blockDaaScore: 32022768n, isCoinbase: false }],
  };
}

const privateKey = fc.uint8Array({ minLength: 32, maxLength: 32 }).filter((key) => secp256k1.utils.isValidSecretKey(key));
const hash32 = fc.uint8Array({ minLength: 32, maxLength: 32 });

function flipBit(bytes: Uint8Array, bit: number): Uint8Array {
  const copy = bytes.slice();
  const index = bit % (copy.length * 8);
  copy[index >> 3]! ^= 1 << (index & 7);
  return copy;
}

describe('a mainnet P2PK spend (tx_validation_in_utxo_context.rs)', () => {
  it('verifies check_signature_test', () => {
    const { tx, utxos } = mainnetSignedTransaction('correct');
    expect(verifyP2pkInput(tx, 0, utxos)).toEqual({ status: 'valid', scheme: 'schnorr', viaScriptHash: false, hashType: SIG_HASH_ALL });
  });

  it('rejects check_incorrect_signature_test', () => {
    const { tx, utxos } = mainnetSignedTransaction('incorrect');
    expect(verifyP2pkInput(tx, 0, utxos)).toMatchObject({ status: 'invalid', reason: 'invalid_signature' });
  });

  it('rejects the signature copied to a duplicated input: the sighash covers every outpoint', () => {
    const { tx, utxos } = mainnetSignedTransaction('correct');
    const doubled: Transaction = { ...tx, inputs: [tx.inputs[0]!, tx.inputs[0]!] };
    const entries = [utxos[0]!, utxos[0]!];
    expect([0, 1].map((index) => verifyP2pkInput(doubled, index, entries).status)).toEqual(['invalid', 'invalid']);
  });
});

describe('personal messages (wallet/core/src/message.rs::tests)', () => {
  it.each(personalMessage.vectors.map((vector, index) => [index, vector] as const))('test case %i', (_index, vector) => {
    const key = hexToBytes(vector.privateKey);
    expect(bytesToHex(schnorrPublicKey(key))).toBe(vector.xOnlyPublicKey);
    expect(bytesToHex(personalMessageHash(vector.message))).toBe(vector.derivedMessageHash);
    const signature = signPersonalMessage(vector.message, key, hexToBytes(vector.auxRand));
    expect(bytesToHex(signature)).toBe(vector.expectedSignature);
    expect(verifyPersonalMessage(vector.message, signature, hexToBytes(vector.xOnlyPublicKey))).toBe(true);
    expect(verifyPersonalMessage(`${vector.message}.`, signature, hexToBytes(vector.xOnlyPublicKey))).toBe(false);
  });
});

describe('Schnorr and ECDSA over a sighash', () => {
  it('round-trips, and any flipped bit of message, signature or key fails', () => {
    fc.assert(
      fc.property(privateKey, hash32, fc.nat(), (key, hash, bit) => {
        const schnorrKey = schnorrPublicKey(key);
        const schnorrSignature = signSchnorr(hash, key);
        expect(verifySchnorr(schnorrSignature, hash, schnorrKey)).toBe(true);
        expect(verifySchnorr(schnorrSignature, flipBit(hash, bit), schnorrKey)).toBe(false);
        expect(verifySchnorr(flipBit(schnorrSignature, bit), hash, schnorrKey)).toBe(false);
        expect(verifySchnorr(schnorrSignature, hash, flipBit(schnorrKey, bit))).toBe(false);

        const ecdsaKey = ecdsaPublicKey(key);
        const ecdsaSignature = signEcdsa(hash, key);
        expect(ecdsaSignature).toHaveLength(64);
        expect(verifyEcdsa(ecdsaSignature, hash, ecdsaKey)).toBe(true);
        expect(verifyEcdsa(ecdsaSignature, flipBit(hash, bit), ecdsaKey)).toBe(false);
        expect(verifyEcdsa(flipBit(ecdsaSignature, bit), hash, ecdsaKey)).toBe(false);
        expect(verifyEcdsa(ecdsaSignature, hash, flipBit(ecdsaKey, bit))).toBe(false);
      }),
      { numRuns: 30 },
    );
  });

  it('signs the hash itself, not its SHA-256 (noble would prehash by default)', () => {
    fc.assert(
      fc.property(privateKey, hash32, (key, hash) => {
        expect(secp256k1.verify(signEcdsa(hash, key), hash, ecdsaPublicKey(key), { prehash: false })).toBe(true);
      }),
      { numRuns: 10 },
    );
  });

  it('rejects high-S ECDSA signatures and uncompressed keys, as libsecp256k1 under OpCheckSigECDSA does', () => {
    fc.assert(
      fc.property(privateKey, hash32, (key, hash) => {
        const signature = secp256k1.Signature.fromBytes(signEcdsa(hash, key));
        const highS = new secp256k1.Signature(signature.r, secp256k1.Point.Fn.ORDER - signature.s).toBytes('compact');
        expect(secp256k1.verify(highS, hash, ecdsaPublicKey(key), { prehash: false, lowS: false })).toBe(true);
        expect(verifyEcdsa(highS, hash, ecdsaPublicKey(key))).toBe(false);
        expect(verifyEcdsa(signEcdsa(hash, key), hash, secp256k1.getPublicKey(key, false))).toBe(false);
      }),
      { numRuns: 10 },
    );
  });

  it('refuses a hash that is not 32 bytes', () => {
    const key = new Uint8Array(32).fill(1);
    expect(() => signSchnorr(new Uint8Array(31), key)).toThrow(/32 bytes/);
    expect(() => signEcdsa(new Uint8Array(33), key)).toThrow(/32 bytes/);
  });
});

const KEYS = [1, 2, 3].map((seed) => new Uint8Array(32).fill(seed));

/**
 * The `native` sighash vector transaction with its three spent outputs re-pointed at our keys: P2PK, P2PK-ECDSA and
 * P2SH of a P2PK redeem script. Each v0 input commits to one sig op, as a P2PK spend needs.
 */
function spendableVectorTransaction(): PopulatedTransaction {
  const base = sighash.baseTransactions.native;
  if (!base) throw new Error('no native base transaction');
  const { tx, utxos } = populatedFromVector(base);
  const scripts = [
    payToPublicKeyScript(schnorrPublicKey(KEYS[0]!)),
    payToPublicKeyEcdsaScript(ecdsaPublicKey(KEYS[1]!)),
    payToScriptHashScript(payToPublicKeyScript(schnorrPublicKey(KEYS[2]!)).script),
  ];
  return {
    tx: { ...tx, inputs: tx.inputs.map((input) => ({ ...input, sigOpCount: 1 })) },
    utxos: utxos.map((utxo, index): UtxoEntry => ({ ...utxo, scriptPublicKey: scripts[index]! })),
  };
}

describe('signing inputs and transactions', () => {
  it('signs every kind of standard input of a vector transaction and verifies it', () => {
    const { tx, utxos } = spendableVectorTransaction();
    const signed = signTransaction(tx, [KEYS[2]!, KEYS[0]!, KEYS[1]!], utxos);
    expect(signed.inputs.map((input) => input.signatureScript.length)).toEqual([66, 66, 66 + 35]);
    expect(signed.inputs.map((input) => input.signatureScript[0])).toEqual([0x41, 0x41, 0x41]);
    expect(signed.inputs.map((input) => input.signatureScript[65])).toEqual([SIG_HASH_ALL, SIG_HASH_ALL, SIG_HASH_ALL]);
    const reused = new SigHashReusedValues(signed);
    expect(signed.inputs.map((_, index) => verifyP2pkInput(signed, index, utxos, reused))).toEqual([
      { status: 'valid', scheme: 'schnorr', viaScriptHash: false, hashType: SIG_HASH_ALL },
      { status: 'valid', scheme: 'ecdsa', viaScriptHash: false, hashType: SIG_HASH_ALL },
      { status: 'valid', scheme: 'schnorr', viaScriptHash: true, hashType: SIG_HASH_ALL },
    ]);
    expect(tx.inputs.every((input) => input.signatureScript.length === 0)).toBe(true);
  });

  it('produces the BIP340 signature of the Schnorr sighash inside the script', () => {
    const { tx, utxos } = spendableVectorTransaction();
    const auxRand = new Uint8Array(32).fill(9);
    const script = signInput(tx, 0, KEYS[0]!, utxos, SIG_HASH_NONE, { auxRand });
    const expected = signSchnorr(calcSchnorrSignatureHash(tx, 0, utxos, SIG_HASH_NONE), KEYS[0]!, auxRand);
    expect(bytesToHex(script)).toBe(`41${bytesToHex(expected)}02`);
  });

  it('keeps signatures valid exactly while the signed parts of the transaction are unchanged', () => {
    fc.assert(
      fc.property(fc.constantFrom(...VALID_SIG_HASH_TYPES), fc.nat({ max: 2 }), (hashType: SigHashType, inputIndex) => {
        const { tx, utxos } = spendableVectorTransaction();
        const signed = signTransaction(tx, KEYS, utxos, { hashType });
        expect(verifyP2pkInput(signed, inputIndex, utxos)).toMatchObject({ status: 'valid', hashType });

        const lastOutputChanged: Transaction = {
          ...signed,
          outputs: signed.outputs.map((output, index) => (index === 1 ? { ...output, value: output.value + 1n } : output)),
        };
        const base = hashType & 0x07;
        const outputCovered = base === SIG_HASH_ALL || (base === 0x04 && inputIndex === 1);
        expect(verifyP2pkInput(lastOutputChanged, inputIndex, utxos).status).toBe(outputCovered ? 'invalid' : 'valid');
        expect(verifyP2pkInput({ ...signed, lockTime: signed.lockTime + 1n }, inputIndex, utxos).status).toBe('invalid');
      }),
      { numRuns: 20 },
    );
  });

  it('never accepts a signature script with a flipped bit', () => {
    const { tx, utxos } = spendableVectorTransaction();
    const signed = signTransaction(tx, KEYS, utxos);
    fc.assert(
      fc.property(fc.nat({ max: 2 }), fc.nat(), (inputIndex, bit) => {
        const input = signed.inputs[inputIndex]!;
        const tampered: Transaction = {
          ...signed,
          inputs: signed.inputs.map((other, index) => (index === inputIndex ? { ...input, signatureScript: flipBit(input.signatureScript, bit) } : other)),
        };
        expect(verifyP2pkInput(tampered, inputIndex, utxos).status).not.toBe('valid');
      }),
      { numRuns: 60 },
    );
  });

  it('refuses keys that do not match, unsupported scripts and missing keys', () => {
    const { tx, utxos } = spendableVectorTransaction();
    expect(() => signInput(tx, 0, KEYS[1]!, utxos)).toThrow(SigningError);
    expect(() => signInput(tx, 2, KEYS[2]!, utxos)).toThrow(/spends a scripthash script/);
    expect(() => signInput(tx, 2, KEYS[2]!, utxos, SIG_HASH_ALL, { redeemScript: Uint8Array.of(0x51) })).toThrow(/redeem script/);
    expect(() => signTransaction(tx, [KEYS[1]!], utxos)).toThrow(/inputs 0, 2/);
    const partial = signTransaction(tx, [KEYS[1]!], utxos, { partial: true });
    expect(partial.inputs.map((input) => input.signatureScript.length)).toEqual([0, 66, 0]);
  });
});

describe('verifying P2PK inputs', () => {
  function withSignatureScript(populated: PopulatedTransaction, index: number, signatureScript: Uint8Array): Transaction {
    return { ...populated.tx, inputs: populated.tx.inputs.map((input, i) => (i === index ? { ...input, signatureScript } : input)) };
  }

  const spendable = spendableVectorTransaction();
  const signed = { tx: signTransaction(spendable.tx, KEYS, spendable.utxos), utxos: spendable.utxos };
  const signature = signed.tx.inputs[0]!.signatureScript;
  const redeemScript = payToPublicKeyScript(schnorrPublicKey(KEYS[2]!)).script;

  it('accepts a signature pushed with OP_PUSHDATA1: kaspad has no minimal-push rule', () => {
    const script = Uint8Array.of(0x4c, 65, ...signature.subarray(1));
    expect(verifyP2pkInput(withSignatureScript(signed, 0, script), 0, signed.utxos).status).toBe('valid');
  });

  it.each([
    ['an empty signature script', new Uint8Array(), 'malformed_signature_script'],
    ['an empty signature', Uint8Array.of(0x00), 'invalid_signature'],
    ['a non-push opcode', Uint8Array.of(...signature, 0x76), 'malformed_signature_script'],
    ['an extra push', Uint8Array.of(0x51, ...signature), 'malformed_signature_script'],
    ['a truncated push', signature.subarray(0, 60), 'malformed_signature_script'],
    ['an invalid sighash type', Uint8Array.of(...signature.subarray(0, 65), 0x80), 'invalid_sig_hash_type'],
    ['a 63-byte signature', Uint8Array.of(64, ...signature.subarray(2)), 'invalid_signature'],
  ])('rejects %s', (_name, script, reason) => {
    expect(verifyP2pkInput(withSignatureScript(signed, 0, script), 0, signed.utxos)).toMatchObject({ status: 'invalid', reason });
  });

  it('checks the P2SH redeem script against the committed hash', () => {
    const wrongRedeem = payToPublicKeyScript(schnorrPublicKey(KEYS[0]!)).script;
    const script = Uint8Array.of(...signed.tx.inputs[2]!.signatureScript.subarray(0, 66), 34, ...wrongRedeem);
    expect(verifyP2pkInput(withSignatureScript(signed, 2, script), 2, signed.utxos)).toMatchObject({ status: 'invalid', reason: 'script_hash_mismatch' });
    expect(verifyP2pkInput(withSignatureScript(signed, 2, Uint8Array.of(34, ...redeemScript)), 2, signed.utxos)).toMatchObject({
      status: 'invalid',
      reason: 'malformed_signature_script',
    });
  });

  it('leaves unknown versions and non-P2PK scripts to the caller', () => {
    const opTrue = Uint8Array.of(0x51);
    const p2shOfOpTrue = signed.utxos.map((utxo, index) => (index === 2 ? { ...utxo, scriptPublicKey: payToScriptHashScript(opTrue) } : utxo));
    expect(verifyP2pkInput(withSignatureScript(signed, 2, Uint8Array.of(1, 0x51)), 2, p2shOfOpTrue)).toMatchObject({
      status: 'unsupported',
      reason: 'nonstandard_script',
    });
    const versioned = signed.utxos.map((utxo) => ({ ...utxo, scriptPublicKey: { ...utxo.scriptPublicKey, version: 1 } }));
    expect(verifyP2pkInput(signed.tx, 0, versioned)).toMatchObject({ status: 'unsupported', reason: 'unknown_script_version' });
    const bare = signed.utxos.map((utxo) => ({ ...utxo, scriptPublicKey: { version: 0, script: opTrue } }));
    expect(verifyP2pkInput(signed.tx, 0, bare)).toMatchObject({ status: 'unsupported', reason: 'nonstandard_script' });
  });
});
