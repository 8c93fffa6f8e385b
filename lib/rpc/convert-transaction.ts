/**
 * Conversions between lib/kaspa's consensus types and the wRPC JSON forms of lib/rpc/types.ts, plus the narrow RPC
 * surface the devnet wallets and traffic generator call. u64 fields stay bigint (lib/rpc/json.ts writes them as bare
 * integers); hashes and byte strings are lowercase hex.
 */
import { bytesToHex, hexToBytes } from '../kaspa/bytes';
import type { Outpoint, ScriptPublicKey, Transaction, TransactionOutput, UtxoEntry } from '../kaspa/types';
import type {
  RpcMethodName,
  RpcRequest,
  RpcResponse,
  RpcScriptPublicKey,
  RpcScriptPublicKeyObject,
  RpcTransaction,
  RpcTransactionInputForm,
  RpcTransactionOutpoint,
  RpcUtxoEntry,
} from './types';

/** The one RPC entry point the wallets and the traffic generator need, in-process or over a socket. */
export interface RpcCaller {
  call<M extends RpcMethodName>(method: M, params: RpcRequest<M>): Promise<RpcResponse<M>>;
}

/** A u64 read off the wire: the codec yields bigint under u64 keys, but hand-built objects may carry numbers. */
export function u64FromRpc(value: bigint | number): bigint {
  return typeof value === 'bigint' ? value : BigInt(value);
}

export function scriptPublicKeyToRpc(scriptPublicKey: ScriptPublicKey): RpcScriptPublicKeyObject {
  return { version: scriptPublicKey.version, script: bytesToHex(scriptPublicKey.script) };
}

/** Accepts serde's string form (4 hex digits of big-endian version, then the script) and the object form. */
export function scriptPublicKeyFromRpc(value: RpcScriptPublicKey | RpcScriptPublicKeyObject): ScriptPublicKey {
  if (typeof value !== 'string') return { version: value.version, script: hexToBytes(value.script) };
  if (value.length < 4) throw new RangeError(`a script public key string needs a 4-digit version, got "${value}"`);
  return { version: Number.parseInt(value.slice(0, 4), 16), script: hexToBytes(value.slice(4)) };
}

export function outpointToRpc(outpoint: Outpoint): RpcTransactionOutpoint {
  return { transactionId: bytesToHex(outpoint.transactionId), index: outpoint.index };
}

export function outpointFromRpc(outpoint: RpcTransactionOutpoint): Outpoint {
  return { transactionId: hexToBytes(outpoint.transactionId), index: outpoint.index };
}

export function utxoEntryFromRpc(entry: RpcUtxoEntry): UtxoEntry {
  return {
    amount: u64FromRpc(entry.amount),
    scriptPublicKey: scriptPublicKeyFromRpc(entry.scriptPublicKey),
    blockDaaScore: u64FromRpc(entry.blockDaaScore),
    isCoinbase: entry.isCoinbase,
    covenantId: entry.covenantId === null || entry.covenantId === undefined ? null : hexToBytes(entry.covenantId),
  };
}

/**
 * The submission form kaspad accepts: script public keys as objects, `storageMass` only, no verbose data, and a
 * `computeBudget` only for version 1 and later (version 0 inputs commit to `sigOpCount`).
 */
export function transactionToRpc(tx: Transaction): RpcTransactionInputForm {
  return {
    version: tx.version,
    inputs: tx.inputs.map((input) => ({
      previousOutpoint: outpointToRpc(input.previousOutpoint),
      signatureScript: bytesToHex(input.signatureScript),
      sequence: input.sequence,
      sigOpCount: input.sigOpCount,
      ...(tx.version >= 1 ? { computeBudget: input.computeBudget ?? 0 } : {}),
    })),
    outputs: tx.outputs.map((output) => ({
      value: output.value,
      scriptPublicKey: scriptPublicKeyToRpc(output.scriptPublicKey),
      ...(output.covenant
        ? {
            covenant: {
              authorizingInput: output.covenant.authorizingInput,
              covenantId: bytesToHex(output.covenant.covenantId),
            },
          }
        : {}),
    })),
    lockTime: tx.lockTime,
    subnetworkId: bytesToHex(tx.subnetworkId),
    gas: tx.gas,
    payload: bytesToHex(tx.payload),
    storageMass: tx.storageMass,
  };
}

/** Reads either the node's output form or the submission form; `storageMass` wins over its alias `mass`. */
export function transactionFromRpc(rpc: RpcTransaction | RpcTransactionInputForm): Transaction {
  const storageMass = rpc.storageMass ?? rpc.mass;
  if (storageMass === undefined) throw new RangeError('an RPC transaction carries storageMass or mass');
  return {
    version: rpc.version,
    inputs: rpc.inputs.map((input) => ({
      previousOutpoint: outpointFromRpc(input.previousOutpoint),
      signatureScript: hexToBytes(input.signatureScript),
      sequence: u64FromRpc(input.sequence),
      sigOpCount: input.sigOpCount,
      ...(rpc.version >= 1 ? { computeBudget: input.computeBudget ?? 0 } : {}),
    })),
    outputs: rpc.outputs.map((output): TransactionOutput => {
      const converted: TransactionOutput = {
        value: u64FromRpc(output.value),
        scriptPublicKey: scriptPublicKeyFromRpc(output.scriptPublicKey),
      };
      if (output.covenant) {
        converted.covenant = {
          authorizingInput: output.covenant.authorizingInput,
          covenantId: hexToBytes(output.covenant.covenantId),
        };
      }
      return converted;
    }),
    lockTime: u64FromRpc(rpc.lockTime),
    subnetworkId: hexToBytes(rpc.subnetworkId),
    gas: u64FromRpc(rpc.gas),
    payload: hexToBytes(rpc.payload),
    storageMass: u64FromRpc(storageMass),
  };
}
