import { blake2b } from '@noble/hashes/blake2.js';
import { blake3 } from '@noble/hashes/blake3.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import { payToPublicKeyScript } from '../address';
import { concatBytes } from '../bytes';
import { blake2b256 } from '../hashing';
import {
  encodeScriptNumber,
  executeInputScripts,
  measureInputScriptUnits,
  type ScriptExecution,
} from '../script-engine';
import * as op from '../script-parse';
import { calcSchnorrSignatureHash, SIG_HASH_ALL } from '../sighash';
import { schnorrPublicKey, signSchnorr } from '../signing';
import { SUBNETWORK_ID_NATIVE, type Transaction, type UtxoEntry } from '../types';

const KEY = blake2b256(new TextEncoder().encode('script-opcodes-test:key'));
const COVENANT = new Uint8Array(32).fill(0xc0);

function push(data: Uint8Array): Uint8Array {
  if (data.length === 0) return Uint8Array.of(op.OP_FALSE);
  if (data.length <= 75) return concatBytes(Uint8Array.of(data.length), data);
  return concatBytes(Uint8Array.of(op.OP_PUSHDATA2, data.length & 0xff, data.length >> 8), data);
}
/** A minimal number push, as kaspad requires before Toccata. */
function num(value: bigint | number): Uint8Array {
  const n = BigInt(value);
  if (n === -1n) return Uint8Array.of(op.OP_1NEGATE);
  if (n >= 1n && n <= 16n) return Uint8Array.of(op.OP_TRUE + Number(n) - 1);
  return push(encodeScriptNumber(n));
}
/** Script-public-key bytes beyond 35 cost a gram (100 units) each under Toccata. */
const spkUnits = (spk: Uint8Array) => BigInt(Math.max(0, spk.length - 35)) * 100n;
const script = (...parts: (number | Uint8Array)[]) =>
  concatBytes(...parts.map((part) => (typeof part === 'number' ? Uint8Array.of(part) : part)));

const entries: UtxoEntry[] = [
  { amount: 5_000n, scriptPublicKey: payToPublicKeyScript(new Uint8Array(32).fill(1)), blockDaaScore: 77n, isCoinbase: false, covenantId: COVENANT },
  { amount: 7_000n, scriptPublicKey: payToPublicKeyScript(new Uint8Array(32).fill(2)), blockDaaScore: 88n, isCoinbase: true },
];

function spend(spk: Uint8Array, options: { sigScript?: Uint8Array; computeBudget?: number; lockTime?: bigint; sequence?: bigint } = {}) {
  const tx: Transaction = {
    version: 1,
    inputs: [0, 1].map((index) => ({
      previousOutpoint: { transactionId: new Uint8Array(32).fill(10 + index), index: index + 3 },
      signatureScript: index === 1 ? (options.sigScript ?? new Uint8Array(0)) : Uint8Array.of(0x51),
      sequence: options.sequence ?? 5n,
      sigOpCount: 0,
      computeBudget: options.computeBudget ?? 20,
    })),
    outputs: [
      { value: 4_000n, scriptPublicKey: payToPublicKeyScript(new Uint8Array(32).fill(3)), covenant: { authorizingInput: 0, covenantId: COVENANT } },
      { value: 2_500n, scriptPublicKey: payToPublicKeyScript(new Uint8Array(32).fill(4)) },
    ],
    lockTime: options.lockTime ?? 1_000n,
    subnetworkId: SUBNETWORK_ID_NATIVE,
    gas: 0n,
    payload: Uint8Array.of(9, 8, 7, 6),
    storageMass: 0n,
  };
  const spent = [entries[0]!, { ...entries[1]!, scriptPublicKey: { version: 0, script: spk } }];
  return { tx, entries: spent };
}

/** Runs `spk` as input 1's spent script (input 0 carries a covenant id), under Toccata unless told otherwise. */
function run(spk: Uint8Array, options: Parameters<typeof spend>[1] & { toccata?: boolean } = {}): ScriptExecution {
  return executeInputScripts({ ...spend(spk, options), inputIndex: 1, toccata: options.toccata ?? true });
}
const ok: ScriptExecution = { status: 'valid' };
const failed = (error: string): ScriptExecution => ({ status: 'invalid', error });
const equalsTrue = (...parts: (number | Uint8Array)[]) => script(...parts, op.OP_EQUAL);

