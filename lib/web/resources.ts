/**
 * lib/web owns what the explorer's pages share on both sides of the wire: the one URL builder (urls.ts), the typed
 * registry of /v1 resources the pages read (this file), the React Query hooks over it (queries.ts) and display
 * formatting (format.ts). Pages never build a /v1 URL or a query key by hand.
 *
 * Each resource names its route in the cost table and the type of its body; types only, so nothing of the server
 * reaches the browser bundle.
 */
import type { RouteId } from '../api/keys/costs';
import type {
  NodeBlock,
  NodeDagInfo,
  NodeFeeEstimate,
  NodeMempoolEntry,
  NodeUtxoEntry,
} from '../api/endpoints/node-format';
import type { AddressTransactionView, IndexedBlockView, IndexedTransactionView } from '../api/endpoints/indexed-format';
import type { AddressSummaryView, CovenantView } from '../api/endpoints/indexed-endpoints';
import type { SupplyView } from '../api/endpoints/supply-endpoint';
import type { StatisticsIntervalName, StatisticsView } from '../api/endpoints/statistics-endpoint';
import type { WalletTransactionView } from '../api/endpoints/wallet-endpoints';
import type { WalletSource } from './wallet-input';
import type { QueryValues } from './urls';

export interface Resource<Params extends Record<string, string>, Query extends QueryValues, Body, Result> {
  route: RouteId;
  /** Phantom fields: they carry the types and are never read. */
  readonly types?: { params: Params; query: Query; body: Body; result: Result };
}

function resource<Params extends Record<string, string>, Query extends QueryValues, Body, Result>(
  route: RouteId,
): Resource<Params, Query, Body, Result> {
  return { route };
}

type NoParams = Record<string, never>;
type NoQuery = Record<string, never>;

/** Rows per page of the address page's history (the API allows 1 to 100). */
export const ADDRESS_HISTORY_PAGE_SIZE = 25;

export interface AddressHistoryPage {
  transactions: AddressTransactionView[];
  metadata: { hasMore: boolean; count: number };
}

export interface AddressHistoryQuery extends QueryValues {
  limit?: number;
  starting_after?: string;
  ending_before?: string;
  include_payload?: boolean;
  accepted_only?: boolean;
  /** Only transactions below this block time (epoch ms): the walk starts at a date. */
  before_time?: number;
}

/** Rows per page of the token list (the API allows 1 to 100). */
export const TOKEN_LIST_PAGE_SIZE = 50;

/** Exact integers arrive as bigint past 2^53 (lossless JSON), as number below it. */
export type JsonInteger = number | bigint;

export type TokenChartInterval = '1d' | '7d' | '1m' | '1y';

/** One row of GET /v1/tokens/tk20 (lib/api/endpoints/token-endpoints.ts, listTokensEndpoint). */
export interface TokenListItem {
  ticker: string;
  name: string;
  mode: string;
  decimal: number;
  maxSupply: JsonInteger;
  totalMinted: JsonInteger;
  mintedPercent: number | null;
  holderTotal: number;
  mintTotal: number;
  transferTotal: number;
  status: string;
  deployedAt: number;
  opScoreCreated: JsonInteger;
  price: { kas: number; usd: number | null } | null;
  change24h: number | null;
  volume24h: { kas: number; usd: number | null; trades: number };
  iconUrl: string;
}

export interface TokenListPage {
  tokens: TokenListItem[];
  metadata: { hasMore: boolean; count: number };
  usdSource: string;
}

export interface TokenListQuery extends QueryValues {
  limit?: number;
  starting_after?: string;
  ending_before?: string;
}

/** SERVICE-SPEC §2.9. */
export interface TokenMarket {
  name: string;
  tradingData: { price: { usd: number }; volume: { usd: number } };
  metadata: { name: string; iconUrl: string; url: string };
  lastUpdated: number;
}

