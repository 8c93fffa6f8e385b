/**
 * The /v1 endpoints served from the index (SERVICE-SPEC §4.8, §4.10–§4.12): request schemas, the lib/db read each
 * makes, and the indexed view (indexed-format.ts). The route files in app/v1 bind them with `defineEndpoint`.
 *
 * Rules where the specification is open:
 *   - payloads are sent only when asked (`include_payload` / `includePayload` true); otherwise `payload` is `0x`;
 *   - POST /v1/transactions answers the known transactions in the order asked, each once; unknown ids are left out;
 *   - address history is newest first by (block time, transaction id); `starting_after` pages to older items,
 *     `ending_before` to the newer ones just before the cursor (still newest first); `hasMore` looks in the direction
 *     of travel; a cursor that is not a transaction of the index is a 400 `unknown_cursor`;
 *   - confirmations count from kaspad's sink blue score (as kaspad's own confirmation counts do), read at most once
 *     per VIRTUAL_BLUE_SCORE_TTL_MS;
 *   - caching: answers carrying transactions change with every block through `confirmations`, so they are never
 *     immutable: max-age 60 s when every transaction is accepted at least SETTLED_DEPTH blue scores deep, 1 s
 *     otherwise. A DAA-score range without transactions whose end lies SETTLED_DEPTH below the indexer's checkpoint
 *     can no longer change and is immutable; nearer the tip it is 1 s. Every cached answer carries an ETag.
 */
import { z } from 'zod';
import {
  getAddressTransactions,
  getBlocksByDaaScore,
  getTransaction,
  getTransactions,
  readCheckpoint,
  UnknownCursorError,
  type Checkpoint,
  type IndexedTransaction,
  type Queryable,
} from '../db';
import { DEFAULT_CHECKPOINT_NAME } from '../indexer';
import { decodeAddress, encodeAddress } from '../kaspa/address';
import { hexToBytes } from '../kaspa/bytes';
import type { RpcClient } from '../rpc';
import { endpointsFor, type CachePolicy, type EndpointResult } from './endpoint';
import { ApiError, fromZodError } from './errors';
import { addressTransactionView, blockView, transactionView } from './indexed-format';
import type { NodeApiContext } from './node-endpoints';
import {
  addressString,
  boundedList,
  checkDaaScoreRange,
  decimalU64,
  hexString,
  MAX_TRANSACTION_IDS_PER_CALL,
  pageLimit,
  queryBoolean,
} from './schemas';

export interface IndexedReads {
  db: Queryable;
  /** The blue score confirmations count from: kaspad's sink blue score, cached briefly. */
  virtualBlueScore(): Promise<bigint>;
  /** The indexer's checkpoint: everything at or below it is indexed. Null before the first. */
  indexedTip(): Promise<Checkpoint | null>;
}

export interface IndexedApiContext extends NodeApiContext, IndexedReads {}

/** Accepted this many blue scores below the sink (100 s at 10 blocks/s), a transaction is taken as settled. */
export const SETTLED_DEPTH = 1000n;
export const VIRTUAL_BLUE_SCORE_TTL_MS = 500;
const SETTLED_MAX_AGE_SECONDS = 60;
const NEAR_TIP: CachePolicy = { kind: 'short', maxAgeSeconds: 1 };

export interface IndexedReadsOptions {
  db: Queryable;
  rpc: Pick<RpcClient, 'call'>;
  clock: () => number;
  checkpointName?: string;
}

/** The index-side services of the API context; concurrent callers within the TTL share one node call. */
export function createIndexedReads(options: IndexedReadsOptions): IndexedReads {
  const { db, rpc, clock } = options;
  const checkpointName = options.checkpointName ?? DEFAULT_CHECKPOINT_NAME;
  let cached: { value: Promise<bigint>; at: number } | undefined;
  return {
    db,
    virtualBlueScore() {
      const now = clock();
      if (cached === undefined || now - cached.at >= VIRTUAL_BLUE_SCORE_TTL_MS) {
        const entry = {
          at: now,
          value: rpc.call('getSinkBlueScore', {}).then(({ blueScore }) => blueScore),
        };
        entry.value.catch(() => {
          if (cached === entry) cached = undefined;
        });
        cached = entry;
      }
      return cached.value;
    },
    indexedTip: () => readCheckpoint(db, checkpointName),
  };
}

const indexedEndpoint = endpointsFor<IndexedApiContext>();

const transactionId = hexString(32, 'a transaction id');
const optionalFlag = queryBoolean.optional().transform((value) => value ?? false);

async function scoreFor(context: IndexedReads, transactions: readonly IndexedTransaction[]): Promise<bigint> {
  return transactions.some((transaction) => transaction.acceptingBlockHash !== null)
    ? context.virtualBlueScore()
    : 0n;
}

