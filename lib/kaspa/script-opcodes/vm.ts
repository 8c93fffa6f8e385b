/** What an opcode handler sees of the engine, and the helpers the opcode families share. */
import type { CovenantsContext } from '../covenant';
import type { SigHashReusedValues } from '../sighash';
import type { Secp256k1Backend } from '../signing';
import { debugOpcode, MAX_SCRIPT_ELEMENT_SIZE_TOCCATA, ScriptError, type ParsedOpcode } from '../script-parse';
import type { ScriptStack } from '../script-stack';
import type { ScriptPublicKey, Transaction, UtxoEntry } from '../types';

export type Condition = 'true' | 'false' | 'skip';

export interface ScriptVm {
  readonly toccata: boolean;
  readonly tx: Transaction;
  readonly inputIndex: number;
  readonly entries: readonly UtxoEntry[];
  readonly covenants: CovenantsContext;
  readonly reusedValues: SigHashReusedValues;
  readonly backend: Secp256k1Backend;
  dstack: ScriptStack;
  astack: ScriptStack;
  condStack: Condition[];
  numOps: number;
  readonly executing: boolean;
  consumeScriptUnits(units: bigint): void;
  /** One signature check: a sig op before Toccata, `SCRIPT_UNITS_PER_SIG_OP` script units after it. */
  consumeSigOp(): void;
  maxOpsPerScript(): number;
}

export type OpcodeHandler = (vm: ScriptVm, op: ParsedOpcode) => void;
export type OpcodeTable = ReadonlyMap<number, OpcodeHandler>;

export const reserved = (op: ParsedOpcode) => new ScriptError(`attempt to execute reserved opcode ${debugOpcode(op)}`);
export const invalidOpcode = (op: ParsedOpcode) => new ScriptError(`attempt to execute invalid opcode ${debugOpcode(op)}`);
export const verifyFailed = () => new ScriptError('script ran, but verification failed');
export const invalidState = (what: string) => new ScriptError(`encountered invalid state while running script: ${what}`);

/** An opcode Toccata enabled: before it kaspad fails it as reserved or invalid, whichever its table says. */
export function toccataOnly(handler: OpcodeHandler, before: 'reserved' | 'invalid'): OpcodeHandler {
  return (vm, op) => {
    if (!vm.toccata) throw before === 'reserved' ? reserved(op) : invalidOpcode(op);
    handler(vm, op);
  };
}

/** i32_to_usize: a negative index is not an index. */
export function toIndex(value: number): number {
  if (value < 0) throw new ScriptError(`${value} cannot be used as an array index`);
  return value;
}

/** opcodes/mod.rs `substring`: [start, end) of `data`. */
export function substring(data: Uint8Array, start: number, end: number): Uint8Array {
  if (end < start) throw new ScriptError(`${start}..${end} is not a valid range, ${end} must be greater than ${start}`);
  if (end - start > MAX_SCRIPT_ELEMENT_SIZE_TOCCATA) {
    throw new ScriptError(`element size ${end - start} exceeds max allowed size ${MAX_SCRIPT_ELEMENT_SIZE_TOCCATA}`);
  }
  if (end > data.length) throw new ScriptError(`substring [${start}:${end}] is out of bounds for string of length ${data.length}`);
  return data.slice(start, end);
}

/** `SpkEncoding::to_bytes`: the version as u16 big-endian, then the script. */
export function scriptPublicKeyBytes(spk: ScriptPublicKey): Uint8Array {
  const bytes = new Uint8Array(2 + spk.script.length);
  bytes[0] = spk.version >> 8;
  bytes[1] = spk.version & 0xff;
  bytes.set(spk.script, 2);
  return bytes;
}

export const inputIndexError = (index: number, count: number) =>
  new ScriptError(`transaction input ${index} is out of bounds, should be non-negative below ${count}`);
export const outputIndexError = (index: number, count: number) =>
  new ScriptError(`transaction output ${index} is out of bounds, should be non-negative below ${count}`);
