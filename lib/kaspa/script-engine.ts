/**
 * A Kaspa script engine for transaction inputs, following rusty-kaspa v1.0.1 crypto/txscript (lib.rs `TxScriptEngine`,
 * opcodes/mod.rs, data_stack.rs) under Crescendo rules: runtime sig-op counting against the input's committed count,
 * 520-byte elements, 201 non-push operations per script, 244 stack items, minimal pushes for executed data pushes, and
 * a push-only signature script. Errors carry the `TxScriptError` Display text kaspad reports.
 *
 * Implemented opcodes: every data push (OP_0/OP_FALSE, OP_DATA_1…75, OP_PUSHDATA1/2/4, OP_1NEGATE, OP_1…OP_16), the
 * conditionals (OP_IF, OP_NOTIF, OP_ELSE, OP_ENDIF), OP_NOP, OP_VERIFY, OP_RETURN, OP_EQUAL, OP_EQUALVERIFY,
 * OP_BLAKE2B, OP_CHECKSIG, OP_CHECKSIGVERIFY and OP_CHECKSIGECDSA: what P2PK, P2SH and the Kasplex envelope
 * (`<key> OP_CHECKSIG OP_FALSE OP_IF … OP_ENDIF`) execute. Disabled and always-illegal opcodes fail as in kaspad even in
 * branches not taken; any other opcode that is executed makes the input `unsupported` (the caller decides what a node
 * that cannot run it does). The static sig-op bound the mempool's P2SH standardness rule uses is here too.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { isPayToScriptHashScript } from './address';
import { bytesToHex, equalBytes } from './bytes';
import { blake2b256 } from './hashing';
import { calcEcdsaSignatureHash, calcSchnorrSignatureHash, isValidSigHashType, SigHashReusedValues } from './sighash';
import { nobleSecp256k1, verifyEcdsa, verifySchnorr, type Secp256k1Backend } from './signing';
import type { Transaction, UtxoEntry } from './types';

export const MAX_SCRIPT_PUBLIC_KEY_VERSION = 0;
export const MAX_STACK_SIZE = 244;
export const MAX_SCRIPTS_SIZE = 10_000;
/** v1.0.1's limit; the covenants line raises it, which mainnet history does not reflect. */
export const MAX_SCRIPT_ELEMENT_SIZE = 520;
export const MAX_OPS_PER_SCRIPT = 201;
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
export const OP_EQUAL = 0x87;
export const OP_EQUALVERIFY = 0x88;
export const OP_CHECKMULTISIGECDSA = 0xa9;
export const OP_BLAKE2B = 0xaa;
export const OP_CHECKSIGECDSA = 0xab;
export const OP_CHECKSIG = 0xac;
export const OP_CHECKSIGVERIFY = 0xad;
export const OP_CHECKMULTISIG = 0xae;
export const OP_CHECKMULTISIGVERIFY = 0xaf;

/** The last opcode that does not count as an operation (lib.rs NO_COST_OPCODE; OP_RESERVED included). */
const NO_COST_OPCODE = 0x60;
/** OP_CAT … OP_RSHIFT that opcodes/mod.rs `is_disabled` lists. */
const DISABLED_OPCODES: ReadonlySet<number> = new Set([
  0x7e, 0x7f, 0x80, 0x81, 0x83, 0x84, 0x85, 0x86, 0x8d, 0x8e, 0x95, 0x96, 0x97, 0x98, 0x99,
]);

/** A script failure; `message` is kaspad's `TxScriptError` Display text. */
export class ScriptError extends Error {
  override name = 'ScriptError';
}

/** An executed opcode this engine does not implement. */
export class UnsupportedOpcodeError extends Error {
  override name = 'UnsupportedOpcodeError';

  constructor(readonly opcode: number) {
    super(`opcode 0x${opcode.toString(16).padStart(2, '0')} is not implemented by this script engine`);
  }
}

export interface ParsedOpcode {
  opcode: number;
  /** The pushed bytes of a data push; empty for every other opcode. */
  data: Uint8Array;
}

/** rusty-kaspa's `Debug` of an opcode: `Opcode<0x7e>{ data:[] }`. */
function debugOpcode(op: ParsedOpcode): string {
  return `Opcode<0x${op.opcode.toString(16)}>{ data:[${Array.from(op.data).join(', ')}] }`;
}