describe('script units under Toccata', () => {
  const dupDrop = script(push(Uint8Array.of(1, 2, 3)), op.OP_DUP, op.OP_DROP);

  it('charge bytes an opcode pushes but not literal pushes, and only under Toccata', () => {
    const context = { ...spend(dupDrop), inputIndex: 1 };
    expect(measureInputScriptUnits(context).usedScriptUnits).toBe(3n);
    expect(executeInputScripts({ ...context, toccata: true, scriptUnitsLimit: 3n })).toEqual(ok);
    expect(executeInputScripts({ ...context, toccata: true, scriptUnitsLimit: 2n })).toEqual(
      failed('script units exceeded the amount committed in the input: used=3, limit=2'),
    );
    expect(executeInputScripts({ ...context, toccata: false, scriptUnitsLimit: 0n })).toEqual(ok);
    expect(measureInputScriptUnits({ ...spend(script(push(Uint8Array.of(1, 2, 3)))), inputIndex: 1 }).usedScriptUnits).toBe(0n);
  });
});

describe('stack opcodes', () => {
  it('duplicate, swap, rotate, pick and roll items', () => {
    expect(run(equalsTrue(num(1), num(2), op.OP_SWAP, op.OP_DROP, num(2)))).toEqual(ok);
    expect(run(equalsTrue(num(1), num(2), num(3), op.OP_ROT, op.OP_TOALTSTACK, op.OP_2DROP, op.OP_FROMALTSTACK, num(1)))).toEqual(ok);
    expect(run(equalsTrue(num(7), num(8), num(9), num(2), op.OP_PICK, op.OP_NIP, op.OP_NIP, op.OP_NIP, num(7)))).toEqual(ok);
    expect(run(equalsTrue(num(7), num(8), num(9), num(2), op.OP_ROLL, op.OP_NIP, op.OP_NIP, num(7)))).toEqual(ok);
    expect(run(equalsTrue(num(4), op.OP_DUP, op.OP_DEPTH, op.OP_NIP, op.OP_NIP, num(2)))).toEqual(ok);
    expect(run(equalsTrue(num(5), num(6), op.OP_TUCK, op.OP_2DROP, num(6)))).toEqual(ok);
  });

  it('fail on a short stack or a location outside it', () => {
    expect(run(script(num(1), op.OP_2DROP))).toEqual(failed('opcode requires at least 2 but stack has only 1'));
    expect(run(script(num(1), num(1), op.OP_PICK))).toEqual(failed('encountered invalid state while running script: pick at an invalid location'));
    expect(run(script(op.OP_FROMALTSTACK))).toEqual(failed('attempt to read from empty stack'));
  });

  it('take any boolean in OP_IF under Toccata but only empty or [1] before it', () => {
    const ifTwo = script(num(2), op.OP_IF, num(1), op.OP_ELSE, op.OP_FALSE, op.OP_ENDIF);
    expect(run(ifTwo)).toEqual(ok);
    expect(run(ifTwo, { toccata: false })).toEqual(failed('encountered invalid state while running script: expected boolean'));
  });
});

