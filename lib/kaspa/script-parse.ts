/**
 * Script bytes to opcodes (rusty-kaspa v2.0.1 crypto/txscript opcodes/mod.rs `deserialize_next_opcode` and
 * `check_minimal_data_push`), the engine's limits, opcode numbers and the two error types the engine raises.
 */

export const MAX_SCRIPT_PUBLIC_KEY_VERSION = 0;
export const MAX_STACK_SIZE = 244;
export const MAX_SCRIPTS_SIZE = 10_000;
export const MAX_SCRIPTS_SIZE_TOCCATA = 1_000_000;
/** The Crescendo limit on a pushed element; Toccata raises it to MAX_SCRIPT_ELEMENT_SIZE_TOCCATA. */
export const MAX_SCRIPT_ELEMENT_SIZE = 520;
export const MAX_SCRIPT_ELEMENT_SIZE_TOCCATA = 1_000_000;
export const MAX_OPS_PER_SCRIPT = 201;
export const MAX_OPS_PER_SCRIPT_TOCCATA = 1_000_000;
export const MAX_PUB_KEYS_PER_MULTISIG = 20;
/** mining/src/mempool/check_transaction_standard.rs MAX_STANDARD_P2SH_SIG_OPS. */
export const MAX_STANDARD_P2SH_SIG_OPS = 15;

