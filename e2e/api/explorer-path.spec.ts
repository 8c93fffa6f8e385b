import { expect, test } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { expectProblem } from './support';

const DAG_INFO = '/api/explorer/v1/rpc/getBlockDagInfo';

test.describe('the explorer path to /v1 (server key held privately)', () => {
  test.beforeAll(async ({ request }) => {
    await expect.poll(async () => (await request.get(DAG_INFO)).status(), { timeout: 90_000 }).toBe(200);
  });

  test('serves /v1 without a browser key, with the client budget instead of the server key budget', async ({ request }) => {
    const response = await request.get(DAG_INFO, { headers: { 'x-forwarded-for': '198.51.100.1' } });
    expect(response.status()).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body.network).toBe('devnet');
    const headers = response.headers();
    expect(headers['x-request-cost-ru']).toBe('0.1');
    expect(headers['ratelimit-limit']).toBe('50');
    expect(headers['x-ru-remaining']).toBeUndefined();
  });

  test('ignores a key sent by the browser and never echoes the server key', async ({ request }) => {
    const serverKey = (await readFile('data/e2e/server-api-key', 'utf8')).trim();
    const response = await request.get(DAG_INFO, { headers: { 'x-api-key': 'not-a-key' } });
    expect(response.status()).toBe(200);
    const raw = JSON.stringify(response.headers()) + (await response.text());
    expect(raw).not.toContain(serverKey);
  });

  test('passes path parameters and POST bodies through', async ({ request }) => {
    const dag = (await (await request.get(DAG_INFO)).json()) as { sink: string };
    const response = await request.post('/api/explorer/v1/rpc/getBlock', {
      data: { hash: dag.sink, includeTransactions: false },
    });
    expect(response.status()).toBe(200);
    const { block } = (await response.json()) as { block: { verboseData: { hash: string } } };
    expect(block.verboseData.hash).toBe(dag.sink);
    const missing = await request.get(`/api/explorer/v1/transactions/${'ab'.repeat(32)}`);
    await expectProblem(missing, 404, 'transaction_not_found');
  });

  test('answers unknown paths and methods with the problem shape', async ({ request }) => {
    await expectProblem(await request.get('/api/explorer/v1/nothing'), 404, 'route_not_found');
    await expectProblem(await request.get('/api/explorer/v2/rpc/getBlockDagInfo'), 404, 'route_not_found');
    await expectProblem(await request.post(DAG_INFO, { data: {} }), 405, 'method_not_allowed');
  });
});
