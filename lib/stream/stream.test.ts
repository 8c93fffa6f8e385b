import { createServer, type Server } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { STREAM_COSTS } from '../api/keys/costs';
import { createApiKey, createMemoryKeyStore, type KeyStore } from '../api/keys/keys';
import { createMemoryMeter, type Meter } from '../api/keys/metering';
import type { NodeApiContext } from '../api/endpoints/node-endpoints';
import { appendStreamEvents, migrate, pruneStreamEvents, readStreamBounds, type Db, type NewStreamEvent } from '../db';
import { testBackends, type TestDatabase } from '../db/test-support/test-databases';
import { wireKey } from '../devnet/test-support/wire-devnet';
import { createStreamHub, type StreamHub } from './hub';
import { createStreamService, nextDelivery, type StreamLimits, type StreamService } from './service';
import { sseResponse } from './sse';
import { createWsUpgradeHandler } from './ws';

const alice = wireKey(31).address;
const bob = wireKey(32).address;

const block = (n: number): NewStreamEvent => ({ topic: 'block', address: null, data: { hash: `b${n}` } });
const COVENANT_A = 'aa'.repeat(32);
const COVENANT_B = 'bb'.repeat(32);
const covenantStep = (covenantId: string, n: number): NewStreamEvent => ({
  topic: 'covenant',
  address: null,
  subject: covenantId,
  data: { covenantId, transactionId: `c${n}`, kind: 'continuation', status: 'accepted' },
});
const tokenOp = (ticker: string, n: number): NewStreamEvent => ({ topic: 'token', address: null, subject: ticker, data: { ticker, op: 'transfer', n } });
const payment = (address: string, n: number, status = 'included'): NewStreamEvent => ({
  topic: 'address',
  address,
  data: { address, transactionId: `t${n}`, status },
});

interface SseMessage {
  id?: string;
  event: string;
  data: string;
}

/** Reads SSE messages from a response body until `count` (not counting comments) arrived or the body ended. */
async function readMessages(response: Response, count: number): Promise<{ messages: SseMessage[]; ended: boolean; cancel(): Promise<void> }> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const messages: SseMessage[] = [];
  let buffer = '';
  let ended = false;
  while (messages.length < count) {
    const { done, value } = await reader.read();
    if (done) {
      ended = true;
      break;
    }
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const message: SseMessage = { event: 'message', data: '' };
      let meaningful = false;
      for (const line of block.split('\n')) {
        const colon = line.indexOf(':');
        if (colon === 0) continue;
        const field = line.slice(0, colon);
        const value = line.slice(colon + 2);
        if (field === 'id') message.id = value;
        else if (field === 'event') message.event = value;
        else if (field === 'data') message.data = value;
        else continue;
        meaningful = true;
      }
      if (meaningful) messages.push(message);
    }
  }
  return { messages, ended, cancel: () => reader.cancel() };
}

