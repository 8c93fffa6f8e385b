import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { E2E_API_KEY } from './settings';

/** The keys the app holds: the seeded one and the two it made for itself under DATA_DIR (playwright.config.ts). */
function appKeys(): string[] {
  const kept = ['server-api-key', 'demo-api-key'].map((file) => readFileSync(join('data', 'e2e', file), 'utf8').trim());
  return [E2E_API_KEY, ...kept];
}

test('GET /metrics counts /v1 calls served by the fast path and holds no key material', async ({ request }) => {
  const route = 'GET /v1/rpc/getBlockDagInfo';
  expect((await request.get('/v1/rpc/getBlockDagInfo', { headers: { 'x-api-key': E2E_API_KEY } })).status()).toBe(200);
  expect((await request.get('/v1/rpc/getBlockDagInfo')).status()).toBe(401);

  const response = await request.get('/metrics');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await response.text();
  const families = parsePrometheusTextFormat(text);
  const sample = (name: string, labels: Record<string, string> = {}) =>
    Number(
      families
        .find((family) => family.name === name)
        ?.metrics.find((each) => Object.entries(labels).every(([label, value]) => each.labels?.[label] === value))?.value,
    );

  expect(sample('dagboard_http_requests_total', { route, status: '200' })).toBeGreaterThanOrEqual(1);
  expect(sample('dagboard_http_requests_total', { route, status: '401' })).toBeGreaterThanOrEqual(1);
  expect(sample('dagboard_api_refused_total', { status: '401' })).toBeGreaterThanOrEqual(1);
  const seededId = `seed_${createHash('sha256').update(E2E_API_KEY).digest('hex').slice(0, 16)}`;
  expect(sample('dagboard_api_ru_charged_total', { key_id: seededId })).toBeGreaterThan(0);
  expect(sample('dagboard_node_connection_state', { state: 'open' })).toBe(1);
  expect(sample('dagboard_node_block_count')).toBeGreaterThan(0);
  expect(sample('dagboard_indexer_indexing')).toBe(1);
  expect(sample('process_resident_memory_bytes')).toBeGreaterThan(0);
  // The embedded devnet reports its own thread's heap, which the process figures leave out.
  expect(sample('dagboard_devnet_heap_bytes', { state: 'used' })).toBeGreaterThan(0);
  expect(sample('dagboard_devnet_heap_bytes', { state: 'total' })).toBeGreaterThanOrEqual(sample('dagboard_devnet_heap_bytes', { state: 'used' }));
  expect(Number.isFinite(sample('nodejs_eventloop_lag_p99_seconds'))).toBe(true);

  for (const key of appKeys()) {
    expect(text).not.toContain(key);
    expect(text).not.toContain(createHash('sha256').update(key).digest('hex'));
  }
});
