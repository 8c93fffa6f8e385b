/**
 * The /wallet page on the live devnet with the devnet's HD wallet (the demo wallet): its balance is the API's summary,
 * its address table lists both chains, its history scrolls, it fits a phone in the dark theme and passes axe, the
 * address page leads to it, and the extended key never leaves the browser except in POST bodies: not in a URL, a
 * response header or the HTML the server renders.
 */
import { expect, test, type APIRequestContext, type Page, type Response } from '@playwright/test';
import { resources, WALLET_HISTORY_PAGE_SIZE } from '../../lib/web/resources';
import { explorerApiPath, pages, v1Path } from '../../lib/web/urls';
import { E2E_API_KEY } from '../api/settings';
import { expectAccessible } from './page-checks';

const keyed = { 'x-api-key': E2E_API_KEY };
const THEME_KEY = 'dagboard-theme';
const SUMMARY_PATH = explorerApiPath(resources.walletSummary.route);
const HISTORY_PATH = explorerApiPath(resources.walletHistory.route);
const DEMO_PATH = explorerApiPath(resources.walletDemo.route);

interface Summary {
  balance: string;
  addresses: { address: string; chain: 'receive' | 'change' | null; used: boolean; balance: string }[];
}

interface HistoryPage {
  transactions: { transactionId: string; direction: string; balanceChange: string }[];
  metadata: { hasMore: boolean };
}

async function demoKey(request: APIRequestContext): Promise<string> {
  const response = await request.get(v1Path(resources.walletDemo.route), { headers: keyed });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { extendedPublicKey: string }).extendedPublicKey;
}

/** Waits until the traffic has given the demo wallet used addresses on both chains and history beyond two pages. */
async function demoWalletReady(request: APIRequestContext, extendedPublicKey: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const summary = (await (await request.post(v1Path(resources.walletSummary.route), { headers: keyed, data: { extendedPublicKey } })).json()) as Summary;
        const used = summary.addresses.filter((entry) => entry.used);
        const history = (await (
          await request.post(v1Path(resources.walletHistory.route), {
            headers: keyed,
            data: { extendedPublicKey, limit: WALLET_HISTORY_PAGE_SIZE * 2 + 1 },
          })
        ).json()) as HistoryPage;
        return (
          used.some((entry) => entry.chain === 'receive') &&
          used.some((entry) => entry.chain === 'change') &&
          history.transactions.length > WALLET_HISTORY_PAGE_SIZE * 2
        );
      },
      { timeout: 240_000, intervals: [3_000] },
    )
    .toBe(true);
}

function isCall(response: Response, path: string): boolean {
  return new URL(response.url()).pathname === path && response.request().method() === 'POST';
}

/** Opens /wallet, hydrated, and picks the demo wallet; the summary the page received. */
async function openDemoWallet(page: Page): Promise<Summary> {
  await page.goto(pages.wallet());
  await expect(page.locator('[data-live-status="live"]')).toBeVisible({ timeout: 20_000 });
  const summary = page.waitForResponse((response) => isCall(response, SUMMARY_PATH));
  await page.getByTestId('wallet-demo').click();
  const response = await summary;
  expect(response.status()).toBe(200);
  await expect(page.getByTestId('wallet-balance')).toBeVisible({ timeout: 30_000 });
  return (await response.json()) as Summary;
}

/** Each test discovers the demo wallet a few times over (summary, history pages, chart) on a shared, loaded machine. */
test.describe.configure({ mode: 'serial', timeout: 180_000 });

