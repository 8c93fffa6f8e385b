import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, type Db } from '../../db';
import { testBackends, type TestDatabase } from '../../db/test-support/test-databases';
import { bytesToHex } from '../../kaspa/bytes';
import type { AcceptedTransaction } from '../../tokens/engine';
import { createTokenIndexer } from '../../indexer/token-indexer';
import { fixedKasUsd } from '../../tokens/kas-usd';
import { DEPLOY_FEE_FLOOR, MINT_FEE_FLOOR } from '../../tokens/operations';
import { DEVNET_PROFILE } from '../../tokens/profile';
import { tokenRegistry } from '../../tokens/registry';
import { makeChain, storeChainCandidate, type StoredChainBlock } from '../../indexer/test-support/token-chain-index';
import { KAS, listingAddress, reveal, schnorrParty, sendInput, transaction, type Party } from '../../tokens/test-support/transactions';
import { endpointDefiner } from '../wrapper/endpoint';
import type { RouteContext } from '../http/http';
import { createIndexedReads } from './indexed-endpoints';
import { createApiKey, createMemoryKeyStore } from '../keys/keys';
import { createMemoryMeter } from '../keys/metering';
import {
  getTokenFillsEndpoint,
  getTokenHoldersEndpoint,
  getTokenOperationsEndpoint,
  getTransactionTokenOperationsEndpoint,
  getAddressTokenBalancesEndpoint,
} from './token-activity-endpoints';
import { getKasUsdEndpoint } from './kas-usd-endpoint';
import type { TokenApiContext } from './token-endpoints';

const owner = schnorrParty(40);
const alice = schnorrParty(41);
const bob = schnorrParty(42);
const BLOCK_ZERO_MS = 1_700_000_000_000;
const NOW = BLOCK_ZERO_MS + 1200 * 1000;
const LIM = 30_000_000_000_000_000_000n;
const LISTED = 200_000_000n;

function op(signer: Party, fields: Record<string, string>, fee = 0n, outputs?: { address: string; value: bigint }[]) {
  const total = (outputs ?? [{ address: signer.address, value: KAS }]).reduce((sum, output) => sum + output.value, 0n);
  return reveal({ signer, op: { p: 'krc-20', ...fields }, inputAmount: total + fee, outputs });
}

interface Reply {
  status: number;
  text: string;
  cost: string | null;
  body: Record<string, unknown>;
}

type Row = Record<string, unknown>;