describe('numeric opcodes', () => {
  it('compute on 64-bit script numbers', () => {
    expect(run(equalsTrue(num(2), num(3), op.OP_ADD, num(5)))).toEqual(ok);
    expect(run(equalsTrue(num(-7), op.OP_ABS, num(3), op.OP_SUB, num(4)))).toEqual(ok);
    expect(run(equalsTrue(num(6), num(7), op.OP_MUL, num(42)))).toEqual(ok);
    expect(run(equalsTrue(num(-7), num(2), op.OP_DIV, num(-3)))).toEqual(ok);
    expect(run(equalsTrue(num(-7), num(2), op.OP_MOD, num(-1)))).toEqual(ok);
    expect(run(script(num(3), num(1), num(4), op.OP_WITHIN))).toEqual(ok);
    expect(run(equalsTrue(num(1n << 40n), num(1), op.OP_ADD, num((1n << 40n) + 1n)))).toEqual(ok);
  });

  it('reject overflow, division by zero, and MUL/DIV/MOD before Toccata', () => {
    const max = (1n << 63n) - 1n;
    expect(run(script(num(max), op.OP_1ADD))).toEqual(failed('Number too big: Result of addition exceeds 64-bit signed integer range'));
    expect(run(script(num(1), op.OP_FALSE, op.OP_DIV))).toEqual(
      failed('encountered invalid state while running script: Quotient exceeds 64-bit signed integer range, or there was a division by zero'),
    );
    expect(run(script(push(new Uint8Array(9).fill(1)), op.OP_1ADD))).toEqual(
      failed('Number too big: numeric value encoded as [1, 1, 1, 1, 1, 1, 1, 1, 1] is 9 bytes which exceeds the max allowed of 8'),
    );
    expect(run(script(num(6), num(7), op.OP_MUL), { toccata: false })).toEqual(
      failed('attempt to execute disabled opcode Opcode<0x95>{ data:[] }'),
    );
  });

  it('enforce minimal numbers before Toccata only', () => {
    const padded = script(push(Uint8Array.of(1, 0)), op.OP_1ADD, num(2), op.OP_EQUAL);
    expect(run(padded)).toEqual(ok);
    expect(run(padded, { toccata: false })).toEqual(
      failed('push encoding is not minimal: numeric value encoded as [1, 0] is not minimally encoded'),
    );
  });

  it('convert with OP_NUM2BIN and OP_BIN2NUM', () => {
    expect(run(equalsTrue(num(5), num(4), op.OP_NUM2BIN, push(Uint8Array.of(5, 0, 0, 0))))).toEqual(ok);
    expect(run(equalsTrue(num(-1), num(2), op.OP_NUM2BIN, push(Uint8Array.of(1, 0x80))))).toEqual(ok);
    expect(run(equalsTrue(push(Uint8Array.of(5, 0, 0)), op.OP_BIN2NUM, num(5)))).toEqual(ok);
    expect(run(script(num(5), num(9), op.OP_NUM2BIN))).toEqual(failed('push encoding is not minimal: NUM2BIN target size 9 exceeds 8 bytes'));
    expect(run(script(num(300), num(1), op.OP_NUM2BIN))).toEqual(failed('Number exceeds 1 bytes: 300'));
    expect(run(script(num(5), num(4), op.OP_NUM2BIN), { toccata: false })).toEqual(
      failed('attempt to execute invalid opcode Opcode<0xcd>{ data:[] }'),
    );
  });
});

describe('splice and bitwise opcodes', () => {
  const abc = new TextEncoder().encode('abc');
  it('concatenate, cut and combine bytes under Toccata', () => {
    expect(run(equalsTrue(push(abc), push(abc), op.OP_CAT, push(new TextEncoder().encode('abcabc'))))).toEqual(ok);
    expect(run(equalsTrue(push(abc), num(1), num(3), op.OP_SUBSTR, push(new TextEncoder().encode('bc'))))).toEqual(ok);
    expect(run(equalsTrue(push(Uint8Array.of(0x0f)), push(Uint8Array.of(0x3c)), op.OP_XOR, push(Uint8Array.of(0x33))))).toEqual(ok);
    expect(run(equalsTrue(push(Uint8Array.of(0x0f)), op.OP_INVERT, push(Uint8Array.of(0xf0))))).toEqual(ok);
    expect(run(equalsTrue(push(abc), op.OP_SIZE, op.OP_NIP, num(3)))).toEqual(ok);
  });

  it('reject bad ranges, unequal operands and OP_CAT before Toccata', () => {
    expect(run(script(push(abc), num(1), num(4), op.OP_SUBSTR))).toEqual(failed('substring [1:4] is out of bounds for string of length 3'));
    expect(run(script(push(abc), num(2), num(1), op.OP_SUBSTR))).toEqual(failed('2..1 is not a valid range, 1 must be greater than 2'));
    expect(run(script(push(abc), num(-1), num(1), op.OP_SUBSTR))).toEqual(failed('-1 cannot be used as an array index'));
    expect(run(script(push(abc), push(Uint8Array.of(1)), op.OP_AND))).toEqual(
      failed('encountered invalid state while running script: AND operands must be of equal length'),
    );
    expect(run(script(push(abc), push(abc), op.OP_CAT), { toccata: false })).toEqual(
      failed('attempt to execute disabled opcode Opcode<0x7e>{ data:[] }'),
    );
    expect(run(script(num(1), op.OP_2MUL))).toEqual(failed('attempt to execute disabled opcode Opcode<0x8d>{ data:[] }'));
  });
});

