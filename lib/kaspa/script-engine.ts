/**
 * A Kaspa script engine for transaction inputs, following rusty-kaspa v2.0.1 crypto/txscript (lib.rs `TxScriptEngine`,
 * opcodes/mod.rs, data_stack.rs, runtime_resource_meter.rs). Errors carry the `TxScriptError` Display text kaspad
 * reports.
 *
 * Two rule sets, as kaspad's `EngineFlags::covenants_enabled`:
 * - Crescendo (`toccata` false, the default): runtime sig-op counting against the input's committed count, 520-byte
 *   elements, 201 non-push operations per script, minimal pushes and minimal numbers, OP_CAT…OP_RSHIFT disabled.
 * - Toccata (`toccata` true): script units metered against the input's `allowedScriptUnits` (its compute budget, or
 *   its sig-op count for a v0 input, plus the free allowance): every signature check, hashed byte, byte pushed by an
 *   opcode and script-public-key byte above 35 costs units; 1 MB elements and scripts; the KIP-17 introspection and
 *   covenant opcodes, OP_CAT/SUBSTR/bitwise/MUL/DIV/MOD, NUM2BIN/BIN2NUM, BLAKE3, keyed hashes and
 *   OP_CHECKSIGFROMSTACK(ECDSA) enabled.
 *
 * Every opcode v2.0.1 defines is implemented (opcode families in script-opcodes/) except two that an input may reach
 * only under Toccata, which end the input as `unsupported` instead of guessing: OP_ZK_PRECOMPILE (after parsing and
 * charging its tag, since Groth16/RISC Zero proofs are not verified here) and OP_CHAINBLOCK_SEQ_COMMIT (which needs
 * the chain's sequencing commitments). The static sig-op bound the mempool's P2SH standardness rule uses is here too.
 */
import { isPayToScriptHashScript } from './address';
import { CovenantsContext } from './covenant';
import { allowedScriptUnits, SCRIPT_UNITS_PER_GRAM, SCRIPT_UNITS_PER_SIG_OP } from './mass';
import {
  debugOpcode,
  isConditional,
  isDisabledOpcode,
  isPushOpcode,
  MAX_OPS_PER_SCRIPT,
  MAX_OPS_PER_SCRIPT_TOCCATA,
  MAX_PUB_KEYS_PER_MULTISIG,
  MAX_SCRIPT_ELEMENT_SIZE,
  MAX_SCRIPT_ELEMENT_SIZE_TOCCATA,
  MAX_SCRIPT_PUBLIC_KEY_VERSION,
  MAX_SCRIPTS_SIZE,
  MAX_SCRIPTS_SIZE_TOCCATA,
  MAX_STACK_SIZE,
  minimalPushError,
  OP_16,
  OP_CHECKMULTISIG,
  OP_CHECKMULTISIGECDSA,
  OP_CHECKMULTISIGVERIFY,
  OP_CHECKSIG,
  OP_CHECKSIGECDSA,
  OP_CHECKSIGVERIFY,
  OP_PUSHDATA4,
  OP_TRUE,
  OP_VERIF,
  OP_VERNOTIF,
  parseScript,
  ScriptError,
  UnsupportedOpcodeError,
  type ParsedOpcode,
} from './script-parse';
import { ScriptStack } from './script-stack';
import { OPCODE_HANDLERS, type ScriptVm } from './script-opcodes';
import { invalidOpcode, type Condition } from './script-opcodes/vm';
import { SigHashReusedValues } from './sighash';
import { nobleSecp256k1, type Secp256k1Backend } from './signing';
import { committedSigOpCount } from './transaction';
import type { Transaction, UtxoEntry } from './types';

export * from './script-parse';
export { encodeScriptNumber } from './script-stack';
export { ZK_TAG_COSTS } from './script-opcodes';

/** Script-public-key bytes up to this length run for free under Toccata (lib.rs STANDARD_SCRIPT_PUB_KEY_MAX_SIZE). */
const STANDARD_SCRIPT_PUB_KEY_MAX_SIZE = 35;

export interface ScriptInputContext {
  /** The whole spending transaction. */
  tx: Transaction;
  inputIndex: number;
  /** The entry every input spends (`entries[i]` for input i), each with its covenant id if it has one. */
  entries: readonly UtxoEntry[];
  reusedValues?: SigHashReusedValues;
  backend?: Secp256k1Backend;
  /** Run under Toccata's rules (kaspad's `covenants_enabled`): the block's DAA score is at or past activation. */
  toccata?: boolean;
  /** The transaction's covenants context; built from `tx` and `entries` when omitted under Toccata. */
  covenants?: CovenantsContext;
  /** Overrides the input's allowed script units (Toccata); `measureInputScriptUnits` runs without a limit. */
  scriptUnitsLimit?: bigint;
}

