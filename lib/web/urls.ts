/**
 * The one place that builds URLs: the explorer's page paths (each entity has one canonical URL), /v1 paths from the
 * cost table's route templates, and the same-origin path through which the browser reaches /v1 with the server's
 * private key. Safe for both server and browser code.
 */
import { routePath, type RouteId } from '../api/keys/costs';
import type { StatisticsIntervalName } from '../api/endpoints/statistics-endpoint';
import { walletFragment, type WalletSource } from './wallet-input';

export type QueryValues = Record<string, string | number | boolean | bigint | null | undefined>;

/** The same-origin prefix that forwards to /v1 with the server key attached on the server. */
export const EXPLORER_API_PREFIX = '/api/explorer';
export const LIVE_STREAM_PATH = '/api/stream';
export const FEE_HISTORY_PATH = '/api/fee-history';
/** The kaspa-rest-server interface (api.kaspa.org's paths under this prefix) and its OpenAPI document. */
export const KASPA_REST_PREFIX = '/kaspa-rest';
export const KASPA_REST_OPENAPI_PATH = `${KASPA_REST_PREFIX}/openapi.json`;
/** The API users' event streams: SSE and WebSocket. */
export const STREAM_SSE_PATH = '/v1/stream';
export const STREAM_WS_PATH = '/v1/ws';

function queryString(query: QueryValues | undefined): string {
  if (query === undefined) return '';
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) search.set(name, String(value));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

/** Escaped for a path segment, keeping the colon of Kaspa addresses readable (it is legal in a path segment). */
function pathSegment(value: string): string {
  return encodeURIComponent(value).replace(/%3A/gi, ':');
}

/** `/v1/...` for a route of the cost table with its `{param}` segments filled in (escaped) and the query appended. */
export function v1Path(route: RouteId, params: Record<string, string> = {}, query?: QueryValues): string {
  const path = routePath(route).replace(/\{([A-Za-z_]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${route}: missing path parameter ${name}`);
    return encodeURIComponent(value);
  });
  return `${path}${queryString(query)}`;
}

/** The browser's same-origin path for a /v1 call. */
export function explorerApiPath(route: RouteId, params: Record<string, string> = {}, query?: QueryValues): string {
  return `${EXPLORER_API_PREFIX}${v1Path(route, params, query)}`;
}

/** A /v1 call as the console shows it; shared console links carry it in the query string, never with a key. */
export interface ConsoleRequest {
  route: RouteId;
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
}

function consoleQuery(request: ConsoleRequest): string {
  return queryString({
    route: request.route,
    params: request.params === undefined || Object.keys(request.params).length === 0 ? undefined : JSON.stringify(request.params),
    query: request.query === undefined || Object.keys(request.query).length === 0 ? undefined : JSON.stringify(request.query),
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
  });
}

function stringRecord(text: string | null): Record<string, string> | undefined {
  if (text === null) return undefined;
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
  const entries = Object.entries(value);
  if (!entries.every(([, item]) => typeof item === 'string')) throw new Error('values must be strings');
  return Object.fromEntries(entries) as Record<string, string>;
}

/** The request a console link describes, or null when the link is malformed or names no known route. */
export function parseConsoleRequest(search: URLSearchParams, knownRoutes: readonly RouteId[]): ConsoleRequest | null {
  const route = search.get('route');
  if (route === null || !(knownRoutes as readonly string[]).includes(route)) return null;
  try {
    const body = search.get('body');
    return {
      route: route as RouteId,
      params: stringRecord(search.get('params')),
      query: stringRecord(search.get('query')),
      body: body === null ? undefined : JSON.parse(body),
    };
  } catch {
    return null;
  }
}

/**
 * Page paths. Hashes, ids and addresses are written in lower case, their canonical form (hex and Kaspa addresses are
 * case-insensitive), so each entity has one URL whatever the case it was typed in.
 */
/** The spans the full-screen BlockDAG offers, in seconds. */
export const DAG_SPANS = [15, 30, 60] as const;
export type DagSpan = (typeof DAG_SPANS)[number];
export const DEFAULT_DAG_SPAN: DagSpan = 30;

export const DEFAULT_STATISTICS_INTERVAL: StatisticsIntervalName = 'minute';
/** Rows the statistics page draws: the API's largest page. */
export const STATISTICS_PAGE_ROWS = 100;

export const pages = {
  home: () => '/',
  dag: (span: DagSpan = DEFAULT_DAG_SPAN) => `/dag${queryString({ span: span === DEFAULT_DAG_SPAN ? undefined : span })}`,
  block: (hash: string) => `/blocks/${hash.toLowerCase()}`,
  transaction: (id: string) => `/tx/${id.toLowerCase()}`,
  /** `before`: a UTC day (YYYY-MM-DD) the history starts from, newest transactions when absent. */
  address: (address: string, acceptedOnly = false, before?: string) =>
    `/address/${pathSegment(address.toLowerCase())}${queryString({ accepted_only: acceptedOnly ? true : undefined, before })}`,
  daaRange: (start: bigint | string, end: bigint | string, query?: QueryValues) => `/daa/${start}/${end}${queryString(query)}`,
  mempool: () => '/mempool',
  fees: () => '/fees',
  statistics: (interval?: StatisticsIntervalName) =>
    `/statistics${queryString({ interval: interval === DEFAULT_STATISTICS_INTERVAL ? undefined : interval })}`,
  broadcast: () => '/broadcast',
  tokens: () => '/tokens',
  covenants: () => '/covenants',
  covenant: (id: string) => `/covenants/${id.toLowerCase()}`,
  token: (ticker: string) => `/tokens/${encodeURIComponent(ticker.toLowerCase())}`,
  search: (query?: string) => `/search${queryString({ q: query })}`,
  docs: (anchor?: string) => `/docs${anchor === undefined ? '' : `#${anchor}`}`,
  console: (request?: ConsoleRequest) => `/console${request === undefined ? '' : consoleQuery(request)}`,
  /** A shared wallet rides in the fragment, which browsers never send to a server. */
  wallet: (shared?: WalletSource) => `/wallet${shared === undefined ? '' : `#${walletFragment(shared)}`}`,
  /** POST only: the body carries the wallet (its extended key never goes in a URL). */
  walletCsv: () => '/wallet/csv',
  addressCsv: (address: string, range: { from?: string; to?: string; layout?: string } = {}) =>
    `/address/${pathSegment(address.toLowerCase())}/csv${queryString(range)}`,
} as const;

/** An absolute URL for sharing (OpenGraph, copy link), from the site origin. */
export function absoluteUrl(origin: string, path: string): string {
  return new URL(path, origin).toString();
}
