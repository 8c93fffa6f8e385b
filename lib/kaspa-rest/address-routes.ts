/** /addresses/*: balances and UTXOs (the node), histories and activity (the index), rankings and names. */
import { addressActivity, addressHistoryByOffset, addressHistoryPageByTime } from '../db';
import { decodeAddress } from '../kaspa/address';
import type { RpcUtxosByAddressesEntry } from '../rpc/types';
import { RestError, validationError, type ValidationItem } from './errors';
import { PREVIOUS_OUTPOINT_MODES } from './format';
import type { KaspaRestData, RestResult, RestRoute } from './route-types';
import { addressParameter, bodyObject, fieldsOf, HOUR_MS } from './route-support';
import { transactionModels } from './transaction-routes';

/**
 * Daily active-address counts and balance histories come from tables kaspa-rest-server's exporters fill (its
 * ADDRESSES_ACTIVE_COUNT and ADDRESS_RANKINGS snapshots of the larger addresses); dagboard keeps neither, so these
 * answer as it does with the feature off.
 */
const ACTIVE_COUNT_DISABLED = 'Addresses active count is disabled';
const BALANCE_HISTORY_DISABLED = 'Balance history is disabled';

export const ADDRESS_LIST_LIMIT = 1000;

/** A POST body's `addresses`: each of the served network and with a valid checksum (400 otherwise, as the source). */
async function addressList(data: KaspaRestData, body: unknown): Promise<string[]> {
  const addresses = bodyObject(body).addresses;
  if (addresses === undefined || addresses === null) return [];
  if (!Array.isArray(addresses)) throw validationError([{ loc: ['body', 'addresses'], msg: 'value is not a valid list', type: 'type_error.list' }]);
  const items: ValidationItem[] = addresses.flatMap((item: unknown, index) =>
    typeof item === 'string' ? [] : [{ loc: ['body', 'addresses', index], msg: 'str type expected', type: 'type_error.str' }],
  );
  if (items.length > 0) throw validationError(items);
  if (addresses.length > ADDRESS_LIST_LIMIT) throw new RestError(422, `Too many addresses. Max ${ADDRESS_LIST_LIMIT}`);
  const pattern = new RegExp(`^${await data.addressPrefix()}:[a-z0-9]{61,63}$`);
  for (const address of addresses as string[]) {
    let valid = pattern.test(address);
    if (valid) {
      try {
        decodeAddress(address);
      } catch {
        valid = false;
      }
    }
    if (!valid) throw new RestError(400, `Invalid address: ${address}`);
  }
  return addresses as string[];
}

function utxoModel(entry: RpcUtxosByAddressesEntry, address: string) {
  return {
    address,
    outpoint: { transactionId: entry.outpoint.transactionId, index: entry.outpoint.index },
    utxoEntry: {
      amount: String(entry.utxoEntry.amount),
      // The RPC form is the version (4 hex digits) then the script; the model carries the script.
      scriptPublicKey: { scriptPublicKey: entry.utxoEntry.scriptPublicKey.slice(4) },
      blockDaaScore: String(entry.utxoEntry.blockDaaScore),
      isCoinbase: entry.utxoEntry.isCoinbase,
    },
  };
}

async function utxosOf(data: KaspaRestData, address: string) {
  const { entries } = await data.rpc.call('getUtxosByAddresses', { addresses: [address] });
  return entries.filter((entry) => entry.address === address);
}

