import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyVirtualChainChange,
  insertBlocks,
  insertTransactions,
  migrate,
  recordRetentionBound,
  writeCheckpoint,
  type Db,
  type TransactionRecord,
} from '../../db';
import {
  addressOf,
  covenantOutput,
  hashOf,
  payToAddressOutput,
  syntheticBlock,
  syntheticTransaction,
} from '../../db/test-support/fixtures';
import { testBackends, type TestDatabase } from '../../db/test-support/test-databases';
import { encodeAddress, decodeAddress } from '../../kaspa/address';
import { bytesToHex, compareBytes } from '../../kaspa/bytes';
import { parseJson } from '../../rpc/json';
import type { RpcMethodName, RpcResponse } from '../../rpc/types';
import type { RouteId } from '../keys/costs';
import { endpointDefiner } from '../wrapper/endpoint';
import type { RouteContext } from '../http/http';
import {
  createIndexedReads,
  getAddressSummaryEndpoint,
  getAddressTransactionsEndpoint,
  getBlocksByDaaScoreEndpoint,
  getCovenantEndpoint,
  getCovenantsEndpoint,
  getCovenantTransactionsEndpoint,
  getTransactionEndpoint,
  getTransactionsEndpoint,
  SETTLED_DEPTH,
  VIRTUAL_BLUE_SCORE_TTL_MS,
  type IndexedApiContext,
} from './indexed-endpoints';
import type { AddressTransactionView, IndexedTransactionView } from './indexed-format';
import { createApiKey, createMemoryKeyStore } from '../keys/keys';
import { createMemoryMeter } from '../keys/metering';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const ROOMY_LIMITS = { milliRuPerSecond: 10_000_000, milliRuPerMonth: 1_000_000_000 };
const idHex = (transaction: { transactionId: Uint8Array }) => bytesToHex(transaction.transactionId);

interface Reply {
  status: number;
  headers: Headers;
  body: never;
}

