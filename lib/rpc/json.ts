/**
 * Lossless JSON for the wRPC wire.
 *
 * kaspad writes every u64 as a bare JSON integer, and many of them (request ids, header nonces, coin supply,
 * large amounts) exceed 2^53. `parseJson` therefore decides per integer token:
 *   - under a key listed in `bigintKeys` (and inside arrays held by such a key): always a bigint, whatever its size,
 *     so a u64 field has one runtime type;
 *   - anywhere else: a number when it is a safe integer, otherwise a bigint (never rounded);
 *   - tokens with a fraction or exponent are always numbers (serde_json writes every f64 that way).
 * `stringifyJson` writes bigint as a bare integer and otherwise follows JSON.stringify.
 *
 * Nesting is capped at 128 levels by default, the limit serde_json applies to kaspad's input.
 */

export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export interface ParseJsonOptions {
  /** Object keys whose integer values (also inside arrays) are always returned as bigint. */
  bigintKeys?: ReadonlySet<string>;
  /** Deepest allowed nesting of arrays and objects. */
  maxDepth?: number;
}

export const SERDE_JSON_MAX_DEPTH = 128;

export class JsonParseError extends SyntaxError {
  readonly position: number;

  constructor(message: string, position: number) {
    super(`${message} at position ${position}`);
    this.name = 'JsonParseError';
    this.position = position;
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const LOWER_E = 0x65;
const UPPER_E = 0x45;
/** A backslash (escape sequence) or a raw control character (invalid JSON, rejected by JSON.parse). */
const NEEDS_SLOW_STRING = /[\\\u0000-\u001f]/;
const NO_KEYS: ReadonlySet<string> = new Set();
const MAX_SAFE_DIGITS = 15;

class Parser {
  private pos = 0;

  constructor(
    private readonly text: string,
    private readonly bigintKeys: ReadonlySet<string>,
    private readonly maxDepth: number,
  ) {}

  parseDocument(): JsonValue {
    this.skipWhitespace();
    const value = this.parseValue(false, 0);
    this.skipWhitespace();
    if (this.pos < this.text.length) throw this.error('Unexpected data after JSON value');
    return value;
  }

  private error(message: string): JsonParseError {
    return new JsonParseError(message, this.pos);
  }

  private skipWhitespace(): void {
    const text = this.text;
    let pos = this.pos;
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) pos++;
      else break;
    }
    this.pos = pos;
  }

  private parseValue(bigintContext: boolean, depth: number): JsonValue {
    const c = this.text.charCodeAt(this.pos);
    if (c === QUOTE) return this.parseString();
    if (c === OPEN_BRACE) return this.parseObject(depth + 1);
    if (c === OPEN_BRACKET) return this.parseArray(bigintContext, depth + 1);
    if (c === MINUS || (c >= DIGIT_0 && c <= DIGIT_9)) return this.parseNumber(bigintContext);
    if (this.text.startsWith('true', this.pos)) {
      this.pos += 4;
      return true;
    }
    if (this.text.startsWith('false', this.pos)) {
      this.pos += 5;
      return false;
    }
    if (this.text.startsWith('null', this.pos)) {
      this.pos += 4;
      return null;
    }
    throw this.error(Number.isNaN(c) ? 'Unexpected end of JSON input' : 'Unexpected token');
  }

  private parseObject(depth: number): JsonObject {
    if (depth > this.maxDepth) throw this.error('Nesting too deep');
    const text = this.text;
    const object: JsonObject = {};
    this.pos++;
    this.skipWhitespace();
    if (text.charCodeAt(this.pos) === CLOSE_BRACE) {
      this.pos++;
      return object;
    }
    for (;;) {
      if (text.charCodeAt(this.pos) !== QUOTE) throw this.error('Expected a string key');
      const key = this.parseString();
      this.skipWhitespace();
      if (text.charCodeAt(this.pos) !== COLON) throw this.error("Expected ':'");
      this.pos++;
      this.skipWhitespace();
      const value = this.parseValue(this.bigintKeys.has(key), depth);
      if (key === '__proto__') {
        Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
      } else {
        object[key] = value;
      }
      this.skipWhitespace();
      const c = text.charCodeAt(this.pos);
      this.pos++;
      if (c === CLOSE_BRACE) return object;
      if (c !== COMMA) {
        this.pos--;
        throw this.error("Expected ',' or '}'");
      }
      this.skipWhitespace();
    }
  }

  private parseArray(bigintContext: boolean, depth: number): JsonValue[] {
    if (depth > this.maxDepth) throw this.error('Nesting too deep');
    const text = this.text;
    const array: JsonValue[] = [];
    this.pos++;
    this.skipWhitespace();
    if (text.charCodeAt(this.pos) === CLOSE_BRACKET) {
      this.pos++;
      return array;
    }
    for (;;) {
      array.push(this.parseValue(bigintContext, depth));
      this.skipWhitespace();
      const c = text.charCodeAt(this.pos);
      this.pos++;
      if (c === CLOSE_BRACKET) return array;
      if (c !== COMMA) {
        this.pos--;
        throw this.error("Expected ',' or ']'");
      }
      this.skipWhitespace();
    }
  }

