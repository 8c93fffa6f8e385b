/** /transactions/*: one transaction, search, acceptance and counts, from the index. */
import { acceptedBy, chainBlocksByBlueScore, getTransactions } from '../db';
import { bytesToHex, hexToBytes } from '../kaspa/bytes';
import { RestError, validationError } from './errors';
import { PREVIOUS_OUTPOINT_MODES, txModel, type PreviousOutpointMode } from './format';
import type { KaspaRestData, RestRoute } from './route-types';
import {
  acceptingTimes,
  bodyObject,
  dateTimeText,
  dayOrMonthRange,
  fieldsOf,
  HASH_PATTERN,
  hashList,
  integerField,
  TX_SEARCH_BLUE_SCORE_LIMIT,
  TX_SEARCH_ID_LIMIT,
  txModels,
} from './route-support';

export async function searchTransactions(data: KaspaRestData, body: unknown, resolve: PreviousOutpointMode, fields: string[], acceptance?: 'accepted' | 'rejected') {
  const search = bodyObject(body);
  const ids = search.transactionIds ?? null;
  const scores = search.acceptingBlueScores ?? null;
  if ((ids === null || (Array.isArray(ids) && ids.length === 0)) && scores === null) return [];
  if (Array.isArray(ids) && ids.length > TX_SEARCH_ID_LIMIT) {
    throw new RestError(422, `Too many transaction ids. Max ${TX_SEARCH_ID_LIMIT}`);
  }
  if (ids !== null && scores !== null) throw new RestError(422, 'Only one of transactionIds and acceptingBlueScores must be non-null');
  let wanted: Uint8Array[];
  if (scores !== null) {
    const range = bodyObject(scores);
    const gte = integerField(range.gte, ['body', 'acceptingBlueScores', 'gte']);
    const lt = integerField(range.lt, ['body', 'acceptingBlueScores', 'lt']);
    if (lt - gte > TX_SEARCH_BLUE_SCORE_LIMIT) {
      throw new RestError(400, `Diff between acceptingBlueScores.gte and lt must be <= ${TX_SEARCH_BLUE_SCORE_LIMIT}`);
    }
    wanted = await acceptedBy(data.db, await chainBlocksByBlueScore(data.db, gte, lt));
  } else {
    wanted = hashList(ids, ['body', 'transactionIds']);
  }
  return transactionModels(data, wanted, resolve, fields, acceptance);
}

/** The indexed transactions among `ids` as kaspa-rest-server's models, newest first, optionally by acceptance. */
export async function transactionModels(
  data: KaspaRestData,
  ids: Uint8Array[],
  resolve: PreviousOutpointMode,
  fields: string[],
  acceptance?: 'accepted' | 'rejected',
) {
  let transactions = await getTransactions(data.db, ids, { includePayload: true });
  if (acceptance === 'accepted') transactions = transactions.filter((transaction) => transaction.acceptingBlockHash !== null);
  if (acceptance === 'rejected') transactions = transactions.filter((transaction) => transaction.acceptingBlockHash === null);
  return txModels(data.db, transactions, { resolve, fields });
}

const transactions: RestRoute[] = [
  {
    id: 'GET /kaspa-rest/transactions/{transactionId}',
    async handler({ data, params, parameters }) {
      const id = parameters.pathMatching('transactionId', params.transactionId ?? '', HASH_PATTERN);
      const blockHash = parameters.string('blockHash');
      const inputs = parameters.boolean('inputs', true);
      const outputs = parameters.boolean('outputs', true);
      const resolve = parameters.choice('resolve_previous_outpoints', PREVIOUS_OUTPOINT_MODES, 'no');
      parameters.done();
      const [transaction] = await getTransactions(data.db, [hexToBytes(id)], { includePayload: true });
      if (transaction === undefined || (blockHash !== undefined && !transaction.blockHashes.some((hash) => bytesToHex(hash) === blockHash))) {
        throw new RestError(404, 'Transaction not found');
      }
      const times = await acceptingTimes(data.db, [transaction]);
      const accepting = transaction.acceptingBlockHash === null ? undefined : times.get(bytesToHex(transaction.acceptingBlockHash));
      return { body: txModel(transaction, accepting, { resolve, inputs, outputs }), maxAge: accepting === undefined ? 1 : 8 };
    },
  },
  {
    id: 'POST /kaspa-rest/transactions/search',
    async handler({ data, parameters, body }) {
      const fields = fieldsOf(parameters);
      const resolve = parameters.choice('resolve_previous_outpoints', PREVIOUS_OUTPOINT_MODES, 'no');
      const acceptance = parameters.choice('acceptance', ['accepted', 'rejected'] as const, undefined);
      parameters.done();
      return { body: await searchTransactions(data, body, resolve, fields, acceptance) };
    },
  },
  {
    id: 'POST /kaspa-rest/transactions/acceptance',
    strictQuery: [],
    async handler({ data, body }) {
      const ids = bodyObject(body).transactionIds;
      if (ids === undefined) throw validationError([{ loc: ['body', 'transactionIds'], msg: 'field required', type: 'value_error.missing' }]);
      const asked = hashList(ids, ['body', 'transactionIds']);
      if (Array.isArray(ids) && ids.length > TX_SEARCH_ID_LIMIT) throw new RestError(422, `Too many transaction ids. Max ${TX_SEARCH_ID_LIMIT}`);
      const found = await getTransactions(data.db, asked, { includePayload: false });
      const times = await acceptingTimes(data.db, found);
      const byId = new Map(found.map((transaction) => [bytesToHex(transaction.transactionId), transaction]));
      return {
        body: (ids as string[]).map((id) => {
          const accepting = byId.get(id)?.acceptingBlockHash ?? null;
          const time = accepting === null ? undefined : times.get(bytesToHex(accepting));
          return {
            transactionId: id,
            accepted: accepting !== null,
            acceptingBlockHash: accepting === null ? null : bytesToHex(accepting),
            acceptingBlueScore: time?.blueScore ?? null,
            acceptingTimestamp: time?.timestamp ?? null,
          };
        }),
        maxAge: 1,
      };
    },
  },
  {
    id: 'GET /kaspa-rest/transactions/count/',
    async handler({ data }) {
      const { value } = await data.stats.transactionCounts();
      const last = value.at(-1);
      if (last === undefined) throw new RestError(404, 'No transaction counts available');
      return {
        body: {
          timestamp: last.timestamp,
          dateTime: dateTimeText(last.timestamp),
          coinbase: value.reduce((sum, bucket) => sum + bucket.coinbase, 0),
          regular: value.reduce((sum, bucket) => sum + bucket.regular, 0),
        },
        maxAge: 60,
      };
    },
  },
  {
    id: 'GET /kaspa-rest/transactions/count/{day_or_month}',
    async handler({ data, params, parameters }) {
      const text = parameters.pathMatching('day_or_month', params.day_or_month ?? '', '^\\d{4}-\\d{2}(-\\d{2})?$');
      parameters.done();
      const range = dayOrMonthRange(text);
      if (range === null) throw new RestError(400, `Invalid date: ${text}`);
      const { value } = await data.stats.transactionCounts();
      return {
        body: value
          .filter((bucket) => bucket.timestamp >= BigInt(range.start) && bucket.timestamp < BigInt(range.end))
          .map((bucket) => ({ timestamp: bucket.timestamp, dateTime: dateTimeText(bucket.timestamp), coinbase: bucket.coinbase, regular: bucket.regular })),
        maxAge: 60,
      };
    },
  },
];


export const TRANSACTION_ROUTES: readonly RestRoute[] = transactions;
