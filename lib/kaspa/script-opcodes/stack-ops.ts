/** Flow control, stack manipulation and byte equality (opcodes 0x61–0x7d, 0x87–0x88). */
import { equalBytes } from '../bytes';
import * as op from '../script-parse';
import { ScriptError } from '../script-parse';
import { asBool } from '../script-stack';
import { invalidState, reserved, verifyFailed, type Condition, type OpcodeHandler, type ScriptVm } from './vm';

/** OP_IF's condition: after Toccata any boolean; before it exactly empty or [1]. */
function popCondition(vm: ScriptVm): boolean {
  if (vm.toccata) return vm.dstack.popBool();
  const item = vm.dstack.pop();
  if (item.length > 1 || (item.length === 1 && item[0] !== 1)) throw invalidState('expected boolean');
  return item.length === 1;
}

function conditional(onTrue: boolean): OpcodeHandler {
  return (vm) => {
    let condition: Condition = 'skip';
    if (vm.executing) condition = popCondition(vm) === onTrue ? 'true' : 'false';
    vm.condStack.push(condition);
  };
}

function pickOrRoll(vm: ScriptVm, roll: boolean): void {
  const [location] = vm.dstack.popInts(1) as [number];
  if (location < 0 || location >= vm.dstack.length) throw invalidState(`${roll ? 'roll' : 'pick'} at an invalid location`);
  const at = vm.dstack.length - location - 1;
  if (roll) vm.dstack.items.push(...vm.dstack.items.splice(at, 1));
  else vm.dstack.push(vm.dstack.items[at]!);
}

export const STACK_OPCODES = new Map<number, OpcodeHandler>([
  [op.OP_RESERVED, (_, parsed) => { throw reserved(parsed); }],
  [op.OP_VER, (_, parsed) => { throw reserved(parsed); }],
  [op.OP_NOP, () => {}],
  [op.OP_IF, conditional(true)],
  [op.OP_NOTIF, conditional(false)],
  [op.OP_ELSE, (vm) => {
    const last = vm.condStack.length - 1;
    if (last < 0) throw invalidState('condition stack empty');
    const condition = vm.condStack[last]!;
    vm.condStack[last] = condition === 'true' ? 'false' : condition === 'false' ? 'true' : 'skip';
  }],
  [op.OP_ENDIF, (vm) => {
    if (vm.condStack.pop() === undefined) throw invalidState('condition stack empty');
  }],
  [op.OP_VERIFY, (vm) => {
    if (!vm.dstack.popBool()) throw verifyFailed();
  }],
  [op.OP_RETURN, () => { throw new ScriptError('script returned early'); }],
  [op.OP_TOALTSTACK, (vm) => vm.astack.pushUnmetered(vm.dstack.popRaw(1)[0]!)],
  [op.OP_FROMALTSTACK, (vm) => vm.dstack.pushUnmetered(vm.astack.pop())],
  [op.OP_2DROP, (vm) => void vm.dstack.popRaw(2)],
  [op.OP_2DUP, (vm) => vm.dstack.copyFrom(0, 2)],
  [op.OP_3DUP, (vm) => vm.dstack.copyFrom(0, 3)],
  [op.OP_2OVER, (vm) => vm.dstack.copyFrom(2, 2)],
  [op.OP_2ROT, (vm) => vm.dstack.rotate(6, 2)],
  [op.OP_2SWAP, (vm) => vm.dstack.rotate(4, 2)],
  [op.OP_IFDUP, (vm) => {
    vm.dstack.require(1);
    const top = vm.dstack.items[vm.dstack.length - 1]!;
    if (asBool(top)) vm.dstack.push(top);
  }],
  [op.OP_DEPTH, (vm) => vm.dstack.pushNumber(BigInt(vm.dstack.length))],
  [op.OP_DROP, (vm) => void vm.dstack.popRaw(1)],
  [op.OP_DUP, (vm) => vm.dstack.copyFrom(0, 1)],
  [op.OP_NIP, (vm) => {
    vm.dstack.require(2);
    vm.dstack.items.splice(vm.dstack.length - 2, 1);
  }],
  [op.OP_OVER, (vm) => vm.dstack.copyFrom(1, 1)],
  [op.OP_PICK, (vm) => pickOrRoll(vm, false)],
  [op.OP_ROLL, (vm) => pickOrRoll(vm, true)],
  [op.OP_ROT, (vm) => vm.dstack.rotate(3, 1)],
  [op.OP_SWAP, (vm) => vm.dstack.rotate(2, 1)],
  [op.OP_TUCK, (vm) => {
    vm.dstack.require(2);
    vm.dstack.insert(vm.dstack.length - 2, vm.dstack.items[vm.dstack.length - 1]!);
  }],
  [op.OP_EQUAL, (vm) => {
    const [a, b] = vm.dstack.popRaw(2) as [Uint8Array, Uint8Array];
    vm.dstack.pushBool(equalBytes(a, b));
  }],
  [op.OP_EQUALVERIFY, (vm) => {
    const [a, b] = vm.dstack.popRaw(2) as [Uint8Array, Uint8Array];
    if (!equalBytes(a, b)) throw verifyFailed();
  }],
  [0x89, (_, parsed) => { throw reserved(parsed); }],
  [0x8a, (_, parsed) => { throw reserved(parsed); }],
]);
