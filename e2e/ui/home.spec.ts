import { expect, test } from '@playwright/test';

test('the home page is the dashboard, styled and titled for sharing', async ({ page }) => {
  await page.goto('/');
  const heading = page.getByRole('heading', { level: 1, name: 'Network dashboard' });
  await expect(heading).toBeVisible();
  expect(await heading.evaluate((element) => getComputedStyle(element).fontWeight)).toBe('600');
  await expect(page).toHaveTitle('dagboard · Kaspa BlockDAG explorer');
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /Live Kaspa network figures/);
});

test('the theme switch cycles system, light and dark, paints the page and survives a reload', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/');
  const html = page.locator('html');
  const toggle = page.getByRole('button', { name: /theme \(click to change\)/ });
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await expect(toggle).toHaveAccessibleName('System theme (click to change)');
  await expect(html).not.toHaveClass(/dark/);
  const lightBackground = await background();

  await toggle.click();
  await expect(toggle).toHaveAccessibleName('Light theme (click to change)');
  await expect(html).not.toHaveClass(/dark/);
  await toggle.click();
  await expect(toggle).toHaveAccessibleName('Dark theme (click to change)');
  await expect(html).toHaveClass(/dark/);
  expect(await background()).not.toBe(lightBackground);

  await page.reload();
  await expect(html).toHaveClass(/dark/);
  await expect(page.getByRole('button', { name: 'Dark theme (click to change)' })).toBeVisible();

  await page.getByRole('button', { name: 'Dark theme (click to change)' }).click();
  await expect(html).not.toHaveClass(/dark/);
  await page.reload();
  await expect(page.getByRole('button', { name: 'System theme (click to change)' })).toBeVisible();
});
