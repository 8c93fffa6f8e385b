/** Loads the shared research vectors (../shared/research/vectors, beside the repository) for known-answer tests. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bytesToHex, hexToBytes } from '../bytes';
import type { Transaction } from '../types';

const VECTORS_DIR = fileURLToPath(new URL('../../../../shared/research/vectors/', import.meta.url));

export function readVectors<T = unknown>(file: string): T {
  return JSON.parse(readFileSync(VECTORS_DIR + file, 'utf8')) as T;
}

export interface TransactionVector {
  version: number;
  inputs: {
    previousOutpoint: { transactionId: string; index: number };
    signatureScript: string;
    sequence: string;
    sigOpCount?: number;
    computeBudget?: number;
  }[];
  outputs: {
    value: string;
    scriptPublicKey: { version: number; script: string };
    covenant?: { authorizingInput: number; covenantId: string } | null;
  }[];
  lockTime: string;
  subnetworkId: string;
  gas: string;
  payload: string;
  storageMass: string;
}

export function transactionFromVector(vector: TransactionVector): Transaction {
  return {
    version: vector.version,
    inputs: vector.inputs.map((input) => ({
      previousOutpoint: {
        transactionId: hexToBytes(input.previousOutpoint.transactionId),
        index: input.previousOutpoint.index,
      },
      signatureScript: hexToBytes(input.signatureScript),
      sequence: BigInt(input.sequence),
      sigOpCount: input.sigOpCount ?? 0,
      computeBudget: input.computeBudget,
    })),
    outputs: vector.outputs.map((output) => ({
      value: BigInt(output.value),
      scriptPublicKey: { version: output.scriptPublicKey.version, script: hexToBytes(output.scriptPublicKey.script) },
      covenant: output.covenant
        ? { authorizingInput: output.covenant.authorizingInput, covenantId: hexToBytes(output.covenant.covenantId) }
        : null,
    })),
    lockTime: BigInt(vector.lockTime),
    subnetworkId: hexToBytes(vector.subnetworkId),
    gas: BigInt(vector.gas),
    payload: hexToBytes(vector.payload),
    storageMass: BigInt(vector.storageMass),
  };
}

export { bytesToHex, hexToBytes };
