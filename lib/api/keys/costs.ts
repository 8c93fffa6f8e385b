/**
 * The one cost table: what each /v1 route charges, in integer milli-RU (1 RU = 1000 milli-RU), so amounts such as
 * 0.01 RU add up exactly. Values are SERVICE-SPEC §4.1; getUtxosByAddresses (not shown there) is 0.5 RU by the
 * owner's decision; the token list and the token activity reads (extensions, a transaction's token ops and an address's token balances among them), and so do KAS/USD rates at given times cost 0.01 RU like
 * the token reads; the
 * covenant reads (extensions) cost as their nearest spec'd relatives: the list and a covenant with its UTXOs 0.1 RU
 * (one indexed lookup, like a transaction), the lineage 0.5 RU (a page of indexed transactions, like address history);
 * the wallet calls (extensions) are priced for the wallet size they admit (up to 2,000 addresses): a summary or a
 * history page 1 RU like the DAA-score range (discovery over index and node, then the mempool and activity, or the
 * merged page), the UTXOs 0.75 RU (discovery alone); a CSV export call (wallet or address) 1 RU per page of up to
 * 1,000 rows, so an export costs in proportion to its rows (1 milli-RU a row); the supply with its reward schedule
 * (extension) 0.1 RU like getBlockDagInfo, whose node calls it makes; an address summary (extension) 0.5 RU like its
 * history, over whose rows it counts and sums; the chain statistics (extension) 0.1 RU like a covenant (one indexed read
 * of up to 100 stored rows); no call costs more than 1 RU, so every key's
 * per-second limit admits each; /v1/usage, /v1/openapi.json and the devnet's demo wallet are free.
 */
export const MILLI_RU_PER_RU = 1000;

/**
 * Streams (GET /v1/stream, GET /v1/ws), in milli-RU: opening one costs 0.1 RU like a node call; each event delivered
 * costs 0.001 RU, so a subscriber to every block of a 10 blocks/s network spends 0.01 RU a second on them; heartbeats,
 * acknowledgements, errors and WebSocket control messages are free.
 */
export const STREAM_COSTS = { connection: 100, event: 1 } as const;

/**
 * Webhooks, in milli-RU: each delivery attempt (a signed POST to the receiver) costs 0.002 RU, charged before it is
 * made, retries included (each is the same outbound request); creating a webhook 0.1 RU (it resolves the host), the
 * reads and the deletion 0.01 RU like the token reads (in ROUTE_COSTS).
 */
export const WEBHOOK_COSTS = { attempt: 2 } as const;

export const ROUTE_COSTS = {
  'GET /v1/tokens/tk20/{ticker}/metadata': 10,
  'GET /v1/tokens/tk20/{ticker}/chart': 10,
  'GET /v1/tokens/tk20': 10,
  'GET /v1/tokens/tk20/{ticker}/holders': 10,
  'GET /v1/tokens/tk20/{ticker}/operations': 10,
  'GET /v1/tokens/tk20/{ticker}/fills': 10,
  'GET /v1/tokens/tk20/operations/{transactionId}': 10,
  'GET /v1/tokens/tk20/balances/{address}': 10,
  'GET /v1/prices/kas-usd': 10,
  'POST /v1/rpc/submitTransactionReplacement': 100,
  'POST /v1/rpc/getBlock': 100,
  'POST /v1/rpc/getMempoolEntriesByAddresses': 100,
  'POST /v1/rpc/submitTransaction': 100,
  'GET /v1/transactions/{id}': 100,
  'POST /v1/rpc/getBlocks': 500,
  'GET /v1/blocks/daa-score/{daa_score_start}/{daa_score_end}': 1000,
  'GET /v1/addresses/{address}/transactions': 500,
  'GET /v1/addresses/{address}/summary': 500,
  'POST /v1/transactions': 500,
  'GET /v1/covenants': 100,
  'GET /v1/covenants/{covenantId}': 100,
  'GET /v1/covenants/{covenantId}/transactions': 500,
  'POST /v1/rpc/getBlockTemplate': 100,
  'POST /v1/rpc/submitBlock': 100,
  'POST /v1/rpc/getMempoolEntry': 100,
  'GET /v1/rpc/getMempoolEntries': 100,
  'GET /v1/rpc/getBlockDagInfo': 100,
  'GET /v1/supply': 100,
  'GET /v1/statistics': 100,
  'GET /v1/rpc/getFeeEstimate': 100,
  'POST /v1/rpc/getUtxosByAddresses': 500,
  'POST /v1/wallets/summary': 1000,
  'POST /v1/wallets/transactions': 1000,
  'POST /v1/wallets/utxos': 750,
  'POST /v1/wallets/transactions/export': 1000,
  'GET /v1/addresses/{address}/transactions/export': 1000,
  'POST /v1/webhooks': 100,
  'GET /v1/webhooks': 10,
  'GET /v1/webhooks/{id}': 10,
  'DELETE /v1/webhooks/{id}': 10,
  'GET /v1/webhooks/{id}/deliveries': 10,
  'GET /v1/wallets/demo': 0,
  'GET /v1/usage': 0,
  'GET /v1/openapi.json': 0,
} as const satisfies Record<string, number>;