export interface TokenMetadata {
  ticker: string;
  maxSupply: JsonInteger;
  mintLimit: JsonInteger;
  decimal: number;
  totalMinted: JsonInteger;
  preMint: JsonInteger;
  opScoreCreated: JsonInteger;
  opScoreUpdated: JsonInteger;
  deployedAt: number;
  status: string;
  revealHash: string;
  holderTotal: number;
  transferTotal: number;
  mintTotal: number;
  deployerAddress: string;
  socialLinks: { type: string; url: string }[];
  markets: TokenMarket[];
  iconUrl: string;
  burned: JsonInteger;
}

/** SERVICE-SPEC §2.10 plus the extensions volume, volume_kas and trades. */
export interface TokenCandle {
  timestamp: string;
  ticker: string;
  open: number;
  high: number;
  low: number;
  close: number;
  open_kas: number;
  high_kas: number;
  low_kas: number;
  close_kas: number;
  volume: number;
  volume_kas: number;
  trades: number;
}

/** t: bucket start (ms); h holders, m mints, tf transfers: cumulative as of the bucket's end. */
export interface TokenStatsItem {
  t: number;
  h: number;
  m: number;
  tf: number;
}

export interface TokenChart {
  candles: TokenCandle[];
  stats: TokenStatsItem[];
  usdSource: string;
}

/** Rows per page of the token page's holders, operations and fills (the API allows 1 to 100). */
export const TOKEN_ACTIVITY_PAGE_SIZE = 10;

export interface TokenActivityQuery extends QueryValues {
  limit?: number;
  starting_after?: string;
}

/** GET /v1/tokens/tk20/{ticker}/holders (lib/api/endpoints/token-activity-endpoints.ts). */
export interface TokenHoldersPage {
  holders: { address: string; balance: JsonInteger; locked: JsonInteger }[];
  metadata: { hasMore: boolean; count: number };
}

export interface TokenOperation {
  opScore: JsonInteger;
  transactionId: string;
  op: string;
  from: string;
  to: string | null;
  amount: JsonInteger | null;
  accepted: boolean;
  opError: string | null;
  timestamp: number;
  fee: JsonInteger;
}

/** GET /v1/tokens/tk20/operations/{transactionId}: an op record with its token's ticker, decimals and icon. */
export interface TransactionTokenOperation extends TokenOperation {
  ticker: string;
  decimals: number | null;
  iconUrl: string;
}

/** GET /v1/prices/kas-usd: USD per KAS at each time asked; `source` says what series (simulated on the devnet). */
export interface KasUsdRates {
  source: string;
  rates: { time: number; usd: number | null }[];
}

/** GET /v1/tokens/tk20/balances/{address}. */
export interface AddressTokenBalance {
  ticker: string;
  decimals: number;
  balance: JsonInteger;
  locked: JsonInteger;
  iconUrl: string;
}

export interface TokenOperationsPage {
  operations: TokenOperation[];
  metadata: { hasMore: boolean; count: number };
}

export interface TokenFill {
  opScore: JsonInteger;
  transactionId: string;
  seller: string;
  buyer: string;
  amount: JsonInteger;
  priceSompi: JsonInteger;
  priceKas: number;
  priceUsd: number | null;
  timestamp: number;
}

export interface TokenFillsPage {
  fills: TokenFill[];
  metadata: { hasMore: boolean; count: number };
}

/** Rows per page of the covenant list and of a covenant's lineage (the API allows 1 to 100). */
export const COVENANT_LIST_PAGE_SIZE = 50;
export const COVENANT_LINEAGE_PAGE_SIZE = 25;

/** One covenant (KIP-20 lineage) as GET /v1/covenants lists it; times in ms. */
export type CovenantSummary = CovenantView;

export interface CovenantListPage {
  covenants: CovenantSummary[];
  metadata: { hasMore: boolean; count: number };
}

export interface CovenantDetail extends CovenantSummary {
  currentUtxos: NodeUtxoEntry[];
}

export interface CovenantLineagePage {
  transactions: IndexedTransactionView[];
  metadata: { hasMore: boolean; count: number };
}