describe.each(testBackends())('streams on $name', (backend) => {
  let opened: TestDatabase;
  let db: Db;
  let keys: KeyStore;
  let meter: Meter;
  let key: string;
  let keyId: string;
  let hub: StreamHub;
  let service: StreamService;
  const closers: (() => Promise<void> | void)[] = [];

  beforeAll(async () => {
    opened = await backend.open();
    db = opened.db;
    await migrate(db);
  }, 60_000);
  afterAll(() => opened.dispose());

  const serviceWith = (limits: Partial<StreamLimits> = {}) => {
    const api = {
      keys,
      meter,
      clock: () => Date.now(),
      logger: { error: () => undefined },
      addressPrefix: async () => 'kaspadev' as const,
      rpc: { call: () => Promise.reject(new Error('no node')) },
    } as unknown as NodeApiContext;
    return createStreamService({ hub, api, db, limits: { heartbeatMs: 200, ...limits } });
  };

  beforeEach(async () => {
    await db.exec('TRUNCATE stream_events, stream_event_retention');
    keys = createMemoryKeyStore();
    meter = createMemoryMeter();
    const created = await createApiKey(keys, { name: 'stream test', now: new Date() });
    key = created.key;
    keyId = created.record.id;
    hub = createStreamHub({ db, pollMs: 20 });
    await hub.ready;
    service = serviceWith();
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    hub.close();
  });

  const append = (events: NewStreamEvent[]) => db.transaction((tx) => appendStreamEvents(tx, events, Date.now()));
  const sse = (query: string, headers: Record<string, string> = {}) =>
    sseResponse(service, new Request(`http://test/v1/stream?${query}`, { headers: { 'x-api-key': key, ...headers } }));

  it('reads a subscription that fell behind the ring from the database, and tells one the pruner passed to resync', async () => {
    hub.close();
    hub = createStreamHub({ db, pollMs: 20, ringSize: 2, pageSize: 2 });
    await hub.ready;
    service = serviceWith();
    const { record } = await createApiKey(keys, { name: 'behind', now: new Date() });
    const behind = hub.subscribe(null, { topics: new Set(['block']), addresses: null });
    const passed = hub.subscribe(null, { topics: new Set(['block']), addresses: null });
    await append([block(1), block(2), block(3), block(4), block(5)]);
    await expect.poll(() => hub.head).toBeGreaterThan(0n);
    const read: unknown[] = [];
    while (read.length < 5) {
      const delivery = await nextDelivery(service, record, behind, 1_000);
      if (delivery.kind !== 'events') throw new Error(`expected events, got ${delivery.kind}`);
      read.push(...delivery.events.map((event) => JSON.parse(event.data) as unknown));
    }
    expect(read).toEqual([1, 2, 3, 4, 5].map((n) => block(n).data));

    await pruneStreamEvents(db, Date.now() + 1_000, 2);
    const delivery = await nextDelivery(service, record, passed, 1_000);
    expect(delivery.kind).toBe('resync');
    expect(passed.cursor).toBe(hub.head);
    behind.close();
    passed.close();
  });

  describe('SSE', () => {
    it('answers bad topics, bad addresses, a key in the URL and a missing key in the one problem shape', async () => {
      const unknown = await sse('topics=block,mempool-dust');
      expect(unknown.status).toBe(400);
      const problem = (await unknown.json()) as { code: string; errors: { path: string; message: string }[] };
      expect(problem.code).toBe('invalid_request');
      expect(problem.errors[0]!.path).toBe('query.topics');
      expect(problem.errors[0]!.message).toContain('"mempool-dust"');
      expect((await sse('')).status).toBe(400);
      const address = await sse('topics=address&addresses=kaspa:nope');
      expect(address.status).toBe(400);
      expect(((await address.json()) as { code: string }).code).toBe('invalid_address');
      expect(((await (await sse('topics=block&api_key=x')).json()) as { code: string }).code).toBe('api_key_in_query');
      const missing = await sseResponse(service, new Request('http://test/v1/stream?topics=block'));
      expect(missing.status).toBe(401);
      expect(missing.headers.get('content-type')).toBe('application/problem+json');
      expect((await meter.usage(keyId, { milliRuPerSecond: 50_000, milliRuPerMonth: 1e9 }, Date.now())).monthUsed).toBe(0);
    });

    it('delivers the matching events in order, and resumes after Last-Event-ID with each missed event once', async () => {
      const response = await sse(`topics=block,address&addresses=${alice}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      expect(response.headers.get('x-request-cost-ru')).toBe('0.1');
      await append([block(1), payment(alice, 1), payment(bob, 2), block(2)]);
      const first = await readMessages(response, 4);
      expect(first.messages.map((message) => message.event)).toEqual(['ready', 'block', 'address', 'block']);
      expect(first.messages.slice(1).map((message) => JSON.parse(message.data) as unknown)).toEqual([
        { hash: 'b1' },
        { address: alice, transactionId: 't1', status: 'included' },
        { hash: 'b2' },
      ]);
      const lastSeen = first.messages[2]!.id!;
      await first.cancel();

      await append([payment(alice, 3, 'accepted'), block(3)]);
      const resumed = await readMessages(await sse(`topics=block,address&addresses=${alice}`, { 'last-event-id': lastSeen }), 4);
      await resumed.cancel();
      expect(resumed.messages.map((message) => message.data)).toEqual([
        expect.stringContaining(`"cursor":"${lastSeen}"`),
        JSON.stringify({ hash: 'b2' }),
        JSON.stringify(payment(alice, 3, 'accepted').data),
        JSON.stringify({ hash: 'b3' }),
      ]);
      const ids = resumed.messages.slice(1).map((message) => BigInt(message.id!));
      expect(ids[0]).toBeGreaterThan(BigInt(lastSeen));
      expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : 1)));
    });

    it('filters covenant events by covenant id and token events by ticker (any case), refusing filters without their topic', async () => {
      const response = await sse(`topics=covenant,token&covenants=${COVENANT_A.toUpperCase()}&tickers=orbit`);
      expect(response.status).toBe(200);
      await append([covenantStep(COVENANT_B, 1), covenantStep(COVENANT_A, 2), tokenOp('NACHO', 3), tokenOp('ORBIT', 4), block(1)]);
      const read = await readMessages(response, 3);
      await read.cancel();
      expect(read.messages.slice(1).map((message) => [message.event, JSON.parse(message.data) as unknown])).toEqual([
        ['covenant', covenantStep(COVENANT_A, 2).data],
        ['token', tokenOp('ORBIT', 4).data],
      ]);
      const behind = await readMessages(await sse(`topics=covenant&covenants=${COVENANT_B}&since=0`), 2);
      await behind.cancel();
      expect(behind.messages.slice(1).map((message) => JSON.parse(message.data) as unknown)).toEqual([covenantStep(COVENANT_B, 1).data]);
      for (const [query, path] of [
        ['topics=block&tickers=ORBIT', 'query.tickers'],
        ['topics=covenant&covenants=abc', 'query.covenants[0]'],
        ['topics=token&tickers=NO', 'query.tickers[0]'],
      ] as const) {
        const refused = await sse(query);
        expect(refused.status).toBe(400);
        expect(((await refused.json()) as { errors: { path: string }[] }).errors[0]!.path).toBe(path);
      }
    });

    it('says resync_required for a cursor the log has pruned past, then follows from the head', async () => {
      await append([block(1), block(2)]);
      const { latest } = await readStreamBounds(db);
      await pruneStreamEvents(db, Date.now() + 1_000, 100);
      const response = await sse('topics=block', { 'last-event-id': '1' });
      const { messages, cancel } = await readMessages(response, 2);
      await cancel();
      expect(messages[0]!.event).toBe('resync_required');
      const body = JSON.parse(messages[0]!.data) as { cursor: string; prunedThrough: string; reread: string[] };
      expect(body.cursor).toBe('1');
      expect(body.prunedThrough).toBe(String(latest));
      expect(body.reread.length).toBeGreaterThan(0);
      expect(messages[0]!.id).toBe(String(latest));
      expect(messages[1]!.event).toBe('ready');
    });

    it('meters exactly: the connection and each event sent; an exhausted allowance ends the stream with the 402 event', async () => {
      const limits = { milliRuPerSecond: 1_000, milliRuPerMonth: 1_000 };
      const created = await createApiKey(keys, { name: 'small', limits, now: new Date() });
      await meter.charge(created.record.id, 1_000 - STREAM_COSTS.connection - 3 * STREAM_COSTS.event, created.record, Date.now());
      const response = await sseResponse(service, new Request('http://test/v1/stream?topics=block', { headers: { 'x-api-key': created.key } }));
      expect(response.status).toBe(200);
      await append([block(1), block(2), block(3), block(4), block(5)]);
      const { messages, ended } = await readMessages(response, 10);
      expect(ended).toBe(true);
      expect(messages.map((message) => message.event)).toEqual(['ready', 'block', 'block', 'block', 'error']);
      const problem = JSON.parse(messages.at(-1)!.data) as { status: number; code: string };
      expect(problem).toMatchObject({ status: 402, code: 'allowance_exhausted' });
      expect((await meter.usage(created.record.id, limits, Date.now())).monthUsed).toBe(1_000);
      const again = await sseResponse(service, new Request('http://test/v1/stream?topics=block', { headers: { 'x-api-key': created.key } }));
      expect(again.status).toBe(402);
    });

    it('tells a client that reads nothing while events wait that it was dropped, and ends its stream', async () => {
      service = serviceWith({ slowClientMs: 300 });
      const response = await sse('topics=block');
      const reader = response.body!.getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toContain('event: ready');
      await append([block(1)]);
      await expect.poll(() => hub.head).toBeGreaterThan(0n);
      await new Promise((resolve) => setTimeout(resolve, 100));
      await append([block(2)]);
      await expect.poll(() => service.openStreams(keyId), { timeout: 5_000 }).toBe(0);
      let text = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      expect(text).toContain('data: {"hash":"b1"}');
      expect(text).not.toContain('"b2"');
      const dropped = /event: dropped\ndata: (.*)\n/.exec(text);
      expect(JSON.parse(dropped![1]!)).toMatchObject({ reason: 'slow' });
    });

    it('limits open streams per key with 429 stream_limit, and frees the slot when a stream closes', async () => {
      service = serviceWith({ maxConnectionsPerKey: 1 });
      const first = await sse('topics=block');
      const reading = await readMessages(first, 1);
      const second = await sse('topics=block');
      expect(second.status).toBe(429);
      expect(((await second.json()) as { code: string }).code).toBe('stream_limit');
      await reading.cancel();
      expect(service.openStreams(keyId)).toBe(0);
      const third = await sse('topics=block');
      expect(third.status).toBe(200);
      await third.body!.cancel();
    });
  });

  describe('WebSocket', () => {
    let server: Server;
    let url: string;
    beforeEach(async () => {
      const upgrade = createWsUpgradeHandler(async () => service);
      server = createServer((_request, response) => response.writeHead(404).end());
      server.on('upgrade', upgrade);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const address = server.address() as { port: number };
      url = `ws://127.0.0.1:${address.port}/v1/ws`;
      closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    });

    interface Frame {
      type: string;
      id?: string | null;
      [field: string]: unknown;
    }

    async function connect(query = '', headers: Record<string, string> = { 'x-api-key': key }) {
      const socket = new WebSocket(`${url}${query}`, { headers });
      const frames: Frame[] = [];
      const waiters: (() => void)[] = [];
      socket.on('message', (data) => {
        frames.push(JSON.parse(String(data)) as Frame);
        for (const waiter of waiters.splice(0)) waiter();
      });
      await new Promise<void>((resolve, reject) => {
        socket.once('open', () => resolve());
        socket.once('error', reject);
      });
      closers.push(() => socket.close());
      const until = async (predicate: (seen: Frame[]) => boolean) => {
        while (!predicate(frames)) await new Promise<void>((resolve) => waiters.push(resolve));
      };
      return { socket, frames, until, send: (value: unknown) => socket.send(typeof value === 'string' ? value : JSON.stringify(value)) };
    }

    it('refuses an upgrade without a key with the HTTP problem response', async () => {
      const socket = new WebSocket(url);
      const status = await new Promise<number>((resolve) => socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0)));
      expect(status).toBe(401);
    });

    it('subscribes with acknowledgements, tags events with their subscriptions, and answers bad frames without closing', async () => {
      const client = await connect();
      client.send({ op: 'subscribe', id: 'mine', topic: 'address', addresses: [alice] });
      client.send({ op: 'subscribe', id: 'blocks', topic: 'block' });
      await client.until((frames) => frames.filter((frame) => frame.type === 'ack').length === 2);
      client.send('{not json');
      client.send({ op: 'subscribe', id: 'x', topic: 'mempool-dust' });
      client.send({ op: 'subscribe', id: 'far', topic: 'address', addresses: ['kaspa:nope'] });
      client.send({ op: 'unsubscribe', id: 'never' });
      await client.until((frames) => frames.filter((frame) => frame.type === 'error').length === 4);
      const errors = client.frames.filter((frame) => frame.type === 'error') as unknown as { id: string | null; error: { status: number; code: string } }[];
      expect(errors.map((frame) => [frame.id, frame.error.status, frame.error.code])).toEqual([
        [null, 400, 'invalid_json'],
        ['x', 400, 'invalid_request'],
        ['far', 400, 'invalid_address'],
        ['never', 400, 'invalid_request'],
      ]);

      await append([payment(bob, 1), payment(alice, 2), block(1)]);
      await client.until((frames) => frames.filter((frame) => frame.type === 'event').length === 2);
      const events = client.frames.filter((frame) => frame.type === 'event');
      expect(events.map((frame) => [frame.topic, frame.subscriptions, frame.data])).toEqual([
        ['address', ['mine'], payment(alice, 2).data],
        ['block', ['blocks'], { hash: 'b1' }],
      ]);
      client.send({ op: 'ping' });
      await client.until((frames) => frames.some((frame) => frame.type === 'pong'));
    });

    it('narrows covenant and token subscriptions by their keys, each event tagged with the subscriptions it matched', async () => {
      const client = await connect();
      client.send({ op: 'subscribe', id: 'a', topic: 'covenant', covenants: [COVENANT_A] });
      client.send({ op: 'subscribe', id: 'all-covenants', topic: 'covenant' });
      client.send({ op: 'subscribe', id: 'orbit', topic: 'token', tickers: ['Orbit'] });
      client.send({ op: 'subscribe', id: 'wrong', topic: 'block', tickers: ['ORBIT'] });
      await client.until((frames) => frames.filter((frame) => frame.type === 'ack' || frame.type === 'error').length === 4);
      const refused = client.frames.find((frame) => frame.type === 'error') as unknown as { id: string; error: { errors: { path: string }[] } };
      expect([refused.id, refused.error.errors[0]!.path]).toEqual(['wrong', 'message.tickers']);
      await append([covenantStep(COVENANT_B, 1), covenantStep(COVENANT_A, 2), tokenOp('NACHO', 3), tokenOp('ORBIT', 4)]);
      await client.until((frames) => frames.filter((frame) => frame.type === 'event').length === 3);
      expect(client.frames.filter((frame) => frame.type === 'event').map((frame) => [frame.topic, frame.subscriptions])).toEqual([
        ['covenant', ['all-covenants']],
        ['covenant', ['a', 'all-covenants']],
        ['token', ['orbit']],
      ]);
    });

    it('resumes with since: every missed event once and in order', async () => {
      const first = await connect();
      first.send({ op: 'subscribe', id: 'blocks', topic: 'block' });
      await first.until((frames) => frames.some((frame) => frame.type === 'ack'));
      await append([block(1), block(2)]);
      await first.until((frames) => frames.filter((frame) => frame.type === 'event').length === 2);
      const lastSeen = first.frames.filter((frame) => frame.type === 'event').at(-1)!.id!;
      first.socket.terminate();
      await expect.poll(() => service.openStreams(keyId)).toBe(0);

      await append([block(3), block(4)]);
      const second = await connect(`?since=${lastSeen}`);
      second.send({ op: 'subscribe', id: 'blocks', topic: 'block' });
      await append([block(5)]);
      await second.until((frames) => frames.filter((frame) => frame.type === 'event').length === 3);
      const events = second.frames.filter((frame) => frame.type === 'event');
      expect(events.map((frame) => frame.data)).toEqual([{ hash: 'b3' }, { hash: 'b4' }, { hash: 'b5' }]);
      expect((await meter.usage(keyId, { milliRuPerSecond: 50_000, milliRuPerMonth: 1e9 }, Date.now())).monthUsed).toBe(
        2 * STREAM_COSTS.connection + 5 * STREAM_COSTS.event,
      );
    });
  });
});
