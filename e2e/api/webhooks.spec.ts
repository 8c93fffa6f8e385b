/**
 * Webhooks on the live devnet: a webhook made through /v1 with a loopback receiver (the e2e server allows private
 * targets) gets signed block events that verify with the documented recipe, each event once; its deliveries are
 * listed as delivered; its owner reads and deletes it; after that it is gone.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { json, keyed, post } from './support';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** The README's recipe, applied to the raw body. */
function verifies(secret: string, headers: IncomingHttpHeaders, rawBody: string): boolean {
  const timestamp = String(headers['x-dagboard-timestamp']);
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const expected = Buffer.from(`v1=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`);
  const given = Buffer.from(String(headers['x-dagboard-signature']));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

test('a webhook receives signed block events once each, lists its deliveries and is deleted by its owner', async ({ request }) => {
  test.setTimeout(180_000);
  const received: Received[] = [];
  const receiver = createServer((incoming, response) => {
    let body = '';
    incoming.setEncoding('utf8');
    incoming.on('data', (chunk: string) => (body += chunk));
    incoming.on('end', () => {
      received.push({ headers: incoming.headers, body });
      response.writeHead(204).end();
    });
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  try {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const created = await json<{ id: string; secret: string; url: string; topics: string[]; state: string }>(
      await post(request, '/v1/webhooks', { url, topics: ['block'] }),
    );
    expect(created).toMatchObject({ url, topics: ['block'], state: 'active' });
    expect(created.secret).toMatch(/^whsec_/);

    // Blocks come ten a second; a few deliveries are enough.
    await expect.poll(() => received.length, { timeout: 90_000 }).toBeGreaterThanOrEqual(3);
    const ids = new Set<string>();
    for (const { headers, body } of received) {
      expect(verifies(created.secret, headers, body), body.slice(0, 200)).toBe(true);
      expect(verifies('whsec_not-the-secret', headers, body)).toBe(false);
      const event = JSON.parse(body) as { id: string; topic: string; hash?: string };
      expect(event.topic).toBe('block');
      expect(event.id).toBe(headers['x-dagboard-event-id']);
      expect(ids.has(event.id), `event ${event.id} delivered twice`).toBe(false);
      ids.add(event.id);
    }

    const read = await json<{ id: string; secret?: string }>(await request.get(`/v1/webhooks/${created.id}`, { headers: keyed }));
    expect(read.id).toBe(created.id);
    expect(read).not.toHaveProperty('secret');
    const { webhooks } = await json<{ webhooks: { id: string }[] }>(await request.get('/v1/webhooks', { headers: keyed }));
    expect(webhooks.map((webhook) => webhook.id)).toContain(created.id);
    const { deliveries } = await json<{ deliveries: { eventId: string; state: string }[] }>(
      await request.get(`/v1/webhooks/${created.id}/deliveries`, { headers: keyed }),
    );
    const delivered = deliveries.filter((delivery) => delivery.state === 'delivered').map((delivery) => delivery.eventId);
    expect(delivered.length).toBeGreaterThan(0);
    // A delivery is recorded as delivered only after the receiver answered, so it has been received by now.
    const receivedIds = received.map(({ body }) => (JSON.parse(body) as { id: string }).id);
    for (const eventId of delivered) expect(receivedIds, `delivery ${eventId} recorded but not received`).toContain(eventId);
    expect(new Set(receivedIds).size, 'no event delivered twice').toBe(receivedIds.length);

    expect(await json(await request.delete(`/v1/webhooks/${created.id}`, { headers: keyed }))).toEqual({ id: created.id, deleted: true });
    const gone = await request.get(`/v1/webhooks/${created.id}`, { headers: keyed });
    expect(gone.status()).toBe(404);
    expect((await gone.json()) as { code: string }).toMatchObject({ code: 'webhook_not_found' });
  } finally {
    receiver.close();
  }
});
