import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ROUTE_IDS, type RouteId } from '../../lib/api/keys/costs';
import { bytesToHex } from '../../lib/kaspa/bytes';
import { PowState } from '../../lib/kaspa/pow';
import { transactionId } from '../../lib/kaspa/transaction';
import { headerFromRpc } from '../../lib/rpc/convert-block';
import { stringifyJson } from '../../lib/rpc/json';
import type { RpcRawHeader } from '../../lib/rpc/types';
import { readSse } from '../../lib/web/sse-reader';
import { pages } from '../../lib/web/urls';
import { E2E_API_KEY } from '../api/settings';
import {
  awaitMatureWalletUtxos,
  FEE,
  freshReceiver,
  matureWalletUtxos,
  spend,
  submissionOf,
  templateSubmission,
  walletAddress,
} from '../devnet-wallet';

type Json = Record<string, unknown>;
const keyed = { 'x-api-key': E2E_API_KEY };
const run = promisify(execFile);

async function apiJson<T = Json>(request: APIRequestContext, route: 'GET' | 'POST', path: string, data?: unknown): Promise<T> {
  const response =
    route === 'GET' ? await request.get(path, { headers: keyed }) : await request.post(path, { headers: keyed, data });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as T;
}


async function openConsole(page: Page, path: string = pages.console()): Promise<void> {
  await page.goto(path);
  await expect(page.getByLabel('Endpoint')).toBeVisible();
}

async function chooseEndpoint(page: Page, route: RouteId): Promise<void> {
  await page.getByLabel('Endpoint').selectOption(route);
}

async function useKey(page: Page, key: string): Promise<void> {
  await page.getByLabel('API key', { exact: true }).fill(key);
}

interface Shown {
  status: number;
  line: string;
  text: string;
}

/** Sends the request in the form and answers what the console shows. */
async function send(page: Page): Promise<Shown> {
  const status = page.getByTestId('console-status');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  // The button reads "Sending…" until the answer is in; the result shown after it is this send's.
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeEnabled({ timeout: 30_000 });
  await expect(status).toBeVisible();
  const line = (await status.textContent()) ?? '';
  const text = (await page.getByTestId('console-raw-body').textContent()) ?? '';
  return { status: Number(line.slice(0, 3)), line, text };
}

async function setBody(page: Page, body: unknown): Promise<void> {
  await page.getByLabel('JSON body').fill(stringifyJson(body));
}

test.describe.configure({ mode: 'serial' });

let orphanId = '';