describe('crypto opcodes', () => {
  const data = new TextEncoder().encode('toccata');
  it('hash with SHA-256, BLAKE2b, BLAKE3 and their keyed forms', () => {
    expect(run(equalsTrue(push(data), op.OP_SHA256, push(sha256(data))))).toEqual(ok);
    expect(run(equalsTrue(push(data), op.OP_BLAKE2B, push(blake2b(data, { dkLen: 32 }))))).toEqual(ok);
    expect(run(equalsTrue(push(data), op.OP_BLAKE3, push(blake3(data))))).toEqual(ok);
    const key = new Uint8Array(32).fill(5);
    expect(run(equalsTrue(push(data), push(key), op.OP_BLAKE3_WITH_KEY, push(blake3(data, { key }))))).toEqual(ok);
    expect(run(equalsTrue(push(data), push(key), op.OP_BLAKE2B_WITH_KEY, push(blake2b(data, { dkLen: 32, key }))))).toEqual(ok);
    expect(run(script(push(data), push(new Uint8Array(31)), op.OP_BLAKE3_WITH_KEY))).toEqual(
      failed('opcode requires 32 bytes, but script only has 31 remaining'),
    );
    expect(run(script(push(data), op.OP_BLAKE3), { toccata: false })).toEqual(failed('attempt to execute invalid opcode Opcode<0xd9>{ data:[] }'));
  });

  it('charge two script units per BLAKE2b byte plus the pushed hash', () => {
    const bytes = new Uint8Array(200).fill(3);
    const spk = script(push(bytes), op.OP_BLAKE2B, op.OP_DROP, num(1));
    const { execution, usedScriptUnits } = measureInputScriptUnits({ ...spend(spk), inputIndex: 1 });
    expect(execution).toEqual(ok);
    expect(usedScriptUnits).toBe(spkUnits(spk) + 400n + 32n);
  });

  it('check a Schnorr signature over a stack message and charge a sig op for it', () => {
    const message = blake2b256(new TextEncoder().encode('message'));
    const signature = signSchnorr(message, KEY, new Uint8Array(32));
    const check = script(push(signature), push(message), push(schnorrPublicKey(KEY)), op.OP_CHECKSIGFROMSTACK);
    expect(run(check)).toEqual(ok);
    const measured = measureInputScriptUnits({ ...spend(check), inputIndex: 1 });
    expect(measured.usedScriptUnits).toBe(spkUnits(check) + 100_000n + 1n);
    const tampered = Uint8Array.from(message);
    tampered[0]! ^= 1;
    expect(run(script(push(signature), push(tampered), push(schnorrPublicKey(KEY)), op.OP_CHECKSIGFROMSTACK))).toEqual(
      failed('false stack entry at end of script execution'),
    );
    expect(run(script(push(signature), push(message.subarray(1)), push(schnorrPublicKey(KEY)), op.OP_CHECKSIGFROMSTACK))).toEqual(
      failed('encountered invalid state while running script: message hash must be 32 bytes'),
    );
    expect(run(check, { computeBudget: 9 })).toEqual(
      failed(`script units exceeded the amount committed in the input: used=${spkUnits(check) + 100_000n}, limit=99999`),
    );
  });

  it('runs a 1-of-2 multisig: a real signature by the second key passes, a wrong one fails as kaspad does', () => {
    const other = blake2b256(KEY);
    const keys = [push(schnorrPublicKey(KEY)), push(schnorrPublicKey(other))];
    const spk = script(num(1), ...keys, num(2), op.OP_CHECKMULTISIG);
    const unsigned = spend(spk);
    const hash = calcSchnorrSignatureHash(unsigned.tx, 1, unsigned.entries, SIG_HASH_ALL);
    const signature = push(Uint8Array.of(...signSchnorr(hash, other, new Uint8Array(32)), SIG_HASH_ALL));
    expect(run(spk, { sigScript: signature })).toEqual(ok);
    expect(run(spk, { sigScript: push(Uint8Array.of(...new Uint8Array(64).fill(1), SIG_HASH_ALL)) })).toEqual(
      failed('not all signatures empty on failed checkmultisig'),
    );
    expect(run(script(op.OP_FALSE, num(1), ...keys, num(2), op.OP_CHECKMULTISIG, op.OP_NOT))).toEqual(ok);
    expect(run(script(op.OP_FALSE, num(1), ...keys, num(2), op.OP_CHECKMULTISIG), { toccata: false })).toEqual(
      failed('false stack entry at end of script execution'),
    );
  });

  it('parses and charges a ZK precompile tag, then reports the proof as unsupported rather than accepting it', () => {
    expect(run(script(push(Uint8Array.of(0x20)), op.OP_ZK_PRECOMPILE), { computeBudget: 2000 })).toEqual({
      status: 'unsupported',
      opcode: op.OP_ZK_PRECOMPILE,
    });
    expect(run(script(push(Uint8Array.of(0x20)), op.OP_ZK_PRECOMPILE))).toEqual(
      failed('script units exceeded the amount committed in the input: used=14000000, limit=209999'),
    );
    expect(run(script(push(Uint8Array.of(0x22)), op.OP_ZK_PRECOMPILE))).toEqual(failed('ZK Integrity: Unknown tag: 34'));
    expect(run(script(op.OP_FALSE, op.OP_ZK_PRECOMPILE))).toEqual(failed('ZK Integrity: Tag byte is missing'));
    expect(run(script(push(Uint8Array.of(0x20)), op.OP_ZK_PRECOMPILE), { toccata: false })).toEqual(
      failed('attempt to execute invalid opcode Opcode<0xa6>{ data:[] }'),
    );
  });
});