function hexList(bytes: Uint8Array): string {
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

const isPushOpcode = (opcode: number) => opcode <= NO_COST_OPCODE;
const isConditional = (opcode: number) => opcode >= OP_IF && opcode <= OP_ENDIF;

function minimalPushError(op: ParsedOpcode): string | null {
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

/** data_stack.rs bool: false for empty, all-zero, or negative zero. */
function asBool(item: Uint8Array): boolean {
  const last = item.length - 1;
  return item.some((byte, index) => (index === last ? (byte & 0x7f) !== 0 : byte !== 0));
}

const TRUE_ITEM = Uint8Array.of(1);
const FALSE_ITEM = new Uint8Array(0);

/** Whether a key parses as secp256k1 does (x-only for Schnorr, compressed for ECDSA). */
function isValidPublicKey(key: Uint8Array, ecdsa: boolean): boolean {
  try {
    secp256k1.Point.fromHex(ecdsa ? bytesToHex(key) : `02${bytesToHex(key)}`);
    return true;
  } catch {
    return false;
  }
}

/** secp256k1's `from_compact`: r and s must both be below the group order. */
function isValidCompactSignature(signature: Uint8Array): boolean {
  const order = secp256k1.Point.CURVE().n;
  const r = BigInt(`0x${bytesToHex(signature.subarray(0, 32))}`);
  const s = BigInt(`0x${bytesToHex(signature.subarray(32, 64))}`);
  return r < order && s < order;
}

type Condition = 'true' | 'false' | 'skip';

export interface ScriptInputContext {
  tx: Transaction;
  inputIndex: number;
  entries: readonly UtxoEntry[];
  reusedValues?: SigHashReusedValues;
  backend?: Secp256k1Backend;
}

class Engine {
  dstack: Uint8Array[] = [];
  astack: Uint8Array[] = [];
  condStack: Condition[] = [];
  numOps = 0;
  sigOpsRemaining: number;

  constructor(private readonly context: Required<ScriptInputContext>) {
    this.sigOpsRemaining = context.tx.inputs[context.inputIndex]!.sigOpCount;
  }

  get executing(): boolean {
    return this.condStack.length === 0 || this.condStack[this.condStack.length - 1] === 'true';
  }

  popRaw(count: number): Uint8Array[] {
    if (this.dstack.length < count) {
      throw new ScriptError(`opcode requires at least ${count} but stack has only ${this.dstack.length}`);
    }
    return this.dstack.splice(this.dstack.length - count, count);
  }

  popBool(): boolean {
    return asBool(this.popRaw(1)[0]!);
  }

  executeScript(script: Uint8Array, verifyOnlyPush: boolean): void {
    for (const op of parseScript(script)) {
      if (DISABLED_OPCODES.has(op.opcode)) throw new ScriptError(`attempt to execute disabled opcode ${debugOpcode(op)}`);
      if (op.opcode === OP_VERIF || op.opcode === OP_VERNOTIF) {
        throw new ScriptError(`attempt to execute reserved opcode ${debugOpcode(op)}`);
      }
      if (verifyOnlyPush && !isPushOpcode(op.opcode)) throw new ScriptError('signature script is not push only');
      this.executeOpcode(op);
      const size = this.astack.length + this.dstack.length;
      if (size > MAX_STACK_SIZE) throw new ScriptError(`combined stack size ${size} > max allowed ${MAX_STACK_SIZE}`);
    }
    if (this.condStack.length > 0) throw new ScriptError('end of script reached in conditional execution');
    this.astack = [];
    this.numOps = 0;
  }

  executeOpcode(op: ParsedOpcode): void {
    if (!isPushOpcode(op.opcode)) {
      this.numOps += 1;
      if (this.numOps > MAX_OPS_PER_SCRIPT) throw new ScriptError(`exceeded max operation limit of ${MAX_OPS_PER_SCRIPT}`);
    } else if (op.data.length > MAX_SCRIPT_ELEMENT_SIZE) {
      throw new ScriptError(`element size ${op.data.length} exceeds max allowed size ${MAX_SCRIPT_ELEMENT_SIZE}`);
    }
    if (!this.executing && !isConditional(op.opcode)) return;
    if (op.opcode > 0 && op.opcode <= OP_PUSHDATA4) {
      const error = minimalPushError(op);
      if (error !== null) throw new ScriptError(`push encoding is not minimal: ${error}`);
    }
    this.run(op);
  }

  run(op: ParsedOpcode): void {
    const { opcode } = op;
    if (opcode <= OP_PUSHDATA4) {
      this.dstack.push(op.data);
      return;
    }
    if (opcode === OP_1NEGATE) {
      this.dstack.push(Uint8Array.of(0x81));
      return;
    }
    if (opcode > OP_RESERVED && opcode <= OP_16) {
      this.dstack.push(Uint8Array.of(opcode - OP_TRUE + 1));
      return;
    }
    switch (opcode) {
      case OP_RESERVED:
      case OP_VER:
        throw new ScriptError(`attempt to execute reserved opcode ${debugOpcode(op)}`);
      case OP_NOP:
        return;
      case OP_IF:
      case OP_NOTIF: {
        let condition: Condition = 'skip';
        if (this.executing) {
          const item = this.dstack.pop();
          if (item === undefined) throw new ScriptError('attempt to read from empty stack');
          if (item.length > 1 || (item.length === 1 && item[0] !== 1)) {
            throw new ScriptError('encountered invalid state while running script: expected boolean');
          }
          const truthy = item.length === 1;
          condition = truthy === (opcode === OP_IF) ? 'true' : 'false';
        }
        this.condStack.push(condition);
        return;
      }
      case OP_ELSE: {
        const last = this.condStack.length - 1;
        if (last < 0) throw new ScriptError('encountered invalid state while running script: condition stack empty');
        const condition = this.condStack[last]!;
        this.condStack[last] = condition === 'true' ? 'false' : condition === 'false' ? 'true' : 'skip';
        return;
      }
      case OP_ENDIF:
        if (this.condStack.pop() === undefined) {
          throw new ScriptError('encountered invalid state while running script: condition stack empty');
        }
        return;
      case OP_VERIFY:
        if (!this.popBool()) throw new ScriptError('script ran, but verification failed');
        return;
      case OP_RETURN:
        throw new ScriptError('script returned early');
      case OP_EQUAL:
      case OP_EQUALVERIFY: {
        const [a, b] = this.popRaw(2) as [Uint8Array, Uint8Array];
        const equal = equalBytes(a, b);
        if (opcode === OP_EQUAL) this.dstack.push(equal ? TRUE_ITEM : FALSE_ITEM);
        else if (!equal) throw new ScriptError('script ran, but verification failed');
        return;
      }
      case OP_BLAKE2B:
        this.dstack.push(blake2b256(this.popRaw(1)[0]!));
        return;
      case OP_CHECKSIG:
      case OP_CHECKSIGECDSA:
      case OP_CHECKSIGVERIFY: {
        const valid = this.checkSig(opcode === OP_CHECKSIGECDSA);
        if (opcode !== OP_CHECKSIGVERIFY) this.dstack.push(valid ? TRUE_ITEM : FALSE_ITEM);
        else if (!valid) throw new ScriptError('script ran, but verification failed');
        return;
      }
      default:
        throw new UnsupportedOpcodeError(opcode);
    }
  }

  /** OpCheckSig / OpCheckSigECDSA: an empty signature is false without using a sig op; a bad encoding is an error. */
  checkSig(ecdsa: boolean): boolean {
    const [signatureWithType, key] = this.popRaw(2) as [Uint8Array, Uint8Array];
    if (signatureWithType.length === 0) return false;
    const hashType = signatureWithType[signatureWithType.length - 1]!;
    if (!isValidSigHashType(hashType)) throw new ScriptError(`invalid hash type 0x${hashType.toString(16).padStart(2, '0')}`);
    const limit = this.context.tx.inputs[this.context.inputIndex]!.sigOpCount;
    if (this.sigOpsRemaining === 0) throw new ScriptError(`sig op count exceeds passed limit of ${limit}`);
    this.sigOpsRemaining -= 1;
    const signature = signatureWithType.subarray(0, -1);
    if (signature.length !== 64) throw new ScriptError(`invalid signature length ${signature.length}`);
    if (key.length !== (ecdsa ? 33 : 32)) throw new ScriptError('unsupported public key type');
    if (!isValidPublicKey(key, ecdsa)) throw new ScriptError('signature invalid: malformed public key');
    if (ecdsa && !isValidCompactSignature(signature)) throw new ScriptError('signature invalid: malformed signature');
    const { tx, inputIndex, entries, reusedValues, backend } = this.context;
    if (ecdsa) {
      const hash = calcEcdsaSignatureHash(tx, inputIndex, entries, hashType, reusedValues);
      return verifyEcdsa(signature, hash, key, backend);
    }
    const hash = calcSchnorrSignatureHash(tx, inputIndex, entries, hashType, reusedValues);
    return verifySchnorr(signature, hash, key, backend);
  }

  /** check_error_condition: the final script must leave exactly one item, and the top item must be true. */
  checkErrorCondition(finalScript: boolean): void {
    if (finalScript) {
      if (this.dstack.length > 1) throw new ScriptError(`stack contains ${this.dstack.length - 1} unexpected items`);
      if (this.dstack.length === 0) throw new ScriptError('attempt to read from empty stack');
    }
    if (!this.popBool()) throw new ScriptError('false stack entry at end of script execution');
  }
}

export type ScriptExecution =
  | { status: 'valid' }
  | { status: 'invalid'; error: string }
  | { status: 'unsupported'; opcode: number };

/**
 * Runs input `inputIndex` the way `TxScriptEngine::execute` does: the signature script (push only), the spent script
 * public key, and for P2SH the redeem script on the signature script's stack. A script public key of a version above
 * 0 is accepted without running anything.
 */
export function executeInputScripts(context: ScriptInputContext): ScriptExecution {
  const { tx, inputIndex, entries } = context;
  const input = tx.inputs[inputIndex];
  const entry = entries[inputIndex];
  if (!input || !entry) throw new RangeError(`input ${inputIndex} or its spent entry is missing`);
  if (entry.scriptPublicKey.version > MAX_SCRIPT_PUBLIC_KEY_VERSION) return { status: 'valid' };
  const engine = new Engine({
    tx,
    inputIndex,
    entries,
    reusedValues: context.reusedValues ?? new SigHashReusedValues(tx),
    backend: context.backend ?? nobleSecp256k1,
  });
  const scripts = [input.signatureScript, entry.scriptPublicKey.script];
  const isP2sh = isPayToScriptHashScript(entry.scriptPublicKey.script);
  try {
    if (scripts.every((script) => script.length === 0)) throw new ScriptError('false stack entry at end of script execution');
    const oversized = scripts.find((script) => script.length > MAX_SCRIPTS_SIZE);
    if (oversized) throw new ScriptError(`script of size ${oversized.length} exceeded maximum allowed size of ${MAX_SCRIPTS_SIZE}`);
    let saved: Uint8Array[] | undefined;
    scripts.forEach((script, index) => {
      if (script.length === 0) return;
      if (isP2sh && index === 1) saved = [...engine.dstack];
      engine.executeScript(script, index === 0);
    });
    if (isP2sh) {
      engine.checkErrorCondition(false);
      if (saved === undefined) throw new ScriptError('attempt to read from empty stack');
      engine.dstack = saved;
      const redeemScript = engine.dstack.pop();
      if (redeemScript === undefined) throw new ScriptError('attempt to read from empty stack');
      engine.executeScript(redeemScript, false);
    }
    engine.checkErrorCondition(true);
    return { status: 'valid' };
  } catch (error) {
    if (error instanceof ScriptError) return { status: 'invalid', error: error.message };
    if (error instanceof UnsupportedOpcodeError) return { status: 'unsupported', opcode: error.opcode };
    throw error;
  }
}

function parsedPrefix(script: Uint8Array): { ops: ParsedOpcode[]; complete: boolean } {
  const ops: ParsedOpcode[] = [];
  try {
    for (const op of parseScript(script)) ops.push(op);
    return { ops, complete: true };
  } catch (error) {
    if (error instanceof ScriptError) return { ops, complete: false };
    throw error;
  }
}

function sigOpsOf(ops: readonly ParsedOpcode[]): number {
  let count = 0;
  ops.forEach((op, index) => {
    if (op.opcode === OP_CHECKSIG || op.opcode === OP_CHECKSIGVERIFY || op.opcode === OP_CHECKSIGECDSA) count += 1;
    if (op.opcode === OP_CHECKMULTISIG || op.opcode === OP_CHECKMULTISIGVERIFY || op.opcode === OP_CHECKMULTISIGECDSA) {
      const previous = index > 0 ? ops[index - 1]!.opcode : -1;
      count += previous >= OP_TRUE && previous <= OP_16 ? previous - OP_TRUE + 1 : MAX_PUB_KEYS_PER_MULTISIG;
    }
  });
  return count;
}

/**
 * `get_sig_op_count_upper_bound`: the sig ops of the spent script, or for P2SH of the redeem script (the signature
 * script's last push; 0 when the signature script is empty, malformed or not push only). Parsing stops at the first
 * malformed opcode, counting what came before it.
 */
export function sigOpCountUpperBound(signatureScript: Uint8Array, scriptPublicKey: Uint8Array): number {
  if (!isPayToScriptHashScript(scriptPublicKey)) return sigOpsOf(parsedPrefix(scriptPublicKey).ops);
  const signature = parsedPrefix(signatureScript);
  if (!signature.complete || signature.ops.length === 0 || signature.ops.some((op) => !isPushOpcode(op.opcode))) return 0;
  return sigOpsOf(parsedPrefix(signature.ops[signature.ops.length - 1]!.data).ops);
}
