/**
 * Hashes, signature checks and the KIP-16 ZK precompile. Signature checks follow lib.rs `check_schnorr_signature` /
 * `check_ecdsa_signature`: every check of a non-empty signature costs one sig op (script units under Toccata) before
 * the key and signature are parsed. OP_ZK_PRECOMPILE parses and charges its tag as kaspad does, then stops the input as
 * unsupported: this engine does not verify Groth16 or RISC Zero proofs, so it can neither accept nor reject one.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { blake2b } from '@noble/hashes/blake2.js';
import { blake3 } from '@noble/hashes/blake3.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '../bytes';
import * as op from '../script-parse';
import { ScriptError, UnsupportedOpcodeError } from '../script-parse';
import { calcEcdsaSignatureHash, calcSchnorrSignatureHash, isValidSigHashType } from '../sighash';
import { verifyEcdsa, verifySchnorr } from '../signing';
import { SCRIPT_UNITS_PER_GRAM } from '../mass';
import { invalidState, toccataOnly, verifyFailed, type OpcodeHandler, type ScriptVm } from './vm';

/** zk_precompiles/tags.rs: tag byte → cost in script units. */
export const ZK_TAG_COSTS: ReadonlyMap<number, bigint> = new Map([
  [0x20, 140_000n * SCRIPT_UNITS_PER_GRAM],
  [0x21, 250_000n * SCRIPT_UNITS_PER_GRAM],
]);

/** Script units per hashed byte (opcodes/mod.rs HashOpcodePricing). */
const BLAKE2B_UNITS_PER_BYTE = 2n;
const BLAKE3_UNITS_PER_BYTE = 1n;
const SHA256_UNITS_PER_BYTE = 1n;

/** Whether a key parses as secp256k1 does (x-only for Schnorr, compressed for ECDSA). */
function isValidPublicKey(key: Uint8Array, ecdsa: boolean): boolean {
  try {
    secp256k1.Point.fromHex(ecdsa ? bytesToHex(key) : `02${bytesToHex(key)}`);
    return true;
  } catch {
    return false;
  }
}

/** secp256k1's `from_compact`: r and s must both be below the group order. */
function isValidCompactSignature(signature: Uint8Array): boolean {
  const order = secp256k1.Point.CURVE().n;
  const r = BigInt(`0x${bytesToHex(signature.subarray(0, 32))}`);
  const s = BigInt(`0x${bytesToHex(signature.subarray(32, 64))}`);
  return r < order && s < order;
}

/**
 * What lib.rs does before verifying: charge the sig op, then parse the key (an ECDSA key must be 33 bytes) and the
 * signature (64 bytes; for ECDSA r and s below the order) as secp256k1 does, failing with its texts.
 */
function checkKeyAndSignature(vm: ScriptVm, ecdsa: boolean, key: Uint8Array, signature: Uint8Array): void {
  vm.consumeSigOp();
  if (ecdsa && key.length !== 33) throw new ScriptError('unsupported public key type');
  if (key.length !== (ecdsa ? 33 : 32) || !isValidPublicKey(key, ecdsa)) throw new ScriptError('pubkey invalid: malformed public key');
  if (signature.length !== 64 || (ecdsa && !isValidCompactSignature(signature))) {
    throw new ScriptError('signature invalid: malformed signature');
  }
}

/** Checks `signature` (hash type removed) by `key` over the input's signature hash. */
function verifyTxSignature(vm: ScriptVm, ecdsa: boolean, hashType: number, signature: Uint8Array, key: Uint8Array): boolean {
  checkKeyAndSignature(vm, ecdsa, key, signature);
  const { tx, inputIndex, entries, reusedValues, backend } = vm;
  if (ecdsa) {
    return verifyEcdsa(signature, calcEcdsaSignatureHash(tx, inputIndex, entries, hashType as 1, reusedValues), key, backend);
  }
  return verifySchnorr(signature, calcSchnorrSignatureHash(tx, inputIndex, entries, hashType as 1, reusedValues), key, backend);
}

function splitHashType(signatureWithType: Uint8Array): { hashType: number; signature: Uint8Array } {
  const hashType = signatureWithType[signatureWithType.length - 1]!;
  if (!isValidSigHashType(hashType)) throw new ScriptError(`invalid hash type 0x${hashType.toString(16).padStart(2, '0')}`);
  return { hashType, signature: signatureWithType.subarray(0, -1) };
}

/** OpCheckSig / OpCheckSigECDSA: an empty signature is false without using a sig op; a bad encoding is an error. */
function checkSig(vm: ScriptVm, ecdsa: boolean): boolean {
  const [signatureWithType, key] = vm.dstack.popRaw(2) as [Uint8Array, Uint8Array];
  if (signatureWithType.length === 0) return false;
  const { hashType, signature } = splitHashType(signatureWithType);
  return verifyTxSignature(vm, ecdsa, hashType, signature, key);
}

