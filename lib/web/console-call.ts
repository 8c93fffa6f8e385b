/**
 * The API console's own call: straight to /v1 (not the explorer's keyed path), with the user's key in the x-api-key
 * header only, answering status, the metering headers, timing and the body as sent by the server. The key lives in
 * sessionStorage for the tab's life and never goes into a URL.
 */
import { routeMethod, type HttpMethod, type RouteId } from '../api/keys/costs';
import { parseJson, type JsonValue } from '../rpc/json';
import { v1Path, type ConsoleRequest } from './urls';

export const CONSOLE_KEY_STORAGE = 'dagboard.console.apiKey';
const KEY_EVENT = 'dagboard-console-key';

export const RESPONSE_HEADERS = [
  'x-request-cost-ru',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'x-ru-remaining',
  'retry-after',
  'x-request-id',
  'etag',
  'content-type',
] as const;

export interface ConsoleCall {
  route: RouteId;
  method: HttpMethod;
  /** `/v1/...` with the query. */
  path: string;
  /** Exact body text (POST only). */
  body?: string;
}

export interface ConsoleResult {
  status: number;
  statusText: string;
  headers: [string, string][];
  durationMs: number;
  text: string;
  /** The parsed body; undefined when it is not JSON. */
  json: JsonValue | undefined;
}

const nonEmpty = (values: Record<string, string> | undefined) =>
  Object.fromEntries(Object.entries(values ?? {}).filter(([, value]) => value !== ''));

/** The call a console form describes; empty query fields are left out. Throws when a path parameter is empty. */
export function consoleCall(route: RouteId, params: Record<string, string>, query: Record<string, string>, body?: string): ConsoleCall {
  const method = routeMethod(route);
  const filled = nonEmpty(params);
  const path = v1Path(route, filled, nonEmpty(query));
  return method === 'POST' ? { route, method, path, body: body ?? '' } : { route, method, path };
}

/** The shareable request (no key): the body as parsed JSON, or left out when the text is not JSON. */
export function shareableRequest(route: RouteId, params: Record<string, string>, query: Record<string, string>, body?: string): ConsoleRequest {
  const request: ConsoleRequest = { route, params: nonEmpty(params), query: nonEmpty(query) };
  if (routeMethod(route) === 'POST' && body !== undefined) {
    try {
      request.body = JSON.parse(body);
    } catch {
      // An unparsable body is not shared; the link still names the endpoint and its parameters.
    }
  }
  return request;
}

export async function sendConsoleCall(call: ConsoleCall, apiKey: string): Promise<ConsoleResult> {
  const headers: Record<string, string> = {};
  if (apiKey !== '') headers['x-api-key'] = apiKey;
  if (call.method === 'POST') headers['content-type'] = 'application/json';
  const started = performance.now();
  const response = await fetch(call.path, {
    method: call.method,
    headers,
    body: call.method === 'POST' ? call.body : undefined,
    cache: 'no-store',
  });
  const text = await response.text();
  const durationMs = performance.now() - started;
  let json: JsonValue | undefined;
  try {
    json = text === '' ? undefined : parseJson(text);
  } catch {
    json = undefined;
  }
  return {
    status: response.status,
    statusText: response.statusText,
    headers: RESPONSE_HEADERS.flatMap((name) => {
      const value = response.headers.get(name);
      return value === null ? [] : [[name, value] as [string, string]];
    }),
    durationMs,
    text,
    json,
  };
}

export function readStoredKey(): string {
  try {
    return sessionStorage.getItem(CONSOLE_KEY_STORAGE) ?? '';
  } catch {
    return '';
  }
}

export function storeKey(key: string): void {
  if (key === '') sessionStorage.removeItem(CONSOLE_KEY_STORAGE);
  else sessionStorage.setItem(CONSOLE_KEY_STORAGE, key);
  window.dispatchEvent(new Event(KEY_EVENT));
}

export function subscribeStoredKey(onChange: () => void): () => void {
  window.addEventListener(KEY_EVENT, onChange);
  return () => window.removeEventListener(KEY_EVENT, onChange);
}