const addresses: RestRoute[] = [
  {
    id: 'GET /kaspa-rest/addresses/{kaspaAddress}/balance',
    async handler(input) {
      const address = await addressParameter(input);
      const { balance } = await input.data.rpc.call('getBalanceByAddress', { address });
      return { body: { address, balance }, maxAge: 1 };
    },
  },
  {
    id: 'GET /kaspa-rest/addresses/{kaspaAddress}/utxos',
    strictQuery: [],
    async handler(input) {
      const address = await addressParameter(input);
      const entries = await utxosOf(input.data, address);
      return { body: entries.map((entry) => utxoModel(entry, address)), maxAge: 1 };
    },
  },
  {
    id: 'GET /kaspa-rest/addresses/{kaspaAddress}/utxos/count',
    strictQuery: [],
    async handler(input) {
      const address = await addressParameter(input);
      return { body: { count: (await utxosOf(input.data, address)).length }, maxAge: 1 };
    },
  },
  {
    id: 'GET /kaspa-rest/addresses/{kaspaAddress}/transactions-count',
    strictQuery: [],
    async handler(input) {
      const address = await addressParameter(input);
      const [activity] = await addressActivity(input.data.db, [address]);
      return { body: { total: activity?.transactionCount ?? 0 }, maxAge: 1 };
    },
  },
  {
    id: 'GET /kaspa-rest/addresses/{kaspaAddress}/full-transactions-page',
    strictQuery: ['limit', 'before', 'after', 'fields', 'resolve_previous_outpoints', 'acceptance'],
    async handler(input) {
      const { parameters, data, now } = input;
      const limit = Number(parameters.integer('limit', { ge: 1, le: 500 }) ?? 50n);
      const before = parameters.integer('before', { ge: 0, le: Number.MAX_SAFE_INTEGER }) ?? 0n;
      const after = parameters.integer('after', { ge: 0, le: Number.MAX_SAFE_INTEGER }) ?? 0n;
      const fields = fieldsOf(parameters);
      const resolve = parameters.choice('resolve_previous_outpoints', PREVIOUS_OUTPOINT_MODES, 'no');
      const acceptance = parameters.choice('acceptance', ['accepted', 'rejected'] as const, undefined);
      const address = await addressParameter(input);
      const headers: Record<string, string> = { 'x-page-count': '0' };
      if (before !== 0n && after !== 0n) throw new RestError(400, 'Only one of [before, after] can be present', headers);
      if (after !== 0n && after > BigInt(now + HOUR_MS)) return { body: [], headers };
      const page = await addressHistoryPageByTime(data.db, address, {
        limit,
        before: before === 0n ? undefined : before,
        after: after === 0n ? undefined : after,
      });
      if (page.rows.length === 0) return { body: [], headers, maxAge: 1 };
      const times = page.rows.map((row) => row.blockTime);
      const newest = times.reduce((x, y) => (y > x ? y : x));
      const oldest = times.reduce((x, y) => (y < x ? y : x));
      if ((before !== 0n || after !== 0n) && page.hasNewer) headers['x-next-page-after'] = String(newest);
      if (page.hasOlder) headers['x-next-page-before'] = String(oldest);
      const ids = page.rows.map((row) => row.transactionId);
      const body = await transactionModels(data, ids, resolve, fields, acceptance);
      headers['x-page-count'] = String(body.length);
      return { body, headers, maxAge: before !== 0n ? 8 : 1 };
    },
  },
  {
    id: 'GET /kaspa-rest/addresses/{kaspaAddress}/full-transactions',
    strictQuery: ['limit', 'offset', 'fields', 'resolve_previous_outpoints'],
    async handler(input) {
      const { parameters, data } = input;
      const limit = Number(parameters.integer('limit', { ge: 1, le: 500 }) ?? 50n);
      const offset = Number(parameters.integer('offset', { ge: 0, le: Number.MAX_SAFE_INTEGER }) ?? 0n);
      const fields = fieldsOf(parameters);
      const resolve = parameters.choice('resolve_previous_outpoints', PREVIOUS_OUTPOINT_MODES, 'no');
      const address = await addressParameter(input);
      const rows = await addressHistoryByOffset(data.db, address, { limit, offset });
      const body = await transactionModels(data, rows.map((row) => row.transactionId), resolve, fields);
      return { body, maxAge: offset > 0 ? 60 : 8 };
    },
  },
  {
    id: 'POST /kaspa-rest/addresses/balances',
    async handler({ data, body }) {
      const addresses = await addressList(data, body);
      if (addresses.length === 0) return { body: [] };
      const { entries } = await data.rpc.call('getBalancesByAddresses', { addresses });
      return { body: entries.map((entry) => ({ address: entry.address, balance: entry.balance ?? 0n })), maxAge: 1 };
    },
  },
  {
    id: 'POST /kaspa-rest/addresses/active',
    strictQuery: [],
    async handler({ data, body }) {
      const asked = await addressList(data, body);
      const activity = new Map((await addressActivity(data.db, [...new Set(asked)])).map((row) => [row.address, row]));
      return {
        body: asked.map((address) => {
          const last = activity.get(address)?.lastBlockTime;
          return { address, active: last !== undefined, ...(last === undefined ? {} : { lastTxBlockTime: Number(last) }) };
        }),
        maxAge: 1,
      };
    },
  },
  ...(['GET /kaspa-rest/addresses/active/count/', 'GET /kaspa-rest/addresses/active/count/{day_or_month}'] as const).map((id) => ({
    id,
    async handler(): Promise<RestResult> {
      throw new RestError(503, ACTIVE_COUNT_DISABLED);
    },
  })),
  {
    id: 'GET /kaspa-rest/addresses/{kaspaAddress}/balance/{day_or_month}',
    strictQuery: [],
    async handler(): Promise<RestResult> {
      throw new RestError(503, BALANCE_HISTORY_DISABLED);
    },
  },
  {
    id: 'POST /kaspa-rest/addresses/utxos',
    strictQuery: [],
    async handler({ data, body }) {
      const addresses = await addressList(data, body);
      if (addresses.length === 0) return { body: [] };
      const { entries } = await data.rpc.call('getUtxosByAddresses', { addresses });
      return {
        body: entries.flatMap((entry) => (entry.address === null ? [] : [utxoModel(entry, entry.address)])),
        maxAge: 1,
      };
    },
  },
  {
    id: 'GET /kaspa-rest/addresses/{kaspaAddress}/name',
    strictQuery: [],
    async handler(input) {
      const address = await addressParameter(input);
      const found = (await input.data.names()).find((entry) => entry.address === address);
      if (found === undefined) throw new RestError(404, 'Address name not found');
      return { body: { address: found.address, name: found.name }, maxAge: 600 };
    },
  },
  {
    id: 'GET /kaspa-rest/addresses/names',
    strictQuery: [],
    handler: async ({ data }) => ({ body: (await data.names()).map(({ address, name }) => ({ address, name })), maxAge: 60 }),
  },
  {
    id: 'GET /kaspa-rest/addresses/top',
    strictQuery: ['before', 'limit'],
    async handler({ data, parameters }) {
      const before = parameters.integer('before');
      const limit = parameters.integer('limit') ?? 1n;
      parameters.done();
      if (limit !== 1n) throw new RestError(400, "'limit' must be in [1]");
      if (before !== undefined && before % BigInt(HOUR_MS) !== 0n) throw new RestError(400, "'before' must be aligned to a full hour");
      const { at, value } = await data.stats.balances();
      // Only the current ranking is kept: a `before` at or below it has no snapshot.
      if (before !== undefined && before <= BigInt(at)) return { body: [], maxAge: 60 };
      return {
        body: [{ timestamp: at, ranking: value.top.map((entry, index) => ({ rank: index + 1, address: entry.address, amount: entry.balance })) }],
        maxAge: 60,
      };
    },
  },
  {
    id: 'GET /kaspa-rest/addresses/distribution',
    strictQuery: ['before', 'limit'],
    async handler({ data, parameters }) {
      const before = parameters.integer('before');
      const limit = parameters.integer('limit') ?? 1n;
      parameters.done();
      if (limit !== 1n && limit !== 24n) throw new RestError(400, "'limit' must be in [1, 24]");
      if (before !== undefined && before % BigInt(HOUR_MS) !== 0n) throw new RestError(400, "'before' must be aligned to start of hour");
      const { at, value } = await data.stats.balances();
      if (before !== undefined && before <= BigInt(at)) return { body: [], maxAge: 180 };
      const top = Math.max(10, ...value.tiers.map((tier) => tier.tier));
      const tiers = Array.from({ length: top + 1 }, (_, tier) => {
        const found = value.tiers.find((each) => each.tier === tier);
        return { tier, count: found?.count ?? 0, amount: found?.amount ?? 0n };
      });
      return { body: [{ timestamp: at, tiers }], maxAge: 180 };
    },
  },
];


export const ADDRESS_ROUTES: readonly RestRoute[] = addresses;
