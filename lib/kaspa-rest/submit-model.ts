/**
 * kaspa-rest-server's SubmitTxModel (its `kaspad_requests/submit_transaction_request.py`), read as pydantic v1 reads
 * it: every problem collected into one 422 with its location. Hex fields are checked here, where kaspa-rest-server
 * would fail later inside the node call. Toccata's `computeBudget` (inputs) and `covenant` (outputs) are accepted as
 * extensions; its clients never send them.
 */
import { hexToBytes } from '../kaspa/bytes';
import { SUBNETWORK_ID_NATIVE, type Transaction } from '../kaspa/types';
import type { RpcTransactionInputForm } from '../rpc/types';
import { validationError, type ValidationItem } from './errors';

type Location = (string | number)[];

export interface SubmitTx {
  version: number;
  inputs: {
    previousOutpoint: { transactionId: string; index: number };
    signatureScript: string;
    sequence: bigint;
    sigOpCount: number;
    computeBudget?: number;
  }[];
  outputs: {
    amount: bigint;
    scriptPublicKey: { version: number; scriptPublicKey: string };
    covenant?: { authorizingInput: number; covenantId: string };
  }[];
  lockTime: bigint;
  subnetworkId: string;
}

const U64_MAX = 2n ** 64n - 1n;
const HEX = /^(?:[0-9a-fA-F]{2})*$/;

class Reader {
  readonly items: ValidationItem[] = [];

  object(value: unknown, loc: Location): Record<string, unknown> | undefined {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
    this.items.push({ loc, msg: value === undefined ? 'field required' : 'value is not a valid dict', type: value === undefined ? 'value_error.missing' : 'type_error.dict' });
    return undefined;
  }

  list(value: unknown, loc: Location): unknown[] {
    if (Array.isArray(value)) return value;
    this.items.push({ loc, msg: value === undefined ? 'field required' : 'value is not a valid list', type: value === undefined ? 'value_error.missing' : 'type_error.list' });
    return [];
  }

  integer(value: unknown, loc: Location, max: bigint, fallback?: bigint): bigint {
    if (value === undefined && fallback !== undefined) return fallback;
    let parsed: bigint | undefined;
    if (typeof value === 'bigint') parsed = value;
    else if (typeof value === 'number' && Number.isInteger(value)) parsed = BigInt(value);
    else if (typeof value === 'string' && /^[+-]?\d+$/.test(value.trim())) parsed = BigInt(value.trim());
    if (parsed === undefined) {
      this.items.push({ loc, msg: value === undefined ? 'field required' : 'value is not a valid integer', type: value === undefined ? 'value_error.missing' : 'type_error.integer' });
      return 0n;
    }
    if (parsed < 0n || parsed > max) {
      this.items.push({ loc, msg: `ensure this value is between 0 and ${max}`, type: 'value_error.number.not_in_range', ctx: { limit_value: String(max) } });
      return 0n;
    }
    return parsed;
  }

  hex(value: unknown, loc: Location, bytes?: number): string {
    if (typeof value !== 'string') {
      this.items.push({ loc, msg: value === undefined ? 'field required' : 'str type expected', type: value === undefined ? 'value_error.missing' : 'type_error.str' });
      return '';
    }
    if (!HEX.test(value) || (bytes !== undefined && value.length !== bytes * 2)) {
      const expected = bytes === undefined ? 'an even number of hexadecimal digits' : `${bytes * 2} hexadecimal digits`;
      this.items.push({ loc, msg: `string is not ${expected}`, type: 'value_error.hex' });
      return '';
    }
    return value.toLowerCase();
  }
}

const U8 = 0xffn;
const U16 = 0xffffn;
const U32 = 0xffff_ffffn;

