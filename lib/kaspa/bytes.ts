/** Byte helpers shared by every Kaspa primitive: hex codecs, concatenation and a little-endian writer. */

export class HexError extends Error {
  override name = 'HexError';
}

/** The value of a hex digit's character code (either case), or -1. */
function hexDigitValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
}

/** Node's Buffer when present (read off globalThis so browser bundles get no Buffer polyfill): its native hex decoder. */
const nodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;

function invalidHex(hex: string): HexError {
  return new HexError(`invalid hex string (${hex.length} characters)`);
}

/** Accepts only an even number of hex digits, either case. */
export function hexToBytes(hex: string): Uint8Array {
  if (hex.length % 2 !== 0) throw invalidHex(hex);
  const bytes = new Uint8Array(hex.length / 2);
  if (nodeBuffer !== undefined) {
    // Buffer#write stops at the first pair that is not two hex digits, so a short count means invalid input.
    const written = nodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.length).write(hex, 'hex');
    if (written !== bytes.length) throw invalidHex(hex);
    return bytes;
  }
  for (let i = 0; i < bytes.length; i++) {
    const high = hexDigitValue(hex.charCodeAt(2 * i));
    const low = hexDigitValue(hex.charCodeAt(2 * i + 1));
    if (high < 0 || low < 0) throw invalidHex(hex);
    bytes[i] = (high << 4) | low;
  }
  return bytes;
}

const HEX_DIGITS = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

export function bytesToHex(bytes: Uint8Array): string {
  if (nodeBuffer !== undefined) return nodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('hex');
  let hex = '';
  for (const byte of bytes) hex += HEX_DIGITS[byte];
  return hex;
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/** Compares byte strings lexicographically, which is how rusty-kaspa orders hashes. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    if (a[i] !== b[i]) return a[i]! - b[i]!;
  }
  return a.length - b.length;
}

const U64_MAX = (1n << 64n) - 1n;

/** Appends little-endian integers and length-prefixed byte strings the way rusty-kaspa's hashers are fed. */
export class ByteWriter {
  private buffer = new Uint8Array(256);
  private view = new DataView(this.buffer.buffer);
  private length = 0;

  private reserve(extra: number): void {
    if (this.length + extra <= this.buffer.length) return;
    let capacity = this.buffer.length * 2;
    while (capacity < this.length + extra) capacity *= 2;
    const next = new Uint8Array(capacity);
    next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
    this.view = new DataView(next.buffer);
  }

  u8(value: number): this {
    this.reserve(1);
    this.view.setUint8(this.length, value);
    this.length += 1;
    return this;
  }

  u16(value: number): this {
    this.reserve(2);
    this.view.setUint16(this.length, value, true);
    this.length += 2;
    return this;
  }

  u32(value: number): this {
    this.reserve(4);
    this.view.setUint32(this.length, value, true);
    this.length += 4;
    return this;
  }

  u64(value: bigint | number): this {
    const big = BigInt(value);
    if (big < 0n || big > U64_MAX) throw new RangeError(`u64 out of range: ${big}`);
    this.reserve(8);
    this.view.setBigUint64(this.length, big, true);
    this.length += 8;
    return this;
  }

  bytes(value: Uint8Array): this {
    this.reserve(value.length);
    this.buffer.set(value, this.length);
    this.length += value.length;
    return this;
  }

  /** u64 length prefix followed by the bytes. */
  varBytes(value: Uint8Array): this {
    return this.u64(value.length).bytes(value);
  }

  finish(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }
}
