/**
 * Webhook delivery (issue 19): deliveries per second to a loopback receiver and the delay from an event's append to
 * its receipt (p50/p99). An in-memory PGlite log gets `block` events at --rate per second (in batches of 10, as the
 * indexer commits) until --events; --webhooks webhooks each receive every one, through the real worker (enqueue,
 * leases, signed POSTs), woken on each append as the indexer wakes it. Baseline, same run and receiver: the same
 * number of signed POSTs sent straight from a loop with the worker's concurrency (no database). Stops by itself
 * when everything arrived or after --timeout seconds.
 *
 * Options: --events 2000, --webhooks 4, --rate 500, --timeout 90. `npm run bench:webhooks`.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { appendStreamEvents, migrate, openDb } from '../lib/db';
import { insertWebhook } from '../lib/db/webhooks';
import { newWebhookSecret, signDelivery } from '../lib/api/endpoints/webhook-signature';
import { createWebhookWorker, WEBHOOK_DEFAULTS } from '../lib/webhooks/worker';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '2000' },
    webhooks: { type: 'string', default: '4' },
    rate: { type: 'string', default: '500' },
    timeout: { type: 'string', default: '90' },
  },
});
const events = Number(values.events);
const webhookCount = Number(values.webhooks);
const rate = Number(values.rate);
const deadline = Date.now() + Number(values.timeout) * 1000;
const expected = events * webhookCount;

const appendedAt = new Map<string, number>();
const delays: number[] = [];
let received = 0;
let onReceipt: (() => void) | undefined;

const server = createServer((incoming, response) => {
  incoming.resume();
  incoming.on('end', () => {
    const id = String(incoming.headers['x-dagboard-event-id']);
    const at = appendedAt.get(id);
    if (at !== undefined) delays.push(performance.now() - at);
    received++;
    response.writeHead(204).end();
    onReceipt?.();
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;

const untilReceived = (count: number) =>
  new Promise<boolean>((resolve) => {
    const check = () => {
      if (received >= count) resolve(true);
      else if (Date.now() > deadline) resolve(false);
    };
    onReceipt = check;
    const timer = setInterval(check, 200);
    timer.unref();
    check();
  });

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;

// Baseline: the same signed POSTs straight from a loop, as many at once as the worker sends.
const secret = newWebhookSecret();
const body = JSON.stringify({ id: '1', topic: 'block', hash: 'b' });
const baselineStart = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: WEBHOOK_DEFAULTS.batchSize }, async () => {
    while (next < expected && Date.now() < deadline) {
      next++;
      const timestamp = String(Math.floor(Date.now() / 1000));
      await new Promise<void>((resolve, reject) => {
        const post = request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-dagboard-timestamp': timestamp, 'x-dagboard-signature': signDelivery(secret, timestamp, body) } }, (response) => {
          response.resume();
          response.on('end', resolve);
        });
        post.on('error', reject);
        post.end(body);
      });
    }
  }),
);
const baselineSeconds = (performance.now() - baselineStart) / 1000;
const baselineRate = received / baselineSeconds;
received = 0;
delays.length = 0;

const db = await openDb({ url: 'memory://' });
await migrate(db);
for (let index = 0; index < webhookCount; index++) {
  await db.transaction((tx) =>
    insertWebhook(tx, { id: `wh_bench${index}`, keyId: 'bench', url, topics: ['block'], addresses: null, secret: newWebhookSecret(), createdAt: BigInt(Date.now()) }, webhookCount),
  );
}
const worker = createWebhookWorker({ db, allowPrivateTargets: true, pollMs: 50 });
worker.start();
const start = performance.now();
const batch = 10;
for (let sent = 0; sent < events && Date.now() < deadline; sent += batch) {
  const count = Math.min(batch, events - sent);
  const at = performance.now();
  await db.transaction(async (tx) => {
    await appendStreamEvents(tx, Array.from({ length: count }, (_, n) => ({ topic: 'block' as const, address: null, data: { hash: `b${sent + n}` } })), Date.now());
    const { rows } = await tx.query<{ id: bigint }>('SELECT id FROM stream_events ORDER BY id DESC LIMIT $1', [count]);
    for (const row of rows) appendedAt.set(row.id.toString(), at);
  });
  worker.wake();
  const due = start + ((sent + count) / rate) * 1000;
  const wait = due - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}
const complete = await untilReceived(expected);
const seconds = (performance.now() - start) / 1000;
await worker.stop();
const sorted = delays.sort((a, b) => a - b);
const { rows } = await db.query<{ delivered: bigint; attempts: bigint }>(
  'SELECT count(*) FILTER (WHERE delivered_at IS NOT NULL) AS delivered, sum(attempts) AS attempts FROM webhook_deliveries',
);
console.log(
  [
    `webhooks: ${events} events × ${webhookCount} webhooks at ${rate} events/s, loopback receiver, in-memory PGlite`,
    `  delivered ${received}/${expected}${complete ? '' : ' (timed out)'} in ${seconds.toFixed(1)} s: ${(received / seconds).toFixed(0)} deliveries/s` +
      ` (recorded delivered ${rows[0]?.delivered}, attempts ${rows[0]?.attempts})`,
    `  append → receipt p50 ${percentile(sorted, 50).toFixed(0)} ms, p99 ${percentile(sorted, 99).toFixed(0)} ms, max ${(sorted.at(-1) ?? NaN).toFixed(0)} ms`,
    `  baseline (signed POSTs from a loop, ${WEBHOOK_DEFAULTS.batchSize} at once, no database): ${baselineRate.toFixed(0)} POSTs/s`,
  ].join('\n'),
);
await db.close();
server.close();
process.exit(complete ? 0 : 1);
