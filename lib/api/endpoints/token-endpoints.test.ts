import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, type Db } from '../../db';
import { testBackends, type TestDatabase } from '../../db/test-support/test-databases';
import { createTokenIndexer } from '../../indexer/token-indexer';
import { fixedKasUsd, simulatedKasUsd } from '../../tokens/kas-usd';
import { DEPLOY_FEE_FLOOR, MINT_FEE_FLOOR } from '../../tokens/operations';
import { DEVNET_PROFILE } from '../../tokens/profile';
import { tokenRegistry } from '../../tokens/registry';
import { makeChain, storeChainCandidate, type StoredChainBlock } from '../../indexer/test-support/token-chain-index';
import { KAS, listingAddress, reveal, schnorrParty, sendInput, transaction, type Party } from '../../tokens/test-support/transactions';
import type { AcceptedTransaction } from '../../tokens/engine';
import { bytesToHex } from '../../kaspa/bytes';
import { endpointDefiner } from '../wrapper/endpoint';
import type { RouteContext } from '../http/http';
import { createIndexedReads } from './indexed-endpoints';
import { createApiKey, createMemoryKeyStore } from '../keys/keys';
import { createMemoryMeter } from '../keys/metering';
import {
  getTokenChartEndpoint,
  getTokenMetadataEndpoint,
  listTokensEndpoint,
  type TokenApiContext,
  type TokenServices,
} from './token-endpoints';

const owner = schnorrParty(30);
const alice = schnorrParty(31);
const bob = schnorrParty(32);
const BLOCK_ZERO_MS = 1_700_000_000_000;
/** Chain block n (DAA score 1000 + 10n) is stamped BLOCK_ZERO_MS + DAA × 1000 by the fixture. */
const NOW = BLOCK_ZERO_MS + 1200 * 1000;

function op(signer: Party, fields: Record<string, string>, fee = 0n, outputs?: { address: string; value: bigint }[]) {
  const total = (outputs ?? [{ address: signer.address, value: KAS }]).reduce((sum, output) => sum + output.value, 0n);
  return reveal({ signer, op: { p: 'krc-20', ...fields }, inputAmount: total + fee, outputs });
}

/** SERVICE-SPEC §2.9, field by field. */
const METADATA_FIELDS: Record<string, 'string' | 'number' | 'array'> = {
  ticker: 'string',
  maxSupply: 'number',
  mintLimit: 'number',
  decimal: 'number',
  totalMinted: 'number',
  preMint: 'number',
  opScoreCreated: 'number',
  opScoreUpdated: 'number',
  deployedAt: 'number',
  status: 'string',
  revealHash: 'string',
  holderTotal: 'number',
  transferTotal: 'number',
  mintTotal: 'number',
  deployerAddress: 'string',
  socialLinks: 'array',
  markets: 'array',
  iconUrl: 'string',
  burned: 'number',
};
const CANDLE_NUMBERS = ['open', 'high', 'low', 'close', 'open_kas', 'high_kas', 'low_kas', 'close_kas'];

