/**
 * The one client data layer: React Query over the resource registry, fetched through the same-origin explorer path
 * (the server adds its key). Bodies are parsed losslessly (integers past 2^53 stay exact as bigint). Failures throw
 * an ApiProblem carrying the problem+json body, so pages can show its title and detail.
 */
import {
  useInfiniteQuery,
  useQuery,
  type InfiniteData,
  type UseInfiniteQueryResult,
  type UseQueryOptions,
  type UseQueryResult,
} from '@tanstack/react-query';
import { parseJson } from '../rpc/json';
import { routeMethod } from '../api/keys/costs';
import { resourceKey, type AnyResource, type ResourceCall, type ResultOf } from './resources';
import type { FeeSample } from './live-types';
import { explorerApiPath, FEE_HISTORY_PATH } from './urls';

export interface ProblemDetails {
  status: number;
  title: string;
  detail?: string;
  code?: string;
  requestId?: string;
}

export class ApiProblem extends Error {
  readonly problem: ProblemDetails;

  constructor(problem: ProblemDetails) {
    super(problem.detail ?? problem.title);
    this.name = 'ApiProblem';
    this.problem = problem;
  }

  get status(): number {
    return this.problem.status;
  }
}

function stringifyBody(body: unknown): string {
  return JSON.stringify(body, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
}

export async function fetchResource<R extends AnyResource>(
  resource: R,
  call: ResourceCall<R>,
  signal?: AbortSignal,
): Promise<ResultOf<R>> {
  const method = routeMethod(resource.route);
  const response = await fetch(explorerApiPath(resource.route, call.params ?? {}, call.query), {
    method,
    signal,
    headers: method === 'POST' ? { 'content-type': 'application/json' } : undefined,
    body: method === 'POST' ? stringifyBody(call.body ?? {}) : undefined,
  });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text === '' ? null : parseJson(text);
  } catch {
    body = null;
  }
  if (!response.ok) {
    const problem = (body ?? {}) as Partial<ProblemDetails>;
    throw new ApiProblem({
      status: response.status,
      title: typeof problem.title === 'string' ? problem.title : response.statusText || 'Request failed',
      detail: typeof problem.detail === 'string' ? problem.detail : undefined,
      code: typeof problem.code === 'string' ? problem.code : undefined,
      requestId: typeof problem.requestId === 'string' ? problem.requestId : undefined,
    });
  }
  return body as ResultOf<R>;
}

/** A 404 is an answer ("not found"), not a failure worth retrying. */
function retryUnlessClientError(failureCount: number, error: Error): boolean {
  if (error instanceof ApiProblem && error.status >= 400 && error.status < 500 && error.status !== 429) return false;
  return failureCount < 3;
}

type ExtraOptions<R extends AnyResource> = Omit<UseQueryOptions<ResultOf<R>, Error>, 'queryKey' | 'queryFn'>;

export function useResource<R extends AnyResource>(
  resource: R,
  call: ResourceCall<R>,
  options: ExtraOptions<R> = {},
): UseQueryResult<ResultOf<R>, Error> {
  return useQuery<ResultOf<R>, Error>({
    queryKey: resourceKey(resource, call),
    queryFn: ({ signal }) => fetchResource(resource, call, signal),
    retry: retryUnlessClientError,
    ...options,
  });
}

/**
 * Cursor paging (address history, token lists): page N+1 asks for the items after page N's last cursor. `cursorOf`
 * returns the cursor after a page, or undefined when there is no more.
 */
export function useCursorPages<R extends AnyResource>(
  resource: R,
  call: ResourceCall<R>,
  cursorOf: (page: ResultOf<R>) => string | undefined,
  options: {
    initialPage?: ResultOf<R>;
    staleTime?: number;
    cursorParameter?: string;
    /** POST routes (the wallet's history) take their cursor in the body. */
    cursorIn?: 'query' | 'body';
    enabled?: boolean;
  } = {},
): UseInfiniteQueryResult<InfiniteData<ResultOf<R>, string | undefined>, Error> {
  const cursorParameter = options.cursorParameter ?? 'starting_after';
  const withCursor = (cursor: string | undefined): ResourceCall<R> =>
    options.cursorIn === 'body'
      ? { ...call, body: { ...(call.body ?? {}), [cursorParameter]: cursor } as ResourceCall<R>['body'] }
      : { ...call, query: { ...(call.query ?? {}), [cursorParameter]: cursor } as ResourceCall<R>['query'] };
  return useInfiniteQuery({
    queryKey: [...resourceKey(resource, call), 'pages'],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => fetchResource(resource, withCursor(pageParam), signal),
    getNextPageParam: (page) => cursorOf(page),
    retry: retryUnlessClientError,
    staleTime: options.staleTime,
    enabled: options.enabled,
    initialData:
      options.initialPage === undefined ? undefined : { pages: [options.initialPage], pageParams: [undefined] },
  });
}

/** The items of every loaded page in order, each once: a live list can shift an item across a page boundary. */
export function loadedItems<Page, Item>(
  pages: readonly Page[] | undefined,
  itemsOf: (page: Page) => readonly Item[],
  keyOf: (item: Item) => string,
): Item[] {
  const seen = new Set<string>();
  return (pages ?? []).flatMap(itemsOf).filter((item) => {
    const key = keyOf(item);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const FEE_HISTORY_REFRESH_MS = 10_000;

/** The server's recent fee-estimate samples (unmetered, not part of /v1). */
export function useFeeHistory(): UseQueryResult<{ samples: FeeSample[] }, Error> {
  return useQuery({
    queryKey: ['fee-history'],
    queryFn: async ({ signal }) => {
      const response = await fetch(FEE_HISTORY_PATH, { signal });
      if (!response.ok) throw new ApiProblem({ status: response.status, title: 'Fee history unavailable' });
      return (await response.json()) as { samples: FeeSample[] };
    },
    refetchInterval: FEE_HISTORY_REFRESH_MS,
  });
}
