/**
 * The kaspa-rest-server routes dagboard serves, each as kaspa-rest-server's `endpoints/*.py` answers it, from the
 * index (lib/db) and the node (the same ones /v1 reads). Where it needs data it takes from tables its exporters fill
 * (transaction counts, top addresses, distribution), the index computes it (stats.ts). Rules where dagboard differs:
 *   - blocks come from the index (not the node): a block the index does not hold is 404; `extra.color` is blue for a
 *     chain block, else the node's current colour (null when the node cannot tell);
 *   - transactions come from the index; resolve_previous_outpoints light/full use the spent outputs the index stores;
 *   - /info/market-data and /info/price answer from the configured KAS/USD source (on the devnet, labelled by
 *     `source`), kaspa-rest-server's CoinGecko shape; without a source they answer as its DISABLE_PRICE does;
 *   - /info/halving's nextHalvingTimestamp is in seconds, as kaspa-rest-server computes it.
 */
import { createHash } from 'node:crypto';
import {
  acceptedBy,
  addressActivity,
  blocksAtBlueScore,
  chainAcceptances,
  nearestBlueScore,
  addressHistoryAtTimes,
  addressHistoryBeyond,
  addressHistoryByOffset,
  addressHistoryByTime,
  blockTimes,
  chainBlocksByBlueScore,
  getBlock,
  getTransactions,
  type Checkpoint,
  type IndexedTransaction,
  type Queryable,
} from '../db';
import { decodeAddress, type AddressPrefix } from '../kaspa/address';
import { bytesToHex, hexToBytes } from '../kaspa/bytes';
import { blockSubsidy, nextSubsidyChange, subsidyParamsFor } from '../kaspa/subsidy';
import type { KaspaRestRouteId } from '../api/costs';
import type { RpcClient } from '../rpc';
import type { RpcUtxosByAddressesEntry } from '../rpc/types';
import type { KasUsdSource } from '../tokens/kas-usd';
import { Parameters, RestError, validationError, type ValidationItem } from './errors';
import { blockModel, PREVIOUS_OUTPOINT_MODES, txModel, type PreviousOutpointMode } from './format';
import type { AddressName } from './names';
import { NODE_ROUTES } from './node-routes';
import { kaspaRestOpenApi } from './openapi';
import type { IndexStats } from './stats';

export interface KaspaRestData {
  db: Queryable;
  rpc: Pick<RpcClient, 'call'>;
  addressPrefix(): Promise<AddressPrefix>;
  virtualBlueScore(): Promise<bigint>;
  indexedTip(): Promise<Checkpoint | null>;
  stats: IndexStats;
  names(): Promise<AddressName[]>;
  kasUsd?: KasUsdSource;
  /** The index counts as synced while its checkpoint lags the node's sink by at most this much. */
  healthMaxLagSeconds: number;
}

export interface RestInput {
  data: KaspaRestData;
  /** Path parameters, decoded. */
  params: Record<string, string>;
  parameters: Parameters;
  body: unknown;
  now: number;
}

export interface RestResult {
  body: unknown;
  status?: number;
  /** The body is sent as text/plain (kaspa-rest-server's PlainTextResponse routes). */
  text?: boolean;
  headers?: Record<string, string>;
  /** Cache-Control max-age, private; kaspa-rest-server's default of 8 s when absent. */
  maxAge?: number;
}

export interface RestRoute {
  id: KaspaRestRouteId;
  /** Query parameters the route declares: kaspa-rest-server's strict routes refuse any other with 422. */
  strictQuery?: readonly string[];
  handler(input: RestInput): Promise<RestResult>;
}

export const TX_SEARCH_ID_LIMIT = 1000;
export const TX_SEARCH_BLUE_SCORE_LIMIT = 100n;
const HASH_PATTERN = '^[a-f0-9]{64}$';
const DAY_OR_MONTH = /^(\d{4})-(\d{2})(?:-(\d{2}))?$/;
const SOMPI_PER_KAS = 100_000_000;
const HOUR_MS = 3_600_000;
/**
 * kaspa-rest-server's hashrate history reads a table of 15-minute samples its HASHRATE_HISTORY exporter fills (off by
 * default); dagboard keeps no such table, so both routes answer as it does with the feature off.
 */
