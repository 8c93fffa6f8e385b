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
 *   - covenants (extensions): the list is newest activity first by (last activity, covenant id) and pages like the
 *     address history with covenant ids as cursors; a covenant's lineage pages exactly as an address history (the same
 *     query); a covenant id the index holds no accepted lineage of is a 404 `covenant_not_found`, for its lineage too;
 *   - confirmations count from kaspad's sink blue score (as kaspad's own confirmation counts do), read at most once
 *     per VIRTUAL_BLUE_SCORE_TTL_MS;
 *   - caching: answers carrying transactions change with every block through `confirmations`, so they are never
 *     immutable: max-age 60 s when every transaction is accepted at least SETTLED_DEPTH blue scores deep, 1 s
 *     otherwise. A DAA-score range without transactions whose end lies SETTLED_DEPTH below the indexer's checkpoint
 *     can no longer change and is immutable; nearer the tip it is 1 s. Every cached answer carries an ETag.
 */
import { z } from 'zod';
import {
  addressTotals,
  getAddressTransactions,
  getBlocksByDaaScore,
  getCovenant,
  getCovenants,
  getCovenantTransactions,
  getTransaction,
  getTransactions,
  readCheckpoint,
  readRetentionBound,
  UnknownCursorError,
  type Checkpoint,
  type CovenantSummary,
  type IndexedTransaction,
  type Queryable,
  DEFAULT_CHECKPOINT_NAME,
} from '../../db';
import { decodeAddress, encodeAddress } from '../../kaspa/address';
import { bytesToHex, hexToBytes } from '../../kaspa/bytes';
import type { RpcClient } from '../../rpc';
import { scriptPublicKeyToRpcString } from '../../rpc/convert-block';
import { endpointsFor, type CachePolicy, type EndpointResult } from '../wrapper/endpoint';
import { ApiError, fromZodError } from '../http/errors';
import { addressTransactionView, blockView, exactInteger, transactionView } from './indexed-format';
import { utxoEntryToNode } from './node-format';
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
} from '../http/schemas';

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
    if (transaction === null) {
      const bound = await readRetentionBound(context.db);
      throw ApiError.transactionNotFound(params.id, bound ? { daaScore: bound.fromDaaScore, time: bound.fromTime } : undefined);
    }
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

const cursorQuery = {
  starting_after: transactionId.optional(),
  ending_before: transactionId.optional(),
  limit: pageLimit,
};

/** Reads a page with the query's cursors; an unknown cursor is a 400 `unknown_cursor` naming the parameter. */
async function pageWithCursor<Page>(
  query: { starting_after?: string; ending_before?: string },
  read: (cursors: { startingAfter?: Uint8Array; endingBefore?: Uint8Array }) => Promise<Page>,
): Promise<Page> {
  if (query.starting_after !== undefined && query.ending_before !== undefined) throw ApiError.conflictingCursors();
  try {
    return await read({
      startingAfter: query.starting_after === undefined ? undefined : hexToBytes(query.starting_after),
      endingBefore: query.ending_before === undefined ? undefined : hexToBytes(query.ending_before),
    });
  } catch (error) {
    if (error instanceof UnknownCursorError) {
      throw ApiError.unknownCursor(query.starting_after === undefined ? 'query.ending_before' : 'query.starting_after');
    }
    throw error;
  }
}

/** An extension: only transactions below a block time, so a walk can start at a date; it composes with the cursors. */
const beforeTime = z
  .string()
  .regex(/^\d{1,15}$/, 'must be epoch milliseconds: a whole number of at most 15 digits')
  .transform((text) => BigInt(text))
  .optional()
  .meta({ description: 'only transactions with a block time below this (epoch ms): start the walk at a date' });

