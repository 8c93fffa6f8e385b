import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_API_KEY } from '../api/settings';

const keyed = { 'x-api-key': E2E_API_KEY };
const PAGE_SIZE = 25;

interface HistoryPage {
  transactions: { transactionId: string }[];
  metadata: { hasMore: boolean; count: number };
}

/** A miner's coinbase address: it gains a transaction with almost every block, so its history grows while we read. */
async function busyAddress(request: APIRequestContext, atLeast: number): Promise<string> {
  let address: string | undefined;
  await expect
    .poll(
      async () => {
        const dag = (await (await request.get('/v1/rpc/getBlockDagInfo', { headers: keyed })).json()) as { sink: string };
        const response = await request.post('/v1/rpc/getBlock', {
          headers: keyed,
          data: { hash: dag.sink, includeTransactions: true },
        });
        if (response.status() !== 200) return 0;
        const { block } = (await response.json()) as {
          block: { transactions: { outputs: { verboseData?: { scriptPublicKeyAddress: string } }[] }[] };
        };
        address = block.transactions[0]?.outputs[0]?.verboseData?.scriptPublicKeyAddress;
        if (address === undefined) return 0;
        const history = await request.get(`/v1/addresses/${address}/transactions?limit=100`, { headers: keyed });
        return history.status() === 200 ? ((await history.json()) as HistoryPage).metadata.count : 0;
      },
      { timeout: 120_000, intervals: [2_000] },
    )
    .toBeGreaterThanOrEqual(atLeast);
  return address!;
}

async function rowIds(page: Page): Promise<string[]> {
  return page.getByTestId('history-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-txid') ?? ''));
}