export interface CursorPageQuery extends QueryValues {
  limit?: number;
  starting_after?: string;
  ending_before?: string;
  include_payload?: boolean;
}

/** Rows per page of the wallet page's history (the API allows 1 to 100). */
export const WALLET_HISTORY_PAGE_SIZE = 25;

/** One row of the summary's address table (lib/api/endpoints/wallet-endpoints.ts, walletSummaryEndpoint). */
export interface WalletSummaryAddress {
  address: string;
  chain: 'receive' | 'change' | null;
  index: number | null;
  used: boolean;
  balance: string;
  utxoCount: number;
  transactionCount: number;
  firstActivity: number | null;
  lastActivity: number | null;
}

export interface WalletSummary {
  network: string;
  gapLimit: number | null;
  balance: string;
  pending: string;
  utxoCount: number;
  usedAddressCount: number;
  firstActivity: number | null;
  lastActivity: number | null;
  addresses: WalletSummaryAddress[];
}

export type WalletRequest = WalletSource & { gapLimit?: number };

export interface WalletHistoryBody {
  limit?: number;
  startingAfter?: string;
  acceptedOnly?: boolean;
}

export interface WalletHistoryPage {
  transactions: WalletTransactionView[];
  metadata: { hasMore: boolean; count: number };
}

export const resources = {
  dagInfo: resource<NoParams, NoQuery, undefined, NodeDagInfo>('GET /v1/rpc/getBlockDagInfo'),
  feeEstimate: resource<NoParams, NoQuery, undefined, { estimate: NodeFeeEstimate }>('GET /v1/rpc/getFeeEstimate'),
  supply: resource<NoParams, NoQuery, undefined, SupplyView>('GET /v1/supply'),
  statistics: resource<
    NoParams,
    { interval?: StatisticsIntervalName; limit?: number },
    undefined,
    { interval: StatisticsIntervalName; statistics: StatisticsView[]; metadata: { count: number } }
  >('GET /v1/statistics'),
  mempoolEntries: resource<
    NoParams,
    { includeOrphanPool?: boolean; filterTransactionPool?: boolean },
    undefined,
    { mempoolEntries: NodeMempoolEntry[] }
  >('GET /v1/rpc/getMempoolEntries'),
  block: resource<NoParams, NoQuery, { hash: string; includeTransactions: boolean }, { block: NodeBlock }>(
    'POST /v1/rpc/getBlock',
  ),
  transaction: resource<{ id: string }, { include_payload?: boolean }, undefined, { transaction: IndexedTransactionView }>(
    'GET /v1/transactions/{id}',
  ),
  transactions: resource<
    NoParams,
    NoQuery,
    { transactionIds: string[]; includePayload?: boolean },
    { transactions: IndexedTransactionView[] }
  >('POST /v1/transactions'),
  addressSummary: resource<{ address: string }, NoQuery, undefined, AddressSummaryView>('GET /v1/addresses/{address}/summary'),
  addressHistory: resource<{ address: string }, AddressHistoryQuery, undefined, AddressHistoryPage>(
    'GET /v1/addresses/{address}/transactions',
  ),
  daaRange: resource<
    { daa_score_start: string; daa_score_end: string },
    { chain_blocks_only?: boolean; include_transactions?: boolean; include_payload?: boolean },
    undefined,
    { blocks: IndexedBlockView[]; transactions: IndexedTransactionView[] }
  >('GET /v1/blocks/daa-score/{daa_score_start}/{daa_score_end}'),
  utxos: resource<NoParams, NoQuery, { addresses: string[] }, { entries: NodeUtxoEntry[] }>(
    'POST /v1/rpc/getUtxosByAddresses',
  ),
  mempoolEntry: resource<
    NoParams,
    NoQuery,
    { transactionId: string; includeOrphanPool: boolean; filterTransactionPool: boolean },
    { mempoolEntry: NodeMempoolEntry }
  >('POST /v1/rpc/getMempoolEntry'),
  submitTransaction: resource<NoParams, NoQuery, { transaction: unknown; allowOrphan: boolean }, { transactionId: string }>(
    'POST /v1/rpc/submitTransaction',
  ),
  mempoolByAddresses: resource<
    NoParams,
    NoQuery,
    { addresses: string[]; includeOrphanPool: boolean; filterTransactionPool: boolean },
    { entries: NodeMempoolEntry[] }
  >('POST /v1/rpc/getMempoolEntriesByAddresses'),
  tokens: resource<NoParams, TokenListQuery, undefined, TokenListPage>('GET /v1/tokens/tk20'),
  covenants: resource<NoParams, CursorPageQuery, undefined, CovenantListPage>('GET /v1/covenants'),
  covenant: resource<{ covenantId: string }, NoQuery, undefined, { covenant: CovenantDetail }>('GET /v1/covenants/{covenantId}'),
  covenantLineage: resource<{ covenantId: string }, CursorPageQuery, undefined, CovenantLineagePage>(
    'GET /v1/covenants/{covenantId}/transactions',
  ),
  tokenMetadata: resource<{ ticker: string }, NoQuery, undefined, { result: TokenMetadata }>(
    'GET /v1/tokens/tk20/{ticker}/metadata',
  ),
  tokenChart: resource<{ ticker: string }, { type: 'candles' | 'stats'; interval: TokenChartInterval }, undefined, TokenChart>(
    'GET /v1/tokens/tk20/{ticker}/chart',
  ),
  tokenHolders: resource<{ ticker: string }, TokenActivityQuery, undefined, TokenHoldersPage>(
    'GET /v1/tokens/tk20/{ticker}/holders',
  ),
  tokenOperations: resource<{ ticker: string }, TokenActivityQuery, undefined, TokenOperationsPage>(
    'GET /v1/tokens/tk20/{ticker}/operations',
  ),
  transactionTokenOperations: resource<{ transactionId: string }, NoQuery, undefined, { operations: TransactionTokenOperation[] }>(
    'GET /v1/tokens/tk20/operations/{transactionId}',
  ),
  kasUsd: resource<NoParams, { times?: string }, undefined, KasUsdRates>('GET /v1/prices/kas-usd'),
  addressTokenBalances: resource<{ address: string }, NoQuery, undefined, { balances: AddressTokenBalance[] }>(
    'GET /v1/tokens/tk20/balances/{address}',
  ),
  tokenFills: resource<{ ticker: string }, TokenActivityQuery, undefined, TokenFillsPage>(
    'GET /v1/tokens/tk20/{ticker}/fills',
  ),
  walletSummary: resource<NoParams, NoQuery, WalletRequest, WalletSummary>('POST /v1/wallets/summary'),
  walletHistory: resource<NoParams, NoQuery, WalletRequest & WalletHistoryBody, WalletHistoryPage>(
    'POST /v1/wallets/transactions',
  ),
  walletDemo: resource<NoParams, NoQuery, undefined, { extendedPublicKey: string; network: string }>('GET /v1/wallets/demo'),
} as const;

export type AnyResource = Resource<Record<string, string>, QueryValues, unknown, unknown>;
type Types<R> = R extends Resource<infer P, infer Q, infer B, infer T> ? { params: P; query: Q; body: B; result: T } : never;
export type ResultOf<R> = Types<R>['result'];
export type ParamsOf<R> = Types<R>['params'];
export type QueryOf<R> = Types<R>['query'];
export type BodyOf<R> = Types<R>['body'];

/** What one call of a resource needs. */
export interface ResourceCall<R> {
  params?: ParamsOf<R>;
  query?: QueryOf<R>;
  body?: BodyOf<R>;
}

/** The React Query key of a call: the route and its inputs, so equal calls share one cache entry. */
export function resourceKey<R extends AnyResource>(resource: R, call: ResourceCall<R>): readonly unknown[] {
  return ['v1', resource.route, call.params ?? {}, call.query ?? {}, call.body ?? null];
}