class Engine implements ScriptVm {
  readonly toccata: boolean;
  readonly tx: Transaction;
  readonly inputIndex: number;
  readonly entries: readonly UtxoEntry[];
  readonly covenants: CovenantsContext;
  readonly reusedValues: SigHashReusedValues;
  readonly backend: Secp256k1Backend;
  dstack: ScriptStack;
  astack: ScriptStack;
  condStack: Condition[] = [];
  numOps = 0;
  usedScriptUnits = 0n;
  private readonly scriptUnitsLimit: bigint;
  private readonly sigOpLimit: number;
  private sigOpsRemaining: number;

  constructor(context: ScriptInputContext) {
    this.toccata = context.toccata ?? false;
    this.tx = context.tx;
    this.inputIndex = context.inputIndex;
    this.entries = context.entries;
    this.covenants = context.covenants ?? CovenantsContext.EMPTY;
    this.reusedValues = context.reusedValues ?? new SigHashReusedValues(context.tx);
    this.backend = context.backend ?? nobleSecp256k1;
    this.dstack = new ScriptStack(this.toccata);
    this.astack = new ScriptStack(this.toccata);
    const input = context.tx.inputs[context.inputIndex]!;
    this.scriptUnitsLimit = context.scriptUnitsLimit ?? allowedScriptUnits(input);
    this.sigOpLimit = committedSigOpCount(input);
    this.sigOpsRemaining = this.sigOpLimit;
  }

  get executing(): boolean {
    return this.condStack.length === 0 || this.condStack[this.condStack.length - 1] === 'true';
  }

  maxOpsPerScript(): number {
    return this.toccata ? MAX_OPS_PER_SCRIPT_TOCCATA : MAX_OPS_PER_SCRIPT;
  }

  consumeScriptUnits(units: bigint): void {
    if (!this.toccata) return;
    if (this.usedScriptUnits + units > this.scriptUnitsLimit) {
      throw new ScriptError(
        `script units exceeded the amount committed in the input: used=${this.usedScriptUnits + units}, limit=${this.scriptUnitsLimit}`,
      );
    }
    this.usedScriptUnits += units;
  }

  consumeSigOp(): void {
    if (this.toccata) {
      this.consumeScriptUnits(SCRIPT_UNITS_PER_SIG_OP);
      return;
    }
    if (this.sigOpsRemaining === 0) throw new ScriptError(`sig op count exceeds passed limit of ${this.sigOpLimit}`);
    this.sigOpsRemaining -= 1;
  }

  executeScript(script: Uint8Array, verifyOnlyPush: boolean): void {
    try {
      for (const op of parseScript(script)) {
        if (isDisabledOpcode(op.opcode, this.toccata)) throw new ScriptError(`attempt to execute disabled opcode ${debugOpcode(op)}`);
        if (op.opcode === OP_VERIF || op.opcode === OP_VERNOTIF) {
          throw new ScriptError(`attempt to execute reserved opcode ${debugOpcode(op)}`);
        }
        if (verifyOnlyPush && !isPushOpcode(op.opcode)) throw new ScriptError('signature script is not push only');
        this.executeOpcode(op);
        const size = this.astack.length + this.dstack.length;
        if (size > MAX_STACK_SIZE) throw new ScriptError(`combined stack size ${size} > max allowed ${MAX_STACK_SIZE}`);
      }
      if (this.condStack.length > 0) throw new ScriptError('end of script reached in conditional execution');
    } finally {
      this.astack = new ScriptStack(this.toccata);
      this.numOps = 0;
    }
  }

  executeOpcode(op: ParsedOpcode): void {
    const maxElement = this.toccata ? MAX_SCRIPT_ELEMENT_SIZE_TOCCATA : MAX_SCRIPT_ELEMENT_SIZE;
    if (!isPushOpcode(op.opcode)) {
      this.numOps += 1;
      if (this.numOps > this.maxOpsPerScript()) throw new ScriptError(`exceeded max operation limit of ${this.maxOpsPerScript()}`);
    } else if (op.data.length > maxElement) {
      throw new ScriptError(`element size ${op.data.length} exceeds max allowed size ${maxElement}`);
    }
    if (!this.executing && !isConditional(op.opcode)) return;
    if (!this.toccata && op.opcode > 0 && op.opcode <= OP_PUSHDATA4) {
      const error = minimalPushError(op);
      if (error !== null) throw new ScriptError(`push encoding is not minimal: ${error}`);
    }
    this.run(op);
    this.consumeScriptUnits(BigInt(this.dstack.takePushedBytes() + this.astack.takePushedBytes()));
  }

