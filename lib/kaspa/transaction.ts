/**
 * Transaction serialization for hashing, transaction ids (v0: BLAKE2b TransactionID; v1: BLAKE3 over payload and
 * rest digests) and transaction hashes (merkle leaves). Source: consensus/core/src/hashing/tx.rs.
 */
import { ByteWriter, concatBytes } from './bytes';
import { blake2bKeyed, blake3Keyed } from './hashing';
import type { Hash, Transaction, TransactionInput, TransactionOutput } from './types';

/** The transaction version before Toccata, and the one Toccata adds (consensus/core/src/constants.rs). */
export const TX_VERSION = 0;
export const TX_VERSION_TOCCATA = 1;

/**
 * An input's compute commitment (`ComputeCommit` in consensus/core/src/tx.rs): a version 0 input commits to a sig-op
 * count, a version 1 input to a compute budget. An input carries a compute budget exactly when `computeBudget` is set;
 * a transaction whose inputs carry the other kind is invalid (`ComputeBudgetInV0`, `SigopCountInV1`) but still hashes.
 */
export type ComputeCommit = { kind: 'SigopCount'; sigOpCount: number } | { kind: 'ComputeBudget'; computeBudget: number };

export function computeCommitOf(input: TransactionInput): ComputeCommit {
  return input.computeBudget === undefined
    ? { kind: 'SigopCount', sigOpCount: input.sigOpCount }
    : { kind: 'ComputeBudget', computeBudget: input.computeBudget };
}

/** The sig-op count a version 0 encoding writes: 0 for an input that commits to a compute budget. */
export function committedSigOpCount(input: TransactionInput): number {
  return input.computeBudget === undefined ? input.sigOpCount : 0;
}

/** The compute budget a version 1 encoding writes: 0 for an input that commits to a sig-op count. */
export function committedComputeBudget(input: TransactionInput): number {
  return input.computeBudget ?? 0;
}

export interface TransactionWriteOptions {
  excludeSignatureScript?: boolean;
  excludeMassCommit?: boolean;
  excludePayload?: boolean;
}

export function writeOutput(writer: ByteWriter, output: TransactionOutput, version: number): void {
  writer.u64(output.value).u16(output.scriptPublicKey.version).varBytes(output.scriptPublicKey.script);
  if (version >= 1) {
    if (output.covenant) {
      writer.u8(1).u16(output.covenant.authorizingInput).bytes(output.covenant.covenantId);
    } else {
      writer.u8(0);
    }
  }
}

export function writeTransaction(writer: ByteWriter, tx: Transaction, options: TransactionWriteOptions = {}): void {
  writer.u16(tx.version).u64(tx.inputs.length);
  for (const input of tx.inputs) {
    writer.bytes(input.previousOutpoint.transactionId).u32(input.previousOutpoint.index);
    if (options.excludeSignatureScript) {
      writer.u64(0);
    } else {
      writer.varBytes(input.signatureScript);
      if (tx.version === 0) writer.u8(committedSigOpCount(input));
    }
    writer.u64(input.sequence);
    if (tx.version >= 1 && !options.excludeMassCommit) writer.u16(committedComputeBudget(input));
  }
  writer.u64(tx.outputs.length);
  for (const output of tx.outputs) writeOutput(writer, output, tx.version);
  writer.u64(tx.lockTime).bytes(tx.subnetworkId).u64(tx.gas);
  if (options.excludePayload) {
    writer.u64(0);
  } else {
    writer.varBytes(tx.payload);
  }
  if (!options.excludeMassCommit && (tx.version >= 1 || tx.storageMass > 0n)) writer.u64(tx.storageMass);
}

export function serializeTransaction(tx: Transaction, options: TransactionWriteOptions = {}): Uint8Array {
  const writer = new ByteWriter();
  writeTransaction(writer, tx, options);
  return writer.finish();
}

export function payloadDigest(payload: Uint8Array): Hash {
  return blake3Keyed('PayloadDigest', payload);
}

export function transactionId(tx: Transaction): Hash {
  if (tx.version === 0) {
    return blake2bKeyed('TransactionID', serializeTransaction(tx, { excludeSignatureScript: true, excludeMassCommit: true }));
  }
  const rest = blake3Keyed(
    'TransactionRest',
    serializeTransaction(tx, { excludePayload: true, excludeSignatureScript: true, excludeMassCommit: true }),
  );
  return blake3Keyed('TransactionV1Id', concatBytes(payloadDigest(tx.payload), rest));
}

/** The hash used as the merkle leaf: covers signature scripts and the mass commitment. */
export function transactionHash(tx: Transaction): Hash {
  return blake2bKeyed('TransactionHash', serializeTransaction(tx));
}

export function isCoinbase(tx: Transaction): boolean {
  return tx.subnetworkId[0] === 1 && tx.subnetworkId.subarray(1).every((byte) => byte === 0);
}
