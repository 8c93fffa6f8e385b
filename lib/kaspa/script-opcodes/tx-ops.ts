/**
 * Transaction introspection (KIP-10 under Crescendo, extended by KIP-17 under Toccata) and the lock-time checks. Each
 * reads the spending transaction and the entries its inputs spend; index errors carry kaspad's texts, including its
 * quirk of naming the input count when an output index is out of bounds for OP_TXOUTPUTAMOUNT/SPK.
 */
import * as op from '../script-parse';
import { ScriptError } from '../script-parse';
import {
  inputIndexError,
  outputIndexError,
  scriptPublicKeyBytes,
  substring,
  toccataOnly,
  toIndex,
  type OpcodeHandler,
  type ScriptVm,
} from './vm';

const LOCK_TIME_THRESHOLD = 500_000_000_000n;
const MAX_TX_IN_SEQUENCE_NUM = (1n << 64n) - 1n;
const SEQUENCE_LOCK_TIME_DISABLED = 1n << 63n;
const SEQUENCE_LOCK_TIME_MASK = 0xffff_ffffn;

function popIndex(vm: ScriptVm): number {
  return toIndex(vm.dstack.popInts(1)[0]!);
}

function inputAt(vm: ScriptVm, index: number) {
  const input = vm.tx.inputs[index];
  if (!input) throw inputIndexError(index, vm.tx.inputs.length);
  return input;
}

function entryAt(vm: ScriptVm, index: number) {
  const entry = index >= 0 && index < vm.tx.inputs.length ? vm.entries[index] : undefined;
  if (!entry) throw inputIndexError(index, vm.tx.inputs.length);
  return entry;
}

function outputAt(vm: ScriptVm, index: number, reportedCount: number) {
  const output = index >= 0 ? vm.tx.outputs[index] : undefined;
  if (!output) throw outputIndexError(index, reportedCount);
  return output;
}

/** An unsigned 8-byte little-endian operand padded with zeros (CLTV/CSV do not use script numbers). */
function popU64(vm: ScriptVm): bigint {
  const bytes = vm.dstack.popRaw(1)[0]!;
  if (bytes.length > 8) {
    const hex = `[${Array.from(bytes, (byte) => byte.toString(16)).join(', ')}]`;
    throw new ScriptError(`Number too big: lockTime value represented as ${hex} is longer then 8 bytes`);
  }
  return bytes.reduceRight((sum, byte) => (sum << 8n) | BigInt(byte), 0n);
}

const lockTimeError = (text: string) => new ScriptError(`Unsatisfied lock time: ${text}`);

function checkLockTimeVerify(vm: ScriptVm): void {
  const stackLockTime = popU64(vm);
  const txLockTime = vm.tx.lockTime;
  if ((txLockTime < LOCK_TIME_THRESHOLD) !== (stackLockTime < LOCK_TIME_THRESHOLD)) {
    throw lockTimeError(`mismatched locktime types -- tx locktime ${txLockTime}, stack locktime ${stackLockTime}`);
  }
  if (stackLockTime > txLockTime) {
    throw lockTimeError(
      `locktime requirement not satisfied -- locktime is greater than the transaction locktime: ${stackLockTime} > ${txLockTime}`,
    );
  }
  if (vm.tx.inputs[vm.inputIndex]!.sequence === MAX_TX_IN_SEQUENCE_NUM) throw lockTimeError('transaction input is finalized');
}

function checkSequenceVerify(vm: ScriptVm): void {
  const stackSequence = popU64(vm);
  if ((stackSequence & SEQUENCE_LOCK_TIME_DISABLED) !== 0n) return;
  const sequence = vm.tx.inputs[vm.inputIndex]!.sequence;
  if ((sequence & SEQUENCE_LOCK_TIME_DISABLED) !== 0n) {
    throw lockTimeError(`transaction sequence has sequence locktime disabled bit set: 0x${sequence.toString(16)}`);
  }
  const required = stackSequence & SEQUENCE_LOCK_TIME_MASK;
  const actual = sequence & SEQUENCE_LOCK_TIME_MASK;
  if (required > actual) {
    throw lockTimeError(`locktime requirement not satisfied -- locktime is greater than the transaction locktime: ${required} > ${actual}`);
  }
}

function u64le(value: bigint): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, value, true);
  return bytes;
}

/** OP_TXINPUTAMOUNT/SPK and OP_TXOUTPUTAMOUNT/SPK read their index as i32 and report a negative one as out of bounds. */
const popSignedIndex = (vm: ScriptVm) => vm.dstack.popInts(1)[0]!;

