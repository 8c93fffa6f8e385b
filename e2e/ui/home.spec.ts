import { expect, test } from '@playwright/test';

test('the home page renders the product name with styles applied', async ({ page }) => {
  await page.goto('/');
  const heading = page.getByRole('heading', { level: 1, name: 'dagboard' });
  await expect(heading).toBeVisible();
  const fontWeight = await heading.evaluate((element) => getComputedStyle(element).fontWeight);
  expect(fontWeight).toBe('600');
});
