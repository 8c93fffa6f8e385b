import { expect, test } from '@playwright/test';
import { schnorrAddressFromPublicKey } from '../../lib/kaspa/address';
import { dagInfo, E2E_API_KEY, expectProblem, keyed, post } from './support';

test.describe('/v1 errors', () => {
  test.beforeAll(async ({ request }) => {
    await expect.poll(async () => (await request.get('/v1/rpc/getBlockDagInfo', { headers: keyed })).status(), {
      timeout: 90_000,
    }).toBe(200);
  });

  test('a missing key is a 401 missing_api_key, not metered', async ({ request }) => {
    const response = await request.get('/v1/rpc/getBlockDagInfo');
    await expectProblem(response, 401, 'missing_api_key');
    expect(response.headers()['x-request-cost-ru']).toBeUndefined();
  });

  test('an unknown key is a 401 invalid_api_key', async ({ request }) => {
    const response = await request.get('/v1/rpc/getBlockDagInfo', { headers: { 'x-api-key': `${E2E_API_KEY}x` } });
    await expectProblem(response, 401, 'invalid_api_key');
  });

  test('bad input is a 400 problem naming the field, and is charged', async ({ request }) => {
    const response = await post(request, '/v1/rpc/getBlock', { hash: 'xyz', includeTransactions: false });
    const body = await expectProblem(response, 400, 'invalid_hex');
    expect(body.errors).toEqual([{ path: 'body.hash', message: expect.any(String) }]);
    expect(response.headers()['x-request-cost-ru']).toBe('0.1');
  });

  test('an address of another network is a 400 invalid_address', async ({ request }) => {
    const mainnet = schnorrAddressFromPublicKey(new Uint8Array(32).fill(7), 'kaspa');
    const response = await post(request, '/v1/rpc/getUtxosByAddresses', { addresses: [mainnet] });
    const body = await expectProblem(response, 400, 'invalid_address');
    expect(body.errors).toEqual([{ path: 'body.addresses[0]', message: expect.stringContaining('kaspadev') }]);
  });

  test('an unknown block is a 404 block_not_found', async ({ request }) => {
    const response = await post(request, '/v1/rpc/getBlock', { hash: 'ab'.repeat(32), includeTransactions: false });
    await expectProblem(response, 404, 'block_not_found');
  });

  test('a transaction not in the mempool is a 404 mempool_entry_not_found', async ({ request }) => {
    const response = await post(request, '/v1/rpc/getMempoolEntry', { transactionId: 'cd'.repeat(32) });
    await expectProblem(response, 404, 'mempool_entry_not_found');
  });

  test('a wrong method is a 405 with Allow', async ({ request }) => {
    const get = await request.get('/v1/rpc/getBlock', { headers: keyed });
    await expectProblem(get, 405, 'method_not_allowed');
    expect(get.headers().allow).toBe('POST');
    const postToGet = await post(request, '/v1/rpc/getBlockDagInfo', {});
    await expectProblem(postToGet, 405, 'method_not_allowed');
    expect(postToGet.headers().allow).toBe('GET');
  });

  test('a body that is not JSON is a 415', async ({ request }) => {
    const response = await request.post('/v1/rpc/getBlock', {
      headers: { ...keyed, 'content-type': 'text/plain' },
      data: `{"hash":"${'ab'.repeat(32)}"}`,
    });
    await expectProblem(response, 415, 'unsupported_media_type');
  });

  test('malformed JSON is a 400 invalid_json', async ({ request }) => {
    const response = await request.post('/v1/rpc/getBlock', {
      headers: { ...keyed, 'content-type': 'application/json' },
      data: Buffer.from('{"hash": '),
    });
    await expectProblem(response, 400, 'invalid_json');
  });

  test('a body over the limit is a 413', async ({ request }) => {
    const response = await request.post('/v1/rpc/submitTransaction', {
      headers: { ...keyed, 'content-type': 'application/json' },
      data: JSON.stringify({ transaction: { payload: 'ab'.repeat(600_000) } }),
    });
    await expectProblem(response, 413, 'body_too_large');
  });

  test('an unknown /v1 path is a JSON 404 route_not_found', async ({ request }) => {
    await expectProblem(await request.get('/v1/rpc/getNothing', { headers: keyed }), 404, 'route_not_found');
    await expectProblem(await request.post('/v1/nothing/here', { headers: keyed }), 404, 'route_not_found');
  });

  test('CORS preflight answers without a key', async ({ request }) => {
    const response = await request.fetch('/v1/rpc/getBlock', { method: 'OPTIONS' });
    expect(response.status()).toBe(204);
    expect(response.headers()['access-control-allow-methods']).toBe('POST, OPTIONS');
    expect(response.headers()['access-control-allow-headers']).toContain('x-api-key');
  });

  test('unknown query parameters are refused', async ({ request }) => {
    const response = await request.get('/v1/rpc/getMempoolEntries?verbose=true', { headers: keyed });
    await expectProblem(response, 400, 'unknown_query_parameter');
  });

  test('usage is free and counts what the key spent', async ({ request }) => {
    const before = await (await request.get('/v1/usage', { headers: keyed })).json();
    await dagInfo(request);
    const response = await request.get('/v1/usage', { headers: keyed });
    expect(response.status()).toBe(200);
    expect(response.headers()['x-request-cost-ru']).toBe('0');
    const after = await response.json();
    expect(Number(after.month.ruUsed) - Number(before.month.ruUsed)).toBeCloseTo(0.1, 6);
  });
});