test.describe('the address page', () => {
  let address: string;

  test.beforeAll(async ({ request }) => {
    address = await busyAddress(request, PAGE_SIZE * 3 + 10);
  });

  test('infinite scroll loads three pages with no duplicate and no gap', async ({ page, request }) => {
    await page.goto(`/address/${address}`);
    await expect(page.getByTestId('address-full')).toContainText(address);
    await expect(page.getByTestId('history-row')).toHaveCount(PAGE_SIZE);
    for (let loaded = PAGE_SIZE; loaded < PAGE_SIZE * 3; loaded += PAGE_SIZE) {
      await page.getByTestId('history-row').last().scrollIntoViewIfNeeded();
      await page.mouse.wheel(0, 4000);
      await expect(page.getByTestId('history-row')).toHaveCount(loaded + PAGE_SIZE, { timeout: 15_000 });
    }
    const ids = await rowIds(page);
    expect(new Set(ids).size).toBe(ids.length);
    const after = await request.get(`/v1/addresses/${address}/transactions?limit=100&starting_after=${ids[0]}`, {
      headers: keyed,
    });
    const walked = ((await after.json()) as HistoryPage).transactions.map((transaction) => transaction.transactionId);
    expect(walked.slice(0, ids.length - 1)).toEqual(ids.slice(1));
  });

  test('new transactions wait behind a banner and arrive above without duplicates', async ({ page }) => {
    await page.goto(`/address/${address}`);
    await expect(page.getByTestId('history-row')).toHaveCount(PAGE_SIZE);
    const before = await rowIds(page);
    const banner = page.getByTestId('new-transactions-banner');
    await expect(banner).toBeVisible({ timeout: 60_000 });
    expect(await rowIds(page)).toEqual(before);
    await banner.click();
    const after = await rowIds(page);
    expect(after.length).toBeGreaterThan(before.length);
    expect(new Set(after).size).toBe(after.length);
    expect(after.slice(after.length - before.length)).toEqual(before);
  });

  test('keeps the loaded pages and the position on back navigation', async ({ page }) => {
    await page.goto(`/address/${address}`);
    await expect(page.getByTestId('history-row')).toHaveCount(PAGE_SIZE);
    await page.getByTestId('history-row').last().scrollIntoViewIfNeeded();
    await page.mouse.wheel(0, 4000);
    await expect(page.getByTestId('history-row')).toHaveCount(PAGE_SIZE * 2, { timeout: 15_000 });
    const target = page.getByTestId('history-row').nth(PAGE_SIZE + 5);
    await target.scrollIntoViewIfNeeded();
    const id = await target.getAttribute('data-txid');
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(0);
    await target.getByRole('link').first().click();
    // The transaction page renders behind the address page's own calls (its UTXO list grows with every block mined
    // to it); on a loaded machine that takes more than the default 5 s.
    await expect(page).toHaveURL(new RegExp(`/tx/${id}$`), { timeout: 30_000 });
    await page.goBack();
    // The loaded pages come back from the cache at once (the scroll sentinel may then load more below them).
    await expect.poll(() => page.getByTestId('history-row').count()).toBeGreaterThanOrEqual(PAGE_SIZE * 2);
    await expect(page.locator(`[data-txid="${id}"]`)).toBeInViewport();
  });

  test('exports the whole history as CSV and shows balance and QR code', async ({ page, request }) => {
    await page.goto(`/address/${address}`);
    await expect(page.getByTestId('address-qr')).toBeVisible();
    await expect(page.getByTestId('address-balance')).toContainText('KAS');
    const csv = await request.get(`/address/${address}/csv`);
    expect(csv.status()).toBe(200);
    expect(csv.headers()['content-type']).toContain('text/csv');
    const lines = (await csv.text()).trimEnd().split('\r\n');
    expect(lines[0]).toMatch(/^time_utc,transaction_id,/);
    const ids = lines.slice(1).map((line) => line.split(',')[1]);
    expect(ids.length).toBeGreaterThanOrEqual(PAGE_SIZE * 3);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('the first paint carries a summary of the UTXO set, never the set', async ({ request }) => {
    const { entries } = (await (await request.post('/v1/rpc/getUtxosByAddresses', { headers: keyed, data: { addresses: [address] } })).json()) as {
      entries: unknown[];
    };
    expect(entries.length).toBeGreaterThan(20);
    const html = (await (await request.get(`/address/${address}`)).text()).replaceAll('<!-- -->', '');
    // The rendered summary counts the whole set…
    const counted = Number(/Largest 10 of ([\d,]+) UTXOs/.exec(html)?.[1]?.replaceAll(',', ''));
    expect(counted).toBeGreaterThan(20);
    // …while only a UTXO entry has a blockDaaScore: the listed largest and covenant-bound ones, ten each at most.
    expect(html.match(/blockDaaScore/g)?.length ?? 0).toBeLessThanOrEqual(20);
  });

  test('draws the balance over time from the recent history', async ({ page }) => {
    await page.goto(`/address/${address}`);
    await expect(page.getByTestId('address-balance-chart').locator('canvas').first()).toBeAttached({ timeout: 20_000 });
    await expect(page.getByTestId('address-chart-caption')).toContainText('Balance in KAS after each accepted transaction');
  });

  test("values the balance at today's KAS/USD and each change at its transaction's time, labelled simulated", async ({ page, request }) => {
    await page.goto(`/address/${address}`);
    await expect(page.getByTestId('address-balance-usd')).toContainText(/≈ \$[\d,]+\.\d\d at today's rate \(simulated KAS\/USD\)/);
    await expect(page.getByTestId('history-usd-source')).toContainText('simulated');
    const row = page.getByTestId('history-row').first();
    await expect(row.getByTestId('history-row-usd')).toBeVisible();
    const id = await row.getAttribute('data-txid');
    const { transactions } = (await (await request.get(`/v1/addresses/${address}/transactions?limit=100`, { headers: keyed })).json()) as {
      transactions: { transactionId: string; blockTime: number; balanceChange: string }[];
    };
    const shown = transactions.find((transaction) => transaction.transactionId === id)!;
    const { rates } = (await (await request.get(`/v1/prices/kas-usd?times=${shown.blockTime}`, { headers: keyed })).json()) as {
      rates: { usd: number }[];
    };
    const usd = (Number(BigInt(shown.balanceChange)) / 1e8) * rates[0]!.usd;
    const text = `${usd < 0 ? '−' : ''}$${Math.abs(usd).toLocaleString('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
    await expect(row.getByTestId('history-row-usd')).toHaveText(text);
  });

  test('jumps to a date: the history starts with that day, as the API pages it, and the date is in the URL', async ({ page, request }) => {
    const { transactions } = (await (await request.get(`/v1/addresses/${address}/transactions?limit=100`, { headers: keyed })).json()) as {
      transactions: { transactionId: string; blockTime: number }[];
    };
    // The devnet's history lies within a day or two: jumping to the day before the oldest row shown finds nothing, to
    // the newest row's day finds the rows of that day and before, newest first, as before_time pages them.
    const day = new Date(transactions[0]!.blockTime).toISOString().slice(0, 10);
    const beforeTime = Date.parse(`${day}T00:00:00Z`) + 86_400_000;
    await page.goto(`/address/${address}`);
    await page.getByLabel('Jump to').fill(day);
    await page.getByTestId('history-jump').getByRole('button', { name: 'Go' }).click();
    await expect(page).toHaveURL(new RegExp(`before=${day}$`), { timeout: 30_000 });
    await expect(page.getByTestId('history-jumped')).toContainText(`From the end of ${day} (UTC) back`);
    await expect(page.getByTestId('history-row')).toHaveCount(25);
    const shown = await rowIds(page);
    const after = (await (
      await request.get(`/v1/addresses/${address}/transactions?limit=100&before_time=${beforeTime}`, { headers: keyed })
    ).json()) as { transactions: { transactionId: string; blockTime: number }[] };
    expect(after.transactions.every((transaction) => transaction.blockTime < beforeTime)).toBe(true);
    // The day is today's, so newer rows keep arriving above: what the page shows is an unbroken run of the API's pages.
    const ids = after.transactions.map((transaction) => transaction.transactionId);
    const offset = ids.indexOf(shown[0]!);
    expect(offset).toBeGreaterThanOrEqual(0);
    expect(ids.slice(offset, offset + shown.length)).toEqual(shown);
    const previousDay = new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000 * 30).toISOString().slice(0, 10);
    await page.goto(`/address/${address}?before=${previousDay}`);
    await expect(page.getByTestId('history-jumped')).toBeVisible();
    await expect(page.getByTestId('history-row')).toHaveCount(0);
    await page.getByRole('link', { name: 'Newest transactions' }).click();
    await expect(page.getByTestId('history-row').first()).toBeVisible({ timeout: 30_000 });
  });

  test("shows the address's totals as the API counts them, while they grow", async ({ page, request }) => {
    interface Summary {
      transactionCount: number;
      totalReceived: string;
    }
    const summary = async () => (await (await request.get(`/v1/addresses/${address}/summary`, { headers: keyed })).json()) as Summary;
    const before = await summary();
    expect(before.transactionCount).toBeGreaterThanOrEqual(PAGE_SIZE * 3);
    await page.goto(`/address/${address}`);
    const count = page.getByTestId('address-transaction-count');
    await expect(count).toHaveText(/^[\d,]+$/);
    const shown = Number((await count.textContent())!.replaceAll(',', ''));
    const after = await summary();
    // The miner's history grows with every block: what the page shows lies between the two answers around it.
    expect(shown).toBeGreaterThanOrEqual(before.transactionCount);
    expect(shown).toBeLessThanOrEqual(after.transactionCount);
    await expect(page.getByTestId('address-total-received')).toContainText('KAS');
    expect(BigInt(after.totalReceived)).toBeGreaterThan(0n);
  });

  test('explains an invalid address, answering 404', async ({ page }) => {
    const response = await page.goto('/address/kaspadev:notanaddress');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: 'Not a valid address' })).toBeVisible();
    await expect(page.getByTestId('not-found')).toContainText('bech32');
  });

  test('is accessible and fits a phone', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/address/${address}`);
    await expect(page.getByTestId('history-row').first()).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
    expect(serious.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
  });
});
