/**
 * Transaction signature hashes: the Schnorr sighash (BLAKE2b keyed "TransactionSigningHash") and the ECDSA sighash
 * derived from it. Source: consensus/core/src/hashing/sighash.rs and sighash_type.rs.
 */
import { ByteWriter, equalBytes } from './bytes';
import { blake2bKeyed, ecdsaSigningHash, ZERO_HASH } from './hashing';
import { committedSigOpCount, writeOutput } from './transaction';
import { SUBNETWORK_ID_NATIVE, type Hash, type Transaction, type UtxoEntry } from './types';

export const SIG_HASH_ALL = 0x01;
export const SIG_HASH_NONE = 0x02;
export const SIG_HASH_SINGLE = 0x04;
export const SIG_HASH_ANY_ONE_CAN_PAY = 0x80;
/** The low bits of a hash type that choose which outputs are signed. */
export const SIG_HASH_MASK = 0x07;

export type SigHashType = 0x01 | 0x02 | 0x04 | 0x81 | 0x82 | 0x84;

export const VALID_SIG_HASH_TYPES: readonly SigHashType[] = [0x01, 0x02, 0x04, 0x81, 0x82, 0x84];

export function isValidSigHashType(value: number): value is SigHashType {
  return (VALID_SIG_HASH_TYPES as readonly number[]).includes(value);
}

function isNone(hashType: SigHashType): boolean {
  return (hashType & SIG_HASH_MASK) === SIG_HASH_NONE;
}

function isSingle(hashType: SigHashType): boolean {
  return (hashType & SIG_HASH_MASK) === SIG_HASH_SINGLE;
}

function isAnyOneCanPay(hashType: SigHashType): boolean {
  return (hashType & SIG_HASH_ANY_ONE_CAN_PAY) === SIG_HASH_ANY_ONE_CAN_PAY;
}

/**
 * The sub-hashes that are identical for every input of one transaction, computed once so that signing or verifying
 * n inputs costs O(n) instead of O(n²). Valid only for the transaction it was created for, and only while that
 * transaction's hashed fields (everything but signature scripts and the mass commitment) stay unchanged.
 */
export class SigHashReusedValues {
  previousOutputsHash?: Hash;
  sequencesHash?: Hash;
  sigOpCountsHash?: Hash;
  outputsHash?: Hash;
  payloadHash?: Hash;

  constructor(readonly tx: Transaction) {}
}

function signingHash(fill: (writer: ByteWriter) => void): Hash {
  const writer = new ByteWriter();
  fill(writer);
  return blake2bKeyed('TransactionSigningHash', writer.finish());
}

function previousOutputsHash(tx: Transaction, hashType: SigHashType, reused: SigHashReusedValues): Hash {
  if (isAnyOneCanPay(hashType)) return ZERO_HASH;
  return (reused.previousOutputsHash ??= signingHash((writer) => {
    for (const input of tx.inputs) writer.bytes(input.previousOutpoint.transactionId).u32(input.previousOutpoint.index);
  }));
}

function sequencesHash(tx: Transaction, hashType: SigHashType, reused: SigHashReusedValues): Hash {
  if (isSingle(hashType) || isNone(hashType) || isAnyOneCanPay(hashType)) return ZERO_HASH;
  return (reused.sequencesHash ??= signingHash((writer) => {
    for (const input of tx.inputs) writer.u64(input.sequence);
  }));
}

function sigOpCountsHash(tx: Transaction, hashType: SigHashType, reused: SigHashReusedValues): Hash {
  if (isAnyOneCanPay(hashType)) return ZERO_HASH;
  return (reused.sigOpCountsHash ??= signingHash((writer) => {
    for (const input of tx.inputs) writer.u8(committedSigOpCount(input));
  }));
}

function outputsHash(tx: Transaction, hashType: SigHashType, reused: SigHashReusedValues, inputIndex: number): Hash {
  if (isNone(hashType)) return ZERO_HASH;
  if (isSingle(hashType)) {
    const output = tx.outputs[inputIndex];
    return output ? signingHash((writer) => writeOutput(writer, output, tx.version)) : ZERO_HASH;
  }
  return (reused.outputsHash ??= signingHash((writer) => {
    for (const output of tx.outputs) writeOutput(writer, output, tx.version);
  }));
}

function payloadHash(tx: Transaction, reused: SigHashReusedValues): Hash {
  if (tx.payload.length === 0 && equalBytes(tx.subnetworkId, SUBNETWORK_ID_NATIVE)) return ZERO_HASH;
  return (reused.payloadHash ??= signingHash((writer) => writer.varBytes(tx.payload)));
}

/**
 * The message a Schnorr signature of input `inputIndex` commits to. `spentUtxos` holds the UTXO entry spent by each
 * input, in input order; only the entry of `inputIndex` is read. Version 0 transactions commit to sig-op counts;
 * version 1 drops both sig-op fields and signs each output's covenant binding; compute budgets, signature scripts, the
 * storage mass and the spent entry's covenant id are never signed.
 */
export function calcSchnorrSignatureHash(
  tx: Transaction,
  inputIndex: number,
  spentUtxos: readonly UtxoEntry[],
  hashType: SigHashType,
  reusedValues: SigHashReusedValues = new SigHashReusedValues(tx),
): Hash {
  const input = tx.inputs[inputIndex];
  if (!input) {
    throw new RangeError(`input index ${inputIndex} is out of range: the transaction has ${tx.inputs.length} inputs`);
  }
  const utxo = spentUtxos[inputIndex];
  if (!utxo) throw new RangeError(`no spent UTXO entry was given for input ${inputIndex}`);
  if (!isValidSigHashType(hashType)) throw new RangeError(`invalid sighash type 0x${Number(hashType).toString(16)}`);
  if (reusedValues.tx !== tx) throw new Error('the reused sighash values were created for a different transaction');

  const writer = new ByteWriter();
  writer
    .u16(tx.version)
    .bytes(previousOutputsHash(tx, hashType, reusedValues))
    .bytes(sequencesHash(tx, hashType, reusedValues));
  if (tx.version < 1) writer.bytes(sigOpCountsHash(tx, hashType, reusedValues));
  writer.bytes(input.previousOutpoint.transactionId).u32(input.previousOutpoint.index);
  writer.u16(utxo.scriptPublicKey.version).varBytes(utxo.scriptPublicKey.script);
  writer.u64(utxo.amount).u64(input.sequence);
  if (tx.version < 1) writer.u8(committedSigOpCount(input));
  writer
    .bytes(outputsHash(tx, hashType, reusedValues, inputIndex))
    .u64(tx.lockTime)
    .bytes(tx.subnetworkId)
    .u64(tx.gas)
    .bytes(payloadHash(tx, reusedValues))
    .u8(hashType);
  return blake2bKeyed('TransactionSigningHash', writer.finish());
}

/** The message an ECDSA signature commits to: SHA256(SHA256("TransactionSigningHashECDSA") ‖ Schnorr sighash). */
export function calcEcdsaSignatureHash(
  tx: Transaction,
  inputIndex: number,
  spentUtxos: readonly UtxoEntry[],
  hashType: SigHashType,
  reusedValues?: SigHashReusedValues,
): Hash {
  return ecdsaSigningHash(calcSchnorrSignatureHash(tx, inputIndex, spentUtxos, hashType, reusedValues));
}
