/** Byte strings: OP_SIZE, and Toccata's re-enabled OP_CAT, OP_SUBSTR, OP_INVERT, OP_AND, OP_OR, OP_XOR. */
import { concatBytes } from '../bytes';
import * as op from '../script-parse';
import { invalidState, substring, toIndex, type OpcodeHandler } from './vm';

function bitwise(name: string, apply: (a: number, b: number) => number): OpcodeHandler {
  return (vm) => {
    const b = vm.dstack.pop();
    const a = vm.dstack.pop();
    if (a.length !== b.length) throw invalidState(`${name} operands must be of equal length`);
    vm.dstack.push(a.map((byte, index) => apply(byte, b[index]!)));
  };
}

export const SPLICE_OPCODES = new Map<number, OpcodeHandler>([
  [op.OP_CAT, (vm) => {
    const b = vm.dstack.pop();
    const a = vm.dstack.pop();
    vm.dstack.push(concatBytes(a, b));
  }],
  [op.OP_SUBSTR, (vm) => {
    const [start, end] = vm.dstack.popInts(2) as [number, number];
    const data = vm.dstack.pop();
    vm.dstack.push(substring(data, toIndex(start), toIndex(end)));
  }],
  [op.OP_SIZE, (vm) => {
    vm.dstack.require(1);
    vm.dstack.pushNumber(BigInt(vm.dstack.items[vm.dstack.length - 1]!.length));
  }],
  [op.OP_INVERT, (vm) => vm.dstack.push(vm.dstack.pop().map((byte) => ~byte & 0xff))],
  [op.OP_AND, bitwise('AND', (a, b) => a & b)],
  [op.OP_OR, bitwise('OR', (a, b) => a | b)],
  [op.OP_XOR, bitwise('XOR', (a, b) => a ^ b)],
]);
