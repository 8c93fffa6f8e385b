/**
 * The full-screen live BlockDAG (/dag): blocks the node adds appear as large nodes, pause holds the drawing while the
 * chain moves on and resume catches up, the span is in the URL, the dashboard leads to it, and on a phone the drawing
 * scrolls sideways from its newest blocks instead of shrinking them.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { pages } from '../../lib/web/urls';
import { json, keyed } from '../api/support';

const drawing = (page: Page) => page.getByRole('group', { name: /^BlockDAG of the last/ });
const hashesIn = (page: Page) => drawing(page).locator('a[data-hash]').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-hash')));

async function openDag(page: Page, path = pages.dag()): Promise<void> {
  await page.goto(path);
  await expect(page.locator('[data-live-status="live"]')).toBeVisible({ timeout: 20_000 });
  await expect(drawing(page).locator('a[data-hash]').first()).toBeAttached({ timeout: 20_000 });
}

test('the node\'s newest block appears, drawn large, and links to its page', async ({ page, request }) => {
  await openDag(page);
  await expect(drawing(page)).toHaveAccessibleName(/^BlockDAG of the last 30 seconds/);
  const { sink } = await json<{ sink: string }>(await request.get('/v1/rpc/getBlockDagInfo', { headers: keyed }));
  const node = drawing(page).locator(`a[data-hash="${sink}"]`);
  await expect(node).toHaveCount(1, { timeout: 15_000 });
  await expect(node).toHaveAttribute('href', pages.block(sink));
  // A finger-sized target: the dashboard's strip draws 4.5 px dots that it then scales down.
  expect(Number(await node.locator('circle').getAttribute('r'))).toBeGreaterThanOrEqual(7);
  await expect(page.getByTestId('dag-figures')).toHaveText(/^\d+ blocks \(\d+\.\d\/s\), \d+ on the selected chain, \d+ red$/);
});

test('pause holds the drawing while blocks keep coming; resume catches up', async ({ page }) => {
  await openDag(page);
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByRole('button', { name: 'Resume' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('dag-figures')).toContainText('paused');
  const held = await hashesIn(page);
  await page.waitForTimeout(3_000);
  expect(await hashesIn(page)).toEqual(held);
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect.poll(async () => (await hashesIn(page)).some((hash) => !held.includes(hash)), { timeout: 15_000 }).toBe(true);
});

test('the span is in the URL, so a shared link opens the same view', async ({ page }) => {
  await openDag(page);
  await page.getByRole('button', { name: '15 s' }).click();
  await expect(page).toHaveURL(/\/dag\?span=15$/, { timeout: 30_000 });
  await expect(page.getByRole('button', { name: '15 s' })).toHaveAttribute('aria-pressed', 'true');
  await expect(drawing(page)).toHaveAccessibleName(/^BlockDAG of the last 15 seconds/);
  await openDag(page, pages.dag(60));
  await expect(drawing(page)).toHaveAccessibleName(/^BlockDAG of the last minute/);
  await openDag(page, '/dag?span=7');
  await expect(drawing(page)).toHaveAccessibleName(/^BlockDAG of the last 30 seconds/);
});

test('the dashboard links to the full-screen view, which draws the blocks the page has already heard', async ({ page }) => {
  await page.goto(pages.home());
  await expect(page.locator('[data-live-status="live"]')).toBeVisible({ timeout: 20_000 });
  const strip = page.getByRole('group', { name: /^BlockDAG of the last minute/ });
  await expect(strip.locator('a[data-hash]').first()).toBeAttached({ timeout: 20_000 });
  const heard = await strip.locator('a[data-hash]').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-hash')));
  await page.getByRole('link', { name: 'Full-screen live view' }).click();
  await expect(page).toHaveURL(/\/dag$/, { timeout: 30_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'Live BlockDAG' })).toBeVisible();
  // No reconnect and no replay on a client-side navigation: what the dashboard drew comes from the connection's store.
  await expect.poll(async () => (await hashesIn(page)).filter((hash) => heard.includes(hash)).length, { timeout: 10_000 }).toBeGreaterThan(0);
});

test('the first paint carries no blocks, so the page stays small at the longest span; the stream draws them', async ({ page, request }) => {
  const response = await request.get(pages.dag(60));
  expect(response.status()).toBe(200);
  const html = await response.text();
  expect(html).not.toContain('data-hash=');
  expect(html.length).toBeLessThan(200_000);
  await openDag(page, pages.dag(60));
});

test('on a phone the drawing keeps its size and scrolls sideways from the newest blocks, and passes axe', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await openDag(page);
  const frame = page.locator('[data-scroll-container]').filter({ has: drawing(page) });
  await expect(page.getByTestId('scroll-cue')).toContainText('scroll sideways');
  const { scrollLeft, hidden } = await frame.evaluate((element) => ({ scrollLeft: element.scrollLeft, hidden: element.scrollWidth - element.clientWidth }));
  expect(hidden).toBeGreaterThan(0);
  expect(scrollLeft).toBeGreaterThan(hidden - 2);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => violation.id)).toEqual([]);
  await context.close();
});