async function harness(db: Db, sinkBlueScore: () => bigint) {
  let now = NOW;
  const nodeCalls: RpcMethodName[] = [];
  const rpc = {
    async call<M extends RpcMethodName>(method: M): Promise<RpcResponse<M>> {
      nodeCalls.push(method);
      if (method !== 'getSinkBlueScore') throw new Error(`unexpected node call ${method}`);
      return { blueScore: sinkBlueScore() } as RpcResponse<M>;
    },
  };
  const clock = () => now;
  const context: IndexedApiContext = {
    keys: createMemoryKeyStore(),
    meter: createMemoryMeter(),
    clock,
    logger: { error: () => undefined },
    addressPrefix: async () => 'kaspadev',
    rpc,
    ...createIndexedReads({ db, rpc, clock }),
  };
  const { key } = await createApiKey(context.keys, { name: 'test', limits: ROOMY_LIMITS, now: new Date(NOW) });
  const define = endpointDefiner(() => context);
  const request = async (
    definition: { id: RouteId },
    init: { path?: string; params?: Record<string, string>; query?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<Reply> => {
    const method = definition.id.split(' ')[0]!;
    const handler = define(definition as never);
    const routeContext: RouteContext = { params: Promise.resolve(init.params ?? {}) };
    const response = await handler(
      new Request(`http://localhost${init.path ?? '/v1/x'}${init.query ?? ''}`, {
        method,
        headers: {
          'x-api-key': key,
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...init.headers,
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      }),
      routeContext,
    );
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: (text === '' ? null : parseJson(text)) as never };
  };
  return { request, nodeCalls, advance: (ms: number) => (now += ms) };
}

interface PageReply {
  status: number;
  body: { transactions: { transactionId: string }[]; metadata: { hasMore: boolean; count: number } };
}

/** Forward with starting_after to the end, then backward with ending_before to the head; the ids in page order. */
async function walk(page: (query: string) => Promise<PageReply>, limit: number, extra = '') {
  const forward: string[][] = [];
  let cursor: string | undefined;
  for (;;) {
    const reply = await page(`?limit=${limit}${extra}${cursor ? `&starting_after=${cursor}` : ''}`);
    const ids = reply.body.transactions.map((item) => item.transactionId);
    expect(reply.body.metadata.count).toBe(ids.length);
    expect(ids.length).toBeLessThanOrEqual(limit);
    forward.push(ids);
    if (!reply.body.metadata.hasMore) break;
    expect(ids).toHaveLength(limit);
    cursor = ids.at(-1);
  }
  const backward: string[][] = [forward.at(-1)!];
  let first = forward.at(-1)![0];
  while (first !== undefined) {
    const reply = await page(`?limit=${limit}${extra}&ending_before=${first}`);
    const ids = reply.body.transactions.map((item) => item.transactionId);
    if (ids.length === 0) break;
    backward.unshift(ids);
    if (!reply.body.metadata.hasMore) break;
    first = ids[0];
  }
  return { forward: forward.flat(), backward: backward.flat() };
}

describe.each(testBackends())('indexed endpoints on $name', (backend) => {
  let database: TestDatabase;
  let db: Db;
  let sink = 20_000n;

  const PAGED = 'paged';
  const HISTORY_SIZE = 25;
  const history = Array.from({ length: HISTORY_SIZE }, (_, index) =>
    syntheticTransaction(`paged ${index}`, 50_000n + BigInt(Math.floor(index / 3)), [], [
      payToAddressOutput(PAGED, BigInt(index + 1)),
    ]),
  );
  const acceptedIds = new Set(history.filter((_, index) => index % 4 !== 1).map(idHex));
  const newestFirst = [...history]
    .sort((x, y) =>
      x.blockTime === y.blockTime ? compareBytes(y.transactionId, x.transactionId) : x.blockTime > y.blockTime ? -1 : 1,
    )
    .map(idHex);

  const funding = syntheticTransaction('funding', 40_000n, [], [payToAddressOutput('alice', 5000n)]);
  const spend: TransactionRecord = {
    ...syntheticTransaction(
      'spend',
      40_001n,
      [{ previousTransactionId: funding.transactionId, previousIndex: 0, previousOutput: funding.outputs[0]! }],
      [payToAddressOutput('bob', 3000n), payToAddressOutput('alice', 1900n)],
    ),
    payload: Uint8Array.of(0xbe, 0xef),
  };
  const COVENANT = hashOf('endpoint covenant');
  const LINEAGE_SIZE = 25;
  const covenantFunding = syntheticTransaction('covenant funding', 39_000n, [], [payToAddressOutput('founder', 100_000n)]);
  const lineage = [covenantFunding];
  for (let index = 0; index < LINEAGE_SIZE; index++) {
    const previous = lineage.at(-1)!;
    lineage.push(
      syntheticTransaction(
        `covenant state ${index}`,
        60_000n + BigInt(Math.floor(index / 4)),
        [{ previousTransactionId: previous.transactionId, previousIndex: 0, previousOutput: previous.outputs[0]! }],
        [covenantOutput(`state ${index}`, 99_000n - BigInt(index), COVENANT, 0)],
      ),
    );
  }
  const covenantLineage = lineage.slice(1);
  const lineageNewestFirst = [...covenantLineage]
    .sort((x, y) =>
      x.blockTime === y.blockTime ? compareBytes(y.transactionId, x.transactionId) : x.blockTime > y.blockTime ? -1 : 1,
    )
    .map(idHex);

  const deepBlock = syntheticBlock({
    label: 'deep',
    daaScore: 1000n,
    parents: [],
    transactionIds: [funding.transactionId],
    isChainBlock: true,
  });
  const tipBlock = syntheticBlock({
    label: 'tip',
    daaScore: 19_990n,
    parents: [deepBlock.hash],
    transactionIds: [spend.transactionId, ...[...history, ...lineage].map((transaction) => transaction.transactionId)],
    isChainBlock: true,
  });

  beforeAll(async () => {
    database = await backend.open();
    db = database.db;
    await migrate(db);
    await db.transaction(async (tx) => {
      await insertBlocks(tx, [deepBlock, tipBlock]);
      await insertTransactions(tx, [funding, spend, ...history, ...lineage]);
      await applyVirtualChainChange(tx, {
        removedChainBlockHashes: [],
        added: [
          { acceptingBlockHash: deepBlock.hash, acceptedTransactionIds: [funding.transactionId] },
          {
            acceptingBlockHash: tipBlock.hash,
            acceptedTransactionIds: [
              spend.transactionId,
              ...history.filter((transaction) => acceptedIds.has(idHex(transaction))).map((t) => t.transactionId),
              ...lineage.map((transaction) => transaction.transactionId),
            ],
          },
        ],
      });
      await writeCheckpoint(tx, { name: 'virtual-chain', blockHash: tipBlock.hash, blueScore: 19_990n, daaScore: 19_990n });
    });
  }, 180_000);

  afterAll(async () => {
    await database?.dispose();
  });

  describe('GET /v1/transactions/{id}', () => {
    const get = (h: Awaited<ReturnType<typeof harness>>, id: string, query = '') =>
      h.request(getTransactionEndpoint, { params: { id }, query });

    it('answers the indexed view, with the payload only when asked', async () => {
      const h = await harness(db, () => sink);
      const plain = await get(h, idHex(spend));
      expect(plain.status).toBe(200);
      const { transaction } = plain.body as { transaction: IndexedTransactionView };
      expect(transaction).toMatchObject({
        transactionId: idHex(spend),
        blockTime: 40_001,
        mass: '2036',
        blockHashes: [bytesToHex(tipBlock.hash)],
        acceptingBlockHash: bytesToHex(tipBlock.hash),
        isAccepted: true,
        confirmations: Number(sink - tipBlock.header.blueScore),
        payload: '0x',
      });
      expect(transaction.inputs[0]?.previousOutput).toMatchObject({ amount: '5000', scriptPublicKeyAddress: addressOf('alice') });
      const withPayload = await get(h, idHex(spend), '?include_payload=true');
      expect((withPayload.body as { transaction: IndexedTransactionView }).transaction.payload).toBe('0xbeef');
      expect((await get(h, idHex(spend).toUpperCase())).status).toBe(200);
    });

    it('404 for an unknown transaction, 400 for a malformed id or flag', async () => {
      const h = await harness(db, () => sink);
      expect(await get(h, bytesToHex(hashOf('nowhere')))).toMatchObject({
        status: 404,
        body: { code: 'transaction_not_found' },
      });
      expect(await get(h, 'abc')).toMatchObject({ status: 400, body: { code: 'invalid_hex' } });
      expect((await get(h, idHex(spend), '?include_payload=yes')).status).toBe(400);
      expect((await get(h, idHex(spend), '?includePayload=true')).status).toBe(400);
    });

    it('404 naming the retention bound once history below it was deleted', async () => {
      const h = await harness(db, () => sink);
      const fromTime = 1_700_000_123_000n;
      await recordRetentionBound(db, {
        fromDaaScore: 4_321n,
        fromTime,
        policy: { days: 7, gigabytes: 4 },
        prunedBlocks: 1,
        prunedTransactions: 1,
      });
      try {
        const answer = await get(h, bytesToHex(hashOf('pruned long ago')));
        expect(answer).toMatchObject({ status: 404, body: { code: 'transaction_not_found' } });
        const { detail } = answer.body as { detail: string };
        expect(detail).toContain('DAA score 4321');
        expect(detail).toContain(new Date(Number(fromTime)).toISOString());
      } finally {
        await db.query('DELETE FROM history_retention');
      }
    });

    it('caches settled transactions for a minute and near-tip ones for a second, with an ETag', async () => {
      const h = await harness(db, () => sink);
      const settled = await get(h, idHex(funding));
      expect(sink - deepBlock.header.blueScore).toBeGreaterThanOrEqual(SETTLED_DEPTH);
      expect(settled.headers.get('cache-control')).toBe('private, max-age=60');
      const etag = settled.headers.get('etag');
      expect(etag).toMatch(/^".+"$/);
      const again = await h.request(getTransactionEndpoint, {
        params: { id: idHex(funding) },
        headers: { 'if-none-match': etag! },
      });
      expect(again.status).toBe(304);
      const nearTip = await get(h, idHex(spend));
      expect(nearTip.headers.get('cache-control')).toBe('private, max-age=1');
    });
  });

  describe('POST /v1/transactions', () => {
    it('answers the known transactions in the order asked, each once', async () => {
      const h = await harness(db, () => sink);
      const ids = [idHex(spend), bytesToHex(hashOf('unknown')), idHex(funding), idHex(spend)];
      const reply = await h.request(getTransactionsEndpoint, { body: { transactionIds: ids, includePayload: true } });
      expect(reply.status).toBe(200);
      const { transactions } = reply.body as { transactions: IndexedTransactionView[] };
      expect(transactions.map((transaction) => transaction.transactionId)).toEqual([idHex(spend), idHex(funding)]);
      expect(transactions[0]?.payload).toBe('0xbeef');
    });

    it('refuses more than 500 ids with a 400 naming the limit', async () => {
      const h = await harness(db, () => sink);
      const ids = Array.from({ length: 501 }, (_, index) => bytesToHex(hashOf(`id ${index}`)));
      const reply = await h.request(getTransactionsEndpoint, { body: { transactionIds: ids } });
      expect(reply).toMatchObject({ status: 400, body: { code: 'limit_exceeded' } });
      expect(JSON.stringify(reply.body)).toContain('500');
    });

    it('reads the sink blue score once for many transactions, and again only after the TTL', async () => {
      const h = await harness(db, () => sink);
      const body = { transactionIds: history.map(idHex) };
      await h.request(getTransactionsEndpoint, { body });
      await h.request(getTransactionsEndpoint, { body });
      expect(h.nodeCalls).toEqual(['getSinkBlueScore']);
      h.advance(VIRTUAL_BLUE_SCORE_TTL_MS);
      await h.request(getTransactionsEndpoint, { body });
      expect(h.nodeCalls).toEqual(['getSinkBlueScore', 'getSinkBlueScore']);
    });
  });

  describe('GET /v1/addresses/{address}/transactions', () => {
    const pagedAddress = addressOf(PAGED);

    async function page(h: Awaited<ReturnType<typeof harness>>, query: string, address = pagedAddress) {
      const reply = await h.request(getAddressTransactionsEndpoint, { params: { address }, query });
      return reply as { status: number; body: { transactions: AddressTransactionView[]; metadata: { hasMore: boolean; count: number } } };
    }

    const walkHistory = (h: Awaited<ReturnType<typeof harness>>, limit: number, extra = '') =>
      walk((query) => page(h, query), limit, extra);

    it('walking forward then backward with every limit 1..100 returns each transaction once, newest first', { timeout: 180_000 }, async () => {
      const h = await harness(db, () => sink);
      for (let limit = 1; limit <= 100; limit += 1) {
        const { forward, backward } = await walkHistory(h, limit);
        expect(forward).toEqual(newestFirst);
        expect(backward).toEqual(newestFirst);
      }
    });

    it('accepted_only keeps the accepted transactions, in the same order', async () => {
      const h = await harness(db, () => sink);
      const expected = newestFirst.filter((id) => acceptedIds.has(id));
      for (const limit of [1, 4, 7, 100]) {
        const { forward, backward } = await walkHistory(h, limit, '&accepted_only=true');
        expect(forward).toEqual(expected);
        expect(backward).toEqual(expected);
      }
    });

    it('before_time keeps the transactions below a time: a walk that starts at a date, both ways, with every cursor', async () => {
      const h = await harness(db, () => sink);
      const byId = new Map(history.map((item) => [idHex(item), item.blockTime]));
      const times = [...new Set(history.map((item) => item.blockTime))].sort((a, b) => (a < b ? -1 : 1));
      const at = times[Math.floor(times.length / 2)]!;
      const expected = newestFirst.filter((id) => byId.get(id)! < at);
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThan(newestFirst.length);
      for (const limit of [1, 3, 100]) {
        const { forward, backward } = await walkHistory(h, limit, `&before_time=${at}`);
        expect(forward).toEqual(expected);
        expect(backward).toEqual(expected);
      }
      const bad = await page(h, '?before_time=yesterday');
      expect(bad.status).toBe(400);
    });

    it('writes amounts in sompi with a signed balance change and the fee', async () => {
      const h = await harness(db, () => sink);
      const reply = await page(h, '', addressOf('alice'));
      expect(reply.status).toBe(200);
      expect(reply.body.metadata).toEqual({ hasMore: false, count: 2 });
      expect(reply.body.transactions.map((item) => [item.transactionId, item.amountSent, item.amountReceived, item.balanceChange, item.fee])).toEqual([
        [idHex(spend), '5000', '1900', '-3100', '100'],
        [idHex(funding), '0', '5000', '5000', '0'],
      ]);
    });

    it("the address summary counts the history and sums the accepted transactions' amounts", async () => {
      const h = await harness(db, () => sink);
      for (const address of [addressOf('alice'), pagedAddress]) {
        const history = (await page(h, '?limit=100', address)).body.transactions;
        const accepted = history.filter((item) => item.isAccepted);
        const sum = (field: 'amountSent' | 'amountReceived') => accepted.reduce((total, item) => total + BigInt(item[field]), 0n).toString();
        const times = history.map((item) => item.blockTime);
        const reply = await h.request(getAddressSummaryEndpoint, { params: { address } });
        expect(reply.status).toBe(200);
        expect(reply.body).toEqual({
          address,
          transactionCount: history.length,
          acceptedTransactionCount: accepted.length,
          totalReceived: sum('amountReceived'),
          totalSent: sum('amountSent'),
          firstActivity: Math.min(...times),
          lastActivity: Math.max(...times),
        });
      }
      const unseen = encodeAddress({ ...decodeAddress(pagedAddress), payload: new Uint8Array(32).fill(9) });
      expect((await h.request(getAddressSummaryEndpoint, { params: { address: unseen } })).body).toMatchObject({
        transactionCount: 0,
        totalReceived: '0',
        firstActivity: null,
      });
      const wrongNetwork = await h.request(getAddressSummaryEndpoint, { params: { address: encodeAddress({ ...decodeAddress(pagedAddress), prefix: 'kaspa' }) } });
      expect(wrongNetwork).toMatchObject({ status: 400, body: { code: 'invalid_address' } });
    });

    it('reads a percent-encoded or upper-case address as the same address; an empty history is a valid page', async () => {
      const h = await harness(db, () => sink);
      const encoded = await page(h, '?limit=100', encodeURIComponent(pagedAddress));
      expect(encoded.body.transactions.map((item) => item.transactionId)).toEqual(newestFirst);
      const upper = await page(h, '?limit=100', pagedAddress.toUpperCase());
      expect(upper.body.metadata.count).toBe(HISTORY_SIZE);
      const unseen = encodeAddress({ ...decodeAddress(pagedAddress), payload: new Uint8Array(32).fill(9) });
      expect((await page(h, '', unseen)).body).toEqual({ transactions: [], metadata: { hasMore: false, count: 0 } });
    });

    it('refuses bad addresses with the reason, both cursors, unknown cursors and limits outside 1..100', async () => {
      const h = await harness(db, () => sink);
      const mainnet = encodeAddress({ ...decodeAddress(pagedAddress), prefix: 'kaspa' });
      const wrongNetwork = await page(h, '', mainnet);
      expect(wrongNetwork).toMatchObject({ status: 400, body: { code: 'invalid_address', errors: [{ path: 'path.address' }] } });
      expect(JSON.stringify(wrongNetwork.body)).toContain('kaspadev');
      const badChecksum = await page(h, '', `${pagedAddress.slice(0, -1)}${pagedAddress.endsWith('q') ? 'p' : 'q'}`);
      expect(badChecksum).toMatchObject({ status: 400, body: { code: 'invalid_address' } });
      const [a, b] = newestFirst;
      expect(await page(h, `?starting_after=${a}&ending_before=${b}`)).toMatchObject({
        status: 400,
        body: { code: 'conflicting_cursors' },
      });
      const unknown = bytesToHex(hashOf('not a transaction'));
      expect(await page(h, `?starting_after=${unknown}`)).toMatchObject({
        status: 400,
        body: { code: 'unknown_cursor', errors: [{ path: 'query.starting_after' }] },
      });
      expect(await page(h, `?ending_before=${unknown}`)).toMatchObject({
        status: 400,
        body: { code: 'unknown_cursor', errors: [{ path: 'query.ending_before' }] },
      });
      for (const limit of ['0', '101', '-1', '2.5', 'ten', '']) {
        expect(await page(h, `?limit=${limit}`)).toMatchObject({ status: 400, body: { code: 'limit_out_of_range' } });
      }
    });
  });

  describe('covenants', () => {
    const covenantHex = bytesToHex(COVENANT);
    const lineagePage = (h: Awaited<ReturnType<typeof harness>>, query: string, id = covenantHex) =>
      h.request(getCovenantTransactionsEndpoint, { params: { covenantId: id }, query }) as Promise<PageReply>;

    it('GET /v1/covenants/{id}/transactions: every limit 1..100 walks the lineage once, newest first, both ways', { timeout: 180_000 }, async () => {
      const h = await harness(db, () => sink);
      for (let limit = 1; limit <= 100; limit += 1) {
        const { forward, backward } = await walk((query) => lineagePage(h, query), limit);
        expect(forward).toEqual(lineageNewestFirst);
        expect(backward).toEqual(lineageNewestFirst);
      }
    });

    it('the lineage carries the indexed view with the covenant extensions', async () => {
      const h = await harness(db, () => sink);
      const reply = await lineagePage(h, '?limit=100&include_payload=true');
      expect(reply.status).toBe(200);
      const transactions = reply.body.transactions as IndexedTransactionView[];
      const genesis = transactions.find((transaction) => transaction.transactionId === idHex(covenantLineage[0]!))!;
      expect(genesis.outputs[0]!.covenant).toEqual({ authorizingInput: 0, covenantId: covenantHex });
      expect(genesis.inputs[0]!.previousOutput.covenantId).toBeNull();
      const continuation = transactions.find((transaction) => transaction.transactionId === idHex(covenantLineage[1]!))!;
      expect(continuation.inputs[0]!.previousOutput.covenantId).toBe(covenantHex);
      expect(continuation).toMatchObject({ isAccepted: true, version: 0, computeMass: '2036', storageMass: '2036' });
    });

    it('GET /v1/covenants/{id}: the summary and the current UTXO as getUtxosByAddresses writes it', async () => {
      const h = await harness(db, () => sink);
      const reply = await h.request(getCovenantEndpoint, { params: { covenantId: covenantHex.toUpperCase() } });
      expect(reply.status).toBe(200);
      const last = covenantLineage.at(-1)!;
      expect(reply.body).toEqual({
        covenant: {
          covenantId: covenantHex,
          genesisTransactionId: idHex(covenantLineage[0]!),
          createdAt: Number(covenantLineage[0]!.blockTime),
          lastTransactionId: lineageNewestFirst[0],
          lastActivityAt: Number(last.blockTime),
          state: 'active',
          utxoCount: 1,
          currentUtxos: [
            {
              address: addressOf(`state ${LINEAGE_SIZE - 1}`),
              outpoint: { transactionId: idHex(last), index: 0 },
              amount: String(last.outputs[0]!.amount),
              scriptPublicKey: { version: 0, script: bytesToHex(last.outputs[0]!.scriptPublicKey.script) },
              blockDaaScore: String(tipBlock.header.daaScore),
              isCoinbase: false,
              covenantId: covenantHex,
            },
          ],
        },
      });
    });

    it('GET /v1/covenants lists it; bad ids, unknown covenants and cursors answer the one error shape', async () => {
      const h = await harness(db, () => sink);
      const list = await h.request(getCovenantsEndpoint, { query: '?limit=5' });
      expect(list).toMatchObject({
        status: 200,
        body: { covenants: [{ covenantId: covenantHex, state: 'active' }], metadata: { hasMore: false, count: 1 } },
      });
      const unknown = bytesToHex(hashOf('no such covenant'));
      expect(await h.request(getCovenantEndpoint, { params: { covenantId: unknown } })).toMatchObject({
        status: 404,
        body: { code: 'covenant_not_found' },
      });
      expect(await lineagePage(h, '', unknown)).toMatchObject({ status: 404, body: { code: 'covenant_not_found' } });
      expect(await h.request(getCovenantEndpoint, { params: { covenantId: 'xyz' } })).toMatchObject({
        status: 400,
        body: { code: 'invalid_hex' },
      });
      expect(await lineagePage(h, `?starting_after=${unknown}`)).toMatchObject({
        status: 400,
        body: { code: 'unknown_cursor', errors: [{ path: 'query.starting_after' }] },
      });
      expect(await h.request(getCovenantsEndpoint, { query: `?ending_before=${unknown}` })).toMatchObject({
        status: 400,
        body: { code: 'unknown_cursor', errors: [{ path: 'query.ending_before' }] },
      });
      const [a, b] = lineageNewestFirst;
      expect(await lineagePage(h, `?starting_after=${a}&ending_before=${b}`)).toMatchObject({
        status: 400,
        body: { code: 'conflicting_cursors' },
      });
      expect(await h.request(getCovenantsEndpoint, { query: '?limit=101' })).toMatchObject({
        status: 400,
        body: { code: 'limit_out_of_range' },
      });
    });
  });

  describe('GET /v1/blocks/daa-score/{start}/{end}', () => {
    const range = (h: Awaited<ReturnType<typeof harness>>, start: string, end: string, query = '') =>
      h.request(getBlocksByDaaScoreEndpoint, { params: { daa_score_start: start, daa_score_end: end }, query });

    it('answers blocks, and their transactions when asked', async () => {
      const h = await harness(db, () => sink);
      const blocksOnly = await range(h, '19000', '20000');
      expect(blocksOnly.status).toBe(200);
      const body = blocksOnly.body as { blocks: { hash: string; daaScore: number; transactionIds: string[] }[]; transactions: unknown[] };
      expect(body.blocks.map((block) => [block.hash, block.daaScore])).toEqual([[bytesToHex(tipBlock.hash), 19_990]]);
      expect(body.transactions).toEqual([]);
      const withTransactions = await range(h, '0', '1000', '?include_transactions=true&include_payload=true');
      const full = withTransactions.body as { transactions: IndexedTransactionView[] };
      expect(full.transactions.map((transaction) => transaction.transactionId)).toEqual([idHex(funding)]);
      const chainOnly = await range(h, '0', '1000', '?chain_blocks_only=true');
      expect((chainOnly.body as { blocks: unknown[] }).blocks).toHaveLength(1);
    });

    it('refuses a range wider than 1000 naming the limit, a reversed range and non-numbers', async () => {
      const h = await harness(db, () => sink);
      const wide = await range(h, '0', '1001');
      expect(wide).toMatchObject({ status: 400, body: { code: 'limit_exceeded' } });
      expect(JSON.stringify(wide.body)).toContain('1000');
      expect((await range(h, '0', '1000')).status).toBe(200);
      expect(await range(h, '10', '9')).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
      expect((await range(h, 'x', '9')).status).toBe(400);
      expect((await range(h, '-1', '9')).status).toBe(400);
    });

    it('is immutable deep below the indexed tip and short-lived near it', async () => {
      const h = await harness(db, () => sink);
      const deep = await range(h, '500', '1500');
      expect(deep.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
      expect(deep.headers.get('etag')).not.toBeNull();
      const nearTip = await range(h, '19000', '20000');
      expect(nearTip.headers.get('cache-control')).toBe('private, max-age=1');
      const empty = await range(h, '3000', '3100');
      expect(empty.headers.get('cache-control')).toBe('private, max-age=1');
    });
  });

  it('confirmations follow the sink blue score', async () => {
    sink = 30_000n;
    const h = await harness(db, () => sink);
    const reply = await h.request(getTransactionEndpoint, { params: { id: idHex(funding) } });
    expect((reply.body as { transaction: IndexedTransactionView }).transaction.confirmations).toBe(
      Number(30_000n - deepBlock.header.blueScore),
    );
  });
});