describe('transaction introspection opcodes', () => {
  it('read counts, amounts, scripts, outpoints, lock time and payload', () => {
    expect(run(equalsTrue(op.OP_TX_INPUT_COUNT, op.OP_TX_OUTPUT_COUNT, op.OP_ADD, num(4)))).toEqual(ok);
    expect(run(equalsTrue(op.OP_TX_INPUT_INDEX, num(1)))).toEqual(ok);
    expect(run(equalsTrue(op.OP_FALSE, op.OP_TX_INPUT_AMOUNT, num(5_000)))).toEqual(ok);
    expect(run(equalsTrue(num(1), op.OP_TX_OUTPUT_AMOUNT, num(2_500)))).toEqual(ok);
    const outputSpk = concatBytes(Uint8Array.of(0, 0), payToPublicKeyScript(new Uint8Array(32).fill(4)).script);
    expect(run(equalsTrue(num(1), op.OP_TX_OUTPUT_SPK, push(outputSpk)))).toEqual(ok);
    expect(run(equalsTrue(num(1), op.OP_OUTPOINT_INDEX, num(4)))).toEqual(ok);
    expect(run(equalsTrue(num(1), op.OP_OUTPOINT_TX_ID, push(new Uint8Array(32).fill(11))))).toEqual(ok);
    expect(run(equalsTrue(op.OP_TX_LOCK_TIME, num(1_000)))).toEqual(ok);
    expect(run(equalsTrue(op.OP_TX_VERSION, num(1)))).toEqual(ok);
    expect(run(equalsTrue(num(1), num(3), op.OP_TX_PAYLOAD_SUBSTR, push(Uint8Array.of(8, 7))))).toEqual(ok);
    expect(run(equalsTrue(op.OP_TX_PAYLOAD_LEN, num(4)))).toEqual(ok);
    expect(run(equalsTrue(num(1), op.OP_TX_INPUT_IS_COINBASE, num(1)))).toEqual(ok);
    expect(run(equalsTrue(op.OP_FALSE, op.OP_TX_INPUT_DAA_SCORE, num(77)))).toEqual(ok);
    expect(run(equalsTrue(op.OP_FALSE, op.OP_TX_INPUT_SEQ, push(encodeScriptNumber(5n, 8))))).toEqual(ok);
  });

  it('report indices out of bounds with kaspad texts, and the Toccata-only ones as reserved or invalid before it', () => {
    expect(run(script(num(2), op.OP_TX_INPUT_AMOUNT))).toEqual(failed('transaction input 2 is out of bounds, should be non-negative below 2'));
    expect(run(script(num(-1), op.OP_TX_INPUT_AMOUNT))).toEqual(failed('transaction input -1 is out of bounds, should be non-negative below 2'));
    expect(run(script(num(5), op.OP_TX_OUTPUT_AMOUNT))).toEqual(failed('transaction output 5 is out of bounds, should be non-negative below 2'));
    expect(run(script(num(5), op.OP_TX_OUTPUT_SPK_LEN))).toEqual(failed('transaction output 5 is out of bounds, should be non-negative below 2'));
    expect(run(equalsTrue(op.OP_TX_INPUT_COUNT, num(2)), { toccata: false })).toEqual(ok);
    expect(run(script(op.OP_TX_VERSION), { toccata: false })).toEqual(failed('attempt to execute reserved opcode Opcode<0xb2>{ data:[] }'));
    expect(run(script(op.OP_TX_PAYLOAD_LEN), { toccata: false })).toEqual(failed('attempt to execute invalid opcode Opcode<0xc4>{ data:[] }'));
  });

  it('check lock time and sequence', () => {
    expect(run(script(num(900), op.OP_CHECKLOCKTIMEVERIFY, num(1)))).toEqual(ok);
    expect(run(script(num(1_001), op.OP_CHECKLOCKTIMEVERIFY, num(1)))).toEqual(
      failed('Unsatisfied lock time: locktime requirement not satisfied -- locktime is greater than the transaction locktime: 1001 > 1000'),
    );
    expect(run(script(num(900), op.OP_CHECKLOCKTIMEVERIFY, num(1)), { sequence: (1n << 64n) - 1n })).toEqual(
      failed('Unsatisfied lock time: transaction input is finalized'),
    );
    expect(run(script(num(5), op.OP_CHECKSEQUENCEVERIFY, num(1)))).toEqual(ok);
    expect(run(script(num(6), op.OP_CHECKSEQUENCEVERIFY, num(1)))).toEqual(
      failed('Unsatisfied lock time: locktime requirement not satisfied -- locktime is greater than the transaction locktime: 6 > 5'),
    );
  });
});