test.describe('the wallet page', () => {
  let extendedPublicKey: string;

  test.beforeAll(async ({ request }) => {
    test.setTimeout(300_000);
    extendedPublicKey = await demoKey(request);
    await demoWalletReady(request, extendedPublicKey);
  });

  test('the demo wallet loads: the balance is the API’s summary, the table lists receive and change addresses', async ({ page }) => {
    const summary = await openDemoWallet(page);
    await expect(page.getByTestId('wallet-balance')).toHaveAttribute('data-sompi', summary.balance);
    const perAddress = summary.addresses.reduce((total, entry) => total + BigInt(entry.balance), 0n);
    expect(perAddress).toBe(BigInt(summary.balance));

    const rows = page.getByTestId('wallet-address-row');
    await expect(rows).toHaveCount(summary.addresses.length);
    for (const chain of ['receive', 'change'] as const) {
      await expect(page.locator(`[data-testid=wallet-address-row][data-chain=${chain}][data-used=true]`).first()).toBeVisible();
      await expect(page.locator(`[data-testid=wallet-address-row][data-chain=${chain}][data-used=false]`).first()).toBeAttached();
    }
    const first = summary.addresses[0]!;
    await expect(rows.first().getByRole('link')).toHaveAttribute('href', pages.address(first.address));
    await expect(page.getByTestId('wallet-balance-chart').locator('canvas').first()).toBeAttached({ timeout: 20_000 });
  });

  test('the merged history scrolls: older pages load, each transaction once, each marked as the API says', async ({ page }) => {
    const historyResponses: Response[] = [];
    page.on('response', (response) => {
      if (isCall(response, HISTORY_PATH) && response.status() === 200) historyResponses.push(response);
    });
    await openDemoWallet(page);
    const rows = page.getByTestId('wallet-history-row');
    await expect(rows).toHaveCount(WALLET_HISTORY_PAGE_SIZE, { timeout: 30_000 });
    await rows.last().scrollIntoViewIfNeeded();
    await page.mouse.wheel(0, 4000);
    await expect(rows).toHaveCount(WALLET_HISTORY_PAGE_SIZE * 2, { timeout: 20_000 });

    const shown = await rows.evaluateAll((elements) =>
      elements.map((element) => ({ id: element.getAttribute('data-txid') ?? '', direction: element.getAttribute('data-direction') })),
    );
    expect(new Set(shown.map((row) => row.id)).size).toBe(shown.length);
    const answers = (await Promise.all(historyResponses.map((response) => response.json()))) as HistoryPage[];
    const direction = new Map(answers.flatMap((answer) => answer.transactions).map((item) => [item.transactionId, item.direction]));
    for (const row of shown) expect(row.direction, row.id).toBe(direction.get(row.id));
    for (const internal of await page.locator('[data-testid=wallet-history-row][data-direction=internal]').all()) {
      await expect(internal).toContainText('internal transfer');
    }
  });

  test('on a phone in the dark theme it fits the screen and passes axe', async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: 'light' });
    await context.addInitScript(([key, value]) => window.localStorage.setItem(key, value), [THEME_KEY, 'dark'] as const);
    const page = await context.newPage();
    await openDemoWallet(page);
    await expect(page.locator('html')).toHaveClass(/(^|\s)dark(\s|$)/);
    await expect(page.getByTestId('wallet-history-row').first()).toBeVisible({ timeout: 30_000 });
    const overflow = await page.evaluate(() => {
      const outside = [...document.body.querySelectorAll('*')].filter((element) => {
        const container = element.closest('[data-scroll-container]');
        if (container !== null && container !== element) return false;
        const box = element.getBoundingClientRect();
        return box.width > 0 && box.height > 0 && (box.left < -1 || box.right > window.innerWidth + 1);
      });
      return { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, outside: outside.length };
    });
    expect(overflow.outside).toBe(0);
    expect(overflow.scrollWidth).toBeLessThanOrEqual(overflow.innerWidth);
    await expectAccessible(page);
    await context.close();
  });

  test('the address page opens its address in the wallet view', async ({ page, request }) => {
    const summary = (await (await request.post(v1Path(resources.walletSummary.route), { headers: keyed, data: { extendedPublicKey } })).json()) as Summary;
    const used = summary.addresses.find((entry) => entry.used)!;
    await page.goto(pages.address(used.address));
    await expect(page.locator('[data-live-status="live"]')).toBeVisible({ timeout: 20_000 });
    await page.getByTestId('view-whole-wallet').click();
    // A client navigation: on a loaded test machine the next page's server answer can take longer than 5 s.
    await expect(page).toHaveURL((url) => url.pathname === pages.wallet(), { timeout: 30_000 });
    const row = page.getByTestId('wallet-address-row');
    await expect(row).toHaveCount(1, { timeout: 30_000 });
    await expect(row).toHaveAttribute('data-chain', 'listed');
    await expect(row.getByRole('link')).toHaveAttribute('href', pages.address(used.address));
  });

  test('the export streams the CSV through POST /wallet/csv, counts its rows and saves them as a file', async ({ page }) => {
    await openDemoWallet(page);
    const exportRequest = page.waitForRequest((request) => new URL(request.url()).pathname === pages.walletCsv());
    const download = page.waitForEvent('download');
    await page.getByTestId('wallet-export').getByRole('button', { name: 'Export CSV' }).click();
    const sent = await exportRequest;
    expect(sent.method()).toBe('POST');
    expect(new URL(sent.url()).search).toBe('');
    expect(sent.postDataJSON()).toEqual({ extendedPublicKey, layout: 'generic' });
    const file = await download;
    const text = await (await file.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString('utf8'));
    const rows = text.split('\n').filter((line) => line !== '').length - 1;
    expect(rows).toBeGreaterThan(WALLET_HISTORY_PAGE_SIZE * 2);
    const status = page.getByTestId('wallet-export-status');
    await expect(status).toHaveAttribute('data-phase', 'done');
    await expect(status).toContainText(`${rows.toLocaleString('en')} rows`);
  });

  test('the extended key is never in a URL, a response header or the server’s HTML; a share link carries it in the fragment', async ({
    page,
  }) => {
    const secret = extendedPublicKey.slice(4, 60);
    const requestUrls: string[] = [];
    const checked: Promise<{ url: string; header: boolean; body: boolean }>[] = [];
    const watch = (watched: Page) => {
      watched.on('request', (request) => requestUrls.push(request.url()));
      watched.on('response', (response) => {
        checked.push(
          (async () => {
            const headers = await response.allHeaders();
            const header = Object.values(headers).some((value) => value.includes(secret));
            // The demo call hands the key out on purpose; the live stream never ends.
            const readable =
              new URL(response.url()).pathname !== DEMO_PATH && !(headers['content-type'] ?? '').includes('text/event-stream');
            const body = readable ? await response.text().then((text) => text.includes(secret), () => false) : false;
            return { url: response.url(), header, body };
          })(),
        );
      });
    };
    watch(page);

    await openDemoWallet(page);
    await expect(page.getByTestId('wallet-history-row').first()).toBeVisible({ timeout: 30_000 });
    await page.getByTestId('wallet-share-toggle').click();
    const link = new URL((await page.getByTestId('wallet-share-link').textContent()) ?? '');
    expect(link.search).toBe('');
    expect(new URLSearchParams(link.hash.slice(1)).get('key')).toBe(extendedPublicKey);

    // The tab keeps the wallet across a reload (session storage), with the key in no URL.
    await page.reload();
    await expect(page.getByTestId('wallet-balance')).toBeVisible({ timeout: 30_000 });

    // A fresh tab opened from the link: the fragment names the wallet and is dropped from the address bar.
    const shared = await page.context().newPage();
    watch(shared);
    await shared.goto(link.toString());
    await expect(shared.getByTestId('wallet-balance')).toBeVisible({ timeout: 30_000 });
    await expect.poll(() => shared.evaluate(() => window.location.hash)).toBe('');
    await shared.close();

    // Browsers never send a fragment; the navigation to the share link is the one URL that may hold the key there.
    const sentUrls = requestUrls.map((url) => url.split('#')[0]!);
    expect(sentUrls.filter((url) => url.includes(secret))).toEqual([]);
    expect(sentUrls.some((url) => new URL(url).pathname === SUMMARY_PATH)).toBe(true);
    const results = await Promise.all(checked);
    expect(results.filter((result) => result.header).map((result) => result.url)).toEqual([]);
    expect(results.filter((result) => result.body).map((result) => result.url)).toEqual([]);
  });
});
