import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

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
    await expect(page.getByTestId('fee-histogram').locator('li')).toHaveCount(12);
    await expect(page.getByTestId('mempool-row').first()).toBeVisible({ timeout: 60_000 });
    // At 10 blocks/s most transactions are mined within a block or two, so the projection may well be empty.
    await expect(page.getByTestId('next-blocks').or(page.getByTestId('next-blocks-empty'))).toBeVisible();
    const link = page.getByTestId('mempool-row').first().getByRole('link').first();
    await expect(link).toHaveAttribute('href', /^\/tx\/[0-9a-f]{64}$/);
    await expectAccessible(page);
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
