/**
 * lib/web owns what the explorer's pages share on both sides of the wire: the one URL builder (urls.ts), the typed
 * registry of /v1 resources the pages read (this file), the React Query hooks over it (queries.ts) and display
 * formatting (format.ts). Pages never build a /v1 URL or a query key by hand.
 *
 * Each resource names its route in the cost table and the type of its body; types only, so nothing of the server
 * reaches the browser bundle.
 */
import type { RouteId } from '../api/costs';
import type {
  NodeBlock,
  NodeDagInfo,
  NodeFeeEstimate,
  NodeMempoolEntry,
  NodeUtxoEntry,
} from '../api/node-format';
import type { AddressTransactionView, IndexedBlockView, IndexedTransactionView } from '../api/indexed-format';
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
}

export const resources = {
  dagInfo: resource<NoParams, NoQuery, undefined, NodeDagInfo>('GET /v1/rpc/getBlockDagInfo'),
  feeEstimate: resource<NoParams, NoQuery, undefined, { estimate: NodeFeeEstimate }>('GET /v1/rpc/getFeeEstimate'),
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
  mempoolByAddresses: resource<
    NoParams,
    NoQuery,
    { addresses: string[]; includeOrphanPool: boolean; filterTransactionPool: boolean },
    { entries: NodeMempoolEntry[] }
  >('POST /v1/rpc/getMempoolEntriesByAddresses'),
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
