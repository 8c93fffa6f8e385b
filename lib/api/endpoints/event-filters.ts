/**
 * The event filters streams and webhooks both take (topics and addresses), parsed from what a client sent; every
 * refusal is an ApiError in the one problem shape, `path` naming where the value came from.
 */
import { STREAM_TOPICS, type StreamTopic } from '../../db';
import type { AddressPrefix } from '../../kaspa/address';
import { ApiError } from '../http/errors';
import { addressString } from '../http/schemas';

export function parseTopics(values: readonly string[], path: string): StreamTopic[] {
  const unknown = values.filter((value) => !(STREAM_TOPICS as readonly string[]).includes(value));
  if (unknown.length > 0) {
    const message = `unknown topic${unknown.length > 1 ? 's' : ''} ${unknown.map((topic) => `"${topic}"`).join(', ')}; topics are ${STREAM_TOPICS.join(', ')}`;
    throw ApiError.invalidRequest(message, [{ path, message }]);
  }
  if (values.length === 0) {
    const message = `at least one topic is required (${STREAM_TOPICS.join(', ')})`;
    throw ApiError.invalidRequest(message, [{ path, message }]);
  }
  return [...new Set(values)] as StreamTopic[];
}

export function parseAddresses(values: readonly string[], path: string, network: AddressPrefix, max: number): string[] {
  if (values.length > max) throw ApiError.limitExceeded(path, `at most ${max} addresses per subscription`);
  const schema = addressString(network);
  values.forEach((value, index) => {
    const result = schema.safeParse(value);
    if (!result.success) throw ApiError.invalidAddress(`${path}[${index}]`, result.error.issues[0]?.message ?? 'not an address');
  });
  return [...new Set(values)];
}

function parseKeys(values: readonly string[], path: string, max: number, what: string, normalize: (value: string) => string | null): string[] {
  if (values.length > max) throw ApiError.limitExceeded(path, `at most ${max} ${what}s per subscription`);
  return [
    ...new Set(
      values.map((value, index) => {
        const key = normalize(value.trim());
        if (key === null) throw ApiError.invalidRequest(`${path}[${index}] is not a ${what}`, [{ path: `${path}[${index}]`, message: `must be a ${what}` }]);
        return key;
      }),
    ),
  ];
}

const HASH = /^[0-9a-fA-F]{64}$/;

/** Covenant ids (64 hex digits), lower-cased as the log writes them. */
export function parseCovenantIds(values: readonly string[], path: string, max: number): string[] {
  return parseKeys(values, path, max, 'covenant id (64 hex digits)', (value) => (HASH.test(value) ? value.toLowerCase() : null));
}

/** KRC-20 tickers (4–6 letters, any case, upper-cased as the log writes them) or an issue-mode token's ca (64 hex). */
export function parseTickers(values: readonly string[], path: string, max: number): string[] {
  return parseKeys(values, path, max, 'ticker (4–6 letters or a ca)', (value) =>
    /^[A-Za-z]{4,6}$/.test(value) ? value.toUpperCase() : HASH.test(value) ? value.toLowerCase() : null,
  );
}
