/**
 * What both transports share: parsing cursors (every refusal an ApiError in the one problem shape; topics and
 * addresses are lib/api's event filters, which webhooks take too), and the wire form of events.
 */
import { parseAddresses, parseCovenantIds, parseTickers } from '../api/endpoints/event-filters';
import { ApiError } from '../api/http/errors';
import type { StreamEvent, StreamTopic } from '../db';
import type { AddressPrefix } from '../kaspa/address';
import type { StreamFilter } from './hub';

const CURSOR = /^(0|[1-9]\d{0,18})$/;

/** A cursor (an event id) as sent by a client; `path` names where it came from in a refusal. */
export function parseCursor(text: string, path: string): bigint {
  const trimmed = text.trim();
  if (!CURSOR.test(trimmed) || BigInt(trimmed) > 9_223_372_036_854_775_807n) {
    throw ApiError.invalidRequest(`${path} must be an event id (a decimal integer)`, [{ path, message: 'must be an event id (a decimal integer)' }]);
  }
  return BigInt(trimmed);
}

export interface FilterKeys {
  addresses?: readonly string[] | null;
  covenants?: readonly string[] | null;
  tickers?: readonly string[] | null;
}

const setOf = (keys: readonly string[] | null | undefined) => (keys === null || keys === undefined ? null : new Set(keys));

export function filterOf(topics: readonly StreamTopic[], keys: FilterKeys = {}): StreamFilter {
  return { topics: new Set(topics), addresses: setOf(keys.addresses), covenants: setOf(keys.covenants), tickers: setOf(keys.tickers) };
}

/** The topic each key filter narrows, and the name it has in a query or a frame. */
export const KEYED_TOPICS = { addresses: 'address', covenants: 'covenant', tickers: 'token' } as const satisfies Record<keyof FilterKeys, StreamTopic>;

/** One key filter's values as a client sent them (`path` names where), checked and normalised; throws the 400. */
export async function parseFilterKeys(
  name: keyof FilterKeys,
  values: readonly string[],
  path: string,
  limits: { addressPrefix: () => Promise<AddressPrefix>; max: number },
): Promise<string[]> {
  if (name === 'addresses') return parseAddresses(values, path, await limits.addressPrefix(), limits.max);
  return name === 'covenants' ? parseCovenantIds(values, path, limits.max) : parseTickers(values, path, limits.max);
}

/** Splits a comma-separated query value, dropping empty items. */
export function listParameter(value: string | null): string[] {
  return value === null ? [] : value.split(',').map((item) => item.trim()).filter((item) => item.length > 0);
}

const KEY_LIKE_PARAMETER = /^(x[-_])?(api[-_]?key|apikey|access[-_]?token|token)$/i;

/** The query of a stream URL: only `allowed` names, each at most once, never a key. */
export function streamQuery(search: URLSearchParams, allowed: readonly string[]): Map<string, string> {
  for (const name of search.keys()) if (KEY_LIKE_PARAMETER.test(name)) throw ApiError.apiKeyInQuery(name);
  const unknown = [...new Set(search.keys())].filter((name) => !allowed.includes(name));
  if (unknown.length > 0) throw ApiError.unknownQueryParameters(unknown);
  const values = new Map<string, string>();
  for (const [name, value] of search) {
    if (values.has(name)) {
      throw ApiError.invalidRequest(`query parameter ${name} is given more than once`, [
        { path: `query.${name}`, message: 'must be given at most once' },
      ]);
    }
    values.set(name, value);
  }
  return values;
}

/** An event as clients receive it (the WebSocket frame; SSE sends `data` as the message's data). */
export function wireEvent(event: StreamEvent): string {
  return `{"id":"${event.id}","topic":"${event.topic}","data":${event.data}}`;
}
