/**
 * Signatures over Kaspa sighashes (BIP340 Schnorr; secp256k1 ECDSA as a 64-byte compact low-S r ‖ s), the P2PK
 * signature scripts that carry them, and personal-message signing. Sources: consensus/core/src/sign.rs,
 * crypto/txscript/src/lib.rs and opcodes/mod.rs (OpCheckSig, OpCheckSigECDSA, P2SH), wallet/core/src/message.rs.
 */
import { schnorr, secp256k1 } from '@noble/curves/secp256k1.js';
import { randomBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import {
  isPayToPublicKeyEcdsaScript,
  isPayToPublicKeyScript,
  payToPublicKeyEcdsaScript,
  payToPublicKeyScript,
  payToScriptHashScript,
  scriptClassOf,
  STANDARD_SCRIPT_VERSION,
} from './address';
import { bytesToHex, concatBytes, equalBytes } from './bytes';
import { blake2b256, blake2bKeyed } from './hashing';
import {
  calcEcdsaSignatureHash,
  calcSchnorrSignatureHash,
  isValidSigHashType,
  SIG_HASH_ALL,
  SigHashReusedValues,
  type SigHashType,
} from './sighash';
import type { Hash, Transaction, UtxoEntry } from './types';

export const SIGNATURE_LENGTH = 64;

export type SignatureScheme = 'schnorr' | 'ecdsa';

export class SigningError extends Error {
  override name = 'SigningError';
}

function requireHash(hash: Uint8Array): void {
  if (hash.length !== 32) throw new RangeError(`a signature hash is 32 bytes, got ${hash.length}`);
}

/**
 * The secp256k1 operations signing and verification need. Callers validate lengths first; implementations return
 * false (never throw) for a signature or key that is not a valid encoding, and must produce exactly the signatures
 * the default does: BIP340 Schnorr with the given aux randomness, RFC 6979 ECDSA in 64-byte compact low-S form.
 */
export interface Secp256k1Backend {
  readonly name: string;
  /** The 32-byte x-only public key. */
  schnorrPublicKey(privateKey: Uint8Array): Uint8Array;
  /** The 33-byte compressed public key. */
  ecdsaPublicKey(privateKey: Uint8Array): Uint8Array;
  signSchnorr(hash: Hash, privateKey: Uint8Array, auxRand: Uint8Array): Uint8Array;
  verifySchnorr(signature: Uint8Array, hash: Hash, xOnlyPublicKey: Uint8Array): boolean;
  signEcdsa(hash: Hash, privateKey: Uint8Array): Uint8Array;
  verifyEcdsa(signature: Uint8Array, hash: Hash, compressedPublicKey: Uint8Array): boolean;
}

/** The reference implementation (@noble/curves) and the default everywhere a backend can be passed. */
export const nobleSecp256k1: Secp256k1Backend = {
  name: 'noble',
  schnorrPublicKey: (privateKey) => schnorr.getPublicKey(privateKey),
  ecdsaPublicKey: (privateKey) => secp256k1.getPublicKey(privateKey, true),
  signSchnorr: (hash, privateKey, auxRand) => schnorr.sign(hash, privateKey, auxRand),
  verifySchnorr: (signature, hash, xOnlyPublicKey) => schnorr.verify(signature, hash, xOnlyPublicKey),
  signEcdsa: (hash, privateKey) => secp256k1.sign(hash, privateKey, { prehash: false, lowS: true }),
  verifyEcdsa: (signature, hash, compressedPublicKey) => {
    try {
      return secp256k1.verify(signature, hash, compressedPublicKey, { prehash: false, lowS: true });
    } catch {
      return false;
    }
  },
};

export function schnorrPublicKey(privateKey: Uint8Array, backend: Secp256k1Backend = nobleSecp256k1): Uint8Array {
  return backend.schnorrPublicKey(privateKey);
}

export function ecdsaPublicKey(privateKey: Uint8Array, backend: Secp256k1Backend = nobleSecp256k1): Uint8Array {
  return backend.ecdsaPublicKey(privateKey);
}

/** BIP340 over the 32-byte hash itself. `auxRand` defaults to fresh randomness, as rusty-kaspa's signer uses. */
export function signSchnorr(
  hash: Hash,
  privateKey: Uint8Array,
  auxRand: Uint8Array = randomBytes(32),
  backend: Secp256k1Backend = nobleSecp256k1,
): Uint8Array {
  requireHash(hash);
  return backend.signSchnorr(hash, privateKey, auxRand);
}

export function verifySchnorr(
  signature: Uint8Array,
  hash: Hash,
  xOnlyPublicKey: Uint8Array,
  backend: Secp256k1Backend = nobleSecp256k1,
): boolean {
  if (signature.length !== SIGNATURE_LENGTH || hash.length !== 32 || xOnlyPublicKey.length !== 32) return false;
  return backend.verifySchnorr(signature, hash, xOnlyPublicKey);
}

/** Deterministic (RFC 6979) ECDSA over the hash as given (no further hashing); compact, low-S. */
export function signEcdsa(hash: Hash, privateKey: Uint8Array, backend: Secp256k1Backend = nobleSecp256k1): Uint8Array {
  requireHash(hash);
  return backend.signEcdsa(hash, privateKey);
}

/** Accepts only 33-byte compressed keys and low-S signatures, as kaspad's OpCheckSigECDSA does. */
export function verifyEcdsa(
  signature: Uint8Array,
  hash: Hash,
  compressedPublicKey: Uint8Array,
  backend: Secp256k1Backend = nobleSecp256k1,
): boolean {
  if (signature.length !== SIGNATURE_LENGTH || hash.length !== 32 || compressedPublicKey.length !== 33) return false;
  return backend.verifyEcdsa(signature, hash, compressedPublicKey);
}

/** A single data push (OP_DATA_1 … OP_DATA_75), the only form our scripts need. */
function pushData(data: Uint8Array): Uint8Array {
  if (data.length < 1 || data.length > 75) throw new RangeError(`cannot push ${data.length} bytes with OP_DATA_N`);
  return Uint8Array.of(data.length, ...data);
}

/** OP_DATA_65 ‖ signature(64) ‖ hash type: what OpCheckSig / OpCheckSigECDSA pop and split. */
export function p2pkSignatureScript(signature: Uint8Array, hashType: SigHashType): Uint8Array {
  if (signature.length !== SIGNATURE_LENGTH) throw new RangeError(`a signature is 64 bytes, got ${signature.length}`);
  return pushData(Uint8Array.of(...signature, hashType));
}

interface P2pkKey {
  scheme: SignatureScheme;
  publicKey: Uint8Array;
}

function p2pkKeyOf(script: Uint8Array): P2pkKey | null {
  if (isPayToPublicKeyScript(script)) return { scheme: 'schnorr', publicKey: script.subarray(1, 33) };
  if (isPayToPublicKeyEcdsaScript(script)) return { scheme: 'ecdsa', publicKey: script.subarray(1, 34) };
  return null;
}

export interface SignInputOptions {
  /** For a P2SH input: the P2PK or P2PK-ECDSA redeem script whose hash the spent output commits to. */
  redeemScript?: Uint8Array;
  reusedValues?: SigHashReusedValues;
  /** BIP340 auxiliary randomness (Schnorr only); random when omitted. */
  auxRand?: Uint8Array;
  /** The noble reference implementation when omitted. */
  backend?: Secp256k1Backend;
}

/**
 * The signature script for input `inputIndex`, which must spend a P2PK, P2PK-ECDSA or (with `redeemScript`)
 * P2SH-wrapped P2PK output. The scheme follows the key's script. The input's sig-op count (v0) or compute budget (v1)
 * must already be final: the v0 count is signed, and a P2PK spend needs a count of 1 or a budget of 10.
 */
export function signInput(
  tx: Transaction,
  inputIndex: number,
  privateKey: Uint8Array,
  spentUtxos: readonly UtxoEntry[],
  hashType: SigHashType = SIG_HASH_ALL,
  options: SignInputOptions = {},
): Uint8Array {
  const utxo = spentUtxos[inputIndex];
  if (!utxo) throw new RangeError(`no spent UTXO entry was given for input ${inputIndex}`);
  const { redeemScript } = options;
  if (redeemScript && !equalBytes(payToScriptHashScript(redeemScript).script, utxo.scriptPublicKey.script)) {
    throw new SigningError(`input ${inputIndex} does not spend the pay-to-script-hash of the given redeem script`);
  }
  const keyScript = redeemScript ?? utxo.scriptPublicKey.script;
  const key = utxo.scriptPublicKey.version === STANDARD_SCRIPT_VERSION ? p2pkKeyOf(keyScript) : null;
  if (!key) {
    const spent = redeemScript ? 'a non-P2PK redeem script' : `a ${scriptClassOf(utxo.scriptPublicKey)} script`;
    throw new SigningError(
      `input ${inputIndex} spends ${spent}; only P2PK, P2PK-ECDSA and P2SH-wrapped P2PK can be signed`,
    );
  }
  const { reusedValues, auxRand, backend = nobleSecp256k1 } = options;
  const ownKey = key.scheme === 'schnorr' ? backend.schnorrPublicKey(privateKey) : backend.ecdsaPublicKey(privateKey);
  if (!equalBytes(ownKey, key.publicKey)) {
    throw new SigningError(`the private key does not belong to the public key that input ${inputIndex} pays to`);
  }
  const signature =
    key.scheme === 'schnorr'
      ? signSchnorr(calcSchnorrSignatureHash(tx, inputIndex, spentUtxos, hashType, reusedValues), privateKey, auxRand, backend)
      : signEcdsa(calcEcdsaSignatureHash(tx, inputIndex, spentUtxos, hashType, reusedValues), privateKey, backend);
  const signatureScript = p2pkSignatureScript(signature, hashType);
  return redeemScript ? concatBytes(signatureScript, pushData(redeemScript)) : signatureScript;
}

export interface SignTransactionOptions {
  hashType?: SigHashType;
  /** Leave inputs whose key is not among `privateKeys` as they are instead of throwing. */
  partial?: boolean;
  /** The noble reference implementation when omitted. */
  backend?: Secp256k1Backend;
}

interface KeyForScript {
  privateKey: Uint8Array;
  redeemScript?: Uint8Array;
}

/**
 * Returns a copy of `tx` with the signature script of every input filled in, choosing each input's key by the script
 * it spends: P2PK (Schnorr), P2PK-ECDSA, or P2SH of either. Sub-hashes are computed once for all inputs.
 */
export function signTransaction(
  tx: Transaction,
  privateKeys: readonly Uint8Array[],
  spentUtxos: readonly UtxoEntry[],
  options: SignTransactionOptions = {},
): Transaction {
  const keysByScript = new Map<string, KeyForScript>();
  const { hashType = SIG_HASH_ALL, backend = nobleSecp256k1 } = options;
  for (const privateKey of privateKeys) {
    const schnorrScript = payToPublicKeyScript(backend.schnorrPublicKey(privateKey)).script;
    const ecdsaScript = payToPublicKeyEcdsaScript(backend.ecdsaPublicKey(privateKey)).script;
    for (const script of [schnorrScript, ecdsaScript]) {
      keysByScript.set(bytesToHex(script), { privateKey });
      keysByScript.set(bytesToHex(payToScriptHashScript(script).script), { privateKey, redeemScript: script });
    }
  }
  const reusedValues = new SigHashReusedValues(tx);
  const unsigned: number[] = [];
  const signatureScripts = tx.inputs.map((input, index) => {
    const utxo = spentUtxos[index];
    if (!utxo) throw new RangeError(`no spent UTXO entry was given for input ${index}`);
    const { version, script } = utxo.scriptPublicKey;
    const key = version === STANDARD_SCRIPT_VERSION ? keysByScript.get(bytesToHex(script)) : undefined;
    if (!key) {
      unsigned.push(index);
      return input.signatureScript;
    }
    return signInput(tx, index, key.privateKey, spentUtxos, hashType, {
      redeemScript: key.redeemScript,
      reusedValues,
      backend,
    });
  });
  if (unsigned.length > 0 && !options.partial) {
    const inputs = `input${unsigned.length > 1 ? 's' : ''} ${unsigned.join(', ')}`;
    throw new SigningError(`no private key was given for the script spent by ${inputs}`);
  }
  return { ...tx, inputs: tx.inputs.map((input, index) => ({ ...input, signatureScript: signatureScripts[index]! })) };
}

const OP_PUSH_DATA_1 = 0x4c;
const OP_PUSH_DATA_2 = 0x4d;
const OP_PUSH_DATA_4 = 0x4e;
const OP_1_NEGATE = 0x4f;
const OP_1 = 0x51;
const OP_16 = 0x60;

/** The items a push-only script leaves on the stack, or null if it is malformed or not push-only. */
function parsePushOnlyScript(script: Uint8Array): Uint8Array[] | null {
  const items: Uint8Array[] = [];
  const view = new DataView(script.buffer, script.byteOffset, script.byteLength);
  let offset = 0;
  while (offset < script.length) {
    const opcode = script[offset++]!;
    let length: number;
    if (opcode <= 0x4b) {
      length = opcode;
    } else if (opcode === OP_PUSH_DATA_1 && offset + 1 <= script.length) {
      length = view.getUint8(offset);
      offset += 1;
    } else if (opcode === OP_PUSH_DATA_2 && offset + 2 <= script.length) {
      length = view.getUint16(offset, true);
      offset += 2;
    } else if (opcode === OP_PUSH_DATA_4 && offset + 4 <= script.length) {
      length = view.getUint32(offset, true);
      offset += 4;
    } else if (opcode === OP_1_NEGATE) {
      items.push(Uint8Array.of(0x81));
      continue;
    } else if (opcode >= OP_1 && opcode <= OP_16) {
      items.push(Uint8Array.of(opcode - OP_1 + 1));
      continue;
    } else {
      return null;
    }
    if (offset + length > script.length) return null;
    items.push(script.subarray(offset, offset + length));
    offset += length;
  }
  return items;
}

export type InputVerificationReason =
  | 'unknown_script_version'
  | 'nonstandard_script'
  | 'malformed_signature_script'
  | 'script_hash_mismatch'
  | 'invalid_sig_hash_type'
  | 'invalid_signature';

export type InputVerification =
  | { status: 'valid'; scheme: SignatureScheme; viaScriptHash: boolean; hashType: SigHashType }
  /** The input breaks consensus rules. */
  | { status: 'invalid'; reason: InputVerificationReason; message: string }
  /**
   * Outside what this verifier handles. For `unknown_script_version`, kaspad accepts the input without running any
   * script; for `nonstandard_script` only a full script engine can decide.
   */
  | { status: 'unsupported'; reason: InputVerificationReason; message: string };

function invalid(reason: InputVerificationReason, message: string): InputVerification {
  return { status: 'invalid', reason, message };
}

function unsupported(reason: InputVerificationReason, message: string): InputVerification {
  return { status: 'unsupported', reason, message };
}

/**
 * Checks input `inputIndex`'s signature script the way kaspad's script engine would for the standard spends:
 * P2PK, P2PK-ECDSA, and P2SH whose redeem script is one of those. Script-unit budgets (sig-op count / compute
 * budget against the committed value) are not checked here.
 */
export function verifyP2pkInput(
  tx: Transaction,
  inputIndex: number,
  spentUtxos: readonly UtxoEntry[],
  reusedValues: SigHashReusedValues = new SigHashReusedValues(tx),
  backend: Secp256k1Backend = nobleSecp256k1,
): InputVerification {
  const input = tx.inputs[inputIndex];
  if (!input) {
    throw new RangeError(`input index ${inputIndex} is out of range: the transaction has ${tx.inputs.length} inputs`);
  }
  const utxo = spentUtxos[inputIndex];
  if (!utxo) throw new RangeError(`no spent UTXO entry was given for input ${inputIndex}`);
  const { scriptPublicKey } = utxo;
  if (scriptPublicKey.version > STANDARD_SCRIPT_VERSION) {
    const message = `script public key version ${scriptPublicKey.version} is not executed by kaspad`;
    return unsupported('unknown_script_version', message);
  }
  const scriptClass = scriptClassOf(scriptPublicKey);
  if (scriptClass === 'nonstandard') {
    return unsupported('nonstandard_script', 'the spent script is not P2PK, P2PK-ECDSA or P2SH');
  }

  const items = parsePushOnlyScript(input.signatureScript);
  if (!items) return invalid('malformed_signature_script', 'the signature script is malformed or not push-only');

  let keyScript = scriptPublicKey.script;
  const viaScriptHash = scriptClass === 'scripthash';
  if (viaScriptHash) {
    const redeemScript = items.pop();
    if (!redeemScript) {
      return invalid('malformed_signature_script', 'a P2SH signature script must end with the redeem script');
    }
    if (!equalBytes(blake2b256(redeemScript), scriptPublicKey.script.subarray(2, 34))) {
      return invalid('script_hash_mismatch', 'the redeem script does not hash to the script hash of the spent output');
    }
    keyScript = redeemScript;
  }
  const key = p2pkKeyOf(keyScript);
  if (!key) return unsupported('nonstandard_script', 'the redeem script is not P2PK or P2PK-ECDSA');
  if (items.length !== 1) {
    const message = `a P2PK spend pushes exactly one signature, this one pushes ${items.length} items`;
    return invalid('malformed_signature_script', message);
  }

  const pushed = items[0]!;
  if (pushed.length === 0) return invalid('invalid_signature', 'the signature is empty');
  const hashType = pushed[pushed.length - 1]!;
  if (!isValidSigHashType(hashType)) {
    return invalid('invalid_sig_hash_type', `0x${hashType.toString(16)} is not a valid sighash type`);
  }
  const signature = pushed.subarray(0, -1);
  if (signature.length !== SIGNATURE_LENGTH) {
    const message = `a signature is ${SIGNATURE_LENGTH} bytes plus the sighash type, this one is ${signature.length}`;
    return invalid('invalid_signature', message);
  }
  const calcSignatureHash = key.scheme === 'schnorr' ? calcSchnorrSignatureHash : calcEcdsaSignatureHash;
  const verify = key.scheme === 'schnorr' ? verifySchnorr : verifyEcdsa;
  if (!verify(signature, calcSignatureHash(tx, inputIndex, spentUtxos, hashType, reusedValues), key.publicKey, backend)) {
    return invalid('invalid_signature', 'the signature does not verify against the public key in the script');
  }
  return { status: 'valid', scheme: key.scheme, viaScriptHash, hashType };
}

/** BLAKE2b-256 keyed "PersonalMessageSigningHash" over the message's UTF-8 bytes. */
export function personalMessageHash(message: string | Uint8Array): Hash {
  return blake2bKeyed('PersonalMessageSigningHash', typeof message === 'string' ? utf8ToBytes(message) : message);
}

export function signPersonalMessage(
  message: string | Uint8Array,
  privateKey: Uint8Array,
  auxRand?: Uint8Array,
  backend: Secp256k1Backend = nobleSecp256k1,
): Uint8Array {
  return signSchnorr(personalMessageHash(message), privateKey, auxRand, backend);
}

export function verifyPersonalMessage(
  message: string | Uint8Array,
  signature: Uint8Array,
  xOnlyPublicKey: Uint8Array,
  backend: Secp256k1Backend = nobleSecp256k1,
): boolean {
  return verifySchnorr(signature, personalMessageHash(message), xOnlyPublicKey, backend);
}
