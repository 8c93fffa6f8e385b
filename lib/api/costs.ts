/**
 * The one cost table: what each /v1 route charges, in integer milli-RU (1 RU = 1000 milli-RU), so amounts such as
 * 0.01 RU add up exactly. Values are SERVICE-SPEC §4.1; getUtxosByAddresses (not shown there) is 0.5 RU by the
 * owner's decision; the token list and the token activity reads (extensions) cost 0.01 RU like the token reads;
 * /v1/usage and /v1/openapi.json are free.
 */
export const MILLI_RU_PER_RU = 1000;

export const ROUTE_COSTS = {
  'GET /v1/tokens/tk20/{ticker}/metadata': 10,
  'GET /v1/tokens/tk20/{ticker}/chart': 10,
  'GET /v1/tokens/tk20': 10,
  'GET /v1/tokens/tk20/{ticker}/holders': 10,
  'GET /v1/tokens/tk20/{ticker}/operations': 10,
  'GET /v1/tokens/tk20/{ticker}/fills': 10,
  'POST /v1/rpc/submitTransactionReplacement': 100,
  'POST /v1/rpc/getBlock': 100,
  'POST /v1/rpc/getMempoolEntriesByAddresses': 100,
  'POST /v1/rpc/submitTransaction': 100,
  'GET /v1/transactions/{id}': 100,
  'POST /v1/rpc/getBlocks': 500,
  'GET /v1/blocks/daa-score/{daa_score_start}/{daa_score_end}': 1000,
  'GET /v1/addresses/{address}/transactions': 500,
  'POST /v1/transactions': 500,
  'POST /v1/rpc/getBlockTemplate': 100,
  'POST /v1/rpc/submitBlock': 100,
  'POST /v1/rpc/getMempoolEntry': 100,
  'GET /v1/rpc/getMempoolEntries': 100,
  'GET /v1/rpc/getBlockDagInfo': 100,
  'GET /v1/rpc/getFeeEstimate': 100,
  'POST /v1/rpc/getUtxosByAddresses': 500,
  'GET /v1/usage': 0,
  'GET /v1/openapi.json': 0,
} as const satisfies Record<string, number>;

/** "METHOD /path/{template}". */
export type RouteId = keyof typeof ROUTE_COSTS;
export type HttpMethod = 'GET' | 'POST';

export const ROUTE_IDS = Object.keys(ROUTE_COSTS) as RouteId[];

export function costOf(route: RouteId): number {
  return ROUTE_COSTS[route];
}

/** The most any single call costs; a key's per-second limit must admit at least one such call. */
export const MAX_ROUTE_COST = Math.max(...Object.values(ROUTE_COSTS));

export function routeMethod(route: RouteId): HttpMethod {
  return route.slice(0, route.indexOf(' ')) as HttpMethod;
}

export function routePath(route: RouteId): string {
  return route.slice(route.indexOf(' ') + 1);
}

/** Exact decimal text of a milli-RU amount in RU: 10 → "0.01", 1500 → "1.5", -250 → "-0.25". */
export function formatRu(milliRu: number): string {
  if (!Number.isSafeInteger(milliRu)) throw new RangeError(`milli-RU amount must be a safe integer, got ${milliRu}`);
  const sign = milliRu < 0 ? '-' : '';
  const magnitude = Math.abs(milliRu);
  const whole = Math.trunc(magnitude / MILLI_RU_PER_RU);
  const fraction = String(magnitude % MILLI_RU_PER_RU)
    .padStart(3, '0')
    .replace(/0+$/, '');
  return `${sign}${whole}${fraction === '' ? '' : `.${fraction}`}`;
}

const RU_TEXT = /^(\d{1,12})(?:\.(\d{1,3}))?$/;

/** Parses a non-negative RU amount written in decimal with at most three fraction digits ("0.01", "25") exactly. */
export function parseRu(text: string): number {
  const match = RU_TEXT.exec(text.trim());
  if (match === null) throw new RangeError(`not an RU amount with at most 3 decimals: "${text}"`);
  const whole = Number(match[1]);
  const fraction = Number((match[2] ?? '').padEnd(3, '0'));
  return whole * MILLI_RU_PER_RU + fraction;
}
