/**
 * The wrapper's own request and response: the few things it reads of a request and writes of a response, so the
 * same endpoint serves a web Request (Next route files, the explorer's private path) and a node:http message
 * (`npm start`'s front, lib/serving/v1-fast-path.ts), and the hot path builds no web Request or Response.
 */

export type RouteParams = Record<string, string | string[] | undefined>;

export interface RouteContext {
  params: Promise<RouteParams>;
}

/** A Next route file's method export. */
export type RouteHandler = (request: Request, routeContext: RouteContext) => Promise<Response>;

export interface ApiRequest {
  method: string;
  /** The request target: path and query as received (`/v1/transactions/ab…?include_payload=true`). */
  target: string;
  /** A header's value, or null; repeated headers joined with ", " as the Fetch standard does. */
  header(name: string): string | null;
  /** The body's bytes as they arrive; null when the request has none. */
  body: AsyncIterable<Uint8Array> | null;
}

export interface ApiResponse {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** null: no body (204, 304, HEAD). */
  body: string | null;
}

export type ApiHandler = (request: ApiRequest, params: RouteParams) => Promise<ApiResponse>;

export function toWebResponse(reply: ApiResponse): Response {
  return new Response(reply.body, { status: reply.status, headers: reply.headers });
}

/** A reader that stops early (a body past its limit) cancels the stream. */
async function* webBodyChunks(body: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  const reader = body.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      yield value;
    }
  } finally {
    if (!finished) await reader.cancel();
  }
}

export function fromWebRequest(request: Request): ApiRequest {
  const url = new URL(request.url);
  return {
    method: request.method,
    target: url.pathname + url.search,
    header: (name) => request.headers.get(name),
    body: request.body === null ? null : webBodyChunks(request.body),
  };
}

/**
 * A path segment as written in the URL, decoded (`kaspa%3Aq…` is the usual spelling of `kaspa:q…`); a malformed escape
 * is kept as written, for the endpoint's validation to refuse.
 */
export function decodeSegment(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A Next route handler serving `handler`. Next hands dynamic segments over as written: they are decoded here, once. */
export function routeHandlerOf(handler: ApiHandler): RouteHandler {
  return async (request, routeContext) => {
    // A route without dynamic segments may get no params at all.
    const params = Object.fromEntries(
      Object.entries((await routeContext?.params) ?? {}).map(([name, value]) => [
        name,
        value === undefined ? undefined : Array.isArray(value) ? value.map(decodeSegment) : decodeSegment(value),
      ]),
    );
    return toWebResponse(await handler(fromWebRequest(request), params));
  };
}
