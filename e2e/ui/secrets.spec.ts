/**
 * The server key (and any operator key from API_KEYS) never reaches the browser: not in a page's HTML, not in a script
 * or stylesheet it loads, not in an answer of the explorer's same-origin path, and not in any file of the built client
 * bundle. The demo key is the one key the site hands out on purpose (the console offers it), so it is not checked.
 */
import { expect, test, type APIRequestContext, type Response } from '@playwright/test';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pages } from '../../lib/web/urls';
import { E2E_API_KEY } from '../api/settings';
import { walletAddress } from '../devnet-wallet';

const keyed = { 'x-api-key': E2E_API_KEY };

async function serverKey(): Promise<string> {
  const key = (await readFile('data/e2e/server-api-key', 'utf8')).trim();
  expect(key.length).toBeGreaterThan(20);
  return key;
}

async function samplePaths(request: APIRequestContext): Promise<string[]> {
  const dag = (await (await request.get('/v1/rpc/getBlockDagInfo', { headers: keyed })).json()) as {
    sink: string;
    virtualDaaScore: string;
  };
  const block = (await (
    await request.post('/v1/rpc/getBlock', { headers: keyed, data: { hash: dag.sink, includeTransactions: true } })
  ).json()) as { block: { transactions: { verboseData: { transactionId: string } }[] } };
  const end = BigInt(dag.virtualDaaScore);
  return [
    pages.home(),
    pages.block(dag.sink),
    pages.transaction(block.block.transactions[0]!.verboseData.transactionId),
    pages.address(walletAddress),
    pages.daaRange(end > 20n ? end - 20n : 0n, end),
    pages.mempool(),
    pages.fees(),
    pages.tokens(),
    pages.search('nothing-like-this'),
    pages.console(),
    pages.docs(),
  ];
}

async function filesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

test('no page, script, stylesheet or explorer answer the browser receives carries the server key or an operator key', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const secrets = [await serverKey(), E2E_API_KEY];
  const bodies: Promise<{ url: string; text: string } | null>[] = [];
  const read = async (response: Response) => {
    const type = response.headers()['content-type'] ?? '';
    // The live stream never ends; its events are the same JSON the explorer path serves, checked there.
    if (type.includes('text/event-stream') || response.request().method() === 'OPTIONS') return null;
    try {
      return { url: response.url(), text: (await response.body()).toString('latin1') };
    } catch {
      return null;
    }
  };
  page.on('response', (response) => bodies.push(read(response)));

  const paths = await samplePaths(request);
  for (const path of paths) {
    await page.goto(path);
    await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => undefined);
  }
  const received = (await Promise.all(bodies)).filter((body) => body !== null);
  const urls = received.map((body) => new URL(body.url).pathname);
  expect(urls.filter((url) => url.startsWith('/_next/static/')).length, 'scripts were loaded').toBeGreaterThan(5);
  expect(urls.some((url) => url.startsWith('/api/explorer/v1/')), 'the explorer path was used').toBe(true);
  for (const body of received) {
    for (const secret of secrets) expect(body.text.includes(secret), `${body.url} carries a key`).toBe(false);
  }
});

test('no file of the built client bundle carries a key', async () => {
  const secrets = [await serverKey(), E2E_API_KEY];
  const files = await filesUnder('.next/static');
  expect(files.length).toBeGreaterThan(10);
  for (const file of files) {
    const text = (await readFile(file)).toString('latin1');
    for (const secret of secrets) expect(text.includes(secret), `${file} carries a key`).toBe(false);
  }
});
