/**
 * Scripts as text for the explorer: opcodes by their rusty-kaspa names (OP_CHECKSIG, OP_TX_OUTPUT_SPK, …) and data
 * pushes as hex, parsed by lib/kaspa's script parser so a page reads a script exactly as the engine would.
 */
import { bytesToHex, hexToBytes } from '../kaspa/bytes';
import * as opcodes from '../kaspa/script-parse';

const { OP_DATA_75, OP_FALSE, OP_PUSHDATA4, OP_TRUE, OP_16, parseScript, ScriptError } = opcodes;

/** Aliases whose more familiar name is the numeric one. */
const PREFERRED_NAMES: Readonly<Record<string, string>> = { OP_FALSE: 'OP_0', OP_TRUE: 'OP_1' };

const OPCODE_NAMES: ReadonlyMap<number, string> = new Map(
  (Object.entries(opcodes) as [string, unknown][]).flatMap(([name, value]) =>
    name.startsWith('OP_') && typeof value === 'number' ? [[value, PREFERRED_NAMES[name] ?? name] as const] : [],
  ),
);

export function opcodeName(opcode: number): string {
  if (opcode > OP_TRUE && opcode < OP_16) return `OP_${opcode - OP_TRUE + 1}`;
  return OPCODE_NAMES.get(opcode) ?? `OP_UNKNOWN_0x${opcode.toString(16).padStart(2, '0')}`;
}

export interface DisassembledScript {
  /** One entry per opcode: its name, or a push's data as hex. */
  operations: string[];
  /** Why parsing stopped early (a push running past the end), or null when the whole script parsed. */
  error: string | null;
}

const isDataPush = (opcode: number) => opcode !== OP_FALSE && opcode <= OP_PUSHDATA4;

export function disassembleScript(script: Uint8Array): DisassembledScript {
  const operations: string[] = [];
  try {
    for (const { opcode, data } of parseScript(script)) {
      if (!isDataPush(opcode)) operations.push(opcodeName(opcode));
      else if (opcode <= OP_DATA_75) operations.push(bytesToHex(data));
      else operations.push(`${opcodeName(opcode)} ${bytesToHex(data)}`);
    }
    return { operations, error: null };
  } catch (error) {
    if (error instanceof ScriptError) return { operations, error: error.message };
    throw error;
  }
}

export function disassembleHex(hex: string): DisassembledScript {
  if (!/^(?:[0-9a-f]{2})*$/i.test(hex)) return { operations: [], error: 'not hexadecimal' };
  return disassembleScript(hexToBytes(hex));
}

/**
 * The redeem script a P2SH spend reveals: the last data push of the input's signature script (KIP-20 covenants are
 * P2SH states, so this is the script a covenant's outputs are bound by). Null when the signature script ends in
 * anything but a push.
 */
export function revealedRedeemScript(signatureScriptHex: string): string | null {
  if (!/^(?:[0-9a-f]{2})*$/i.test(signatureScriptHex)) return null;
  let last: string | null = null;
  try {
    for (const { opcode, data } of parseScript(hexToBytes(signatureScriptHex))) {
      last = isDataPush(opcode) && data.length > 0 ? bytesToHex(data) : null;
    }
  } catch (error) {
    if (error instanceof ScriptError) return null;
    throw error;
  }
  return last;
}
