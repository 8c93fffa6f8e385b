import { expect, test } from '@playwright/test';

test('the home page is the dashboard, styled and titled for sharing', async ({ page }) => {
  await page.goto('/');
  const heading = page.getByRole('heading', { level: 1, name: 'Network dashboard' });
  await expect(heading).toBeVisible();
  expect(await heading.evaluate((element) => getComputedStyle(element).fontWeight)).toBe('600');
  await expect(page).toHaveTitle('dagboard · Kaspa BlockDAG explorer');
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /Live Kaspa network figures/);
});
