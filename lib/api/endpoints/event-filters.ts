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