export const OP_FALSE = 0x00;
export const OP_DATA_75 = 0x4b;
export const OP_PUSHDATA1 = 0x4c;
export const OP_PUSHDATA2 = 0x4d;
export const OP_PUSHDATA4 = 0x4e;
export const OP_1NEGATE = 0x4f;
export const OP_RESERVED = 0x50;
export const OP_TRUE = 0x51;
export const OP_16 = 0x60;
export const OP_NOP = 0x61;
export const OP_VER = 0x62;
export const OP_IF = 0x63;
export const OP_NOTIF = 0x64;
export const OP_VERIF = 0x65;
export const OP_VERNOTIF = 0x66;
export const OP_ELSE = 0x67;
export const OP_ENDIF = 0x68;
export const OP_VERIFY = 0x69;
export const OP_RETURN = 0x6a;
export const OP_TOALTSTACK = 0x6b;
export const OP_FROMALTSTACK = 0x6c;
export const OP_2DROP = 0x6d;
export const OP_2DUP = 0x6e;
export const OP_3DUP = 0x6f;
export const OP_2OVER = 0x70;
export const OP_2ROT = 0x71;
export const OP_2SWAP = 0x72;
export const OP_IFDUP = 0x73;
export const OP_DEPTH = 0x74;
export const OP_DROP = 0x75;
export const OP_DUP = 0x76;
export const OP_NIP = 0x77;
export const OP_OVER = 0x78;
export const OP_PICK = 0x79;
export const OP_ROLL = 0x7a;
export const OP_ROT = 0x7b;
export const OP_SWAP = 0x7c;
export const OP_TUCK = 0x7d;
export const OP_CAT = 0x7e;
export const OP_SUBSTR = 0x7f;
export const OP_LEFT = 0x80;
export const OP_RIGHT = 0x81;
export const OP_SIZE = 0x82;
export const OP_INVERT = 0x83;
export const OP_AND = 0x84;
export const OP_OR = 0x85;
export const OP_XOR = 0x86;
export const OP_EQUAL = 0x87;
export const OP_EQUALVERIFY = 0x88;
export const OP_1ADD = 0x8b;
export const OP_1SUB = 0x8c;
export const OP_2MUL = 0x8d;
export const OP_2DIV = 0x8e;
export const OP_NEGATE = 0x8f;
export const OP_ABS = 0x90;
export const OP_NOT = 0x91;
export const OP_0NOTEQUAL = 0x92;
export const OP_ADD = 0x93;
export const OP_SUB = 0x94;
export const OP_MUL = 0x95;
export const OP_DIV = 0x96;
export const OP_MOD = 0x97;
export const OP_LSHIFT = 0x98;
export const OP_RSHIFT = 0x99;
export const OP_BOOLAND = 0x9a;
export const OP_BOOLOR = 0x9b;
export const OP_NUMEQUAL = 0x9c;
export const OP_NUMEQUALVERIFY = 0x9d;
export const OP_NUMNOTEQUAL = 0x9e;
export const OP_LESSTHAN = 0x9f;
export const OP_GREATERTHAN = 0xa0;
export const OP_LESSTHANOREQUAL = 0xa1;
export const OP_GREATERTHANOREQUAL = 0xa2;
export const OP_MIN = 0xa3;
export const OP_MAX = 0xa4;
export const OP_WITHIN = 0xa5;
export const OP_ZK_PRECOMPILE = 0xa6;
export const OP_BLAKE2B_WITH_KEY = 0xa7;
export const OP_SHA256 = 0xa8;
export const OP_CHECKMULTISIGECDSA = 0xa9;
export const OP_BLAKE2B = 0xaa;
export const OP_CHECKSIGECDSA = 0xab;
export const OP_CHECKSIG = 0xac;
export const OP_CHECKSIGVERIFY = 0xad;
export const OP_CHECKMULTISIG = 0xae;
export const OP_CHECKMULTISIGVERIFY = 0xaf;
export const OP_CHECKLOCKTIMEVERIFY = 0xb0;
export const OP_CHECKSEQUENCEVERIFY = 0xb1;
export const OP_TX_VERSION = 0xb2;
export const OP_TX_INPUT_COUNT = 0xb3;
export const OP_TX_OUTPUT_COUNT = 0xb4;
export const OP_TX_LOCK_TIME = 0xb5;
export const OP_TX_SUBNET_ID = 0xb6;
export const OP_TX_GAS = 0xb7;
export const OP_TX_PAYLOAD_SUBSTR = 0xb8;
export const OP_TX_INPUT_INDEX = 0xb9;
export const OP_OUTPOINT_TX_ID = 0xba;
export const OP_OUTPOINT_INDEX = 0xbb;
export const OP_TX_INPUT_SCRIPT_SIG_SUBSTR = 0xbc;
export const OP_TX_INPUT_SEQ = 0xbd;
export const OP_TX_INPUT_AMOUNT = 0xbe;
export const OP_TX_INPUT_SPK = 0xbf;
export const OP_TX_INPUT_DAA_SCORE = 0xc0;
export const OP_TX_INPUT_IS_COINBASE = 0xc1;
export const OP_TX_OUTPUT_AMOUNT = 0xc2;
export const OP_TX_OUTPUT_SPK = 0xc3;
export const OP_TX_PAYLOAD_LEN = 0xc4;
export const OP_TX_INPUT_SPK_LEN = 0xc5;
export const OP_TX_INPUT_SPK_SUBSTR = 0xc6;
export const OP_TX_OUTPUT_SPK_LEN = 0xc7;
export const OP_TX_OUTPUT_SPK_SUBSTR = 0xc8;
export const OP_TX_INPUT_SCRIPT_SIG_LEN = 0xc9;
export const OP_AUTH_OUTPUT_COUNT = 0xcb;
export const OP_AUTH_OUTPUT_IDX = 0xcc;
export const OP_NUM2BIN = 0xcd;
export const OP_BIN2NUM = 0xce;
export const OP_INPUT_COVENANT_ID = 0xcf;
export const OP_COV_INPUT_COUNT = 0xd0;
export const OP_COV_INPUT_IDX = 0xd1;
export const OP_COV_OUTPUT_COUNT = 0xd2;
export const OP_COV_OUTPUT_IDX = 0xd3;
export const OP_CHAINBLOCK_SEQ_COMMIT = 0xd4;
export const OP_OUTPUT_COVENANT_ID = 0xd5;
export const OP_OUTPUT_AUTHORIZING_INPUT = 0xd6;
export const OP_CHECKSIGFROMSTACK = 0xd7;
export const OP_CHECKSIGFROMSTACKECDSA = 0xd8;
export const OP_BLAKE3 = 0xd9;
export const OP_BLAKE3_WITH_KEY = 0xda;

/** The last opcode that does not count as an operation (lib.rs NO_COST_OPCODE; OP_RESERVED included). */
export const NO_COST_OPCODE = 0x60;

/** `is_disabled` of opcodes/mod.rs: before Toccata OP_CAT … OP_RSHIFT, after it only the shifts, OP_LEFT/RIGHT, 2MUL/2DIV. */
const DISABLED_BEFORE_TOCCATA: ReadonlySet<number> = new Set([
  OP_CAT, OP_SUBSTR, OP_LEFT, OP_RIGHT, OP_INVERT, OP_AND, OP_OR, OP_XOR, OP_2MUL, OP_2DIV, OP_MUL, OP_DIV, OP_MOD, OP_LSHIFT, OP_RSHIFT,
]);
const DISABLED_UNDER_TOCCATA: ReadonlySet<number> = new Set([OP_LEFT, OP_RIGHT, OP_2MUL, OP_2DIV, OP_LSHIFT, OP_RSHIFT]);