describe.each(testBackends())('token activity endpoints on $name', (backend) => {
  let database: TestDatabase;
  let db: Db;
  let request: (definition: { id: string }, ticker: string, query?: string, standard?: string) => Promise<Reply>;
  let requestOfTransaction: (transactionId: string, standard?: string) => Promise<Reply>;
  let requestOfAddress: (address: string) => Promise<Reply>;
  let requestPrices: (query: string) => Promise<Reply>;

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
      op(owner, { op: 'deploy', tick: 'actv', max: '100000000000000000000001', lim: LIM.toString(), dec: '8', pre: '1000' }, DEPLOY_FEE_FLOOR + KAS),
    ]);
    await extend([op(alice, { op: 'mint', tick: 'actv' }, MINT_FEE_FLOOR + KAS), op(bob, { op: 'mint', tick: 'actv' }, MINT_FEE_FLOOR + KAS)]);
    await extend([op(alice, { op: 'transfer', tick: 'actv', amt: '5', to: bob.address })]);
    await extend([op(owner, { op: 'transfer', tick: 'actv', amt: '5000', to: bob.address })]);
    await extend([op(alice, { op: 'list', tick: 'actv', amt: LISTED.toString() }, 0n, [{ address: listingAddress(alice, 'ACTV'), value: KAS }])]);
    await createTokenIndexer({ db, profile: DEVNET_PROFILE }).catchUp();
    const listTxId = bytesToHex((await db.query<{ tx_id: Uint8Array }>(`SELECT tx_id FROM token_ops WHERE op = 'list'`)).rows[0]!.tx_id);
    await extend([transaction([sendInput(alice, 'ACTV', listTxId)], [{ address: alice.address, value: 30n * KAS }, { address: bob.address, value: KAS }])]);
    await createTokenIndexer({ db, profile: DEVNET_PROFILE }).catchUp();

    const rpc = { call: async () => ({ blueScore: 0n }) as never };
    const context: TokenApiContext = {
      keys: createMemoryKeyStore(),
      meter: createMemoryMeter(),
      clock: () => NOW,
      logger: { error: () => undefined },
      addressPrefix: async () => 'kaspadev',
      rpc,
      ...createIndexedReads({ db, rpc, clock: () => NOW }),
      tokens: { registry: tokenRegistry({ tokens: {} }), kasUsd: fixedKasUsd(0.5) },
    };
    const { key } = await createApiKey(context.keys, {
      name: 'test',
      limits: { milliRuPerSecond: 10_000_000, milliRuPerMonth: 1_000_000_000 },
      now: new Date(NOW),
    });
    const define = endpointDefiner(() => context);
    request = async (definition, ticker, query = '', standard = 'tk20') => {
      const handler = define(definition as never);
      const routeContext: RouteContext = { params: Promise.resolve({ standard, ticker }) };
      const response = await handler(new Request(`http://localhost/v1/tokens/x${query}`, { headers: { 'x-api-key': key } }), routeContext);
      const text = await response.text();
      return { status: response.status, text, cost: response.headers.get('x-request-cost-ru'), body: JSON.parse(text) as Record<string, unknown> };
    };
    requestOfTransaction = async (transactionId, standard = 'tk20') => {
      const handler = define(getTransactionTokenOperationsEndpoint as never);
      const routeContext: RouteContext = { params: Promise.resolve({ standard, transactionId }) };
      const response = await handler(new Request('http://localhost/v1/tokens/x/operations/y', { headers: { 'x-api-key': key } }), routeContext);
      const text = await response.text();
      return { status: response.status, text, cost: response.headers.get('x-request-cost-ru'), body: JSON.parse(text) as Record<string, unknown> };
    };
    requestPrices = async (query) => {
      const handler = define(getKasUsdEndpoint as never);
      const response = await handler(new Request(`http://localhost/v1/prices/kas-usd${query}`, { headers: { 'x-api-key': key } }), {
        params: Promise.resolve({}),
      });
      const text = await response.text();
      return { status: response.status, text, cost: response.headers.get('x-request-cost-ru'), body: JSON.parse(text) as Record<string, unknown> };
    };
    requestOfAddress = async (address) => {
      const handler = define(getAddressTokenBalancesEndpoint as never);
      const routeContext: RouteContext = { params: Promise.resolve({ standard: 'krc20', address }) };
      const response = await handler(new Request('http://localhost/v1/tokens/x/balances/y', { headers: { 'x-api-key': key } }), routeContext);
      const text = await response.text();
      return { status: response.status, text, cost: response.headers.get('x-request-cost-ru'), body: JSON.parse(text) as Record<string, unknown> };
    };
  }, 120_000);

  afterAll(async () => {
    await database?.dispose();
  });

  it('holders: largest first, exact integers past 2^53, address cursors, 0.01 RU', async () => {
    const first = await request(getTokenHoldersEndpoint, 'actv', '?limit=1');
    expect([first.status, first.cost]).toEqual([200, '0.01']);
    expect(first.body.metadata).toEqual({ hasMore: true, count: 1 });
    expect(first.text).toContain(`"balance":${LIM + 5n + LISTED}`);
    expect(first.body.holders).toEqual([{ address: bob.address, balance: expect.any(Number), locked: 0 }]);
    const second = await request(getTokenHoldersEndpoint, 'ACTV', `?limit=1&starting_after=${bob.address}`);
    expect((second.body.holders as Row[]).map((holder) => holder.address)).toEqual([alice.address]);
    expect(second.text).toContain(`"balance":${LIM - 5n - LISTED}`);
    const last = await request(getTokenHoldersEndpoint, 'actv', `?starting_after=${alice.address}`);
    expect(last.body).toEqual({ holders: [{ address: owner.address, balance: 1000, locked: 0 }], metadata: { hasMore: false, count: 1 } });
    const unknown = await request(getTokenHoldersEndpoint, 'actv', '?starting_after=kaspadev:nobody');
    expect([unknown.status, unknown.body.code]).toEqual([400, 'unknown_cursor']);
  });

  it('operations: every op newest first, failed ones with their opError, opScore cursors', async () => {
    const seen: Row[] = [];
    let cursor = '';
    for (let pages = 0; pages < 10; pages++) {
      const reply = await request(getTokenOperationsEndpoint, 'actv', `?limit=2${cursor}`);
      expect([reply.status, reply.cost]).toEqual([200, '0.01']);
      const operations = reply.body.operations as Row[];
      seen.push(...operations);
      const metadata = reply.body.metadata as { hasMore: boolean; count: number };
      expect(metadata.count).toBe(operations.length);
      if (!metadata.hasMore) break;
      cursor = `&starting_after=${String(operations.at(-1)!.opScore)}`;
    }
    expect(seen.map((row) => row.op)).toEqual(['send', 'list', 'transfer', 'transfer', 'mint', 'mint', 'deploy']);
    const scores = seen.map((row) => BigInt(row.opScore as number));
    expect(scores).toEqual([...scores].sort((a, b) => (a < b ? 1 : -1)));
    expect(new Set(scores).size).toBe(scores.length);
    const failed = seen.filter((row) => !row.accepted);
    expect(failed).toEqual([
      expect.objectContaining({ op: 'transfer', from: owner.address, to: bob.address, amount: 5000, opError: expect.any(String) }),
    ]);
    for (const row of seen) {
      expect(Object.keys(row).sort()).toEqual(
        ['accepted', 'amount', 'fee', 'from', 'op', 'opError', 'opScore', 'timestamp', 'to', 'transactionId'].sort(),
      );
      expect(row.transactionId).toMatch(/^[0-9a-f]{64}$/);
      expect(row.timestamp).toBeGreaterThan(BLOCK_ZERO_MS);
    }
    expect(seen.find((row) => row.op === 'deploy')!.fee).toBe(Number(DEPLOY_FEE_FLOOR + KAS));
  });

  it("a transaction's ops: each op record by its transaction id with the token's ticker and decimals, 0.01 RU", async () => {
    const { operations } = (await request(getTokenOperationsEndpoint, 'actv', '?limit=100')).body as { operations: Row[] };
    expect(operations.length).toBe(7);
    for (const operation of operations) {
      const reply = await requestOfTransaction((operation.transactionId as string).toUpperCase(), 'KRC20');
      expect([reply.status, reply.cost]).toEqual([200, '0.01']);
      expect(reply.body.operations).toEqual([{ ticker: 'ACTV', decimals: 8, iconUrl: '', ...operation }]);
    }
    const failed = operations.find((operation) => !operation.accepted)!;
    expect(((await requestOfTransaction(failed.transactionId as string)).body.operations as Row[])[0]!.opError).toEqual(expect.any(String));
    const none = await requestOfTransaction('ab'.repeat(32));
    expect([none.status, none.body]).toEqual([200, { operations: [] }]);
    const bad = await requestOfTransaction('xyz');
    expect([bad.status, (bad.body.errors as Row[])[0]!.path]).toEqual([400, 'path.transactionId']);
    const standard = await requestOfTransaction('ab'.repeat(32), 'brc20');
    expect([standard.status, standard.body.code]).toEqual([404, 'route_not_found']);
  });

  it("an address's tokens: each token it holds with exact balances and decimals, none for a stranger, 0.01 RU", async () => {
    const bobs = await requestOfAddress(bob.address);
    expect([bobs.status, bobs.cost]).toEqual([200, '0.01']);
    expect(bobs.body.balances).toEqual([{ ticker: 'ACTV', decimals: 8, balance: expect.any(Number), locked: 0, iconUrl: '' }]);
    expect(bobs.text).toContain(`"balance":${LIM + 5n + LISTED}`);
    const owners = await requestOfAddress(owner.address);
    expect(owners.body.balances).toEqual([{ ticker: 'ACTV', decimals: 8, balance: 1000, locked: 0, iconUrl: '' }]);
    const stranger = await requestOfAddress(schnorrParty(43).address);
    expect([stranger.status, stranger.body]).toEqual([200, { balances: [] }]);
    const bad = await requestOfAddress('kaspadev:nothing');
    expect([bad.status, (bad.body.errors as Row[])[0]!.path]).toEqual([400, 'path.address']);
  });

  it('KAS/USD at given times, in the order asked, now by default, with its source', async () => {
    const asked = await requestPrices(`?times=${NOW},${BLOCK_ZERO_MS}`);
    expect([asked.status, asked.cost]).toEqual([200, '0.01']);
    expect(asked.body).toEqual({ source: 'fixed', rates: [{ time: NOW, usd: 0.5 }, { time: BLOCK_ZERO_MS, usd: 0.5 }] });
    expect((await requestPrices('')).body).toEqual({ source: 'fixed', rates: [{ time: NOW, usd: 0.5 }] });
    for (const bad of ['?times=', '?times=abc', '?times=1,,2', `?times=${Array.from({ length: 101 }, (_, index) => index).join(',')}`]) {
      const reply = await requestPrices(bad);
      expect([bad, reply.status, (reply.body.errors as Row[])[0]!.path]).toEqual([bad, 400, 'query.times']);
    }
  });

  it('fills: newest first with KAS and USD prices per whole token', async () => {
    const reply = await request(getTokenFillsEndpoint, 'actv', '', 'KRC20');
    expect([reply.status, reply.cost]).toEqual([200, '0.01']);
    const [fill] = reply.body.fills as Row[];
    expect(reply.body.metadata).toEqual({ hasMore: false, count: 1 });
    expect(fill).toEqual({
      opScore: expect.any(Number),
      transactionId: expect.stringMatching(/^[0-9a-f]{64}$/),
      seller: alice.address,
      buyer: bob.address,
      amount: Number(LISTED),
      priceSompi: Number(30n * KAS),
      priceKas: 15,
      priceUsd: 7.5,
      timestamp: BLOCK_ZERO_MS + 1060 * 1000,
    });
    const older = await request(getTokenFillsEndpoint, 'actv', `?starting_after=${String(fill!.opScore)}`);
    expect(older.body).toEqual({ fills: [], metadata: { hasMore: false, count: 0 } });
  });

  it('unknown tickers are 404, bad cursors and limits are 400 problems', async () => {
    for (const definition of [getTokenHoldersEndpoint, getTokenOperationsEndpoint, getTokenFillsEndpoint]) {
      const unknown = await request(definition, 'NOPE');
      expect([unknown.status, unknown.body.code]).toEqual([404, 'token_not_found']);
      const limit = await request(definition, 'actv', '?limit=0');
      expect([limit.status, limit.body.code]).toEqual([400, 'limit_out_of_range']);
      const standard = await request(definition, 'actv', '', 'brc20');
      expect([standard.status, standard.body.code]).toEqual([404, 'route_not_found']);
    }
    for (const definition of [getTokenOperationsEndpoint, getTokenFillsEndpoint]) {
      for (const cursor of ['abc', '-1', '9223372036854775808', '1.5']) {
        const bad = await request(definition, 'actv', `?starting_after=${cursor}`);
        expect([cursor, bad.status, bad.body.code]).toEqual([cursor, 400, 'invalid_request']);
        expect((bad.body.errors as Row[])[0]!.path).toBe('query.starting_after');
      }
    }
  });
});
