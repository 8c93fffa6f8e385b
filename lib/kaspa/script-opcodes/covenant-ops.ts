/**
 * KIP-17/KIP-20 covenant opcodes (Toccata only; invalid before it). They read the transaction's `CovenantsContext`
 * (which continuation outputs each input authorizes, which inputs and outputs carry a covenant id) and the bindings
 * themselves; a context error surfaces as kaspad's "covenants error: …".
 */
import { CovenantError } from '../covenant';
import { ZERO_HASH } from '../hashing';
import * as op from '../script-parse';
import { ScriptError, UnsupportedOpcodeError } from '../script-parse';
import { inputIndexError, invalidOpcode, outputIndexError, toccataOnly, toIndex, type OpcodeHandler, type ScriptVm } from './vm';

function covenantQuery<T>(query: () => T): T {
  try {
    return query();
  } catch (error) {
    if (error instanceof CovenantError) throw new ScriptError(`covenants error: ${error.message}`);
    throw error;
  }
}

function popInputIndex(vm: ScriptVm): number {
  const index = toIndex(vm.dstack.popInts(1)[0]!);
  if (index >= vm.tx.inputs.length) throw inputIndexError(index, vm.tx.inputs.length);
  return index;
}

/** kaspad names the input count in this error too. */
function outputAt(vm: ScriptVm) {
  const index = toIndex(vm.dstack.popInts(1)[0]!);
  const output = vm.tx.outputs[index];
  if (!output) throw outputIndexError(index, vm.tx.inputs.length);
  return output;
}

/** `<covenant id> <k>`: k is on top. */
function popIdAndK(vm: ScriptVm): { id: Uint8Array; k: number } {
  const k = toIndex(vm.dstack.popInts(1)[0]!);
  return { id: vm.dstack.popHash(), k };
}

export const COVENANT_OPCODES = new Map<number, OpcodeHandler>([
  [op.OP_AUTH_OUTPUT_COUNT, toccataOnly(
    (vm) => vm.dstack.pushNumber(BigInt(vm.covenants.authorizedOutputCount(popInputIndex(vm)))),
    'invalid',
  )],
  [op.OP_AUTH_OUTPUT_IDX, toccataOnly((vm) => {
    const [inputIndex, k] = vm.dstack.popInts(2).map(toIndex) as [number, number];
    if (inputIndex >= vm.tx.inputs.length) throw inputIndexError(inputIndex, vm.tx.inputs.length);
    vm.dstack.pushNumber(BigInt(covenantQuery(() => vm.covenants.authorizedOutputIndex(inputIndex, k))));
  }, 'invalid')],
  [op.OP_INPUT_COVENANT_ID, toccataOnly((vm) => {
    const index = toIndex(vm.dstack.popInts(1)[0]!);
    const entry = index < vm.tx.inputs.length ? vm.entries[index] : undefined;
    if (!entry) throw inputIndexError(index, vm.tx.inputs.length);
    vm.dstack.push(entry.covenantId ?? ZERO_HASH);
  }, 'invalid')],
  [op.OP_COV_INPUT_COUNT, toccataOnly((vm) => vm.dstack.pushNumber(BigInt(vm.covenants.covenantInputCount(vm.dstack.popHash()))), 'invalid')],
  [op.OP_COV_INPUT_IDX, toccataOnly((vm) => {
    const { id, k } = popIdAndK(vm);
    vm.dstack.pushNumber(BigInt(covenantQuery(() => vm.covenants.covenantInputIndex(id, k))));
  }, 'invalid')],
  [op.OP_COV_OUTPUT_COUNT, toccataOnly((vm) => vm.dstack.pushNumber(BigInt(vm.covenants.covenantOutputCount(vm.dstack.popHash()))), 'invalid')],
  [op.OP_COV_OUTPUT_IDX, toccataOnly((vm) => {
    const { id, k } = popIdAndK(vm);
    vm.dstack.pushNumber(BigInt(covenantQuery(() => vm.covenants.covenantOutputIndex(id, k))));
  }, 'invalid')],
  [op.OP_CHAINBLOCK_SEQ_COMMIT, (vm, parsed) => {
    if (!vm.toccata) throw invalidOpcode(parsed);
    throw new UnsupportedOpcodeError(parsed.opcode, 'needs the chain-block sequencing commitments, which this engine is not given');
  }],
  [op.OP_OUTPUT_COVENANT_ID, toccataOnly((vm) => vm.dstack.push(outputAt(vm).covenant?.covenantId ?? ZERO_HASH), 'invalid')],
  [op.OP_OUTPUT_AUTHORIZING_INPUT, toccataOnly(
    (vm) => vm.dstack.pushNumber(BigInt(outputAt(vm).covenant?.authorizingInput ?? -1)),
    'invalid',
  )],
]);
