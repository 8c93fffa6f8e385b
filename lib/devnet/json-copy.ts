/**
 * What a value becomes after `stringifyJson` and `parseWireMessage`, computed without the text: the in-process RPC
 * caller hands requests and results over this way, so in-process callers (the simulated miners, the traffic
 * generator) see exactly the values a wRPC client would, and never share objects with the handlers.
 *
 * Mirrors lib/rpc/json.ts: values JSON.stringify drops (undefined, functions, symbols) disappear from objects and
 * become null in arrays; toJSON is honoured; non-finite numbers become null; an integer token is a bigint under a u64
 * key (and in arrays held by one), elsewhere a number when safe and a bigint otherwise; other numbers stay numbers.
 */
import { U64_FIELD_NAMES } from '../rpc/protocol';
import type { JsonObject, JsonValue } from '../rpc/json';

const MAX_SAFE_DIGITS = 15;
const MAX_DEPTH = 1_000;

function integerToken(token: string, bigintContext: boolean): number | bigint {
  const digits = token.startsWith('-') ? token.length - 1 : token.length;
  if (digits <= MAX_SAFE_DIGITS) {
    const value = Number(token);
    return bigintContext ? BigInt(value) : value;
  }
  if (bigintContext) return BigInt(token);
  const value = Number(token);
  return Number.isSafeInteger(value) ? value : BigInt(token);
}

function copy(input: unknown, key: string, bigintContext: boolean, depth: number): JsonValue | undefined {
  let value = input;
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON: (key: string) => unknown }).toJSON(key);
  }
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number': {
      if (!Number.isFinite(value)) return null;
      const token = String(value);
      return /^-?\d+$/.test(token) ? integerToken(token, bigintContext) : value;
    }
    case 'bigint':
      return integerToken(value.toString(), bigintContext);
    case 'object':
      break;
    default:
      return undefined;
  }
  if (value === null) return null;
  if (depth >= MAX_DEPTH) throw new TypeError('Value nested too deeply (or cyclic) to serialize');
  if (Array.isArray(value)) {
    const array: JsonValue[] = new Array<JsonValue>(value.length);
    for (let i = 0; i < value.length; i++) array[i] = copy(value[i], String(i), bigintContext, depth + 1) ?? null;
    return array;
  }
  const object: JsonObject = {};
  for (const name in value) {
    if (!Object.hasOwn(value, name)) continue;
    const member = copy((value as Record<string, unknown>)[name], name, U64_FIELD_NAMES.has(name), depth + 1);
    if (member === undefined) continue;
    if (name === '__proto__') {
      Object.defineProperty(object, name, { value: member, enumerable: true, writable: true, configurable: true });
    } else {
      object[name] = member;
    }
  }
  return object;
}

/** `parseWireMessage(stringifyJson(value))`, without the text. */
export function wireCopy(value: unknown): JsonValue {
  const copied = copy(value, '', false, 0);
  if (copied === undefined) throw new TypeError(`Cannot serialize a value of type ${typeof value}`);
  return copied;
}