function typeOf(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

interface Reply {
  status: number;
  headers: Headers;
  text: string;
  body: Record<string, unknown>;
}

describe.each(testBackends())('token endpoints on $name', (backend) => {
  let database: TestDatabase;
  let db: Db;
  let request: (definition: { id: string }, params: Record<string, string>, query?: string) => Promise<Reply>;
  let services: TokenServices;

  beforeAll(async () => {
    database = await backend.open();
    db = database.db;
    await migrate(db);
    let tip: StoredChainBlock | null = null;
    let daaScore = 1000n;
    const extend = async (transactions: AcceptedTransaction[]) => {
      daaScore += 10n;
      tip = await storeChainCandidate(db, { label: `c${daaScore}`, daaScore, parent: tip?.hash ?? null, transactions });
      await makeChain(db, [], [tip]);
    };
    await extend([
      op(owner, { op: 'deploy', tick: 'dagt', max: '100000000000000000000001', lim: '30000000000000000000', dec: '8', pre: '1000' }, DEPLOY_FEE_FLOOR + KAS),
    ]);
    await extend([op(alice, { op: 'mint', tick: 'dagt' }, MINT_FEE_FLOOR + KAS), op(bob, { op: 'mint', tick: 'dagt' }, MINT_FEE_FLOOR + KAS)]);
    await extend([op(alice, { op: 'transfer', tick: 'dagt', amt: '5', to: bob.address })]);
    await extend([op(owner, { op: 'deploy', tick: 'zzzz', max: '1000', lim: '10', dec: '0' }, DEPLOY_FEE_FLOOR + KAS)]);
    const list = op(alice, { op: 'list', tick: 'dagt', amt: '200000000' }, 0n, [{ address: listingAddress(alice, 'DAGT'), value: KAS }]);
    await extend([list]);
    await createTokenIndexer({ db, profile: DEVNET_PROFILE }).catchUp();
    const listTxId = bytesToHex((await db.query<{ tx_id: Uint8Array }>(`SELECT tx_id FROM token_ops WHERE op = 'list'`)).rows[0]!.tx_id);
    await extend([transaction([sendInput(alice, 'DAGT', listTxId)], [{ address: alice.address, value: 30n * KAS }, { address: bob.address, value: KAS }])]);
    await createTokenIndexer({ db, profile: DEVNET_PROFILE }).catchUp();

    services = {
      registry: tokenRegistry({
        tokens: {
          dagt: {
            iconUrl: 'https://example.com/dagt.svg',
            socialLinks: [{ type: 'website', url: 'https://example.com/dagt' }],
            markets: [{ name: 'Bazaar', url: 'https://example.com/bazaar' }],
          },
        },
      }),
      kasUsd: fixedKasUsd(0.5),
    };
    const rpc = { call: async () => ({ blueScore: 0n }) as never };
    const context: TokenApiContext = {
      keys: createMemoryKeyStore(),
      meter: createMemoryMeter(),
      clock: () => NOW,
      logger: { error: () => undefined },
      addressPrefix: async () => 'kaspadev',
      rpc,
      ...createIndexedReads({ db, rpc, clock: () => NOW }),
      get tokens() {
        return services;
      },
    };
    const { key } = await createApiKey(context.keys, {
      name: 'test',
      limits: { milliRuPerSecond: 10_000_000, milliRuPerMonth: 1_000_000_000 },
      now: new Date(NOW),
    });
    const define = endpointDefiner(() => context);
    request = async (definition, params, query = '') => {
      const handler = define(definition as never);
      const routeContext: RouteContext = { params: Promise.resolve(params) };
      const response = await handler(new Request(`http://localhost/v1/tokens/x${query}`, { headers: { 'x-api-key': key } }), routeContext);
      const text = await response.text();
      return { status: response.status, headers: response.headers, text, body: JSON.parse(text) as Record<string, unknown> };
    };
  }, 120_000);

  afterAll(async () => {
    await database?.dispose();
  });

  it('metadata: every §2.9 field with its type, quantities exact past 2^53, registry data, 0.01 RU', async () => {
    const reply = await request(getTokenMetadataEndpoint, { standard: 'tk20', ticker: 'DAGT' });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('x-request-cost-ru')).toBe('0.01');
    const result = reply.body.result as Record<string, unknown>;
    expect(Object.keys(result).sort()).toEqual(Object.keys(METADATA_FIELDS).sort());
    for (const [field, type] of Object.entries(METADATA_FIELDS)) expect([field, typeOf(result[field])]).toEqual([field, type]);
    expect(reply.text).toContain('"maxSupply":100000000000000000000001');
    expect(reply.text).toContain('"mintLimit":30000000000000000000');
    expect(reply.text).toContain('"totalMinted":60000000000000001000');
    expect(result).toMatchObject({
      ticker: 'DAGT',
      decimal: 8,
      preMint: 1000,
      opScoreCreated: 10100000,
      deployedAt: BLOCK_ZERO_MS + 1010 * 1000,
      status: 'deployed',
      holderTotal: 3,
      mintTotal: 2,
      transferTotal: 1,
      deployerAddress: owner.address,
      iconUrl: 'https://example.com/dagt.svg',
      socialLinks: [{ type: 'website', url: 'https://example.com/dagt' }],
      burned: 0,
    });
    expect(result.revealHash).toMatch(/^[0-9a-f]{64}$/);
    const [market] = result.markets as Record<string, never>[];
    expect(market).toEqual({
      name: 'Bazaar',
      tradingData: { price: { usd: 15 * 0.5 }, volume: { usd: 30 * 0.5 } },
      metadata: { name: 'Bazaar', iconUrl: '', url: 'https://example.com/bazaar' },
      lastUpdated: BLOCK_ZERO_MS + 1060 * 1000,
    });
  });

  it('metadata: krc20 alias, case-insensitive tickers, unknown → 404, other standards → 404', async () => {
    const alias = await request(getTokenMetadataEndpoint, { standard: 'KRC20', ticker: 'dAgT' });
    expect(alias.status).toBe(200);
    expect((alias.body.result as { ticker: string }).ticker).toBe('DAGT');
    const unknown = await request(getTokenMetadataEndpoint, { standard: 'tk20', ticker: 'NOPE' });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'token_not_found']);
    const malformed = await request(getTokenMetadataEndpoint, { standard: 'tk20', ticker: 'no-such!' });
    expect(malformed.status).toBe(404);
    const other = await request(getTokenMetadataEndpoint, { standard: 'brc20', ticker: 'DAGT' });
    expect([other.status, other.body.code]).toEqual([404, 'route_not_found']);
  });

  it('chart candles: both arrays, §2.10 candle fields, USD = KAS × rate', async () => {
    const reply = await request(getTokenChartEndpoint, { standard: 'tk20', ticker: 'dagt' }, '?type=candles&interval=1d');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('x-request-cost-ru')).toBe('0.01');
    expect(reply.body.stats).toEqual([]);
    const candles = reply.body.candles as Record<string, unknown>[];
    expect(candles.length).toBeGreaterThan(0);
    for (const candle of candles) {
      expect(typeof candle.timestamp).toBe('string');
      expect(candle.ticker).toBe('DAGT');
      for (const field of CANDLE_NUMBERS) expect(typeof candle[field]).toBe('number');
    }
    const traded = candles.find((candle) => candle.trades === 1)!;
    expect(traded).toMatchObject({ open_kas: 15, close_kas: 15, open: 7.5, close: 7.5, volume_kas: 30, volume: 15 });
    expect(reply.body.usdSource).toBe('fixed');
    expect(new Date(traded.timestamp as string).getTime() % (15 * 60_000)).toBe(0);
  });

  it('chart stats: cumulative {t, h, m, tf} per bucket and an empty candles array', async () => {
    const reply = await request(getTokenChartEndpoint, { standard: 'krc20', ticker: 'DAGT' }, '?type=stats&interval=7d');
    expect(reply.status).toBe(200);
    expect(reply.body.candles).toEqual([]);
    const stats = reply.body.stats as Record<string, number>[];
    expect(stats.at(-1)).toEqual({ t: expect.any(Number), h: 3, m: 2, tf: 1 });
    for (const item of stats) expect(Object.keys(item).sort()).toEqual(['h', 'm', 't', 'tf']);
  });

  it('chart: a bad type or interval is a 400 naming the allowed values', async () => {
    const badType = await request(getTokenChartEndpoint, { standard: 'tk20', ticker: 'DAGT' }, '?type=lines&interval=1d');
    expect(badType.status).toBe(400);
    expect(badType.body.detail).toMatch(/candles.*stats/);
    const badInterval = await request(getTokenChartEndpoint, { standard: 'tk20', ticker: 'DAGT' }, '?type=stats&interval=2d');
    expect(badInterval.status).toBe(400);
    expect(badInterval.body.detail).toMatch(/1d.*7d.*1m.*1y/);
    const missing = await request(getTokenChartEndpoint, { standard: 'tk20', ticker: 'DAGT' }, '?type=stats');
    expect(missing.status).toBe(400);
    const unknown = await request(getTokenChartEndpoint, { standard: 'tk20', ticker: 'NOPE' }, '?type=stats&interval=1d');
    expect(unknown.status).toBe(404);
  });

  it('the token list pages newest deploy first with cursors', async () => {
    const first = await request(listTokensEndpoint, { standard: 'tk20' }, '?limit=1');
    expect(first.status).toBe(200);
    expect(first.body.metadata).toEqual({ hasMore: true, count: 1 });
    const [newest] = first.body.tokens as Record<string, unknown>[];
    expect(newest).toMatchObject({ ticker: 'ZZZZ', price: null, holderTotal: 0, mintedPercent: 0 });
    const second = await request(listTokensEndpoint, { standard: 'tk20' }, '?limit=1&starting_after=zzzz');
    expect(second.body.metadata).toEqual({ hasMore: false, count: 1 });
    expect((second.body.tokens as Record<string, unknown>[])[0]).toMatchObject({
      ticker: 'DAGT',
      price: { kas: 15, usd: 7.5 },
      volume24h: { kas: 30, usd: 15, trades: 1 },
      iconUrl: 'https://example.com/dagt.svg',
    });
    const back = await request(listTokensEndpoint, { standard: 'tk20' }, '?ending_before=DAGT');
    expect((back.body.tokens as Record<string, unknown>[]).map((token) => token.ticker)).toEqual(['ZZZZ']);
    const unknown = await request(listTokensEndpoint, { standard: 'tk20' }, '?starting_after=NOPE');
    expect([unknown.status, unknown.body.code]).toEqual([400, 'unknown_cursor']);
  });

  it('labels the simulated KAS/USD series', async () => {
    services = { ...services, kasUsd: simulatedKasUsd('test', 0.1) };
    const reply = await request(getTokenChartEndpoint, { standard: 'tk20', ticker: 'DAGT' }, '?type=candles&interval=1y');
    expect(reply.body.usdSource).toBe('simulated');
    const [candle] = reply.body.candles as Record<string, number>[];
    expect(candle!.close! / candle!.close_kas!).toBeCloseTo(simulatedKasUsd('test', 0.1).rateAt(BLOCK_ZERO_MS + 1060 * 1000)!, 6);
  });
});