  private parseString(): string {
    const text = this.text;
    const start = this.pos + 1;
    const end = text.indexOf('"', start);
    if (end < 0) throw this.error('Unterminated string');
    const value = text.slice(start, end);
    if (!NEEDS_SLOW_STRING.test(value)) {
      this.pos = end + 1;
      return value;
    }
    return this.parseEscapedString(end);
  }

  private parseEscapedString(firstQuote: number): string {
    const text = this.text;
    let close = firstQuote;
    for (;;) {
      let backslashes = 0;
      while (text.charCodeAt(close - 1 - backslashes) === BACKSLASH) backslashes++;
      if (backslashes % 2 === 0) break;
      close = text.indexOf('"', close + 1);
      if (close < 0) throw this.error('Unterminated string');
    }
    let value: unknown;
    try {
      value = JSON.parse(text.slice(this.pos, close + 1));
    } catch {
      throw this.error('Invalid string');
    }
    this.pos = close + 1;
    return value as string;
  }

  private parseNumber(bigintContext: boolean): number | bigint {
    const text = this.text;
    const start = this.pos;
    let pos = start;
    const negative = text.charCodeAt(pos) === MINUS;
    if (negative) pos++;
    const firstDigit = pos;
    let c = text.charCodeAt(pos);
    let magnitude = 0;
    if (c === DIGIT_0) {
      c = text.charCodeAt(++pos);
    } else if (c > DIGIT_0 && c <= DIGIT_9) {
      do {
        magnitude = magnitude * 10 + (c - DIGIT_0);
        c = text.charCodeAt(++pos);
      } while (c >= DIGIT_0 && c <= DIGIT_9);
    } else {
      this.pos = pos;
      throw this.error('Invalid number');
    }
    if (c !== DOT && c !== LOWER_E && c !== UPPER_E) {
      this.pos = pos;
      if (pos - firstDigit <= MAX_SAFE_DIGITS) {
        const value = negative ? -magnitude : magnitude;
        return bigintContext ? BigInt(value) : value;
      }
      const token = text.slice(start, pos);
      if (bigintContext) return BigInt(token);
      const value = Number(token);
      return Number.isSafeInteger(value) ? value : BigInt(token);
    }
    if (c === DOT) {
      const fractionStart = ++pos;
      for (c = text.charCodeAt(pos); c >= DIGIT_0 && c <= DIGIT_9; c = text.charCodeAt(++pos));
      if (pos === fractionStart) {
        this.pos = pos;
        throw this.error('Invalid number');
      }
    }
    if (c === LOWER_E || c === UPPER_E) {
      c = text.charCodeAt(++pos);
      if (c === PLUS || c === MINUS) c = text.charCodeAt(++pos);
      const exponentStart = pos;
      for (; c >= DIGIT_0 && c <= DIGIT_9; c = text.charCodeAt(++pos));
      if (pos === exponentStart) {
        this.pos = pos;
        throw this.error('Invalid number');
      }
    }
    this.pos = pos;
    return Number(text.slice(start, pos));
  }
}

export function parseJson(text: string, options: ParseJsonOptions = {}): JsonValue {
  const parser = new Parser(text, options.bigintKeys ?? NO_KEYS, options.maxDepth ?? SERDE_JSON_MAX_DEPTH);
  try {
    return parser.parseDocument();
  } catch (error) {
    if (error instanceof RangeError) throw new JsonParseError('Nesting too deep', 0);
    throw error;
  }
}

const MAX_STRINGIFY_DEPTH = 1_000;
/** Characters JSON.stringify escapes: quote, backslash, control characters, and (possibly lone) surrogates. */
const NEEDS_ESCAPING = /["\\\u0000-\u001f\ud800-\udfff]/;

function quote(value: string): string {
  return NEEDS_ESCAPING.test(value) ? JSON.stringify(value) : `"${value}"`;
}

/** Returns undefined for values JSON.stringify omits (undefined, functions, symbols). */
function serialize(value: unknown, key: string, depth: number): string | undefined {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON: (key: string) => unknown }).toJSON(key);
  }
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'bigint':
      return value.toString();
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      break;
    default:
      return undefined;
  }
  if (value === null) return 'null';
  if (depth >= MAX_STRINGIFY_DEPTH) throw new TypeError('Value nested too deeply (or cyclic) to serialize');
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      out += serialize(value[i], String(i), depth + 1) ?? 'null';
    }
    return out + ']';
  }
  let out = '{';
  for (const name in value) {
    if (!Object.hasOwn(value, name)) continue;
    const member = serialize((value as Record<string, unknown>)[name], name, depth + 1);
    if (member === undefined) continue;
    out += `${out.length > 1 ? ',' : ''}${quote(name)}:${member}`;
  }
  return out + '}';
}

/** JSON.stringify with bigint written as a bare integer; values JSON.stringify drops are dropped here too. */
export function stringifyJson(value: unknown): string {
  const text = serialize(value, '', 0);
  if (text === undefined) throw new TypeError(`Cannot serialize a value of type ${typeof value}`);
  return text;
}