  run(op: ParsedOpcode): void {
    const { opcode } = op;
    if (opcode <= OP_PUSHDATA4) return this.dstack.pushUnmetered(op.data);
    if (opcode === 0x4f) return this.dstack.pushUnmetered(Uint8Array.of(0x81));
    if (opcode >= OP_TRUE && opcode <= OP_16) return this.dstack.pushUnmetered(Uint8Array.of(opcode - OP_TRUE + 1));
    const handler = OPCODE_HANDLERS.get(opcode);
    if (!handler) throw invalidOpcode(op);
    handler(this, op);
  }

  /** check_error_condition: the final script must leave exactly one item, and the top item must be true. */
  checkErrorCondition(finalScript: boolean): void {
    if (finalScript) {
      if (this.dstack.length > 1) throw new ScriptError(`stack contains ${this.dstack.length - 1} unexpected items`);
      if (this.dstack.length === 0) throw new ScriptError('attempt to read from empty stack');
    }
    if (!this.dstack.popBool()) throw new ScriptError('false stack entry at end of script execution');
  }

  execute(): void {
    const input = this.tx.inputs[this.inputIndex]!;
    const spk = this.entries[this.inputIndex]!.scriptPublicKey.script;
    const extraSpkBytes = Math.max(0, spk.length - STANDARD_SCRIPT_PUB_KEY_MAX_SIZE);
    this.consumeScriptUnits(BigInt(extraSpkBytes) * SCRIPT_UNITS_PER_GRAM);
    const scripts = [input.signatureScript, spk];
    const isP2sh = isPayToScriptHashScript(spk);
    if (scripts.every((script) => script.length === 0)) throw new ScriptError('false stack entry at end of script execution');
    const maxScript = this.toccata ? MAX_SCRIPTS_SIZE_TOCCATA : MAX_SCRIPTS_SIZE;
    const oversized = scripts.find((script) => script.length > maxScript);
    if (oversized) throw new ScriptError(`script of size ${oversized.length} exceeded maximum allowed size of ${maxScript}`);
    let saved: ScriptStack | undefined;
    scripts.forEach((script, index) => {
      if (script.length === 0) return;
      if (isP2sh && index === 1) saved = this.dstack.clone();
      this.executeScript(script, index === 0);
    });
    if (isP2sh) {
      this.checkErrorCondition(false);
      if (saved === undefined) throw new ScriptError('attempt to read from empty stack');
      this.dstack = saved;
      this.executeScript(this.dstack.pop(), false);
    }
    this.checkErrorCondition(true);
  }
}

export type ScriptExecution =
  | { status: 'valid' }
  | { status: 'invalid'; error: string }
  | { status: 'unsupported'; opcode: number };

function contextFor(context: ScriptInputContext): ScriptInputContext {
  const { tx, inputIndex, entries } = context;
  if (!tx.inputs[inputIndex] || !entries[inputIndex]) throw new RangeError(`input ${inputIndex} or its spent entry is missing`);
  if (!context.toccata || context.covenants) return context;
  return { ...context, covenants: CovenantsContext.fromTransaction(tx, entries) };
}

function runEngine(engine: Engine): ScriptExecution {
  try {
    engine.execute();
    return { status: 'valid' };
  } catch (error) {
    if (error instanceof ScriptError) return { status: 'invalid', error: error.message };
    if (error instanceof UnsupportedOpcodeError) return { status: 'unsupported', opcode: error.opcode };
    throw error;
  }
}

/**
 * Runs input `inputIndex` the way `TxScriptEngine::execute` does: the signature script (push only), the spent script
 * public key, and for P2SH the redeem script on the signature script's stack. A script public key of a version above
 * 0 is accepted without running anything. Under Toccata without `covenants`, the context is built from the transaction
 * (throwing CovenantError when its bindings are invalid, which consensus checks before scripts).
 */
export function executeInputScripts(context: ScriptInputContext): ScriptExecution {
  const full = contextFor(context);
  if (full.entries[full.inputIndex]!.scriptPublicKey.version > MAX_SCRIPT_PUBLIC_KEY_VERSION) return { status: 'valid' };
  return runEngine(new Engine(full));
}

/**
 * Runs input `inputIndex` under Toccata without a script-unit limit and reports the units it used: what a wallet
 * needs to pick the input's compute budget (`coveringComputeBudget(usedScriptUnits)`).
 */
export function measureInputScriptUnits(context: ScriptInputContext): { execution: ScriptExecution; usedScriptUnits: bigint } {
  const engine = new Engine(contextFor({ ...context, toccata: true, scriptUnitsLimit: 1n << 64n }));
  return { execution: runEngine(engine), usedScriptUnits: engine.usedScriptUnits };
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
