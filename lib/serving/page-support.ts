/**
 * Server-side support for the explorer's pages (server components, metadata and preview images):
 *   - `pageResource`: `pageV1` for a resource of lib/web/resources.ts, the registry the browser's queries use, its
 *     answer typed as the resource's result when it is a 200.
 *   - `pageV1`: `callV1` deduplicated per request (generateMetadata and the page share one call) and patient with the
 *     server key's per-second budget: a 429 waits for the next one-second window, a bounded number of times.
 *   - `shareMetadata`: canonical URL, OpenGraph (with og:url) and Twitter title/description, absolute against the origin
 *     the request reached (`requestOrigin`), so shared links work behind any host name or proxy. Every shared page has
 *     a 1200 × 630 preview, its own (`opengraph-image`) or the site's default, so the Twitter card is always the large
 *     one.
 * Server-only (reads the request headers, runs handlers in-process).
 */
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { cache } from 'react';
import type { RouteId } from '../api/keys/costs';
import type { JsonValue } from '../rpc/json';
import type { AnyResource, ResourceCall, ResultOf } from '../web/resources';
import { callV1 } from './explorer';
import type { V1Call, V1Result } from './explorer-path';

const RATE_LIMIT_ATTEMPTS = 4;
/** Past the window edge, so the retry lands in the next window. */
const WINDOW_MARGIN_MS = 25;

const waitForNextSecond = () => new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + WINDOW_MARGIN_MS));

const cachedCall = cache(async (route: RouteId, call: string): Promise<V1Result> => {
  const parsed = JSON.parse(call) as V1Call;
  let result = await callV1(route, parsed);
  for (let attempt = 1; attempt < RATE_LIMIT_ATTEMPTS && result.status === 429; attempt++) {
    await waitForNextSecond();
    result = await callV1(route, parsed);
  }
  return result;
});

/**
 * The moment the server renders this request, the same for the layout and the page: relative times and "waiting
 * since" figures computed on the server and while hydrating agree with it.
 */
export const requestTime = cache((): number => Date.now());

/** A /v1 call for a page, shared by everything rendering the same request. Bodies must be plain JSON. */
export function pageV1(route: RouteId, call: V1Call = {}): Promise<V1Result> {
  return cachedCall(route, JSON.stringify(call));
}

/** A resource's answer: its result when the call succeeded, the problem body (or other JSON) when it did not. */
export type ResourceResult<R extends AnyResource> = { ok: true; status: number; body: ResultOf<R> } | { ok: false; status: number; body: JsonValue };

/** A typed /v1 read for a page; the one place where a JSON answer becomes a resource's result type. */
export async function pageResource<R extends AnyResource>(resource: R, call: ResourceCall<R> = {}): Promise<ResourceResult<R>> {
  const result = await pageV1(resource.route, call as V1Call);
  return result.status === 200 ? { ok: true, status: result.status, body: result.body as ResultOf<R> } : { ok: false, ...result };
}

/** `proto://host` from X-Forwarded-Proto/Host when a proxy set them, else the Host header. */
export async function requestOrigin(): Promise<string> {
  const list = await headers();
  const host = list.get('x-forwarded-host')?.split(',')[0]?.trim() || list.get('host') || 'localhost';
  const proto = list.get('x-forwarded-proto')?.split(',')[0]?.trim() || 'http';
  return `${proto}://${host}`;
}

/** The site's preview image (public/), for pages without one of their own. */
export const DEFAULT_PREVIEW_IMAGE = Object.freeze({
  url: '/og-default.png',
  width: 1200,
  height: 630,
  alt: 'dagboard: a Kaspa block explorer and chain-data API',
});

export interface ShareDescription {
  /** The canonical page path, from `pages.*`. */
  path: string;
  title: string;
  description: string;
  /** True when the page has its own `opengraph-image`; otherwise it shares the site's default preview. */
  ownImage?: boolean;
}

/** Metadata of a page that shows no entity (not found, bad input): a title, with generated image URLs still absolute. */
export async function plainMetadata(title: string): Promise<Metadata> {
  return { metadataBase: new URL(await requestOrigin()), title };
}

export async function shareMetadata({ path, title, description, ownImage = false }: ShareDescription): Promise<Metadata> {
  const origin = await requestOrigin();
  // A page's openGraph and twitter objects replace the layout's whole, so the default image is named again here.
  const images = ownImage ? {} : { images: [DEFAULT_PREVIEW_IMAGE] };
  return {
    metadataBase: new URL(origin),
    title,
    description,
    alternates: { canonical: path },
    openGraph: { title, description, url: path, siteName: 'dagboard', type: 'website', ...images },
    twitter: { card: 'summary_large_image', title, description, ...(ownImage ? {} : { images: [DEFAULT_PREVIEW_IMAGE.url] }) },
  };
}
