import { expect, test } from '@playwright/test';

test('GET /api/health answers ok as JSON without caching', async ({ request }) => {
  const response = await request.get('/api/health');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('application/json');
  expect(response.headers()['cache-control']).toBe('no-store');
  expect(await response.json()).toEqual({ status: 'ok' });
});

test('GET /api/status reports the embedded devnet as a live, synced node', async ({ request }) => {
  const read = async () => {
    const response = await request.get('/api/status');
    expect(response.status()).toBe(200);
    expect(response.headers()['cache-control']).toBe('no-store');
    return response.json();
  };
  await expect.poll(async () => (await read()).ready, { timeout: 60_000 }).toBe(true);
  const first = await read();
  expect(first.node).toMatchObject({ kind: 'embedded-devnet', connected: true, network: 'devnet', isSynced: true });
  expect(first.indexer).toMatchObject({ ready: true });
  await expect
    .poll(async () => BigInt((await read()).node.virtualDaaScore), { timeout: 30_000 })
    .toBeGreaterThan(BigInt(first.node.virtualDaaScore));
});