describe('covenant opcodes', () => {
  it('read covenant ids, bindings and the covenants context', () => {
    expect(run(equalsTrue(op.OP_FALSE, op.OP_INPUT_COVENANT_ID, push(COVENANT)))).toEqual(ok);
    expect(run(equalsTrue(num(1), op.OP_INPUT_COVENANT_ID, push(new Uint8Array(32))))).toEqual(ok);
    expect(run(equalsTrue(op.OP_FALSE, op.OP_OUTPUT_COVENANT_ID, push(COVENANT)))).toEqual(ok);
    expect(run(equalsTrue(num(1), op.OP_OUTPUT_AUTHORIZING_INPUT, num(-1)))).toEqual(ok);
    expect(run(equalsTrue(op.OP_FALSE, op.OP_AUTH_OUTPUT_COUNT, num(1)))).toEqual(ok);
    expect(run(equalsTrue(op.OP_FALSE, op.OP_FALSE, op.OP_AUTH_OUTPUT_IDX, op.OP_FALSE))).toEqual(ok);
    expect(run(equalsTrue(push(COVENANT), op.OP_COV_INPUT_COUNT, num(1)))).toEqual(ok);
    expect(run(equalsTrue(push(COVENANT), op.OP_FALSE, op.OP_COV_OUTPUT_IDX, op.OP_FALSE))).toEqual(ok);
  });

  it('fail on indices the context does not have', () => {
    expect(run(script(op.OP_FALSE, num(1), op.OP_AUTH_OUTPUT_IDX))).toEqual(
      failed('covenants error: 1 is not a valid covenant output index for input 0 with 1 authorized outputs'),
    );
    expect(run(script(push(COVENANT), num(1), op.OP_COV_INPUT_IDX))).toEqual(
      failed(`covenants error: covenant id ${'c0'.repeat(32)} input 1 is out of bounds`),
    );
    expect(run(script(push(COVENANT.subarray(1)), op.OP_COV_INPUT_COUNT))).toEqual(
      failed('blockhash must be exactly 32 bytes long, got 31 bytes instead'),
    );
    expect(run(script(num(2), op.OP_AUTH_OUTPUT_COUNT))).toEqual(failed('transaction input 2 is out of bounds, should be non-negative below 2'));
    expect(run(script(op.OP_FALSE, op.OP_INPUT_COVENANT_ID), { toccata: false })).toEqual(
      failed('attempt to execute invalid opcode Opcode<0xcf>{ data:[] }'),
    );
    expect(run(script(push(COVENANT), op.OP_CHAINBLOCK_SEQ_COMMIT))).toEqual({ status: 'unsupported', opcode: op.OP_CHAINBLOCK_SEQ_COMMIT });
  });
});
