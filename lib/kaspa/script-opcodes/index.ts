/** Every implemented opcode's handler, by opcode number; the families live beside this file. */
import { COVENANT_OPCODES } from './covenant-ops';
import { CRYPTO_OPCODES } from './crypto-ops';
import { NUMERIC_OPCODES } from './numeric-ops';
import { SPLICE_OPCODES } from './splice-ops';
import { STACK_OPCODES } from './stack-ops';
import { TX_OPCODES } from './tx-ops';
import type { OpcodeTable } from './vm';

export const OPCODE_HANDLERS: OpcodeTable = new Map([
  ...STACK_OPCODES,
  ...SPLICE_OPCODES,
  ...NUMERIC_OPCODES,
  ...CRYPTO_OPCODES,
  ...TX_OPCODES,
  ...COVENANT_OPCODES,
]);

export { ZK_TAG_COSTS } from './crypto-ops';
export type { ScriptVm } from './vm';