export const TX_OPCODES = new Map<number, OpcodeHandler>([
  [op.OP_CHECKLOCKTIMEVERIFY, checkLockTimeVerify],
  [op.OP_CHECKSEQUENCEVERIFY, checkSequenceVerify],
  [op.OP_TX_VERSION, toccataOnly((vm) => vm.dstack.pushNumber(BigInt(vm.tx.version)), 'reserved')],
  [op.OP_TX_INPUT_COUNT, (vm) => vm.dstack.pushNumber(BigInt(vm.tx.inputs.length))],
  [op.OP_TX_OUTPUT_COUNT, (vm) => vm.dstack.pushNumber(BigInt(vm.tx.outputs.length))],
  [op.OP_TX_LOCK_TIME, toccataOnly((vm) => vm.dstack.pushNumber(vm.tx.lockTime), 'reserved')],
  [op.OP_TX_SUBNET_ID, toccataOnly((vm) => vm.dstack.push(vm.tx.subnetworkId), 'reserved')],
  [op.OP_TX_GAS, toccataOnly((vm) => vm.dstack.pushNumber(vm.tx.gas), 'reserved')],
  [op.OP_TX_PAYLOAD_SUBSTR, toccataOnly((vm) => {
    const [start, end] = vm.dstack.popInts(2).map(toIndex) as [number, number];
    vm.dstack.push(substring(vm.tx.payload, start, end));
  }, 'reserved')],
  [op.OP_TX_INPUT_INDEX, (vm) => vm.dstack.pushNumber(BigInt(vm.inputIndex))],
  [op.OP_OUTPOINT_TX_ID, toccataOnly((vm) => vm.dstack.push(inputAt(vm, popIndex(vm)).previousOutpoint.transactionId), 'reserved')],
  [op.OP_OUTPOINT_INDEX, toccataOnly(
    (vm) => vm.dstack.pushNumber(BigInt(inputAt(vm, popIndex(vm)).previousOutpoint.index)),
    'reserved',
  )],
  [op.OP_TX_INPUT_SCRIPT_SIG_SUBSTR, toccataOnly((vm) => {
    const [index, start, end] = vm.dstack.popInts(3).map(toIndex) as [number, number, number];
    vm.dstack.push(substring(inputAt(vm, index).signatureScript, start, end));
  }, 'reserved')],
  [op.OP_TX_INPUT_SEQ, toccataOnly((vm) => vm.dstack.push(u64le(inputAt(vm, popIndex(vm)).sequence)), 'reserved')],
  [op.OP_TX_INPUT_AMOUNT, (vm) => vm.dstack.pushNumber(entryAt(vm, popSignedIndex(vm)).amount)],
  [op.OP_TX_INPUT_SPK, (vm) => vm.dstack.push(scriptPublicKeyBytes(entryAt(vm, popSignedIndex(vm)).scriptPublicKey))],
  [op.OP_TX_INPUT_DAA_SCORE, toccataOnly((vm) => vm.dstack.pushNumber(entryAt(vm, popIndex(vm)).blockDaaScore), 'invalid')],
  [op.OP_TX_INPUT_IS_COINBASE, toccataOnly(
    (vm) => vm.dstack.pushNumber(entryAt(vm, popIndex(vm)).isCoinbase ? 1n : 0n),
    'reserved',
  )],
  [op.OP_TX_OUTPUT_AMOUNT, (vm) => vm.dstack.pushNumber(outputAt(vm, popSignedIndex(vm), vm.tx.inputs.length).value)],
  [op.OP_TX_OUTPUT_SPK, (vm) => {
    vm.dstack.push(scriptPublicKeyBytes(outputAt(vm, popSignedIndex(vm), vm.tx.inputs.length).scriptPublicKey));
  }],
  [op.OP_TX_PAYLOAD_LEN, toccataOnly((vm) => vm.dstack.pushNumber(BigInt(vm.tx.payload.length)), 'invalid')],
  [op.OP_TX_INPUT_SPK_LEN, toccataOnly(
    (vm) => vm.dstack.pushNumber(BigInt(entryAt(vm, popIndex(vm)).scriptPublicKey.script.length + 2)),
    'invalid',
  )],
  [op.OP_TX_INPUT_SPK_SUBSTR, toccataOnly((vm) => {
    const [index, start, end] = vm.dstack.popInts(3).map(toIndex) as [number, number, number];
    vm.dstack.push(substring(scriptPublicKeyBytes(entryAt(vm, index).scriptPublicKey), start, end));
  }, 'invalid')],
  [op.OP_TX_OUTPUT_SPK_LEN, toccataOnly(
    (vm) => vm.dstack.pushNumber(BigInt(outputAt(vm, popIndex(vm), vm.tx.outputs.length).scriptPublicKey.script.length + 2)),
    'invalid',
  )],
  [op.OP_TX_OUTPUT_SPK_SUBSTR, toccataOnly((vm) => {
    const [index, start, end] = vm.dstack.popInts(3).map(toIndex) as [number, number, number];
    vm.dstack.push(substring(scriptPublicKeyBytes(outputAt(vm, index, vm.tx.outputs.length).scriptPublicKey), start, end));
  }, 'invalid')],
  [op.OP_TX_INPUT_SCRIPT_SIG_LEN, toccataOnly(
    (vm) => vm.dstack.pushNumber(BigInt(inputAt(vm, popIndex(vm)).signatureScript.length)),
    'invalid',
  )],
]);
