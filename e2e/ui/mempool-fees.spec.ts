import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import type { NodeMempoolEntry } from '../../lib/api/endpoints/node-format';
import { bytesToHex } from '../../lib/kaspa/bytes';
import { transactionId } from '../../lib/kaspa/transaction';
import { parseJson, stringifyJson } from '../../lib/rpc/json';
import { formatFeeRate, formatInteger, kasDisplay } from '../../lib/web/format';
import { E2E_API_KEY } from '../api/settings';
import { FEE, spend, submissionOf } from '../devnet-wallet';

async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(serious.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
}

async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

test.describe('mempool and fees', () => {
  test('the mempool page shows live entries, the fee-rate histogram and the next blocks', async ({ page }) => {
    await page.goto('/mempool');
    await expect(page.getByRole('heading', { name: 'Mempool', level: 1 })).toBeVisible();
    await expect(page.getByTestId('mempool-summary')).toBeVisible();
    await expect(page.getByTestId('mempool-row').first()).toBeVisible({ timeout: 60_000 });
    await expect(page.getByTestId('fee-histogram-bin').first()).toBeVisible();
    // At 10 blocks/s most transactions are mined within a block or two, so the projection may well be empty.
    await expect(page.getByTestId('next-blocks').or(page.getByTestId('next-blocks-empty'))).toBeVisible();
    const link = page.getByTestId('mempool-row').first().getByRole('link').first();
    await expect(link).toHaveAttribute('href', /^\/tx\/[0-9a-f]{64}$/);
    await expectAccessible(page);
  });

  test("the page's fee, masses and fee rate are the node's for the same transaction", async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto('/mempool');
    let compared = 0;
    for (let attempt = 0; attempt < 30 && compared === 0; attempt++) {
      // The node's answer the page itself received; once it is drawn, each of its transactions' rows must show it.
      const answer = await page.waitForResponse(
        (response) => new URL(response.url()).pathname.endsWith('/v1/rpc/getMempoolEntries') && response.status() === 200,
      );
      const { mempoolEntries } = parseJson(await answer.text()) as unknown as { mempoolEntries: NodeMempoolEntry[] };
      await page.waitForTimeout(300);
      for (const entry of mempoolEntries.filter((candidate) => !candidate.isOrphan)) {
        const id = entry.transaction.verboseData!.transactionId;
        // Rows leave as blocks take their transactions: the cells are read in one frame, or not at all.
        const cells = await page.evaluate((transactionId) => {
          const row = document.querySelector(`[data-testid="mempool-row"][data-transaction-id="${transactionId}"]`);
          if (row === null) return null;
          return Object.fromEntries(
            ['fee', 'compute-mass', 'storage-mass', 'fee-rate'].map((field) => [
              field,
              row.querySelector(`[data-field="${field}"]`)?.textContent?.trim(),
            ]),
          );
        }, id);
        if (cells === null) continue;
        const computeMass = BigInt(entry.transaction.verboseData!.computeMass);
        // kaspad sends the storage mass as `mass`; the block space taken is the larger of the two.
        const storageMass = BigInt(entry.transaction.mass);
        const mass = computeMass > storageMass ? computeMass : storageMass;
        const fee = BigInt(entry.fee);
        const shown = [cells.fee, cells['compute-mass'], cells['storage-mass'], cells['fee-rate']];
        if (shown.some((text) => text === undefined)) continue;
        expect(shown, id).toEqual([
          kasDisplay(fee, 8),
          `${formatInteger(computeMass)} g`,
          `${formatInteger(storageMass)} g`,
          formatFeeRate(Number(fee) / Number(mass)),
        ]);
        compared += 1;
      }
    }
    expect(compared, 'transactions compared with the node').toBeGreaterThan(0);
  });

  test("an orphan's fee reads unknown and its wait counts from when the page saw it", async ({ page, request }) => {
    const orphan = spend(
      { outpoint: { transactionId: 'ee'.repeat(32), index: Date.now() % 1000 }, amount: '500000000', blockDaaScore: '0', isCoinbase: false },
      FEE,
    );
    const id = bytesToHex(transactionId(orphan));
    const submitted = await request.post('/v1/rpc/submitTransaction', {
      headers: { 'x-api-key': E2E_API_KEY, 'content-type': 'application/json' },
      data: stringifyJson({ transaction: submissionOf(orphan), allowOrphan: true }),
    });
    expect(submitted.status(), await submitted.text()).toBe(200);
    await page.goto('/mempool');
    const row = page.locator(`[data-testid="mempool-row"][data-transaction-id="${id}"]`);
    await expect(row).toContainText('orphan');
    await expect(row.locator('[data-field="fee"]')).toHaveText('unknown');
    await expect(row.locator('[data-field="fee-rate"]')).toHaveText('unknown');
    // It was in the pool before the page opened: the page can only say "at least".
    await expect(row).toContainText('≥');
    await expect(page.getByTestId('mempool-orphans')).not.toHaveText('0');
  });

  test('fee history starts with the app, not with the first visit to /fees', async ({ request }) => {
    test.setTimeout(90_000);
    // Let the app run past a few sampling intervals before anything asks for the history.
    const { uptimeSeconds } = (await (await request.get('/api/status')).json()) as { uptimeSeconds: number };
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 45 - uptimeSeconds) * 1000));
    const startedAt = Date.now() - ((await (await request.get('/api/status')).json()) as { uptimeSeconds: number }).uptimeSeconds * 1000;
    const { samples } = (await (await request.get('/api/fee-history')).json()) as { samples: { time: number }[] };
    expect(samples.length).toBeGreaterThanOrEqual(2);
    // Sampling starts with the runtime, seconds into the process's life (a first sample may miss a node still
    // connecting), and every 10 s after; sampling from the first request would start 45 s in at the earliest.
    expect(samples[0]!.time - startedAt).toBeLessThan(30_000);
  });

  test('the fees page shows the estimate buckets and their history chart', async ({ page }) => {
    await page.goto('/fees');
    await expect(page.getByTestId('fee-bucket').first()).toContainText('Priority');
    await expect(page.getByTestId('fee-chart').locator('canvas').first()).toBeVisible({ timeout: 30_000 });
    await expectAccessible(page);
  });

  test('both fit a phone', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of ['/mempool', '/fees']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectNoHorizontalScroll(page);
    }
  });
});