const HASHRATE_HISTORY_DISABLED = 'Hashrate history is disabled';
/**
 * Daily active-address counts and balance histories come from tables kaspa-rest-server's exporters fill (its
 * ADDRESSES_ACTIVE_COUNT and ADDRESS_RANKINGS snapshots of the larger addresses); dagboard keeps neither, so these
 * answer as it does with the feature off.
 */
const ACTIVE_COUNT_DISABLED = 'Addresses active count is disabled';
const BALANCE_HISTORY_DISABLED = 'Balance history is disabled';

function sompiToKas(sompi: bigint): number {
  return Number(sompi) / SOMPI_PER_KAS;
}

async function addressParameter(input: RestInput): Promise<string> {
  const prefix = await input.data.addressPrefix();
  const address = input.parameters.pathMatching('kaspaAddress', input.params.kaspaAddress ?? '', `^${prefix}:[a-z0-9]{61,63}$`);
  input.parameters.done();
  try {
    decodeAddress(address);
  } catch {
    throw new RestError(400, `Invalid address: ${address}`);
  }
  return address;
}

/** The accepting blocks' stored blue score and time, for TxModel. */
async function acceptingTimes(db: Queryable, transactions: readonly IndexedTransaction[]) {
  const hashes = transactions.flatMap((transaction) => (transaction.acceptingBlockHash === null ? [] : [transaction.acceptingBlockHash]));
  return blockTimes(db, hashes);
}

function fieldsOf(parameters: Parameters): string[] {
  return (parameters.string('fields') ?? '').split(',').filter((field) => field.length > 0);
}

/** As kaspa-rest-server's search: newest block time first. */
async function txModels(
  db: Queryable,
  transactions: IndexedTransaction[],
  options: { resolve: PreviousOutpointMode; fields: string[] },
) {
  const times = await acceptingTimes(db, transactions);
  return [...transactions]
    .sort((x, y) => (x.blockTime === y.blockTime ? bytesToHex(y.transactionId).localeCompare(bytesToHex(x.transactionId)) : x.blockTime > y.blockTime ? -1 : 1))
    .map((transaction) =>
      txModel(transaction, transaction.acceptingBlockHash === null ? undefined : times.get(bytesToHex(transaction.acceptingBlockHash)), options),
    );
}

function hashList(value: unknown, location: (string | number)[]): Uint8Array[] {
  if (!Array.isArray(value)) throw validationError([{ loc: location, msg: 'value is not a valid list', type: 'type_error.list' }]);
  const items: ValidationItem[] = [];
  const hashes = value.flatMap((item, index) => {
    if (typeof item !== 'string') {
      items.push({ loc: [...location, index], msg: 'str type expected', type: 'type_error.str' });
      return [];
    }
    // Ids that cannot be transaction ids match nothing, as in kaspa-rest-server's lookup.
    return /^[a-f0-9]{64}$/.test(item) ? [hexToBytes(item)] : [];
  });
  if (items.length > 0) throw validationError(items);
  return hashes;
}

function bodyObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw validationError([{ loc: ['body'], msg: 'value is not a valid dict', type: 'type_error.dict' }]);
  }
  return body as Record<string, unknown>;
}

const I64_MAX = 2n ** 63n - 1n;

/** A JSON integer that fits the database's bigint (a larger one is refused as out of range). */
function integerField(value: unknown, location: (string | number)[]): bigint {
  let parsed: bigint | undefined;
  if (typeof value === 'bigint') parsed = value;
  else if (typeof value === 'number' && Number.isInteger(value)) parsed = BigInt(value);
  else if (typeof value === 'string' && /^[+-]?\d+$/.test(value.trim())) parsed = BigInt(value.trim());
  if (parsed === undefined) throw validationError([{ loc: location, msg: 'value is not a valid integer', type: 'type_error.integer' }]);
  if (parsed > I64_MAX || parsed < -I64_MAX) {
    throw validationError([
      { loc: location, msg: `ensure this value is less than or equal to ${I64_MAX}`, type: 'value_error.number.not_le', ctx: { limit_value: I64_MAX } },
    ]);
  }
  return parsed;
}

function dateTimeText(ms: bigint): string {
  return new Date(Number(ms)).toISOString().replace('.000Z', 'Z');
}