/**
 * The kaspa-rest-server compatibility interface (/kaspa-rest, lib/kaspa-rest), priced as its /v1 relatives: a node
 * read 0.1 RU like getBlockDagInfo; a transaction or a block 0.1 RU like GET /v1/transactions/{id}; a search of up to
 * 1,000 ids, an address history page (up to 500 rows) and the balances or UTXOs of up to 1,000 addresses 1 RU like the
 * DAA-score range; balance, UTXOs and counts of an address 0.5 RU like getUtxosByAddresses and the address summary; the whole-index statistics (transaction counts, top
 * addresses, distribution) 0.5 RU (answered from a cache refreshed at most once a minute); the names list and the
 * price 0.01 RU like the token reads; /ping and the OpenAPI document free.
 */
export const KASPA_REST_ROUTE_COSTS = {
  'GET /kaspa-rest/info/blockdag': 100,
  'GET /kaspa-rest/info/network': 100,
  'GET /kaspa-rest/info/coinsupply': 100,
  'GET /kaspa-rest/info/coinsupply/circulating': 100,
  'GET /kaspa-rest/info/coinsupply/total': 100,
  'GET /kaspa-rest/info/blockreward': 100,
  'GET /kaspa-rest/info/halving': 100,
  'GET /kaspa-rest/info/fee-estimate': 100,
  'GET /kaspa-rest/info/kaspad': 100,
  'GET /kaspa-rest/info/virtual-chain-blue-score': 100,
  'GET /kaspa-rest/info/health': 100,
  'GET /kaspa-rest/info/market-data': 10,
  'GET /kaspa-rest/info/price': 10,
  'GET /kaspa-rest/info/marketcap': 100,
  'GET /kaspa-rest/info/hashrate': 100,
  'GET /kaspa-rest/info/hashrate/max': 100,
  'GET /kaspa-rest/info/hashrate/history': 10,
  'GET /kaspa-rest/info/hashrate/history/{day_or_month}': 10,
  'GET /kaspa-rest/blocks/{blockId}': 100,
  'GET /kaspa-rest/blocks': 500,
  'GET /kaspa-rest/blocks-from-bluescore': 200,
  'GET /kaspa-rest/virtual-chain': 500,
  'GET /kaspa-rest/transactions/{transactionId}': 100,
  'POST /kaspa-rest/transactions/search': 1000,
  'POST /kaspa-rest/transactions/acceptance': 500,
  'POST /kaspa-rest/transactions': 100,
  'POST /kaspa-rest/transactions/mass': 100,
  'GET /kaspa-rest/info/get-vscp-from-block': 500,
  'GET /kaspa-rest/transactions/count/': 500,
  'GET /kaspa-rest/transactions/count/{day_or_month}': 500,
  'GET /kaspa-rest/addresses/{kaspaAddress}/balance': 500,
  'GET /kaspa-rest/addresses/{kaspaAddress}/utxos': 500,
  'GET /kaspa-rest/addresses/{kaspaAddress}/utxos/count': 500,
  'GET /kaspa-rest/addresses/{kaspaAddress}/transactions-count': 500,
  'GET /kaspa-rest/addresses/{kaspaAddress}/full-transactions-page': 1000,
  'GET /kaspa-rest/addresses/{kaspaAddress}/full-transactions': 1000,
  'POST /kaspa-rest/addresses/balances': 1000,
  'POST /kaspa-rest/addresses/utxos': 1000,
  'POST /kaspa-rest/addresses/active': 1000,
  'GET /kaspa-rest/addresses/active/count/': 10,
  'GET /kaspa-rest/addresses/active/count/{day_or_month}': 10,
  'GET /kaspa-rest/addresses/{kaspaAddress}/balance/{day_or_month}': 10,
  'GET /kaspa-rest/addresses/{kaspaAddress}/name': 10,
  'GET /kaspa-rest/addresses/top': 500,
  'GET /kaspa-rest/addresses/distribution': 500,
  'GET /kaspa-rest/addresses/names': 10,
  'GET /kaspa-rest/ping': 0,
  'GET /kaspa-rest/openapi.json': 0,
} as const satisfies Record<string, number>;

export type KaspaRestRouteId = keyof typeof KASPA_REST_ROUTE_COSTS;

/** "METHOD /path/{template}". */
export type RouteId = keyof typeof ROUTE_COSTS;
export type HttpMethod = 'GET' | 'POST' | 'DELETE';

export const ROUTE_IDS = Object.keys(ROUTE_COSTS) as RouteId[];

export function costOf(route: RouteId): number {
  return ROUTE_COSTS[route];
}

/** The most any single call costs; a key's per-second limit must admit at least one such call. */
export const MAX_ROUTE_COST = Math.max(...Object.values(ROUTE_COSTS), ...Object.values(KASPA_REST_ROUTE_COSTS));

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