/** op_check_multisig_schnorr_or_ecdsa: signatures must match keys in order; a failure with any non-empty signature is an error. */
function checkMultiSig(vm: ScriptVm, ecdsa: boolean): boolean {
  const [keyCount] = vm.dstack.popInts(1) as [number];
  if (keyCount < 0) throw new ScriptError(`invalid pubkey count: number of pubkeys ${keyCount} is negative`);
  if (keyCount > op.MAX_PUB_KEYS_PER_MULTISIG) {
    throw new ScriptError(`invalid pubkey count: too many pubkeys ${keyCount} > ${op.MAX_PUB_KEYS_PER_MULTISIG}`);
  }
  vm.numOps += keyCount;
  if (vm.numOps > vm.maxOpsPerScript()) throw new ScriptError(`exceeded max operation limit of ${vm.maxOpsPerScript()}`);
  const keys = vm.dstack.popRaw(keyCount);
  const [signatureCount] = vm.dstack.popInts(1) as [number];
  if (signatureCount < 0) throw new ScriptError(`invalid signature count: number of signatures ${signatureCount} is negative`);
  if (signatureCount > keyCount) {
    throw new ScriptError(`invalid signature count: more signatures than pubkeys ${signatureCount} > ${keyCount}`);
  }
  const signatures = vm.dstack.popRaw(signatureCount);
  let failed = false;
  let keyAt = 0;
  outer: for (const [index, signatureWithType] of signatures.entries()) {
    if (signatureWithType.length === 0) {
      failed = true;
      break;
    }
    const { hashType, signature } = splitHashType(signatureWithType);
    for (;;) {
      if (keys.length - keyAt < signatureCount - index) {
        failed = true;
        break outer;
      }
      if (verifyTxSignature(vm, ecdsa, hashType, signature, keys[keyAt++]!)) break;
    }
  }
  if (failed && signatures.some((signature) => signature.length > 0)) {
    throw new ScriptError('not all signatures empty on failed checkmultisig');
  }
  return !failed;
}

/** OpCheckSigFromStack(ECDSA): `<signature> <32-byte message hash> <key>`, no hash type byte. */
function checkSigFromStack(vm: ScriptVm, ecdsa: boolean): void {
  const [signature, message, key] = vm.dstack.popRaw(3) as [Uint8Array, Uint8Array, Uint8Array];
  if (message.length !== 32) throw invalidState('message hash must be 32 bytes');
  checkKeyAndSignature(vm, ecdsa, key, signature);
  vm.dstack.pushBool(ecdsa ? verifyEcdsa(signature, message, key, vm.backend) : verifySchnorr(signature, message, key, vm.backend));
}

function hashing(unitsPerByte: bigint, hash: (data: Uint8Array) => Uint8Array): OpcodeHandler {
  return (vm) => {
    const data = vm.dstack.popRaw(1)[0]!;
    vm.consumeScriptUnits(BigInt(data.length) * unitsPerByte);
    vm.dstack.push(hash(data));
  };
}

function verifying(check: (vm: ScriptVm) => boolean, verify: boolean): OpcodeHandler {
  return (vm) => {
    const valid = check(vm);
    if (!verify) vm.dstack.pushBool(valid);
    else if (!valid) throw verifyFailed();
  };
}

function zkPrecompile(vm: ScriptVm): void {
  const tag = vm.dstack.pop();
  if (tag.length === 0) throw new ScriptError('ZK Integrity: Tag byte is missing');
  if (tag.length > 1) throw new ScriptError(`ZK Integrity: Tag byte length ${tag.length} is invalid`);
  const cost = ZK_TAG_COSTS.get(tag[0]!);
  if (cost === undefined) throw new ScriptError(`ZK Integrity: Unknown tag: ${tag[0]}`);
  vm.consumeScriptUnits(cost);
  throw new UnsupportedOpcodeError(op.OP_ZK_PRECOMPILE, `(ZK proof with tag 0x${tag[0]!.toString(16)}) cannot be verified by this engine`);
}

export const CRYPTO_OPCODES = new Map<number, OpcodeHandler>([
  [op.OP_ZK_PRECOMPILE, toccataOnly(zkPrecompile, 'invalid')],
  [op.OP_BLAKE2B_WITH_KEY, toccataOnly((vm) => {
    const [data, key] = vm.dstack.popRaw(2) as [Uint8Array, Uint8Array];
    if (key.length > 64) throw new ScriptError(`element size ${key.length} exceeds max allowed size 64`);
    vm.consumeScriptUnits(BigInt(data.length) * BLAKE2B_UNITS_PER_BYTE);
    // An empty key is no key, as blake2b_simd treats it.
    vm.dstack.push(blake2b(data, key.length === 0 ? { dkLen: 32 } : { dkLen: 32, key }));
  }, 'invalid')],
  [op.OP_SHA256, hashing(SHA256_UNITS_PER_BYTE, sha256)],
  [op.OP_BLAKE2B, hashing(BLAKE2B_UNITS_PER_BYTE, (data) => blake2b(data, { dkLen: 32 }))],
  [op.OP_BLAKE3, toccataOnly(hashing(BLAKE3_UNITS_PER_BYTE, (data) => blake3(data)), 'invalid')],
  [op.OP_BLAKE3_WITH_KEY, toccataOnly((vm) => {
    const [data, key] = vm.dstack.popRaw(2) as [Uint8Array, Uint8Array];
    if (key.length !== 32) throw new ScriptError(`opcode requires 32 bytes, but script only has ${key.length} remaining`);
    vm.consumeScriptUnits(BigInt(data.length) * BLAKE3_UNITS_PER_BYTE);
    vm.dstack.push(blake3(data, { key }));
  }, 'invalid')],
  [op.OP_CHECKSIG, verifying((vm) => checkSig(vm, false), false)],
  [op.OP_CHECKSIGECDSA, verifying((vm) => checkSig(vm, true), false)],
  [op.OP_CHECKSIGVERIFY, verifying((vm) => checkSig(vm, false), true)],
  [op.OP_CHECKMULTISIG, verifying((vm) => checkMultiSig(vm, false), false)],
  [op.OP_CHECKMULTISIGECDSA, verifying((vm) => checkMultiSig(vm, true), false)],
  [op.OP_CHECKMULTISIGVERIFY, verifying((vm) => checkMultiSig(vm, false), true)],
  [op.OP_CHECKSIGFROMSTACK, toccataOnly((vm) => checkSigFromStack(vm, false), 'invalid')],
  [op.OP_CHECKSIGFROMSTACKECDSA, toccataOnly((vm) => checkSigFromStack(vm, true), 'invalid')],
]);