export const getAddressTransactionsEndpoint = indexedEndpoint({
  id: 'GET /v1/addresses/{address}/transactions',
  params: z.object({ address: z.string() }),
  query: z.object({ ...cursorQuery, include_payload: optionalFlag, accepted_only: optionalFlag, before_time: beforeTime }),
  async handler({ context, params, query }): Promise<EndpointResult> {
    const address = await checkedAddress(context, params.address);
    const page = await pageWithCursor(query, (cursors) =>
      getAddressTransactions(context.db, {
        address,
        limit: query.limit,
        ...cursors,
        beforeTime: query.before_time,
        acceptedOnly: query.accepted_only,
        includePayload: query.include_payload,
      }),
    );
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

async function checkedAddress(context: IndexedApiContext, address: string): Promise<string> {
  const checked = addressString(await context.addressPrefix()).safeParse(address);
  if (!checked.success) throw fromZodError('path.address', checked.error);
  return encodeAddress(decodeAddress(checked.data));
}

export interface AddressSummaryView {
  address: string;
  transactionCount: number;
  acceptedTransactionCount: number;
  totalReceived: string;
  totalSent: string;
  firstActivity: number | null;
  lastActivity: number | null;
}

/** The address's indexed history in figures (an extension); balances are the node's, from getUtxosByAddresses. */
export const getAddressSummaryEndpoint = indexedEndpoint({
  id: 'GET /v1/addresses/{address}/summary',
  params: z.object({ address: z.string() }),
  async handler({ context, params }): Promise<EndpointResult> {
    const address = await checkedAddress(context, params.address);
    const totals = await addressTotals(context.db, address);
    const time = (value: bigint | null) => (value === null ? null : exactInteger(value, 'blockTime'));
    const body: AddressSummaryView = {
      address,
      transactionCount: totals.transactionCount,
      acceptedTransactionCount: totals.acceptedTransactionCount,
      totalReceived: totals.totalReceived.toString(),
      totalSent: totals.totalSent.toString(),
      firstActivity: time(totals.firstBlockTime),
      lastActivity: time(totals.lastBlockTime),
    };
    return { body: { ...body }, cache: NEAR_TIP };
  },
});

const covenantId = hexString(32, 'a covenant id');

export interface CovenantView {
  covenantId: string;
  genesisTransactionId: string | null;
  createdAt: number;
  lastTransactionId: string;
  lastActivityAt: number;
  state: 'active' | 'ended';
  utxoCount: number;
}

function covenantView(covenant: CovenantSummary): CovenantView {
  return {
    covenantId: bytesToHex(covenant.covenantId),
    genesisTransactionId: covenant.genesisTransactionId === null ? null : bytesToHex(covenant.genesisTransactionId),
    createdAt: exactInteger(covenant.createdAt, 'createdAt'),
    lastTransactionId: bytesToHex(covenant.lastTransactionId),
    lastActivityAt: exactInteger(covenant.lastActivityAt, 'lastActivityAt'),
    state: covenant.state,
    utxoCount: covenant.utxoCount,
  };
}

export const getCovenantsEndpoint = indexedEndpoint({
  id: 'GET /v1/covenants',
  query: z.object({ starting_after: covenantId.optional(), ending_before: covenantId.optional(), limit: pageLimit }),
  async handler({ context, query }): Promise<EndpointResult> {
    const page = await pageWithCursor(query, (cursors) => getCovenants(context.db, { limit: query.limit, ...cursors }));
    return {
      body: { covenants: page.covenants.map(covenantView), metadata: { hasMore: page.hasMore, count: page.covenants.length } },
      cache: NEAR_TIP,
    };
  },
});

export const getCovenantEndpoint = indexedEndpoint({
  id: 'GET /v1/covenants/{covenantId}',
  params: z.object({ covenantId }),
  async handler({ context, params }): Promise<EndpointResult> {
    const covenant = await getCovenant(context.db, hexToBytes(params.covenantId));
    if (covenant === null) throw ApiError.covenantNotFound(params.covenantId);
    const currentUtxos = covenant.currentUtxos.map((utxo) =>
      utxoEntryToNode({
        address: utxo.address,
        outpoint: { transactionId: bytesToHex(utxo.outpoint.transactionId), index: utxo.outpoint.index },
        utxoEntry: {
          amount: utxo.amount,
          scriptPublicKey: scriptPublicKeyToRpcString(utxo.scriptPublicKey),
          blockDaaScore: utxo.blockDaaScore,
          isCoinbase: utxo.isCoinbase,
          covenantId: bytesToHex(utxo.covenantId),
        },
      }),
    );
    return { body: { covenant: { ...covenantView(covenant), currentUtxos } }, cache: NEAR_TIP };
  },
});

export const getCovenantTransactionsEndpoint = indexedEndpoint({
  id: 'GET /v1/covenants/{covenantId}/transactions',
  params: z.object({ covenantId }),
  query: z.object({ ...cursorQuery, include_payload: optionalFlag }),
  async handler({ context, params, query }): Promise<EndpointResult> {
    const id = hexToBytes(params.covenantId);
    const page = await pageWithCursor(query, (cursors) =>
      getCovenantTransactions(context.db, id, { limit: query.limit, ...cursors, includePayload: query.include_payload }),
    );
    // Only an empty page asks whether the covenant exists at all: the usual page costs no extra lookup.
    if (page.transactions.length === 0 && (await getCovenant(context.db, id)) === null) {
      throw ApiError.covenantNotFound(params.covenantId);
    }
    const score = await scoreFor(context, page.transactions);
    return {
      body: {
        transactions: page.transactions.map((transaction) => transactionView(transaction, score)),
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
