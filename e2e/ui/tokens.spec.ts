import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { TOKEN_ACTIVITY_PAGE_SIZE } from '../../lib/web/resources';
import { parseJson } from '../../lib/rpc/json';
import { pages, v1Path } from '../../lib/web/urls';
import { E2E_API_KEY } from '../api/settings';

const keyed = { 'x-api-key': E2E_API_KEY };
/**
 * A fresh devnet deploys its tokens once coinbase outputs mature (deploys pay 1,000 KAS; playwright.config.ts sets a
 * ten-second DEVNET_COINBASE_MATURITY), then follows a fixed opening whose first fill comes after about thirty token
 * ops: about a minute on an idle machine, several under load. The wait is bounded.
 */
const TOKEN_WAIT_MS = 8 * 60_000;

interface ListedToken {
  ticker: string;
  volume24h: { trades: number };
  price: { kas: number } | null;
}

async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(serious.map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`)).toEqual([]);
}

async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

/** The first listed token with at least one fill, once the devnet has made one; a timeout reports what was listed. */
async function tradedToken(request: APIRequestContext): Promise<string> {
  let ticker: string | undefined;
  const started = Date.now();
  await expect
    .poll(
      async () => {
        const response = await request.get(v1Path('GET /v1/tokens/tk20', {}, { limit: 100 }), { headers: keyed });
        if (response.status() !== 200) return `list answered ${response.status()}`;
        const { tokens } = (await response.json()) as { tokens: ListedToken[] };
        ticker = tokens.find((token) => token.volume24h.trades > 0 && token.price !== null)?.ticker;
        if (ticker !== undefined) return `traded ${ticker}`;
        return `no fill yet; listed: [${tokens.map((token) => token.ticker).join(', ')}]`;
      },
      { timeout: TOKEN_WAIT_MS, intervals: [2_000, 5_000] },
    )
    .toMatch(/^traded /);
  console.log(`token ${ticker} had a fill after waiting ${Math.round((Date.now() - started) / 1000)} s`);
  return ticker!;
}

function chartResponse(page: Page, ticker: string, type: 'candles' | 'stats', interval: string) {
  return page.waitForResponse((response) => {
    const url = new URL(response.url());
    return (
      url.pathname.toLowerCase() === `/api/explorer/v1/tokens/tk20/${ticker.toLowerCase()}/chart` &&
      url.searchParams.get('type') === type &&
      url.searchParams.get('interval') === interval &&
      response.status() === 200
    );
  });
}

test.describe('token pages', () => {
  let ticker: string;

  test.beforeAll(async ({ request }) => {
    test.setTimeout(TOKEN_WAIT_MS + 30_000);
    ticker = await tradedToken(request);
  });

  test('the list shows the traded token with its price and links to its page', async ({ page }) => {
    await page.goto(pages.tokens());
    await expect(page.getByRole('heading', { name: 'KRC-20 tokens', level: 1 })).toBeVisible();
    const row = page.locator(`[data-testid="token-row"][data-ticker="${ticker}"]`);
    await expect(row).toBeVisible();
    await expect(row).toContainText('KAS');
    await expect(page.getByTestId('usd-source')).toContainText('simulated');
    await row.getByRole('link', { name: ticker }).click();
    await expect(page).toHaveURL(pages.token(ticker), { timeout: 30_000 });
    await expect(page.getByTestId('token-ticker')).toHaveText(ticker);
    await expectAccessible(page);
  });

  test('the list sorts by a column', async ({ page }) => {
    await page.goto(pages.tokens());
    await expect(page.getByTestId('token-row').first()).toBeVisible();
    const header = page.getByRole('columnheader', { name: /Token/ });
    await header.getByRole('button').click();
    await expect(header).toHaveAttribute('aria-sort', 'ascending');
    const tickers = await page.getByTestId('token-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-ticker') ?? ''));
    expect(tickers).toEqual([...tickers].sort((a, b) => a.localeCompare(b)));
  });

  test('the token page renders its metadata and both charts', async ({ page }) => {
    await page.goto(pages.token(ticker));
    await expect(page.getByTestId('token-ticker')).toHaveText(ticker);
    await expect(page.getByTestId('token-status')).toContainText(/deployed|finished/);
    await expect(page.getByRole('link', { name: /^kaspadev:/ }).first()).toHaveAttribute('href', /^\/address\/kaspadev:/);
    await expect(page.getByRole('link', { name: /[0-9a-f]{8}/ }).first()).toHaveAttribute('href', /^\/tx\/[0-9a-f]{64}$/);
    await expect(page.getByTestId('candle-chart').locator('canvas').first()).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('stats-chart').locator('canvas').first()).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('candle-legend')).toContainText('$');
    await expect(page.getByTestId('chart-usd-source')).toContainText('simulated');
    await expect(page.getByTestId('stats-legend')).toContainText('Holders');
    await expectAccessible(page);
  });

  test('the token page lists holders, operations and fills that link to their transactions', async ({ page, request }) => {
    await page.goto(pages.token(ticker));
    const holder = page.getByTestId('token-holder-row').first();
    await expect(holder).toContainText('%');
    await expect(holder.getByRole('link').first()).toHaveAttribute('href', /^\/address\/kaspadev:/);
    const fill = page.getByTestId('token-fill-row').first();
    await expect(fill).toContainText('KAS');
    await expect(fill).toContainText('$');
    await expect(fill.getByRole('link').first()).toHaveAttribute('href', /^\/tx\/[0-9a-f]{64}$/);
    const operations = page.getByTestId('token-operation-row');
    await expect(operations.first().getByRole('link').first()).toHaveAttribute('href', /^\/tx\/[0-9a-f]{64}$/);
    const firstPage = (await (
      await request.get(v1Path('GET /v1/tokens/tk20/{ticker}/operations', { ticker }, { limit: TOKEN_ACTIVITY_PAGE_SIZE }), { headers: keyed })
    ).json()) as { metadata: { hasMore: boolean } };
    const more = page.getByRole('button', { name: 'Load older operations' });
    if (firstPage.metadata.hasMore) {
      await more.click();
      await expect.poll(() => operations.count()).toBeGreaterThan(TOKEN_ACTIVITY_PAGE_SIZE);
    } else {
      await expect(more).toHaveCount(0);
    }
    const transaction = (await fill.getByRole('link').first().getAttribute('href'))!;
    await fill.getByRole('link').first().click();
    await expect(page).toHaveURL(transaction, { timeout: 30_000 });
  });

  test("a token operation's transaction page shows the indexer's verdict, the amount in whole tokens and the linked ticker", async ({
    page,
    request,
  }) => {
    interface Operation {
      transactionId: string;
      op: string;
      /** Token amounts pass 2^53: read losslessly. */
      amount: number | bigint | null;
      accepted: boolean;
      opError: string | null;
    }
    const { operations } = parseJson(
      await (await request.get(v1Path('GET /v1/tokens/tk20/{ticker}/operations', { ticker }, { limit: 100 }), { headers: keyed })).text(),
    ) as unknown as { operations: Operation[] };
    const { result } = (await (await request.get(v1Path('GET /v1/tokens/tk20/{ticker}/metadata', { ticker }), { headers: keyed })).json()) as {
      result: { decimal: number };
    };
    const transfer = operations.find((operation) => operation.accepted && operation.amount !== null && BigInt(operation.amount) > 0n);
    expect(transfer, 'an applied operation with an amount').toBeDefined();
    await page.goto(pages.transaction(transfer!.transactionId));
    const verdict = page.getByTestId('token-operation-result');
    await expect(verdict).toHaveAttribute('data-accepted', 'true', { timeout: 20_000 });
    await expect(verdict).toContainText('applied');
    await expect(verdict).toContainText(transfer!.op);
    const units = BigInt(transfer!.amount!);
    const scale = 10n ** BigInt(result.decimal);
    const fraction = (units % scale).toString().padStart(result.decimal, '0').replace(/0+$/, '');
    const whole = (units / scale).toLocaleString('en');
    await expect(verdict.getByTestId('token-operation-amount')).toHaveText(`${whole}${fraction === '' ? '' : `.${fraction}`} ${ticker}`);
    await expect(verdict.getByRole('link', { name: ticker, exact: true })).toHaveAttribute('href', pages.token(ticker));
    const failed = operations.find((operation) => !operation.accepted);
    if (failed !== undefined) {
      await page.goto(pages.transaction(failed.transactionId));
      await expect(page.getByTestId('token-operation-result')).toHaveAttribute('data-accepted', 'false', { timeout: 20_000 });
      await expect(page.getByTestId('token-operation-error')).toHaveText(failed.opError ?? '');
    }
  });

  test("a holder's address page lists its tokens in whole units, linked, as the API counts them", async ({ page, request }) => {
    const { holders } = (await (
      await request.get(v1Path('GET /v1/tokens/tk20/{ticker}/holders', { ticker }, { limit: 1 }), { headers: keyed })
    ).json()) as { holders: { address: string }[] };
    const holder = holders[0]!.address;
    await page.goto(pages.address(holder));
    const row = page.getByTestId('address-token').filter({ has: page.getByRole('link', { name: ticker, exact: true }) });
    await expect(row.getByRole('link', { name: ticker, exact: true })).toHaveAttribute('href', pages.token(ticker));
    const apiBalance = async () => {
      const { balances } = parseJson(
        await (await request.get(v1Path('GET /v1/tokens/tk20/balances/{address}', { address: holder }), { headers: keyed })).text(),
      ) as unknown as { balances: { ticker: string; decimals: number; balance: number | bigint }[] };
      const token = balances.find((entry) => entry.ticker === ticker)!;
      const units = BigInt(token.balance);
      const scale = 10n ** BigInt(token.decimals);
      const fraction = (units % scale).toString().padStart(token.decimals, '0').replace(/0+$/, '');
      return `${(units / scale).toLocaleString('en')}${fraction === '' ? '' : `.${fraction}`}`;
    };
    // The holder may trade meanwhile: the page (refreshed every 15 s) and the API agree once both have the same state.
    await expect
      .poll(async () => (await row.getByTestId('address-token-balance').textContent()) === (await apiBalance()), { timeout: 45_000, intervals: [1_000] })
      .toBe(true);
  });

  test('the token page follows the dark theme and stays accessible in it', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(pages.token(ticker));
    await expect(page.locator('html')).toHaveClass(/dark/);
    await expect(page.getByTestId('candle-chart').locator('canvas').first()).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('stats-chart').locator('canvas').first()).toBeVisible({ timeout: 30_000 });
    await expectAccessible(page);
  });

  test('the range switch reloads both charts and the currency toggle changes the legend', async ({ page }) => {
    await page.goto(pages.token(ticker));
    await expect(page.getByTestId('candle-chart').locator('canvas').first()).toBeVisible({ timeout: 30_000 });
    const switcher = page.getByTestId('interval-switch');
    for (const [label, interval] of [
      ['7D', '7d'],
      ['1Y', '1y'],
    ] as const) {
      const candles = chartResponse(page, ticker, 'candles', interval);
      const stats = chartResponse(page, ticker, 'stats', interval);
      await switcher.getByRole('button', { name: label }).click();
      const body = (await (await candles).json()) as { candles: { ticker: string }[]; stats: unknown[] };
      expect(body.candles.length).toBeGreaterThan(0);
      expect(body.candles.every((candle) => candle.ticker === ticker)).toBe(true);
      expect(((await (await stats).json()) as { stats: unknown[] }).stats.length).toBeGreaterThan(0);
      await expect(switcher.getByRole('button', { name: label })).toHaveAttribute('aria-pressed', 'true');
    }
    const legend = page.getByTestId('candle-legend');
    await expect(legend).toContainText('$');
    await expect(legend).not.toContainText('KAS');
    await page.getByTestId('currency-switch').getByRole('button', { name: 'KAS' }).click();
    await expect(page.getByTestId('candle-chart')).toHaveAttribute('data-currency', 'kas');
    await expect(legend).toContainText('KAS');
    await expect(legend).not.toContainText('$');
  });

  test('the chart range and currency are in the URL, so a shared link opens the same view', async ({ page }) => {
    await page.goto(`${pages.token(ticker)}?interval=7d&currency=kas`);
    const range = page.getByTestId('interval-switch');
    const currency = page.getByTestId('currency-switch');
    await expect(range.getByRole('button', { name: '7D' })).toHaveAttribute('aria-pressed', 'true');
    await expect(currency.getByRole('button', { name: 'KAS' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('candle-chart')).toHaveAttribute('data-currency', 'kas');
    await range.getByRole('button', { name: '1M' }).click();
    await expect(page).toHaveURL(/[?&]interval=1m(&|$)/);
    await expect(page).toHaveURL(/[?&]currency=kas(&|$)/);
    await currency.getByRole('button', { name: 'USD' }).click();
    await expect(page).not.toHaveURL(/currency=/);
    await page.reload();
    await expect(range.getByRole('button', { name: '1M' })).toHaveAttribute('aria-pressed', 'true');
    await expect(currency.getByRole('button', { name: 'USD' })).toHaveAttribute('aria-pressed', 'true');
  });

  test("the registry's icon is drawn as an image, not printed as a URL", async ({ page }) => {
    await page.goto(pages.token(ticker));
    const icon = page.getByTestId('token-icon').first();
    await expect(icon).toBeVisible();
    await expect.poll(() => icon.evaluate((image) => (image as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    await expect(page.getByRole('main')).not.toContainText('/token-icons/');
    await page.goto(pages.tokens());
    await expect(page.locator(`[data-testid="token-row"][data-ticker="${ticker}"]`).getByTestId('token-icon')).toBeVisible();
  });

  test('a range still loading never also says it has no fills', async ({ page, request }) => {
    // The least traded token: with no fill in the last day, its first range has nothing to show while the next loads.
    const { tokens } = (await (await request.get(v1Path('GET /v1/tokens/tk20', {}, { limit: 100 }), { headers: keyed })).json()) as {
      tokens: ListedToken[];
    };
    const quiet = [...tokens].sort((a, b) => a.volume24h.trades - b.volume24h.trades)[0]!.ticker;
    await page.route(
      (url) => url.pathname.endsWith('/chart') && url.searchParams.get('interval') === '7d',
      async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        await route.continue();
      },
    );
    await page.goto(pages.token(quiet));
    await expect(page.getByTestId('candle-chart').locator('canvas').first()).toBeVisible({ timeout: 30_000 });
    await page.getByTestId('interval-switch').getByRole('button', { name: '7D' }).click();
    const price = page.locator('section', { has: page.getByRole('heading', { name: 'Price' }) });
    await expect(price.getByRole('status')).toHaveText('Loading…');
    await expect(page.getByTestId('candle-legend')).not.toContainText('No fills');
    await expect(price.getByRole('status')).toHaveCount(0);
  });

  test('ticker case does not matter: upper case redirects to the canonical lower-case page', async ({ page }) => {
    await page.goto(`/tokens/${ticker.toUpperCase()}`);
    await expect(page).toHaveURL(pages.token(ticker));
    await expect(page.getByTestId('token-ticker')).toHaveText(ticker);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', new RegExp(`${pages.token(ticker)}$`));
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', `${ticker} (KRC-20)`);
  });

  test('an unknown ticker is a not-found page', async ({ page }) => {
    const response = await page.goto(pages.token('zzzqq'));
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Token not found' })).toBeVisible();
  });

  test('both pages fit a phone', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 800 });
    for (const path of [pages.tokens(), pages.token(ticker)]) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectNoHorizontalScroll(page);
    }
    await expect(page.getByTestId('candle-chart').locator('canvas').first()).toBeVisible({ timeout: 30_000 });
    await expectNoHorizontalScroll(page);
  });
});
