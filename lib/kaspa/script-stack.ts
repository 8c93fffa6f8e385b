/**
 * The engine's data and alt stacks (crypto/txscript data_stack.rs): script numbers (little-endian sign-magnitude, at
 * most 8 bytes; minimal encoding is enforced before Toccata only), booleans, and the bytes pushed since the last opcode,
 * which Toccata charges as script units. Numbers are bigint in the i64 range.
 */
import { MAX_SCRIPT_ELEMENT_SIZE_TOCCATA, ScriptError } from './script-parse';

export const I64_MIN = -(1n << 63n);
export const I64_MAX = (1n << 63n) - 1n;

/** Rust's `{:x?}` of bytes: unpadded lowercase hex. */
function rustHex(bytes: Uint8Array): string {
  return `[${Array.from(bytes, (byte) => byte.toString(16)).join(', ')}]`;
}

/** serialize_i64: minimal sign-magnitude bytes, or exactly `size` bytes (Toccata OP_NUM2BIN). */
export function encodeScriptNumber(value: bigint, size?: number, maxLength = Infinity): Uint8Array {
  const bytes: number[] = [];
  let magnitude = value < 0n ? -value : value;
  while (magnitude > 0n) {
    bytes.push(Number(magnitude & 0xffn));
    magnitude >>= 8n;
  }
  if (bytes.length > 0 && (bytes[bytes.length - 1]! & 0x80) !== 0) bytes.push(0);
  if (bytes.length > maxLength) throw new ScriptError(`Number exceeds ${maxLength} bytes: ${value}`);
  if (size !== undefined) {
    if (bytes.length > size) throw new ScriptError(`Number exceeds ${size} bytes: ${value}`);
    while (bytes.length < size) bytes.push(0);
  }
  if (value < 0n) bytes[bytes.length - 1]! |= 0x80;
  return Uint8Array.from(bytes);
}

/** deserialize_i64 of an item already known to be at most 8 bytes. */
function decodeScriptNumber(item: Uint8Array, enforceMinimal: boolean): bigint {
  if (item.length === 0) return 0n;
  const last = item[item.length - 1]!;
  if (enforceMinimal && (last & 0x7f) === 0 && (item.length === 1 || (item[item.length - 2]! & 0x80) === 0)) {
    throw new ScriptError(`push encoding is not minimal: numeric value encoded as ${rustHex(item)} is not minimally encoded`);
  }
  let magnitude = BigInt(last & 0x7f);
  for (let index = item.length - 2; index >= 0; index -= 1) magnitude = (magnitude << 8n) | BigInt(item[index]!);
  return (last & 0x80) !== 0 ? -magnitude : magnitude;
}

/** data_stack.rs bool: false for empty, all-zero, or negative zero. */
export function asBool(item: Uint8Array): boolean {
  const last = item.length - 1;
  return item.some((byte, index) => (index === last ? (byte & 0x7f) !== 0 : byte !== 0));
}

export const TRUE_ITEM = Uint8Array.of(1);
export const FALSE_ITEM = new Uint8Array(0);

export class ScriptStack {
  items: Uint8Array[] = [];
  /** Bytes placed on the stack by metered pushes since the engine last read this counter. */
  pushedBytes = 0;

  constructor(readonly toccata: boolean) {}

  get length(): number {
    return this.items.length;
  }

  clone(): ScriptStack {
    const copy = new ScriptStack(this.toccata);
    copy.items = [...this.items];
    return copy;
  }

  takePushedBytes(): number {
    const bytes = this.pushedBytes;
    this.pushedBytes = 0;
    return bytes;
  }

  require(count: number): void {
    if (this.items.length < count) {
      throw new ScriptError(`opcode requires at least ${count} but stack has only ${this.items.length}`);
    }
  }

  pop(): Uint8Array {
    const item = this.items.pop();
    if (item === undefined) throw new ScriptError('attempt to read from empty stack');
    return item;
  }

  popRaw(count: number): Uint8Array[] {
    this.require(count);
    return this.items.splice(this.items.length - count, count);
  }

  /** pop_items::<i64>: up to 8 bytes; minimal before Toccata. */
  popNumbers(count: number): bigint[] {
    return this.popRaw(count).map((item) => {
      if (item.length > 8) {
        throw new ScriptError(
          `Number too big: numeric value encoded as ${rustHex(item)} is ${item.length} bytes which exceeds the max allowed of 8`,
        );
      }
      return decodeScriptNumber(item, !this.toccata);
    });
  }

  /** pop_items::<i32>: 4 minimal bytes before Toccata; after it any i64 that fits in i32. */
  popInts(count: number): number[] {
    if (!this.toccata) {
      return this.popRaw(count).map((item) => {
        if (item.length > 4) {
          throw new ScriptError(
            `Number too big: numeric value encoded as ${rustHex(item)} is ${item.length} bytes which exceeds the max allowed of 4`,
          );
        }
        return Number(decodeScriptNumber(item, true));
      });
    }
    return this.popNumbers(count).map((value) => {
      if (value < -(1n << 31n) || value >= 1n << 31n) throw new ScriptError('Number too big: out of range integral type conversion attempted');
      return Number(value);
    });
  }

  popBool(): boolean {
    return asBool(this.popRaw(1)[0]!);
  }

  /** pop_items::<Hash>: exactly 32 bytes. */
  popHash(): Uint8Array {
    const item = this.popRaw(1)[0]!;
    if (item.length !== 32) throw new ScriptError(`blockhash must be exactly 32 bytes long, got ${item.length} bytes instead`);
    return item;
  }

  private checkSize(item: Uint8Array): void {
    if (this.toccata && item.length > MAX_SCRIPT_ELEMENT_SIZE_TOCCATA) {
      throw new ScriptError(`element size ${item.length} exceeds max allowed size ${MAX_SCRIPT_ELEMENT_SIZE_TOCCATA}`);
    }
  }

  push(item: Uint8Array): void {
    this.checkSize(item);
    this.pushedBytes += item.length;
    this.items.push(item);
  }

  /** Literal pushes and moves between stacks: paid for by script size, so not metered. */
  pushUnmetered(item: Uint8Array): void {
    this.checkSize(item);
    this.items.push(item);
  }

  insert(index: number, item: Uint8Array): void {
    this.checkSize(item);
    this.pushedBytes += item.length;
    this.items.splice(index, 0, item);
  }

  /** push_item::<i64>: i64::MIN needs 9 bytes, more than a number may have, so pushing it fails. */
  pushNumber(value: bigint): void {
    this.push(encodeScriptNumber(value, undefined, 8));
  }

  pushBool(value: boolean): void {
    this.push(value ? TRUE_ITEM : FALSE_ITEM);
  }

  /** Copies the `count` items `depth` items below the top onto the top (dup_items / over_items). */
  copyFrom(depth: number, count: number): void {
    this.require(depth + count);
    const start = this.items.length - depth - count;
    for (const item of this.items.slice(start, start + count)) this.push(item);
  }

  /** rotate_left(`by`) of the top `span` items (rot_items / swap_items). */
  rotate(span: number, by: number): void {
    this.require(span);
    const tail = this.items.splice(this.items.length - span, span);
    this.items.push(...tail.slice(by), ...tail.slice(0, by));
  }
}
