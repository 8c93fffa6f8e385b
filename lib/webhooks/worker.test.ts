import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appendStreamEvents, migrate, type Db, type NewStreamEvent } from '../db';
import { testBackends, type TestDatabase } from '../db/test-support/test-databases';
import { getWebhook, insertWebhook, listDeliveries } from '../db/webhooks';
import { wireKey } from '../devnet/test-support/wire-devnet';
import { newWebhookSecret } from '../api/endpoints/webhook-signature';
import { backoffDelay, createWebhookWorker, type ChargeOutcome, type WebhookWorkerOptions } from './worker';

const alice = wireKey(41).address;
const bob = wireKey(42).address;

const block = (n: number): NewStreamEvent => ({ topic: 'block', address: null, data: { hash: `b${n}` } });
const payment = (address: string, n: number): NewStreamEvent => ({ topic: 'address', address, data: { address, transactionId: `t${n}`, status: 'included' } });

interface Received {
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A loopback receiver answering each request with the next status of `statuses` (the last one repeats). */
async function receiver(statuses: number[] = [200]) {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(statuses[Math.min(received.length - 1, statuses.length - 1)]!).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The README's verification recipe. */
function verifies(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const timestamp = String(headers['x-dagboard-timestamp']);
  const expected = `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
  const given = String(headers['x-dagboard-signature']);
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

describe.each(testBackends())('webhook delivery on $name', (backend) => {
  let opened: TestDatabase;
  let db: Db;
  let now: number;
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    opened = await backend.open();
    db = opened.db;
    await migrate(db);
  }, 60_000);
  afterAll(() => opened.dispose());
  beforeEach(async () => {
    await db.exec('TRUNCATE stream_events, stream_event_retention, webhooks, webhook_deliveries');
    now = Date.now();
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  const append = (events: NewStreamEvent[]) => db.transaction((tx) => appendStreamEvents(tx, events, now));
  const webhook = async (url: string, overrides: { topics?: ('block' | 'chain' | 'address')[]; addresses?: string[] | null } = {}) => {
    const secret = newWebhookSecret();
    const created = await db.transaction((tx) =>
      insertWebhook(
        tx,
        { id: `wh_${Math.random().toString(36).slice(2)}`, keyId: 'key_1', url, topics: overrides.topics ?? ['block', 'address'], addresses: overrides.addresses ?? null, secret, createdAt: BigInt(now) },
        10,
      ),
    );
    return { ...created!, secret };
  };
  const worker = (options: Partial<WebhookWorkerOptions> = {}) =>
    createWebhookWorker({ db, allowPrivateTargets: true, clock: () => now, random: () => 0.5, backoffBaseMs: 1_000, ...options });

  it('POSTs each matching event after the webhook was made, signed as the README shows, with its id and topic', async () => {
    const target = await receiver();
    closers.push(target.close);
    await append([block(0)]);
    const hook = await webhook(target.url, { topics: ['address'], addresses: [alice] });
    await append([payment(alice, 1), payment(bob, 2), block(1), payment(alice, 3)]);

    const report = await worker().tick();
    expect(report).toEqual({ enqueued: 2, attempted: 2, delivered: 2 });
    expect(target.received).toHaveLength(2);
    const bodies = target.received.map(({ body }) => JSON.parse(body) as Record<string, unknown>).sort((a, b) => Number(a.id) - Number(b.id));
    expect(bodies.map((body) => [body.topic, body.address, body.transactionId])).toEqual([
      ['address', alice, 't1'],
      ['address', alice, 't3'],
    ]);
    for (const { headers, body } of target.received) {
      expect(verifies(hook.secret, headers, body)).toBe(true);
      expect(verifies(newWebhookSecret(), headers, body)).toBe(false);
      expect(verifies(hook.secret, headers, body.replace('included', 'accepted'))).toBe(false);
      expect(headers['x-dagboard-event-id']).toBe((JSON.parse(body) as { id: string }).id);
      expect(headers['x-dagboard-timestamp']).toBe(String(Math.floor(now / 1000)));
    }
    const deliveries = await listDeliveries(db, hook.id, null, 10);
    expect(deliveries.every((delivery) => delivery.deliveredAt === BigInt(now) && delivery.attempts === 1 && delivery.lastStatus === 200)).toBe(true);
    expect(await worker().tick()).toEqual({ enqueued: 0, attempted: 0, delivered: 0 });
  });

  it('retries a delivery answered 500 after exponentially growing, jittered delays, then delivers it once', async () => {
    const target = await receiver([500, 500, 200]);
    closers.push(target.close);
    const hook = await webhook(target.url, { topics: ['block'] });
    await append([block(1)]);
    const run = worker({ backoffBaseMs: 1_000, random: () => 0.5 });

    const delays: number[] = [];
    expect((await run.tick()).attempted).toBe(1);
    for (let retry = 0; retry < 2; retry++) {
      const [pending] = await listDeliveries(db, hook.id, null, 1);
      const delay = Number(pending!.nextAttemptAt! - pending!.lastAttemptAt!);
      delays.push(delay);
      now += delay - 1;
      expect((await run.tick()).attempted).toBe(0);
      now += 1;
      expect((await run.tick()).attempted).toBe(1);
    }
    expect(delays).toEqual([backoffDelay(1, 1_000, 3_600_000, 0.5), backoffDelay(2, 1_000, 3_600_000, 0.5)]);
    expect(delays[1]).toBe(2 * delays[0]!);
    const [done] = await listDeliveries(db, hook.id, null, 1);
    expect(done).toMatchObject({ attempts: 3, lastStatus: 200, nextAttemptAt: null, deliveredAt: BigInt(now) });
    expect(target.received.map(({ headers }) => headers['x-dagboard-event-id'])).toEqual(Array(3).fill(String(done!.eventId)));
    expect((await getWebhook(db, 'key_1', hook.id))?.consecutiveFailures).toBe(0);
  });

  it('keeps jitter within half to all of the doubled delay, capped', () => {
    expect(backoffDelay(1, 1_000, 60_000, 0)).toBe(500);
    expect(backoffDelay(3, 1_000, 60_000, 0.999_999)).toBe(4_000);
    expect(backoffDelay(30, 1_000, 60_000, 0)).toBe(30_000);
  });

  it('disables a webhook whose delivery fails for the whole retry window, with the reason, and stops its deliveries', async () => {
    const target = await receiver([503]);
    closers.push(target.close);
    const hook = await webhook(target.url, { topics: ['block'] });
    await append([block(1), block(2)]);
    const run = worker({ backoffBaseMs: 1_000, retryWindowMs: 20_000 });
    const start = now;
    for (let round = 0; round < 50; round++) {
      await run.tick();
      if ((await getWebhook(db, 'key_1', hook.id))?.state === 'disabled') break;
      const due = (await listDeliveries(db, hook.id, null, 10)).map((delivery) => delivery.nextAttemptAt).filter((at) => at !== null);
      now = Number(due.reduce((low, at) => (at! < low! ? at : low)));
    }
    const disabled = await getWebhook(db, 'key_1', hook.id);
    expect(disabled?.state).toBe('disabled');
    expect(disabled?.disabledReason).toMatch(/failed on all \d+ attempts .*HTTP 503/);
    expect(now - start).toBeGreaterThanOrEqual(20_000);
    const deliveries = await listDeliveries(db, hook.id, null, 10);
    expect(deliveries.every((delivery) => delivery.nextAttemptAt === null && delivery.deliveredAt === null)).toBe(true);
    const attempts = target.received.length;
    await append([block(3)]);
    now += 3_600_000;
    expect(await run.tick()).toEqual({ enqueued: 0, attempted: 0, delivered: 0 });
    expect(target.received).toHaveLength(attempts);
  });

  it('charges each attempt before it: a spent second postpones it uncounted, a spent allowance disables the webhook', async () => {
    const target = await receiver();
    closers.push(target.close);
    const hook = await webhook(target.url, { topics: ['block'] });
    await append([block(1)]);
    const outcomes: ChargeOutcome[] = [{ outcome: 'rate_limited', retryAt: now + 400 }, { outcome: 'exhausted', detail: 'allowance_exhausted: spent' }];
    const charged: string[] = [];
    const run = worker({ charge: async (keyId) => (charged.push(keyId), outcomes.shift()!) });
    expect(await run.tick()).toMatchObject({ attempted: 1, delivered: 0 });
    const [postponed] = await listDeliveries(db, hook.id, null, 1);
    expect(postponed).toMatchObject({ attempts: 0, nextAttemptAt: BigInt(now + 400) });
    now += 400;
    await run.tick();
    expect(charged).toEqual(['key_1', 'key_1']);
    expect(target.received).toHaveLength(0);
    expect(await getWebhook(db, 'key_1', hook.id)).toMatchObject({ state: 'disabled', disabledReason: 'allowance_exhausted: spent' });
  });

  it('refuses at delivery a target that resolves to a private address unless allowed', async () => {
    const target = await receiver();
    closers.push(target.close);
    const hook = await webhook(target.url.replace('127.0.0.1', 'localhost'), { topics: ['block'] });
    await append([block(1)]);
    expect(await worker({ allowPrivateTargets: false }).tick()).toMatchObject({ attempted: 1, delivered: 0 });
    const [refused] = await listDeliveries(db, hook.id, null, 1);
    expect(refused?.lastError).toMatch(/private address/);
    expect(target.received).toHaveLength(0);
  });

  it('delivers each event exactly once with two workers on two connections', async () => {
    const target = await receiver();
    closers.push(target.close);
    const hooks = await Promise.all([webhook(`${target.url}?to=a`, { topics: ['block'] }), webhook(`${target.url}?to=b`, { topics: ['block'] })]);
    const events = Array.from({ length: 120 }, (_, n) => block(n));
    await append(events);
    const other = await opened.openAnother();
    const first = worker({ batchSize: 25 });
    const second = createWebhookWorker({ db: other, allowPrivateTargets: true, clock: () => now, batchSize: 25 });
    for (let round = 0; round < 20 && target.received.length < 240; round++) await Promise.all([first.tick(), second.tick()]);
    const seen = target.received.map(({ url, headers }) => `${url} ${headers['x-dagboard-event-id']}`);
    expect(seen).toHaveLength(240);
    expect(new Set(seen).size).toBe(240);
    for (const hook of hooks) {
      const deliveries = await listDeliveries(db, hook.id, null, 500);
      expect(deliveries).toHaveLength(120);
      expect(deliveries.every((delivery) => delivery.attempts === 1 && delivery.deliveredAt !== null)).toBe(true);
    }
  });
});
