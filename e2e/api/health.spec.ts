import { expect, test } from '@playwright/test';

test('GET /api/health answers ok as JSON without caching', async ({ request }) => {
  const response = await request.get('/api/health');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('application/json');
  expect(response.headers()['cache-control']).toBe('no-store');
  expect(await response.json()).toEqual({ status: 'ok' });
});

test('GET /api/status reports readiness as JSON', async ({ request }) => {
  const response = await request.get('/api/status');
  expect(response.status()).toBe(200);
  const body = await response.json();
  expect(typeof body.ready).toBe('boolean');
  expect(body.uptimeSeconds).toBeGreaterThanOrEqual(0);
  expect(body).toHaveProperty('node');
  expect(body).toHaveProperty('indexer');
});