/** [start, end) of a UTC day (YYYY-MM-DD) or month (YYYY-MM), or null when the path is not one (FastAPI's regex). */
function dayOrMonthRange(text: string): { start: number; end: number } | null {
  const match = DAY_OR_MONTH.exec(text);
  if (match === null) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), match[3] === undefined ? undefined : Number(match[3])];
  if (month < 1 || month > 12) return null;
  if (day === undefined) return { start: Date.UTC(year, month - 1, 1), end: Date.UTC(year, month, 1) };
  const start = Date.UTC(year, month - 1, day);
  if (new Date(start).getUTCDate() !== day) return null;
  return { start, end: start + 24 * HOUR_MS };
}

async function blockdag(data: KaspaRestData) {
  const info = await data.rpc.call('getBlockDagInfo', {});
  return {
    networkName: `kaspa-${info.network}`,
    blockCount: String(info.blockCount),
    headerCount: String(info.headerCount),
    tipHashes: info.tipHashes,
    difficulty: info.difficulty,
    pastMedianTime: String(info.pastMedianTime),
    virtualParentHashes: info.virtualParentHashes,
    pruningPointHash: info.pruningPointHash,
    virtualDaaScore: String(info.virtualDaaScore),
    sink: info.sink,
  };
}

async function rewardSchedule(data: KaspaRestData) {
  const info = await data.rpc.call('getBlockDagInfo', {});
  const params = subsidyParamsFor(info.network);
  if (params === null) throw new RestError(503, `Endpoint not available. No subsidy schedule is known for ${info.network}.`);
  const daaScore = BigInt(info.virtualDaaScore);
  return { params, daaScore, current: blockSubsidy(daaScore, params), next: nextSubsidyChange(daaScore, params) };
}

async function marketData(data: KaspaRestData, now: number) {
  const source = data.kasUsd;
  const price = source?.rateAt(now);
  if (source === undefined || price === null || price === undefined) return null;
  const dayAgo = source.rateAt(now - 24 * HOUR_MS);
  const supply = await data.rpc.call('getCoinSupply', {});
  const circulating = sompiToKas(BigInt(supply.circulatingSompi));
  return {
    current_price: { usd: price },
    price_change_percentage_24h: dayAgo === null || dayAgo === undefined || dayAgo === 0 ? 0 : ((price - dayAgo) / dayAgo) * 100,
    market_cap: { usd: Math.round(circulating * price) },
    circulating_supply: circulating,
    last_updated: new Date(now).toISOString(),
    source: source.label,
  };
}

