/**
 * rusty-kaspa v2.0.1's script conformance rows (crypto/txscript/test-data, bitcoind-derived): script_tests.json under
 * Crescendo rules and script_tests_covenants.json under Toccata, run as lib.rs `bitcoind_tests` does (one input
 * spending the script with sequence max, unlimited script units) and judged by the same error-to-category table.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { concatBytes, hexToBytes } from '../bytes';
import { encodeScriptNumber, executeInputScripts, type ScriptExecution } from '../script-engine';
import * as op from '../script-parse';
import { SUBNETWORK_ID_NATIVE, type Transaction } from '../types';

/** Short-form names: OP_TX_INPUT_COUNT answers to TXINPUTCOUNT, OPTXINPUTCOUNT, TX_INPUT_COUNT, … */
const NAMES = new Map<string, number>([
  ['RESERVED1', 0x89],
  ['RESERVED2', 0x8a],
  ...Array.from({ length: 75 }, (_, index) => [`DATA${index + 1}`, index + 1] as [string, number]),
]);
for (const [name, value] of Object.entries(op)) {
  if (name.startsWith('OP_') && typeof value === 'number') NAMES.set(name.slice(3).replace(/_/g, ''), value);
}

const PUSH_SIZE = 'PUSH_SIZE';
/** Rows running OP_CHAINBLOCK_SEQ_COMMIT (0xd4), which needs the chain's commitments this engine is not given. */
const CHAINBLOCK_ROW = /CHAINBLOCK|\b0xd4\b/i;

function push(data: Uint8Array, toccata: boolean): Uint8Array {
  if (data.length > (toccata ? op.MAX_SCRIPT_ELEMENT_SIZE_TOCCATA : op.MAX_SCRIPT_ELEMENT_SIZE)) throw new Error(PUSH_SIZE);
  if (data.length === 0) return Uint8Array.of(op.OP_FALSE);
  if (data.length === 1 && data[0] === 0x81) return Uint8Array.of(op.OP_1NEGATE);
  if (data.length === 1 && data[0]! >= 1 && data[0]! <= 16) return Uint8Array.of(op.OP_TRUE - 1 + data[0]!);
  const n = data.length;
  if (n <= op.OP_DATA_75) return concatBytes(Uint8Array.of(n), data);
  if (n <= 0xff) return concatBytes(Uint8Array.of(op.OP_PUSHDATA1, n), data);
  if (n <= 0xffff) return concatBytes(Uint8Array.of(op.OP_PUSHDATA2, n & 0xff, n >> 8), data);
  return concatBytes(Uint8Array.of(op.OP_PUSHDATA4, n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, n >>> 24), data);
}

/** opcodes/macros.rs `parse_short_form`: numbers, raw 0x… bytes, 'quoted' pushes and opcode names. */
function parseShortForm(text: string, toccata: boolean): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const token of text.split('\n').flatMap((line) => line.split('#')[0]!.split(/\s+/)).filter(Boolean)) {
    if (/^-?\d+$/.test(token) && BigInt(token) >= -(1n << 63n) && BigInt(token) < 1n << 63n) {
      const value = BigInt(token);
      parts.push(value === 0n ? Uint8Array.of(op.OP_FALSE) : push(encodeScriptNumber(value), toccata));
    } else if (/^0x([0-9a-fA-F]{2})*$/.test(token)) {
      parts.push(hexToBytes(token.slice(2)));
    } else if (token.length >= 2 && token.startsWith("'") && token.endsWith("'")) {
      parts.push(push(new TextEncoder().encode(token.slice(1, -1)), toccata));
    } else {
      const name = token.replace(/_/g, '').toUpperCase();
      const code = NAMES.get(name.startsWith('OP') ? name.slice(2) : name);
      if (code === undefined) throw new Error(`cannot parse ${token}`);
      parts.push(Uint8Array.of(code));
    }
  }
  return concatBytes(...parts);
}

