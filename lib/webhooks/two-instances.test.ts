import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, createMeter, createSqlKeyStore } from '../api';
import { WEBHOOK_COSTS } from '../api/keys/costs';
import { appendStreamEvents, migrate, readStreamBounds, type Db, type NewStreamEvent } from '../db';
import { testBackends, type TestDatabase } from '../db/test-support/test-databases';
import { insertWebhook, listDeliveries } from '../db/webhooks';
import type { Env } from '../env';
import { newWebhookSecret } from '../api/endpoints/webhook-signature';
import { startWebhookWorker } from '../runtime/webhooks';

const block = (n: number): NewStreamEvent => ({ topic: 'block', address: null, data: { hash: `b${n}` } });

describe.each(testBackends())('webhooks of two app instances sharing the Redis meter, on $name', (backend) => {
  let opened: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    opened = await backend.open();
    db = opened.db;
    await migrate(db);
  }, 60_000);
  afterAll(() => opened.dispose());

  it('delivers each event once between them and charges each attempt once on the shared meter', async () => {
    const received: string[] = [];
    const server = createServer((request, response) => {
      received.push(String(request.headers['x-dagboard-event-id']));
      request.resume();
      request.on('end', () => response.writeHead(200).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const prefix = `dagboard-test-webhooks-${process.pid}-${Date.now()}`;
    const instances = [
      { db, meter: createMeter({ redisUrl: 'redis://127.0.0.1:6379', prefix }) },
      { db: await opened.openAnother(), meter: createMeter({ redisUrl: 'redis://127.0.0.1:6379', prefix }) },
    ];
    const now = new Date();
    const { record } = await createApiKey(createSqlKeyStore(db), { name: `webhooks ${prefix}`, now });
    const { latest } = await readStreamBounds(db);
    await db.transaction((tx) =>
      insertWebhook(
        tx,
        {
          id: `wh_${prefix}`,
          keyId: record.id,
          url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
          topics: ['block'],
          addresses: null,
          secret: newWebhookSecret(),
          createdAt: BigInt(now.getTime()),
        },
        10,
      ),
    );
    const config = { WEBHOOK_ALLOW_PRIVATE_TARGETS: true } as Env;
    const workers = instances.map((instance) =>
      startWebhookWorker({ db: instance.db, keys: createSqlKeyStore(instance.db), meter: instance.meter.meter, config, log: () => undefined }),
    );
    try {
      const events = Array.from({ length: 60 }, (_, n) => block(n));
      for (let batch = 0; batch < 6; batch++) {
        await db.transaction((tx) => appendStreamEvents(tx, events.slice(batch * 10, batch * 10 + 10), Date.now()));
        for (const worker of workers) worker.wake();
      }
      await expect.poll(() => received.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(60);
      await expect
        .poll(async () => (await listDeliveries(db, `wh_${prefix}`, null, 500)).filter((delivery) => delivery.deliveredAt !== null).length, { timeout: 30_000 })
        .toBe(60);
      expect(received).toHaveLength(60);
      expect(new Set(received).size).toBe(60);
      expect(received.every((id) => BigInt(id) > latest)).toBe(true);
      const usage = await instances[1]!.meter.meter.usage(record.id, record, Date.now());
      expect(usage.monthUsed).toBe(60 * WEBHOOK_COSTS.attempt);
    } finally {
      for (const worker of workers) await worker.stop();
      for (const instance of instances) await instance.meter.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }, 60_000);
});