const info: RestRoute[] = [
  { id: 'GET /kaspa-rest/info/blockdag', handler: async ({ data }) => ({ body: await blockdag(data), maxAge: 1 }) },
  { id: 'GET /kaspa-rest/info/network', handler: async ({ data }) => ({ body: await blockdag(data), maxAge: 1 }) },
  {
    id: 'GET /kaspa-rest/info/coinsupply',
    async handler({ data }) {
      const supply = await data.rpc.call('getCoinSupply', {});
      return { body: { circulatingSupply: String(supply.circulatingSompi), maxSupply: String(supply.maxSompi) }, maxAge: 1 };
    },
  },
  ...(['circulating', 'total'] as const).map(
    (kind): RestRoute => ({
      id: `GET /kaspa-rest/info/coinsupply/${kind}`,
      async handler({ data, parameters }) {
        const inBillion = parameters.boolean('in_billion', false);
        parameters.done();
        const supply = await data.rpc.call('getCoinSupply', {});
        const coins = sompiToKas(BigInt(supply.circulatingSompi));
        const text = inBillion ? String(Math.round((coins / 1e9) * 100) / 100) : String(coins);
        return { body: text, text: true, maxAge: 1 };
      },
    }),
  ),
  {
    id: 'GET /kaspa-rest/info/blockreward',
    async handler({ data, parameters }) {
      const stringOnly = parameters.boolean('stringOnly', false);
      parameters.done();
      const reward = sompiToKas((await rewardSchedule(data)).current);
      return stringOnly ? { body: reward.toFixed(2), maxAge: 1 } : { body: { blockreward: reward }, maxAge: 1 };
    },
  },
  {
    id: 'GET /kaspa-rest/info/halving',
    async handler({ data, parameters, now }) {
      const field = parameters.string('field');
      parameters.done();
      const { params, daaScore, current, next } = await rewardSchedule(data);
      const target = next ?? { daaScore, subsidy: current };
      const timestamp = Math.floor(now / 1000) + Number((target.daaScore - daaScore) / params.bpsAfterCrescendo);
      const date = `${new Date(timestamp * 1000).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
      const amount = sompiToKas(target.subsidy);
      if (field === 'nextHalvingTimestamp') return { body: String(timestamp), text: true };
      if (field === 'nextHalvingDate') return { body: date, text: true };
      if (field === 'nextHalvingAmount') return { body: String(amount), text: true };
      return { body: { nextHalvingTimestamp: timestamp, nextHalvingDate: date, nextHalvingAmount: amount } };
    },
  },
  {
    id: 'GET /kaspa-rest/info/fee-estimate',
    async handler({ data }) {
      const { estimate } = await data.rpc.call('getFeeEstimate', {});
      const bucket = (each: { feerate: number; estimatedSeconds: number }) => ({
        feerate: Math.floor(each.feerate),
        estimatedSeconds: each.estimatedSeconds,
      });
      return {
        body: {
          priorityBucket: bucket(estimate.priorityBucket),
          normalBuckets: estimate.normalBuckets.map(bucket),
          lowBuckets: estimate.lowBuckets.map(bucket),
        },
        maxAge: 1,
      };
    },
  },
  {
    id: 'GET /kaspa-rest/info/kaspad',
    async handler({ data }) {
      const node = await data.rpc.call('getInfo', {});
      return {
        body: {
          mempoolSize: String(node.mempoolSize),
          serverVersion: node.serverVersion,
          isUtxoIndexed: node.isUtxoIndexed,
          isSynced: node.isSynced,
          p2pIdHashed: createHash('sha256').update(node.p2pId).digest('hex'),
        },
        maxAge: 1,
      };
    },
  },
  {
    id: 'GET /kaspa-rest/info/virtual-chain-blue-score',
    handler: async ({ data }) => ({ body: { blueScore: await data.virtualBlueScore() }, maxAge: 1 }),
  },
  {
    id: 'GET /kaspa-rest/info/health',
    async handler({ data, now }) {
      const [node, sinkBlueScore, tip] = await Promise.all([data.rpc.call('getInfo', {}), data.virtualBlueScore(), data.indexedTip()]);
      const tipTime = tip === null ? undefined : (await blockTimes(data.db, [tip.blockHash])).get(bytesToHex(tip.blockHash));
      const blueScoreDiff = tip === null ? null : Number(sinkBlueScore > tip.blueScore ? sinkBlueScore - tip.blueScore : tip.blueScore - sinkBlueScore);
      const timeDiff = tipTime === undefined ? null : Math.abs(Math.floor(now / 1000 - Number(tipTime.timestamp) / 1000));
      const database = {
        isSynced: tip !== null && timeDiff !== null && timeDiff <= data.healthMaxLagSeconds,
        blueScore: tip === null ? null : tip.blueScore,
        blueScoreDiff,
        acceptedTxBlockTime: tipTime?.timestamp ?? null,
        acceptedTxBlockTimeDiff: timeDiff,
      };
      const kaspad = {
        kaspadHost: 'KASPAD_HOST_1',
        serverVersion: node.serverVersion,
        isUtxoIndexed: node.isUtxoIndexed,
        isSynced: node.isSynced,
        p2pId: createHash('sha256').update(node.p2pId).digest('hex'),
        blueScore: sinkBlueScore,
      };
      const healthy = database.isSynced && node.isSynced;
      return { body: { kaspadServers: [kaspad], database }, status: healthy ? 200 : 503, maxAge: 1 };
    },
  },
  {
    id: 'GET /kaspa-rest/info/market-data',
    async handler({ data, now }) {
      return { body: (await marketData(data, now)) ?? {}, maxAge: 60 };
    },
  },
  {
    id: 'GET /kaspa-rest/info/price',
    async handler({ data, parameters, now }) {
      const stringOnly = parameters.boolean('stringOnly', false);
      parameters.done();
      const price = (await marketData(data, now))?.current_price.usd ?? 0;
      return stringOnly ? { body: String(price), text: true, maxAge: 60 } : { body: { price }, maxAge: 60 };
    },
  },
  {
    id: 'GET /kaspa-rest/info/hashrate',
    async handler({ data, parameters }) {
      const stringOnly = parameters.boolean('stringOnly', false);
      parameters.done();
      const info = await data.rpc.call('getBlockDagInfo', {});
      const bps = Number(subsidyParamsFor(info.network)?.bpsAfterCrescendo ?? 10n);
      // kaspa-rest-server's estimate: difficulty × 2 × blocks per second, in TH/s.
      const hashrate = (info.difficulty * 2 * bps) / 1e12;
      return stringOnly ? { body: hashrate.toFixed(1), maxAge: 1 } : { body: { hashrate }, maxAge: 1 };
    },
  },
  {
    id: 'GET /kaspa-rest/info/hashrate/max',
    async handler({ data, parameters }) {
      parameters.done();
      const [{ value: block }, info] = await Promise.all([data.stats.hardestBlock(), data.rpc.call('getBlockDagInfo', {})]);
      if (block === null) throw new RestError(503, 'No block indexed yet');
      const bps = Number(subsidyParamsFor(info.network)?.bpsAfterCrescendo ?? 10n);
      const body = {
        hashrate: (block.difficulty * 2 * bps) / 1e12,
        blockheader: {
          hash: bytesToHex(block.hash),
          timestamp: pythonIsoFormat(block.timestamp),
          difficulty: Math.trunc(block.difficulty),
          daaScore: String(block.daaScore),
          blueScore: String(block.blueScore),
        },
      };
      return { body, maxAge: 60 };
    },
  },
  {
    id: 'GET /kaspa-rest/info/hashrate/history',
    async handler({ parameters }) {
      parameters.done();
      throw new RestError(503, HASHRATE_HISTORY_DISABLED);
    },
  },
  {
    id: 'GET /kaspa-rest/info/hashrate/history/{day_or_month}',
    async handler({ params, parameters }) {
      parameters.pathMatching('day_or_month', params.day_or_month ?? '', '^\\d{4}-\\d{2}(-\\d{2})?$');
      parameters.done();
      throw new RestError(503, HASHRATE_HISTORY_DISABLED);
    },
  },
  {
    id: 'GET /kaspa-rest/info/marketcap',
    async handler({ data, parameters, now }) {
      const stringOnly = parameters.boolean('stringOnly', false);
      parameters.done();
      const cap = (await marketData(data, now))?.market_cap.usd ?? 0;
      if (!stringOnly) return { body: { marketcap: cap }, maxAge: 60 };
      const text = cap < 1e9 ? `${Math.round(cap / 1e5) / 10}M` : `${Math.round(cap / 1e8) / 10}B`;
      return { body: text, maxAge: 60 };
    },
  },
];

/** Python's `datetime.fromtimestamp(ms / 1000).isoformat()` on a UTC host: no offset, microseconds only when non-zero. */
export function pythonIsoFormat(epochMs: bigint): string {
  const iso = new Date(Number(epochMs)).toISOString().slice(0, -1);
  return iso.endsWith('.000') ? iso.slice(0, -4) : `${iso}000`;
}

async function blockColor(data: KaspaRestData, hash: string, isChainBlock: boolean): Promise<'blue' | 'red' | null> {
  if (isChainBlock) return 'blue';
  try {
    return (await data.rpc.call('getCurrentBlockColor', { hash })).blue ? 'blue' : 'red';
  } catch {
    return null;
  }
}

const blocks: RestRoute[] = [
  {
    id: 'GET /kaspa-rest/blocks/{blockId}',
    async handler({ data, params, parameters }) {
      const blockId = parameters.pathMatching('blockId', params.blockId ?? '', HASH_PATTERN);
      const includeTransactions = parameters.boolean('includeTransactions', true);
      const includeColor = parameters.boolean('includeColor', false);
      parameters.done();
      const block = await getBlock(data.db, hexToBytes(blockId));
      if (block === null) throw new RestError(404, 'Block not found');
      const [transactions, prefix, color] = await Promise.all([
        getTransactions(data.db, block.transactionIds, { includePayload: true }),
        data.addressPrefix(),
        includeColor ? blockColor(data, blockId, block.isChainBlock) : Promise.resolve(undefined),
      ]);
      const tipBlueScore = await data.virtualBlueScore().catch(() => block.header.blueScore);
      return {
        body: blockModel(block, transactions, { includeTransactions, color, prefix }),
        maxAge: tipBlueScore - block.header.blueScore > 1000n ? 600 : 4,
      };
    },
  },
  {
    id: 'GET /kaspa-rest/blocks',
    async handler({ data, parameters }) {
      const lowHash = parameters.string('lowHash');
      if (lowHash === undefined) parameters.fail({ loc: ['query', 'lowHash'], msg: 'field required', type: 'value_error.missing' });
      // pydantic v1's Query(regex=…) is re.match: anchored at the start only.
      else if (!/^[a-f0-9]{64}/.test(lowHash)) {
        parameters.fail({ loc: ['query', 'lowHash'], msg: 'string does not match regex "[a-f0-9]{64}"', type: 'value_error.str.regex', ctx: { pattern: '[a-f0-9]{64}' } });
      }
      const includeBlocks = parameters.boolean('includeBlocks', false);
      const includeTransactions = parameters.boolean('includeTransactions', false);
      parameters.done();
      let hashes: string[];
      try {
        hashes = (await data.rpc.call('getBlocks', { lowHash: lowHash!, includeBlocks: false, includeTransactions: false })).blockHashes;
      } catch {
        // kaspa-rest-server's answer when its node call fails.
        return { body: { blockHashes: [], blocks: [] }, maxAge: 3 };
      }
      const blocks = [];
      if (includeBlocks) {
        const prefix = await data.addressPrefix();
        for (const hash of hashes) {
          const block = await getBlock(data.db, hexToBytes(hash));
          if (block === null) continue;
          const transactions = includeTransactions ? await getTransactions(data.db, block.transactionIds, { includePayload: true }) : [];
          blocks.push(blockModel(block, transactions, { includeTransactions, color: undefined, prefix }));
        }
      }
      return { body: { blockHashes: hashes, blocks }, maxAge: 3 };
    },
  },
  {
    id: 'GET /kaspa-rest/blocks-from-bluescore',
    async handler({ data, parameters }) {
      const exact = parameters.integer('blueScore');
      const gte = parameters.integer('blueScoreGte');
      const lt = parameters.integer('blueScoreLt');
      const includeTransactions = parameters.boolean('includeTransactions', false);
      parameters.done();
      if ([exact, gte, lt].filter((bound) => bound !== undefined).length !== 1) {
        throw new RestError(400, 'Exactly one of blueScore, blueScoreGte, or blueScoreLt must be provided');
      }
      const current = await data.virtualBlueScore();
      if ((exact !== undefined && (exact < 0n || exact > current)) || (gte !== undefined && gte > current) || (lt !== undefined && lt < 0n)) {
        return { body: [] };
      }
      const blueScore = exact ?? (gte !== undefined ? await nearestBlueScore(data.db, { gte }) : await nearestBlueScore(data.db, { lt: lt! }));
      if (blueScore === null) return { body: [] };
      const [hashes, prefix] = await Promise.all([blocksAtBlueScore(data.db, blueScore), data.addressPrefix()]);
      const body = [];
      for (const hash of hashes) {
        const block = await getBlock(data.db, hash);
        if (block === null) continue;
        const transactions = includeTransactions ? await getTransactions(data.db, block.transactionIds, { includePayload: true }) : [];
        body.push(blockModel(block, transactions, { includeTransactions, color: undefined, prefix }));
      }
      return { body, maxAge: current - blueScore > 1000n ? 600 : 4 };
    },
  },
];

const virtualChain: RestRoute = {
  id: 'GET /kaspa-rest/virtual-chain',
  strictQuery: ['blueScoreGte', 'limit', 'resolveInputs', 'includeCoinbase'],
  async handler({ data, parameters }) {
    const gte = parameters.integer('blueScoreGte', { ge: 0 });
    if (gte === undefined && parameters.string('blueScoreGte') === undefined) {
      parameters.fail({ loc: ['query', 'blueScoreGte'], msg: 'field required', type: 'value_error.missing' });
    }
    const limit = parameters.integer('limit') ?? 10n;
    const resolveInputs = parameters.boolean('resolveInputs', false);
    const includeCoinbase = parameters.boolean('includeCoinbase', true);
    parameters.done();
    if (limit !== 10n && limit !== 100n) throw new RestError(400, "'limit' must be in [10, 100]");
    if (gte! % limit !== 0n) throw new RestError(400, `'blueScoreGte' must be divisible by limit (${limit})`);
    const current = await data.virtualBlueScore();
    const lt = gte! + limit;
    const maxAge = current - lt > 1000n ? 600 : 4;
    if (current > 0n && current < gte!) return { body: [], maxAge };
    const blocks = await chainAcceptances(data.db, gte!, lt);
    const transactions = new Map(
      (await getTransactions(data.db, blocks.flatMap((block) => block.accepted), { includePayload: false })).map((transaction) => [
        bytesToHex(transaction.transactionId),
        transaction,
      ]),
    );
    const body = blocks.flatMap((block) => {
      const accepted = block.accepted.flatMap((id) => {
        const transaction = transactions.get(bytesToHex(id));
        if (transaction === undefined || (!includeCoinbase && transaction.inputs.length === 0)) return [];
        const inputs = transaction.inputs.map((input) => {
          const previous = resolveInputs ? input.previousOutput : null;
          return {
            previous_outpoint_hash: bytesToHex(input.previousOutpoint.transactionId),
            previous_outpoint_index: input.previousOutpoint.index,
            signature_script: bytesToHex(input.signatureScript),
            ...(previous === null
              ? {}
              : { previous_outpoint_script: bytesToHex(previous.scriptPublicKey.script), previous_outpoint_address: previous.address, previous_outpoint_amount: previous.amount }),
          };
        });
        const outputs = transaction.outputs.map((output) => ({
          script_public_key: bytesToHex(output.scriptPublicKey.script),
          script_public_key_address: output.address,
          amount: output.amount,
        }));
        // response_model_exclude_none: a coinbase has no inputs key at all.
        return [{ transaction_id: bytesToHex(transaction.transactionId), is_accepted: true, ...(inputs.length === 0 ? {} : { inputs }), outputs }];
      });
      if (accepted.length === 0) return [];
      return [{ hash: bytesToHex(block.hash), blue_score: Number(block.blueScore), daa_score: Number(block.daaScore), timestamp: Number(block.timestamp), transactions: accepted }];
    });
    return { body, maxAge };
  },
};

async function searchTransactions(data: KaspaRestData, body: unknown, resolve: PreviousOutpointMode, fields: string[], acceptance?: 'accepted' | 'rejected') {
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
  let transactions = await getTransactions(data.db, wanted, { includePayload: true });
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
      const rows = await addressHistoryByTime(data.db, address, {
        limit,
        before: before === 0n ? undefined : before,
        after: after === 0n ? undefined : after,
      });
      if (rows.length === 0) return { body: [], headers, maxAge: 1 };
      const times = rows.map((row) => row.blockTime);
      const newest = times.reduce((x, y) => (y > x ? y : x));
      const oldest = times.reduce((x, y) => (y < x ? y : x));
      const ids = new Map(rows.map((row) => [bytesToHex(row.transactionId), row.transactionId]));
      if (rows.length === limit) {
        for (const row of await addressHistoryAtTimes(data.db, address, [newest, oldest])) ids.set(bytesToHex(row.transactionId), row.transactionId);
      }
      const beyond = await addressHistoryBeyond(data.db, address, { newerThan: newest, olderThan: oldest });
      if (before !== 0n || after !== 0n) {
        if (beyond.hasNewer) headers['x-next-page-after'] = String(newest);
      }
      if (beyond.hasOlder) headers['x-next-page-before'] = String(oldest);
      const body = await searchTransactions(data, { transactionIds: [...ids.keys()] }, resolve, fields, acceptance);
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
      const body = await searchTransactions(data, { transactionIds: rows.map((row) => bytesToHex(row.transactionId)) }, resolve, fields);
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

export const KASPA_REST_ROUTES: readonly RestRoute[] = [
  ...info,
  ...blocks,
  virtualChain,
  ...transactions,
  ...NODE_ROUTES,
  ...addresses,
  { id: 'GET /kaspa-rest/openapi.json', handler: async () => ({ body: kaspaRestOpenApi(), maxAge: 3600 }) },
  {
    id: 'GET /kaspa-rest/ping',
    async handler({ data }) {
      const [node, database] = await Promise.all([
        data.rpc.call('getInfo', {}).catch(() => null),
        data.db.query('SELECT 1').then(() => true, () => false),
      ]);
      const body = {
        kaspad: {
          is_online: node !== null,
          is_wrpc: true,
          server_version: node?.serverVersion ?? null,
          is_utxo_indexed: node?.isUtxoIndexed ?? null,
          is_synced: node?.isSynced ?? null,
        },
        database: { is_online: database },
      };
      return { body, status: database && node?.isSynced === true ? 200 : 503, maxAge: 0 };
    },
  },
];
