/** Script-number arithmetic on i64 (0x8b–0xa5) and Toccata's OP_NUM2BIN / OP_BIN2NUM. */
import * as op from '../script-parse';
import { ScriptError } from '../script-parse';
import { encodeScriptNumber, I64_MAX, I64_MIN } from '../script-stack';
import { invalidState, toccataOnly, toIndex, verifyFailed, type OpcodeHandler } from './vm';

function checked(value: bigint, what: string): bigint {
  if (value < I64_MIN || value > I64_MAX) throw new ScriptError(`Number too big: ${what} exceeds 64-bit signed integer range`);
  return value;
}

function unary(apply: (a: bigint) => bigint): OpcodeHandler {
  return (vm) => vm.dstack.pushNumber(apply(vm.dstack.popNumbers(1)[0]!));
}

function binary(apply: (a: bigint, b: bigint) => bigint): OpcodeHandler {
  return (vm) => {
    const [a, b] = vm.dstack.popNumbers(2) as [bigint, bigint];
    vm.dstack.pushNumber(apply(a, b));
  };
}

const flag = (value: boolean) => (value ? 1n : 0n);

export const NUMERIC_OPCODES = new Map<number, OpcodeHandler>([
  [op.OP_1ADD, unary((a) => checked(a + 1n, 'Result of addition'))],
  [op.OP_1SUB, unary((a) => checked(a - 1n, 'Result of subtraction'))],
  [op.OP_NEGATE, unary((a) => checked(-a, 'Negation result'))],
  [op.OP_ABS, unary((a) => checked(a < 0n ? -a : a, 'Absolute value'))],
  [op.OP_NOT, unary((a) => flag(a === 0n))],
  [op.OP_0NOTEQUAL, unary((a) => flag(a !== 0n))],
  [op.OP_ADD, binary((a, b) => checked(a + b, 'Sum'))],
  [op.OP_SUB, binary((a, b) => checked(a - b, 'Difference'))],
  [op.OP_MUL, toccataOnly(binary((a, b) => checked(a * b, 'Product')), 'invalid')],
  [op.OP_DIV, toccataOnly(binary((a, b) => {
    if (b === 0n || (a === I64_MIN && b === -1n)) {
      throw invalidState('Quotient exceeds 64-bit signed integer range, or there was a division by zero');
    }
    return a / b;
  }), 'invalid')],
  [op.OP_MOD, toccataOnly(binary((a, b) => {
    if (b === 0n || (a === I64_MIN && b === -1n)) throw invalidState('Illegal modulo by zero');
    return a % b;
  }), 'invalid')],
  [op.OP_BOOLAND, binary((a, b) => flag(a !== 0n && b !== 0n))],
  [op.OP_BOOLOR, binary((a, b) => flag(a !== 0n || b !== 0n))],
  [op.OP_NUMEQUAL, binary((a, b) => flag(a === b))],
  [op.OP_NUMEQUALVERIFY, (vm) => {
    const [a, b] = vm.dstack.popNumbers(2);
    if (a !== b) throw verifyFailed();
  }],
  [op.OP_NUMNOTEQUAL, binary((a, b) => flag(a !== b))],
  [op.OP_LESSTHAN, binary((a, b) => flag(a < b))],
  [op.OP_GREATERTHAN, binary((a, b) => flag(a > b))],
  [op.OP_LESSTHANOREQUAL, binary((a, b) => flag(a <= b))],
  [op.OP_GREATERTHANOREQUAL, binary((a, b) => flag(a >= b))],
  [op.OP_MIN, binary((a, b) => (a < b ? a : b))],
  [op.OP_MAX, binary((a, b) => (a > b ? a : b))],
  [op.OP_WITHIN, (vm) => {
    const [x, low, high] = vm.dstack.popNumbers(3) as [bigint, bigint, bigint];
    vm.dstack.pushNumber(flag(x >= low && x < high));
  }],
  [op.OP_NUM2BIN, toccataOnly((vm) => {
    const size = toIndex(vm.dstack.popInts(1)[0]!);
    if (size > 8) throw new ScriptError(`push encoding is not minimal: NUM2BIN target size ${size} exceeds 8 bytes`);
    vm.dstack.push(encodeScriptNumber(vm.dstack.popNumbers(1)[0]!, size));
  }, 'invalid')],
  [op.OP_BIN2NUM, toccataOnly((vm) => vm.dstack.pushNumber(vm.dstack.popNumbers(1)[0]!), 'invalid')],
]);