/** The model at `loc` (`['body']` or `['body', 'transaction']`), or a 422 naming every problem. */
export function readSubmitTx(value: unknown, loc: Location): SubmitTx {
  const read = new Reader();
  const tx = read.object(value, loc);
  if (tx === undefined) throw validationError(read.items);
  const inputs = read.list(tx.inputs, [...loc, 'inputs']).map((item, index) => {
    const at = [...loc, 'inputs', index];
    const input = read.object(item, at) ?? { previousOutpoint: { transactionId: '00'.repeat(32), index: 0 }, signatureScript: '', sequence: 0, sigOpCount: 0 };
    const outpoint = read.object(input.previousOutpoint, [...at, 'previousOutpoint']);
    return {
      previousOutpoint: {
        transactionId: outpoint === undefined ? '' : read.hex(outpoint.transactionId, [...at, 'previousOutpoint', 'transactionId'], 32),
        index: outpoint === undefined ? 0 : Number(read.integer(outpoint.index, [...at, 'previousOutpoint', 'index'], U32)),
      },
      signatureScript: read.hex(input.signatureScript, [...at, 'signatureScript']),
      sequence: read.integer(input.sequence, [...at, 'sequence'], U64_MAX),
      sigOpCount: Number(read.integer(input.sigOpCount, [...at, 'sigOpCount'], U8)),
      ...(input.computeBudget === undefined ? {} : { computeBudget: Number(read.integer(input.computeBudget, [...at, 'computeBudget'], U16)) }),
    };
  });
  const outputs = read.list(tx.outputs, [...loc, 'outputs']).map((item, index) => {
    const at = [...loc, 'outputs', index];
    const output = read.object(item, at) ?? { amount: 0, scriptPublicKey: { version: 0, scriptPublicKey: '' } };
    // A missing or malformed nested object is one problem, as pydantic reports it, not one per field inside it.
    const script = read.object(output.scriptPublicKey, [...at, 'scriptPublicKey']) ?? { version: 0, scriptPublicKey: '' };
    const covenant =
      output.covenant === undefined || output.covenant === null
        ? undefined
        : (read.object(output.covenant, [...at, 'covenant']) ?? { authorizingInput: 0, covenantId: '00'.repeat(32) });
    return {
      amount: read.integer(output.amount, [...at, 'amount'], U64_MAX),
      scriptPublicKey: {
        version: Number(read.integer(script.version, [...at, 'scriptPublicKey', 'version'], U16)),
        scriptPublicKey: read.hex(script.scriptPublicKey, [...at, 'scriptPublicKey', 'scriptPublicKey']),
      },
      ...(covenant === undefined
        ? {}
        : {
            covenant: {
              authorizingInput: Number(read.integer(covenant.authorizingInput, [...at, 'covenant', 'authorizingInput'], U16)),
              covenantId: read.hex(covenant.covenantId, [...at, 'covenant', 'covenantId'], 32),
            },
          }),
    };
  });
  const model: SubmitTx = {
    version: Number(read.integer(tx.version, [...loc, 'version'], U16)),
    inputs,
    outputs,
    lockTime: tx.lockTime === null ? 0n : read.integer(tx.lockTime, [...loc, 'lockTime'], U64_MAX, 0n),
    subnetworkId:
      tx.subnetworkId === undefined || tx.subnetworkId === null ? '00'.repeat(20) : read.hex(tx.subnetworkId, [...loc, 'subnetworkId'], 20),
  };
  if (read.items.length > 0) throw validationError(read.items);
  return model;
}

/** The node's submission form; no payload, gas or storage-mass commitment, as kaspa-rest-server converts it. */
export function submitTxToRpc(tx: SubmitTx): RpcTransactionInputForm {
  return {
    version: tx.version,
    inputs: tx.inputs.map((input) => ({ ...input })),
    outputs: tx.outputs.map((output) => ({
      value: output.amount,
      scriptPublicKey: { version: output.scriptPublicKey.version, script: output.scriptPublicKey.scriptPublicKey },
      ...(output.covenant === undefined ? {} : { covenant: output.covenant }),
    })),
    lockTime: tx.lockTime,
    subnetworkId: tx.subnetworkId,
    gas: 0n,
    payload: '',
    storageMass: 0n,
  };
}

export function submitTxToTransaction(tx: SubmitTx): Transaction {
  return {
    version: tx.version,
    inputs: tx.inputs.map((input) => ({
      previousOutpoint: { transactionId: hexToBytes(input.previousOutpoint.transactionId), index: input.previousOutpoint.index },
      signatureScript: hexToBytes(input.signatureScript),
      sequence: input.sequence,
      sigOpCount: input.sigOpCount,
      ...(input.computeBudget === undefined ? {} : { computeBudget: input.computeBudget }),
    })),
    outputs: tx.outputs.map((output) => ({
      value: output.amount,
      scriptPublicKey: { version: output.scriptPublicKey.version, script: hexToBytes(output.scriptPublicKey.scriptPublicKey) },
      ...(output.covenant === undefined
        ? {}
        : { covenant: { authorizingInput: output.covenant.authorizingInput, covenantId: hexToBytes(output.covenant.covenantId) } }),
    })),
    lockTime: tx.lockTime,
    subnetworkId: tx.subnetworkId === '00'.repeat(20) ? SUBNETWORK_ID_NATIVE : hexToBytes(tx.subnetworkId),
    gas: 0n,
    payload: new Uint8Array(),
    storageMass: 0n,
  };
}
