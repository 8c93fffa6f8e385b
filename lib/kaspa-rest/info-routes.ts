/** /info/*: the DAG, supply, rewards and halving, fees, the node, health, hashrate and market data. */
import { createHash } from 'node:crypto';
import { blockTimes } from '../db';
import { bytesToHex } from '../kaspa/bytes';
import { blockSubsidy, nextSubsidyChange, subsidyParamsFor } from '../kaspa/subsidy';
import { RestError } from './errors';
import type { KaspaRestData, RestRoute } from './route-types';
import { HOUR_MS, pythonIsoFormat, sompiToKas } from './route-support';

/**
 * kaspa-rest-server's hashrate history reads a table of 15-minute samples its HASHRATE_HISTORY exporter fills (off by
 * default); dagboard keeps no such table, so both routes answer as it does with the feature off.
 */
const HASHRATE_HISTORY_DISABLED = 'Hashrate history is disabled';

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

export const INFO_ROUTES: readonly RestRoute[] = info;