test.describe('API console', () => {
  test.beforeAll(async ({ request }) => {
    test.setTimeout(240_000);
    // Live examples need indexed history and a deployed token; the devnet's traffic makes both within minutes.
    await expect
      .poll(
        async () => {
          const tokens = await request.get('/v1/tokens/tk20?limit=1', { headers: keyed });
          if (tokens.status() !== 200) return 0;
          return ((await tokens.json()) as { tokens: unknown[] }).tokens.length;
        },
        { timeout: 220_000, intervals: [2_000] },
      )
      .toBeGreaterThan(0);
  });

  test('submitTransaction: a signed orphan pasted into the body answers 200 with its id', async ({ page }) => {
    const orphan = spend(
      { outpoint: { transactionId: 'dd'.repeat(32), index: Date.now() % 1000 }, amount: '500000000', blockDaaScore: '0', isCoinbase: false },
      FEE,
    );
    orphanId = bytesToHex(transactionId(orphan));
    await openConsole(page, pages.console({ route: 'POST /v1/rpc/submitTransaction' }));
    await useKey(page, E2E_API_KEY);
    await setBody(page, { transaction: submissionOf(orphan), allowOrphan: true });
    const shown = await send(page);
    expect(shown.status, shown.text).toBe(200);
    expect(JSON.parse(shown.text)).toEqual({ transactionId: orphanId });
    await expect(page.getByTestId('console-body')).toContainText(orphanId);
  });

  test('every read endpoint answers 200 with its live example', async ({ page }) => {
    test.setTimeout(180_000);
    await openConsole(page);
    await page.getByRole('button', { name: 'Use the demo key' }).click();
    await expect(page.getByLabel('API key', { exact: true })).not.toHaveValue('');
    // Submissions change the chain; a webhook is made, read through its id and deleted by its owner in
    // e2e/api/webhooks.spec.ts (its live example names a host the test machine cannot resolve).
    const reads = ROUTE_IDS.filter((route) => !/submit/.test(route) && !(route.includes('/v1/webhooks') && route !== 'GET /v1/webhooks'));
    for (const route of reads) {
      await chooseEndpoint(page, route);
      if (route === 'POST /v1/rpc/getMempoolEntry') {
        // The prefilled entry may be mined by now; the orphan pool keeps the test's own transaction.
        await setBody(page, { transactionId: orphanId, includeOrphanPool: true, filterTransactionPool: false });
      }
      const shown = await send(page);
      expect(shown.status, `${route}: ${shown.text.slice(0, 400)}`).toBe(200);
      expect(shown.line).toContain(route.slice(route.indexOf(' ') + 1).replace(/\{.*$/, ''));
      if (route !== 'GET /v1/openapi.json') {
        await expect(page.locator('[data-header="x-request-cost-ru"]')).toBeVisible();
        await expect(page.locator('[data-header="ratelimit-remaining"]')).toBeVisible();
        await expect(page.locator('[data-header="x-ru-remaining"]')).toBeVisible();
      }
      await expect(page.locator('[data-header="x-request-id"]')).toBeVisible();
    }
  });

  test('submitBlock: a solved template pasted into the body answers 200 success', async ({ page, request }) => {
    const { block } = await apiJson<{ block: Json }>(request, 'POST', '/v1/rpc/getBlockTemplate', { payAddress: walletAddress });
    const header = block.header as Record<string, string | number | string[][]>;
    const pow = PowState.fromHeader(headerFromRpc(header as unknown as RpcRawHeader));
    let nonce = 0n;
    while (!pow.checkPow(nonce)) nonce++;
    await openConsole(page, pages.console({ route: 'POST /v1/rpc/submitBlock' }));
    await useKey(page, E2E_API_KEY);
    await setBody(page, {
      block: { header: { ...header, nonce: nonce.toString() }, transactions: (block.transactions as Json[]).map(templateSubmission) },
      allowNonDAABlocks: false,
    });
    const shown = await send(page);
    expect(shown.status, shown.text).toBe(200);
    expect(JSON.parse(shown.text)).toEqual({ report: { type: 'success', reason: 'none' } });
  });

  test('submitTransactionReplacement: replacing a just-submitted wallet transaction answers 200', async ({ page, request }) => {
    test.setTimeout(300_000);
    await awaitMatureWalletUtxos(request, { moreThan: 3, timeout: 240_000 });
    const receiver = freshReceiver('console').script;
    await openConsole(page, pages.console({ route: 'POST /v1/rpc/submitTransactionReplacement' }));
    await useKey(page, E2E_API_KEY);
    // Blocks come ten a second, so the original is sent (through the API) just as the console's Send is clicked: it
    // reaches the node first, the replacement a moment later, before a miner can take the original. The traffic
    // generator spends this wallet too, and a miner may still win the race; either makes the node refuse a step, so
    // outputs still unspent are tried until one goes through end to end. What each try met is kept for the message.
    const tried = new Set<string>();
    const outcomes: string[] = [];
    let replaced = false;
    for (let attempt = 0; attempt < 12 && !replaced; attempt++) {
      const utxo = (await matureWalletUtxos(request))
        .filter((candidate) => !tried.has(`${candidate.outpoint.transactionId}:${candidate.outpoint.index}`))
        .sort(() => Math.random() - 0.5)[0];
      if (utxo === undefined) break;
      tried.add(`${utxo.outpoint.transactionId}:${utxo.outpoint.index}`);
      const replacement = spend(utxo, FEE * 3n, receiver);
      await setBody(page, { transaction: submissionOf(replacement) });
      const submit = () =>
        request.post('/v1/rpc/submitTransaction', {
          headers: { ...keyed, 'content-type': 'application/json' },
          data: stringifyJson({ transaction: submissionOf(spend(utxo, FEE, receiver)), allowOrphan: false }),
        });
      // A kept-alive connection the server closed while the form was being filled resets; a fresh one is tried once
      // (a transaction that did get through is then refused as a duplicate, and the next output is tried).
      const originalSent = submit().catch(submit);
      const shown = await send(page);
      const original = await originalSent;
      if (original.status() !== 200) {
        outcomes.push(`original ${original.status()}: ${(await original.text()).slice(-300)}`);
        continue;
      }
      if (shown.status !== 200) {
        outcomes.push(`replacement ${shown.status}: ${shown.text.slice(-300)}`);
        expect(JSON.parse(shown.text).code).toBe('transaction_rejected');
        await expect(page.getByTestId('console-body')).toContainText('transaction_rejected');
        continue;
      }
      expect(JSON.parse(shown.text).transactionId).toBe(bytesToHex(transactionId(replacement)));
      replaced = true;
    }
    expect(replaced, `a replacement sent from the console went through; the tries met:\n${outcomes.join('\n')}`).toBe(true);
  });

  test('a wrong key shows the 401 problem body', async ({ page }) => {
    await openConsole(page, pages.console({ route: 'GET /v1/rpc/getBlockDagInfo' }));
    await useKey(page, 'dgb_this_key_does_not_exist_0000000000000000000');
    const shown = await send(page);
    expect(shown.status).toBe(401);
    const body = JSON.parse(shown.text) as Json;
    expect(body.code).toBe('invalid_api_key');
    await expect(page.getByTestId('console-body')).toContainText('invalid_api_key');
    await expect(page.getByRole('group', { name: 'Error body' })).toBeVisible();
  });

  test('the generated curl command returns the body the console showed', async ({ page }) => {
    await openConsole(page, pages.console({ route: 'GET /v1/transactions/{id}' }));
    await useKey(page, E2E_API_KEY);
    const shown = await send(page);
    expect(shown.status, shown.text).toBe(200);
    await page.getByRole('tab', { name: 'curl' }).click();
    const curl = (await page.getByRole('tabpanel').textContent()) ?? '';
    expect(curl).toContain('$DAGBOARD_API_KEY');
    expect(curl).not.toContain(E2E_API_KEY);
    const { stdout } = await run('sh', ['-c', `DAGBOARD_API_KEY='${E2E_API_KEY}' exec sh -c "$1"`, 'sh', curl]);
    // Confirmations grow between the two calls; everything else about an accepted transaction is fixed.
    const withoutConfirmations = (text: string) => {
      const body = JSON.parse(text) as { transaction: Json };
      delete body.transaction.confirmations;
      return body;
    };
    expect(withoutConfirmations(stdout)).toEqual(withoutConfirmations(shown.text));

    await page.getByLabel('Include my key').check();
    await expect(page.getByRole('tabpanel')).toContainText(E2E_API_KEY);
  });

  test('a shared console URL reproduces the request, and paged answers offer the next page', async ({ page, request }) => {
    const history = await apiJson<{ transactions: { transactionId: string }[] }>(
      request,
      'GET',
      `/v1/addresses/${walletAddress}/transactions?limit=3`,
    );
    expect(history.transactions).toHaveLength(3);
    const shared = pages.console({
      route: 'GET /v1/addresses/{address}/transactions',
      params: { address: walletAddress },
      query: { limit: '3', accepted_only: 'false' },
    });
    await openConsole(page, shared);
    await expect(page.locator('[name="path.address"]')).toHaveValue(walletAddress);
    await expect(page.locator('[name="query.limit"]')).toHaveValue('3');
    await expect(page.locator('[name="query.accepted_only"]')).toHaveValue('false');
    await useKey(page, E2E_API_KEY);
    const shown = await send(page);
    expect(shown.status, shown.text).toBe(200);
    const first = JSON.parse(shown.text) as { transactions: { transactionId: string }[]; metadata: { hasMore: boolean } };
    expect(first.transactions).toHaveLength(3);
    expect(first.metadata.hasMore).toBe(true);
    expect(page.url()).not.toContain(E2E_API_KEY);
    expect(decodeURIComponent(page.url())).toContain(walletAddress);

    await page.getByRole('button', { name: 'Next page' }).click();
    await expect(page.getByTestId('console-status')).toContainText(`starting_after=${first.transactions[2]!.transactionId}`);
    await expect(page.locator('[name="query.starting_after"]')).toHaveValue(first.transactions[2]!.transactionId);
    const second = JSON.parse((await page.getByTestId('console-raw-body').textContent()) ?? '') as {
      transactions: { transactionId: string }[];
    };
    expect(second.transactions.map((item) => item.transactionId)).not.toContain(first.transactions[2]!.transactionId);

    const link = await page.getByTestId('console-share-link').getAttribute('href');
    expect(link).not.toContain('dgb_');
    await page.goto(link!);
    await expect(page.locator('[name="query.starting_after"]')).toHaveValue(first.transactions[2]!.transactionId);
  });

  test('hashes and addresses in the body link to explorer pages', async ({ page }) => {
    await openConsole(page, pages.console({ route: 'GET /v1/rpc/getBlockDagInfo' }));
    await useKey(page, E2E_API_KEY);
    expect((await send(page)).status).toBe(200);
    const sink = page.getByTestId('console-body').getByRole('link').first();
    await expect(sink).toHaveAttribute('href', /^\/search\?q=[0-9a-f]{64}$/);
  });

  test('"Show API call" on a transaction page and an address page opens the matching request', async ({ page, request }) => {
    const history = await apiJson<{ transactions: { transactionId: string }[] }>(
      request,
      'GET',
      `/v1/addresses/${walletAddress}/transactions?limit=1`,
    );
    const id = history.transactions[0]!.transactionId;
    await page.goto(pages.transaction(id));
    await page.getByRole('link', { name: /Show API call/ }).first().click();
    // The console renders on the server with live examples; give it the time a cold render takes on a busy machine.
    await expect(page.getByLabel('Endpoint')).toHaveValue('GET /v1/transactions/{id}', { timeout: 20_000 });
    await expect(page.locator('[name="path.id"]')).toHaveValue(id);
    await useKey(page, E2E_API_KEY);
    const shown = await send(page);
    expect(shown.status, shown.text).toBe(200);
    expect((JSON.parse(shown.text) as { transaction: { transactionId: string } }).transaction.transactionId).toBe(id);

    await page.goto(pages.address(walletAddress));
    await page.getByRole('link', { name: /Show API call/ }).first().click();
    await expect(page.getByLabel('Endpoint')).toHaveValue('GET /v1/addresses/{address}/transactions', { timeout: 20_000 });
    await expect(page.locator('[name="path.address"]')).toHaveValue(walletAddress);
    expect((await send(page)).status).toBe(200);
  });

  test('the console has no serious accessibility violations, with a response shown', async ({ page }) => {
    await openConsole(page, pages.console({ route: 'GET /v1/rpc/getFeeEstimate' }));
    await useKey(page, E2E_API_KEY);
    expect((await send(page)).status).toBe(200);
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
    expect(serious.map((violation) => `${violation.id}: ${violation.help} (${violation.nodes[0]?.target.join(' ')})`)).toEqual([]);
  });

  test('the live subscription shows events as they arrive, stops with its cursor and resumes after it', async ({ page, baseURL }) => {
    await openConsole(page);
    const live = page.getByRole('region', { name: 'Live subscription' });
    const status = live.getByTestId('stream-status');
    const shownIds = async () =>
      (await live.getByRole('list', { name: 'Events received' }).locator('summary > span:first-child').allTextContents()).map((text) => BigInt(text.slice(1)));
    await live.getByRole('checkbox', { name: 'address' }).uncheck();
    await live.getByRole('button', { name: 'Subscribe with the demo key' }).click();
    await expect(status).toContainText('Open · cursor');
    await expect.poll(async () => (await shownIds()).length, { timeout: 30_000 }).toBeGreaterThan(2);
    const ids = await shownIds();
    expect(ids, 'newest first').toEqual([...ids].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)));
    await expect(live.getByTestId('stream-event-topic').first()).toHaveText('block');

    await live.getByRole('button', { name: 'Stop' }).click();
    await expect(status).toContainText('Stopped · last cursor');
    const cursor = BigInt(/last cursor (\d+)/.exec((await status.textContent()) ?? '')![1]!);
    expect(cursor).toBeGreaterThanOrEqual((await shownIds())[0]!);
    await live.getByRole('button', { name: `Resume from ${cursor}` }).click();
    await expect(live.getByLabel(/Resume after cursor/)).toHaveValue(String(cursor));
    await live.getByRole('button', { name: 'Subscribe', exact: true }).click();
    await expect.poll(async () => (await shownIds()).length, { timeout: 30_000 }).toBeGreaterThan(0);
    await live.getByRole('button', { name: 'Stop' }).click();
    // The first block event after the cursor, as the API itself streams it.
    const reference = new AbortController();
    const response = await fetch(`${baseURL}/v1/stream?topics=block&since=${cursor}`, { headers: keyed, signal: reference.signal });
    let first: bigint | undefined;
    await readSse(
      response.body!,
      (message) => {
        if (message.event !== 'block' || first !== undefined) return;
        first = BigInt(message.id!);
        reference.abort();
      },
      reference.signal,
    ).catch(() => undefined);
    expect((await shownIds()).at(-1), 'the first event after the cursor').toBe(first);
  });

  test('a subscription the API refuses (a wrong key, a bad ticker filter) shows its problem', async ({ page }) => {
    await openConsole(page, pages.console({ route: 'GET /v1/rpc/getBlockDagInfo' }));
    await useKey(page, 'dgb_this_key_does_not_exist_0000000000000000000');
    const live = page.getByRole('region', { name: 'Live subscription' });
    await live.getByRole('button', { name: 'Subscribe', exact: true }).click();
    await expect(live.getByTestId('stream-status')).toContainText('Ended · 401');

    await useKey(page, E2E_API_KEY);
    await live.getByRole('checkbox', { name: 'token' }).check();
    await live.getByLabel(/^Tickers/).fill('NO');
    await live.getByRole('button', { name: 'Subscribe', exact: true }).click();
    await expect(live.getByTestId('stream-status')).toContainText('Ended · 400: query.tickers[0] is not a ticker');
  });
});
