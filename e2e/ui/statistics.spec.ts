import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext } from '@playwright/test';
import type { StatisticsView } from '../../lib/api/endpoints/statistics-endpoint';
import { formatInteger } from '../../lib/web/format';
import { pages, v1Path } from '../../lib/web/urls';
import { E2E_API_KEY } from '../api/settings';

const keyed = { 'x-api-key': E2E_API_KEY };
const COINBASE_SUBNETWORK = `01${'00'.repeat(19)}`;
/** Transactions a window's chain blocks accept sit in blocks at most this far below it (merged, never deeper here). */
const MERGE_MARGIN = 400;
/** A fresh devnet completes its first window once the index is a whole window (a minute) past it. */
const FIRST_COMPLETE_WINDOW_MS = 4 * 60_000;

interface RangeAnswer {
  blocks: { hash: string; daaScore: number; isChainBlock: boolean }[];
  transactions: { transactionId: string; subnetworkId: string; acceptingBlockHash: string | null }[];
}

async function statistics(request: APIRequestContext, interval: string): Promise<StatisticsView[]> {
  const response = await request.get(v1Path('GET /v1/statistics', {}, { interval, limit: 100 }), { headers: keyed });
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { interval: string; statistics: StatisticsView[]; metadata: { count: number } };
  expect(body.interval).toBe(interval);
  expect(body.metadata.count).toBe(body.statistics.length);
  return body.statistics;
}

async function completeWindowWithTransactions(request: APIRequestContext): Promise<StatisticsView> {
  let found: StatisticsView | undefined;
  await expect
    .poll(
      async () => {
        found = (await statistics(request, 'minute')).find((row) => row.complete && row.transactions > 0);
        return found !== undefined;
      },
      { timeout: FIRST_COMPLETE_WINDOW_MS, intervals: [2_000] },
    )
    .toBe(true);
  return found!;
}

test.describe('statistics', () => {
  test('a complete minute counts the blocks, chain blocks and accepted transactions the DAA-range read shows', async ({ request }) => {
    test.setTimeout(FIRST_COMPLETE_WINDOW_MS + 60_000);
    const row = await completeWindowWithTransactions(request);
    const start = row.daaScoreStart!;
    const end = row.daaScoreEnd!;
    expect(end - start).toBe(599);
    const response = await request.get(
      v1Path(
        'GET /v1/blocks/daa-score/{daa_score_start}/{daa_score_end}',
        { daa_score_start: String(Math.max(0, start - MERGE_MARGIN)), daa_score_end: String(end) },
        { include_transactions: true },
      ),
      { headers: keyed },
    );
    expect(response.status()).toBe(200);
    const range = (await response.json()) as RangeAnswer;
    const inWindow = range.blocks.filter((block) => block.daaScore >= start);
    const chainBlocks = new Set(inWindow.filter((block) => block.isChainBlock).map((block) => block.hash));
    const accepted = new Set(
      range.transactions
        .filter((transaction) => transaction.subnetworkId !== COINBASE_SUBNETWORK)
        .filter((transaction) => transaction.acceptingBlockHash !== null && chainBlocks.has(transaction.acceptingBlockHash))
        .map((transaction) => transaction.transactionId),
    );
    expect({ blocks: row.blocks, chainBlocks: row.chainBlocks, transactions: row.transactions }).toEqual({
      blocks: inWindow.length,
      chainBlocks: chainBlocks.size,
      transactions: accepted.size,
    });
    expect(BigInt(row.fees)).toBeGreaterThan(0n);
    expect(row.activeAddresses).toBeGreaterThan(0);
  });

  test('hours and days sum their minutes', async ({ request }) => {
    test.setTimeout(FIRST_COMPLETE_WINDOW_MS + 60_000);
    await completeWindowWithTransactions(request);
    const [minutes, hours, days] = await Promise.all([
      statistics(request, 'minute'),
      statistics(request, 'hour'),
      statistics(request, 'day'),
    ]);
    const hourOf = (time: number) => Math.floor(time / 3_600_000) * 3_600_000;
    const newestHour = hours[0]!;
    expect(newestHour.end - newestHour.start).toBe(3_600_000);
    expect(newestHour.daaScoreStart).toBeNull();
    const minutesOfHour = minutes.filter((row) => hourOf(row.start) === newestHour.start);
    // The hour was computed from its minutes at the same refresh or a later one: never fewer blocks than they hold.
    expect(newestHour.blocks).toBeGreaterThanOrEqual(minutesOfHour.filter((row) => row.complete).reduce((sum, row) => sum + row.blocks, 0));
    expect(days[0]!.blocks).toBeGreaterThanOrEqual(newestHour.blocks);
    expect(days[0]!.end - days[0]!.start).toBe(86_400_000);
  });

  test('the page draws the figures, lists the newest rows and keeps the interval in its URL', async ({ page, request }) => {
    test.setTimeout(FIRST_COMPLETE_WINDOW_MS + 60_000);
    await completeWindowWithTransactions(request);
    await page.goto(pages.statistics());
    await expect(page.getByRole('heading', { level: 1, name: 'Statistics' })).toBeVisible();
    await expect(page.getByTestId('statistics-chart')).toHaveCount(5);
    await expect(page.getByTestId('statistics-row').first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Minutes' })).toHaveAttribute('aria-pressed', 'true');
    await page.getByRole('button', { name: 'Hours' }).click();
    await expect(page).toHaveURL(/\/statistics\?interval=hour$/, { timeout: 30_000 });
    await expect(page.getByRole('button', { name: 'Hours' })).toHaveAttribute('aria-pressed', 'true');
    const hours = await statistics(request, 'hour');
    const complete = hours.find((row) => row.complete);
    if (complete !== undefined) {
      await expect(page.getByTestId('statistics-row').filter({ hasText: formatInteger(complete.transactions) }).first()).toBeVisible();
    }
    await expect(page.getByTestId('statistics-transactions').first()).toHaveText(/^[\d,]+$/);
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')).toEqual([]);
  });
});
