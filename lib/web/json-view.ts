/**
 * Helpers of the console's JSON viewer and editor: lossless pretty printing (integers past 2^53 arrive as bigint),
 * which explorer page a string value names, and the cursor of a paged answer's next page.
 */
import type { RouteId } from '../api/keys/costs';
import type { JsonValue } from '../rpc/json';
import { pages } from './urls';

/** JSON text of a parsed value, indented by two spaces; bigint is written as the exact integer. */
export function formatJson(value: unknown, indent = '  ', depth = 0): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'string') return JSON.stringify(value);
  const inner = indent.repeat(depth + 1);
  const outer = indent.repeat(depth);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => `${inner}${formatJson(item, indent, depth + 1)}`).join(',\n')}\n${outer}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
  if (entries.length === 0) return '{}';
  const lines = entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${formatJson(item, indent, depth + 1)}`);
  return `{\n${lines.join(',\n')}\n${outer}}`;
}

const HASH = /^[0-9a-f]{64}$/i;
const ADDRESS = /^(kaspa|kaspatest|kaspasim|kaspadev):[02-9ac-hj-np-z]{61,63}$/;
const TICKER = /^[A-Za-z]{4,6}$/;
const TICKER_KEYS = new Set(['ticker', 'tick']);

/** The explorer page a string value of the answer names: a hash (block or transaction: search resolves both), an
 *  address, or a ticker under a ticker key. */
export function explorerLinkFor(key: string | number | null, value: string): string | null {
  if (HASH.test(value)) return pages.search(value.toLowerCase());
  if (ADDRESS.test(value)) return pages.address(value);
  if (typeof key === 'string' && TICKER_KEYS.has(key) && TICKER.test(value)) return pages.token(value);
  return null;
}

/** Routes paged with `starting_after`: the list in the answer and the field of an item that is its cursor. */
const PAGED_ROUTES: Partial<Record<RouteId, { list: string; cursor: string }>> = {
  'GET /v1/addresses/{address}/transactions': { list: 'transactions', cursor: 'transactionId' },
  'GET /v1/tokens/tk20': { list: 'tokens', cursor: 'ticker' },
  'GET /v1/covenants': { list: 'covenants', cursor: 'covenantId' },
  'GET /v1/covenants/{covenantId}/transactions': { list: 'transactions', cursor: 'transactionId' },
};

export function isPagedRoute(route: RouteId): boolean {
  return PAGED_ROUTES[route] !== undefined;
}

/** The starting_after value of the next page, or null when the answer says there is none. */
export function nextPageCursor(route: RouteId, body: JsonValue | undefined): string | null {
  const paging = PAGED_ROUTES[route];
  if (paging === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const metadata = body.metadata;
  const list = body[paging.list];
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata) || metadata.hasMore !== true) return null;
  if (!Array.isArray(list)) return null;
  const last = list.at(-1);
  if (last === undefined || last === null || typeof last !== 'object' || Array.isArray(last)) return null;
  const cursor = last[paging.cursor];
  return typeof cursor === 'string' ? cursor : null;
}

/** The value with every array cut to its first `keep` items (for examples on the reference page). */
export function abbreviateArrays(value: unknown, keep: number): { value: unknown; shortened: boolean } {
  let shortened = false;
  const walk = (item: unknown): unknown => {
    if (Array.isArray(item)) {
      if (item.length > keep) shortened = true;
      return item.slice(0, keep).map(walk);
    }
    if (item !== null && typeof item === 'object') {
      return Object.fromEntries(Object.entries(item).map(([key, child]) => [key, walk(child)]));
    }
    return item;
  };
  const result = walk(value);
  return { value: result, shortened };
}