export function isDisabledOpcode(opcode: number, toccata: boolean): boolean {
  return (toccata ? DISABLED_UNDER_TOCCATA : DISABLED_BEFORE_TOCCATA).has(opcode);
}

/** A script failure; `message` is kaspad's `TxScriptError` Display text. */
export class ScriptError extends Error {
  override name = 'ScriptError';
}

/** An executed opcode this engine cannot evaluate as kaspad would (ZK proof verification, chain-block commitments). */
export class UnsupportedOpcodeError extends Error {
  override name = 'UnsupportedOpcodeError';

  constructor(
    readonly opcode: number,
    reason = 'is not implemented by this script engine',
  ) {
    super(`opcode 0x${opcode.toString(16).padStart(2, '0')} ${reason}`);
  }
}

export interface ParsedOpcode {
  opcode: number;
  /** The pushed bytes of a data push; empty for every other opcode. */
  data: Uint8Array;
}

/** rusty-kaspa's `Debug` of an opcode: `Opcode<0x7e>{ data:[] }`. */
export function debugOpcode(op: ParsedOpcode): string {
  return `Opcode<0x${op.opcode.toString(16)}>{ data:[${Array.from(op.data).join(', ')}] }`;
}

/** Rust's `{:02x?}` of a byte vector. */
export function hexList(bytes: Uint8Array): string {
  return `[${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join(', ')}]`;
}

/** The opcodes of a script, lazily: a malformed push fails only once the parser reaches it, as in kaspad. */
export function* parseScript(script: Uint8Array): Generator<ParsedOpcode> {
  let at = 0;
  while (at < script.length) {
    const opcode = script[at++]!;
    if (opcode >= 0x01 && opcode <= OP_DATA_75) {
      const data = script.subarray(at, at + opcode);
      if (data.length !== opcode) {
        throw new ScriptError(`opcode requires ${opcode} bytes, but script only has ${data.length} remaining`);
      }
      at += opcode;
      yield { opcode, data };
    } else if (opcode === OP_PUSHDATA1 || opcode === OP_PUSHDATA2 || opcode === OP_PUSHDATA4) {
      const width = opcode === OP_PUSHDATA1 ? 1 : opcode === OP_PUSHDATA2 ? 2 : 4;
      const lengthBytes = script.subarray(at, at + width);
      if (lengthBytes.length !== width) throw new ScriptError(`invalid opcode length: ${hexList(lengthBytes)}`);
      at += width;
      const length = lengthBytes.reduceRight((sum, byte) => sum * 256 + byte, 0);
      const data = script.subarray(at, at + length);
      if (data.length !== length) {
        throw new ScriptError(`opcode requires ${length} bytes, but script only has ${data.length} remaining`);
      }
      at += length;
      yield { opcode, data };
    } else {
      yield { opcode, data: new Uint8Array(0) };
    }
  }
}

export const isPushOpcode = (opcode: number) => opcode <= NO_COST_OPCODE;
export const isConditional = (opcode: number) => opcode >= OP_IF && opcode <= OP_ENDIF;

/** check_minimal_data_push (enforced before Toccata only): the reason a push is not minimal, or null. */
export function minimalPushError(op: ParsedOpcode): string | null {
  const { opcode, data } = op;
  const length = data.length;
  const debug = debugOpcode(op);
  if (length === 0) {
    return opcode === OP_FALSE ? null : `zero length data push is encoded with opcode ${debug} instead of OpFalse`;
  }
  const first = data[0]!;
  if (length === 1 && first >= 1 && first <= 16) {
    // kaspad's text really says "zero length" here too.
    return opcode === OP_TRUE + first - 1 ? null : `zero length data push is encoded with opcode ${debug} instead of Op_${first}`;
  }
  if (length === 1 && first === 0x81) {
    return opcode === OP_1NEGATE ? null : `data push of the value -1 encoded with opcode ${debug} instead of OP_1NEGATE`;
  }
  if (length <= OP_DATA_75) {
    return opcode === length ? null : `data push of ${length} bytes encoded with opcode ${debug} instead of OP_DATA_${length}`;
  }
  if (length <= 0xff) {
    return opcode === OP_PUSHDATA1 ? null : `data push of ${length} bytes encoded with opcode ${debug} instead of OP_PUSHDATA1`;
  }
  if (length < 0xffff && opcode !== OP_PUSHDATA2) {
    return `data push of ${length} bytes encoded with opcode ${debug} instead of OP_PUSHDATA2`;
  }
  return null;
}