function transactionsCache(transactions: readonly IndexedTransaction[], virtualBlueScore: bigint): CachePolicy {
  const settled = transactions.every(
    (transaction) =>
      transaction.acceptingBlockBlueScore !== null &&
      virtualBlueScore - transaction.acceptingBlockBlueScore >= SETTLED_DEPTH,
  );
  return settled && transactions.length > 0 ? { kind: 'short', maxAgeSeconds: SETTLED_MAX_AGE_SECONDS } : NEAR_TIP;
}

export const getTransactionEndpoint = indexedEndpoint({
  id: 'GET /v1/transactions/{id}',
  params: z.object({ id: transactionId }),
  query: z.object({ include_payload: optionalFlag }),
  async handler({ context, params, query }): Promise<EndpointResult> {
    const transaction = await getTransaction(context.db, hexToBytes(params.id), {
      includePayload: query.include_payload,
    });
    if (transaction === null) throw ApiError.transactionNotFound(params.id);
    const score = await scoreFor(context, [transaction]);
    return { body: { transaction: transactionView(transaction, score) }, cache: transactionsCache([transaction], score) };
  },
});

export const getTransactionsEndpoint = indexedEndpoint({
  id: 'POST /v1/transactions',
  body: z.object({
    transactionIds: boundedList(transactionId, MAX_TRANSACTION_IDS_PER_CALL, 'transactionIds'),
    includePayload: z.boolean().optional().default(false),
  }),
  async handler({ context, body }): Promise<EndpointResult> {
    const transactions = await getTransactions(context.db, body.transactionIds.map(hexToBytes), {
      includePayload: body.includePayload,
    });
    const score = await scoreFor(context, transactions);
    return {
      body: { transactions: transactions.map((transaction) => transactionView(transaction, score)) },
      cache: transactionsCache(transactions, score),
    };
  },
});

/** Next hands dynamic segments over as written in the URL; `kaspa%3Aq…` is the usual spelling of `kaspa:q…`. */
function decodeSegment(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export const getAddressTransactionsEndpoint = indexedEndpoint({
  id: 'GET /v1/addresses/{address}/transactions',
  params: z.object({ address: z.string().transform(decodeSegment) }),
  query: z.object({
    starting_after: transactionId.optional(),
    ending_before: transactionId.optional(),
    limit: pageLimit,
    include_payload: optionalFlag,
    accepted_only: optionalFlag,
  }),
  async handler({ context, params, query }): Promise<EndpointResult> {
    if (query.starting_after !== undefined && query.ending_before !== undefined) throw ApiError.conflictingCursors();
    const checked = addressString(await context.addressPrefix()).safeParse(params.address);
    if (!checked.success) throw fromZodError('path.address', checked.error);
    const address = encodeAddress(decodeAddress(checked.data));
    let page;
    try {
      page = await getAddressTransactions(context.db, {
        address,
        limit: query.limit,
        startingAfter: query.starting_after === undefined ? undefined : hexToBytes(query.starting_after),
        endingBefore: query.ending_before === undefined ? undefined : hexToBytes(query.ending_before),
        acceptedOnly: query.accepted_only,
        includePayload: query.include_payload,
      });
    } catch (error) {
      if (error instanceof UnknownCursorError) {
        throw ApiError.unknownCursor(query.starting_after === undefined ? 'query.ending_before' : 'query.starting_after');
      }
      throw error;
    }
    const score = await scoreFor(context, page.transactions);
    return {
      body: {
        transactions: page.transactions.map((transaction) => addressTransactionView(transaction, score)),
        metadata: { hasMore: page.hasMore, count: page.transactions.length },
      },
      cache: NEAR_TIP,
    };
  },
});

export const getBlocksByDaaScoreEndpoint = indexedEndpoint({
  id: 'GET /v1/blocks/daa-score/{daa_score_start}/{daa_score_end}',
  params: z.object({ daa_score_start: decimalU64, daa_score_end: decimalU64 }),
  query: z.object({
    chain_blocks_only: optionalFlag,
    include_transactions: optionalFlag,
    include_payload: optionalFlag,
  }),
  async handler({ context, params, query }): Promise<EndpointResult> {
    const start = params.daa_score_start;
    const end = params.daa_score_end;
    checkDaaScoreRange(start, end);
    const { blocks, transactions } = await getBlocksByDaaScore(context.db, {
      start,
      end,
      chainBlocksOnly: query.chain_blocks_only,
      includeTransactions: query.include_transactions,
      includePayload: query.include_payload,
    });
    const score = await scoreFor(context, transactions);
    let cache: CachePolicy = NEAR_TIP;
    if (query.include_transactions) {
      if (transactions.length > 0) cache = transactionsCache(transactions, score);
    } else if (blocks.length > 0) {
      const tip = await context.indexedTip();
      if (tip !== null && end + SETTLED_DEPTH <= tip.daaScore) cache = { kind: 'immutable' };
    }
    return {
      body: {
        blocks: blocks.map(blockView),
        transactions: transactions.map((transaction) => transactionView(transaction, score)),
      },
      cache,
    };
  },
});
