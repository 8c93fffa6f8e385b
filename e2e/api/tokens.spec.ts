import { expect, test } from '@playwright/test';
import { json, keyed } from './support';

test.describe('token endpoints (served by the app on its devnet)', () => {
  test('the list answers a page with paging metadata, at 0.01 RU', async ({ request }) => {
    const response = await request.get('/v1/tokens/tk20?limit=5', { headers: keyed });
    expect(response.headers()['x-request-cost-ru']).toBe('0.01');
    const body = await json<{ tokens: unknown[]; metadata: { hasMore: boolean; count: number } }>(response);
    expect(Array.isArray(body.tokens)).toBe(true);
    expect(body.metadata.count).toBe(body.tokens.length);
  });

  test('tk20 and its krc20 alias route to the token endpoints; an unknown ticker is a 404', async ({ request }) => {
    for (const standard of ['tk20', 'krc20', 'KRC20']) {
      const metadata = await request.get(`/v1/tokens/${standard}/ZZZQQ/metadata`, { headers: keyed });
      expect((await json<{ code: string }>(metadata, 404)).code).toBe('token_not_found');
      const chart = await request.get(`/v1/tokens/${standard}/ZZZQQ/chart?type=stats&interval=1d`, { headers: keyed });
      expect((await json<{ code: string }>(chart, 404)).code).toBe('token_not_found');
    }
    const other = await request.get('/v1/tokens/brc20/ZZZQQ/metadata', { headers: keyed });
    expect((await json<{ code: string }>(other, 404)).code).toBe('route_not_found');
  });

  test('a bad chart type or interval is a 400 naming the allowed values', async ({ request }) => {
    const badType = await request.get('/v1/tokens/tk20/DAGB/chart?type=line&interval=1d', { headers: keyed });
    expect((await json<{ detail: string }>(badType, 400)).detail).toMatch(/candles.*stats/);
    const badInterval = await request.get('/v1/tokens/tk20/DAGB/chart?type=candles&interval=5m', { headers: keyed });
    expect((await json<{ detail: string }>(badInterval, 400)).detail).toMatch(/1d.*7d.*1m.*1y/);
  });
});