/** lib.rs `result_name`, keyed by the engine's error texts. */
const CATEGORIES: [RegExp, string[]][] = [
  [/^Number (too big|exceeds)/, ['UNKNOWN_ERROR']],
  [/^unsupported public key type|^pubkey invalid/, ['PUBKEYFORMAT']],
  [/^false stack entry/, ['EVAL_FALSE']],
  [/^attempt to read from empty stack/, ['EMPTY_STACK', 'EVAL_FALSE', 'UNBALANCED_CONDITIONAL', 'INVALID_ALTSTACK_OPERATION']],
  [/^not all signatures empty/, ['NULLFAIL']],
  [/^invalid hash type/, ['SIG_HASHTYPE']],
  [/^signature script is not push only/, ['SIG_PUSHONLY']],
  [/^stack contains/, ['CLEANSTACK']],
  [/^attempt to execute (reserved|invalid) opcode|^opcode requires \d+ bytes/, ['BAD_OPCODE']],
  [/^end of script reached in conditional|condition stack empty$/, ['UNBALANCED_CONDITIONAL']],
  [/^script returned early/, ['OP_RETURN']],
  [/^script ran, but verification failed/, ['VERIFY', 'EQUALVERIFY']],
  [/^opcode requires at least/, ['INVALID_STACK_OPERATION', 'INVALID_ALTSTACK_OPERATION']],
  [/(pick|roll) at an invalid location$/, ['INVALID_STACK_OPERATION']],
  [/^substring|cannot be used as an array index$/, ['UNKNOWN_ERROR']],
  [/^attempt to execute disabled opcode/, ['DISABLED_OPCODE']],
  [/^element size/, [PUSH_SIZE]],
  [/^exceeded max operation limit/, ['OP_COUNT']],
  [/^combined stack size/, ['STACK_SIZE']],
  [/^invalid pubkey count/, ['PUBKEY_COUNT']],
  [/^invalid signature count/, ['SIG_COUNT']],
  [/^push encoding is not minimal/, ['MINIMALDATA', 'UNKNOWN_ERROR']],
  [/^Unsatisfied lock time/, ['UNSATISFIED_LOCKTIME']],
  [/expected boolean$/, ['MINIMALIF']],
  [/^encountered invalid state|^covenants error/, ['UNKNOWN_ERROR']],
  [/^script of size/, ['SCRIPT_SIZE']],
  [/^signature invalid/, ['INVALID_SIG']],
];

function categoriesOf(result: ScriptExecution): string[] {
  if (result.status === 'valid') return ['OK'];
  if (result.status === 'unsupported') return [`unsupported 0x${result.opcode.toString(16)}`];
  return CATEGORIES.find(([pattern]) => pattern.test(result.error))?.[1] ?? [result.error];
}

function runRow(signatureScript: string, scriptPublicKey: string, toccata: boolean): string[] {
  let sig: Uint8Array;
  let spk: Uint8Array;
  try {
    sig = parseShortForm(signatureScript, toccata);
    spk = parseShortForm(scriptPublicKey, toccata);
  } catch (error) {
    if ((error as Error).message === PUSH_SIZE) return [PUSH_SIZE];
    throw error;
  }
  const tx: Transaction = {
    version: 1,
    inputs: [{ previousOutpoint: { transactionId: new Uint8Array(32).fill(1), index: 0 }, signatureScript: sig, sequence: (1n << 64n) - 1n, sigOpCount: 20 }],
    outputs: [{ value: 0n, scriptPublicKey: { version: 0, script: new Uint8Array(0) } }],
    lockTime: 0n,
    subnetworkId: SUBNETWORK_ID_NATIVE,
    gas: 0n,
    payload: new Uint8Array(0),
    storageMass: 0n,
  };
  const entry = { amount: 0n, scriptPublicKey: { version: 0, script: spk }, blockDaaScore: 0n, isCoinbase: true };
  return categoriesOf(executeInputScripts({ tx, inputIndex: 0, entries: [entry], toccata, scriptUnitsLimit: 1n << 64n }));
}

describe.each([
  ['script_tests.json', false],
  ['script_tests_covenants.json', true],
] as const)('%s (toccata %s)', (file, toccata) => {
  const rows = (JSON.parse(readFileSync(new URL(`./test-data/${file}`, import.meta.url), 'utf8')) as string[][]).filter(
    (row) => row.length >= 4,
  );

  it('every row ends in the expected category', () => {
    const mismatches = rows
      .map((row) => ({ row, got: runRow(row[0]!, row[1]!, toccata) }))
      .filter(({ row, got }) => !got.includes(row[3]!) && !(got[0]!.startsWith('unsupported') && CHAINBLOCK_ROW.test(row[1]!)))
      .map(({ row, got }) => `${row.slice(0, 4).join(' | ')} → ${got.join('/')}`);
    expect(rows.length).toBeGreaterThan(800);
    expect(mismatches).toEqual([]);
  });

  it('reports only chain-block commitment rows as unsupported', () => {
    const unsupported = rows.filter((row) => runRow(row[0]!, row[1]!, toccata)[0]!.startsWith('unsupported'));
    expect(unsupported.every((row) => CHAINBLOCK_ROW.test(row[1]!))).toBe(true);
    expect(unsupported.length).toBe(toccata ? 1 : 0);
  });
});
