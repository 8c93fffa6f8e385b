import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { LIVE_STREAM_PATH, pages } from '../../lib/web/urls';
import { json, keyed } from '../api/support';

interface DagInfo {
  sink: string;
  virtualDaaScore: string;
}

const dagView = (page: Page) => page.getByRole('group', { name: /BlockDAG of the last minute/ });
const liveBadge = (page: Page) => page.locator('[data-live-status]');
const figure = (page: Page, label: string) => page.locator('dl > div').filter({ has: page.locator('dt', { hasText: label }) }).locator('dd');

async function figureValue(page: Page, label: string): Promise<bigint> {
  const text = (await figure(page, label).textContent()) ?? '';
  return BigInt(text.replace(/[^0-9]/g, '') || '0');
}

async function openLive(page: Page): Promise<void> {
  await page.goto(pages.home());
  await expect(page.getByRole('heading', { level: 1, name: 'Network dashboard' })).toBeVisible();
  await expect(liveBadge(page)).toHaveAttribute('data-live-status', 'live', { timeout: 20_000 });
}

test('a block the node adds after the page opened appears in the DAG view and the figures keep up', async ({ page, request }) => {
  await openLive(page);
  const info = await json<DagInfo>(await request.get('/v1/rpc/getBlockDagInfo', { headers: keyed }));
  const node = dagView(page).locator(`a[data-hash="${info.sink}"]`);
  await expect(node).toHaveCount(1, { timeout: 15_000 });
  await expect(node).toHaveAttribute('href', pages.block(info.sink));
  await expect.poll(() => figureValue(page, 'Virtual DAA score'), { timeout: 15_000 }).toBeGreaterThanOrEqual(BigInt(info.virtualDaaScore));
  await expect(figure(page, 'Blocks / s')).toHaveText(/^\d+(\.\d+)?$/);
  await expect(figure(page, 'Hashrate (est.)')).toHaveText(/H\/s$/);
});

/** About `ms` of the server's real stream, as text. */
async function captureStream(baseURL: string, ms: number): Promise<string> {
  const controller = new AbortController();
  const response = await fetch(new URL(LIVE_STREAM_PATH, baseURL), { signal: controller.signal });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const deadline = Date.now() + ms;
  let text = '';
  while (Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
  }
  controller.abort();
  return text.slice(0, text.lastIndexOf('\n\n') + 2);
}

test("the supply figures are the API's: circulating and max supply, block reward and the next reduction", async ({ page, request }) => {
  const supply = await json<{ maxSompi: string; blockRewardSompi: string; nextReduction: { daaScore: string } }>(
    await request.get('/v1/supply', { headers: keyed }),
  );
  await openLive(page);
  // The devnet's reward is 44 KAS for its first month (10 blocks a second from DAA score 0).
  expect(supply.blockRewardSompi).toBe('4400000000');
  await expect(figure(page, 'Block reward')).toHaveText('44 KAS');
  await expect(figure(page, 'Max supply')).toHaveText(`${new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 2 }).format(Number(supply.maxSompi) / 1e8)} KAS`);
  await expect(figure(page, 'Circulating supply')).toHaveText(/^[\d,.]+[KMB]? KAS$/);
  await expect(figure(page, 'Next reward reduction')).toHaveText(/^in \d+ d( \d+ h)?$/);
  await expect(figure(page, 'Next reward reduction').locator('..').locator('dt')).toHaveAttribute(
    'title',
    new RegExp(`At DAA score ${Number(supply.nextReduction.daaScore).toLocaleString('en')} the block reward becomes`),
  );
});

test('the stream reconnects by itself after an interruption and the page says so meanwhile', async ({ page, baseURL }) => {
  // The first connection carries real events and then ends (an interruption); reconnects are refused until the
  // route lets them through again.
  const captured = await captureStream(baseURL!, 2_000);
  expect(captured).toContain('event: block');
  let connections = 0;
  let refuse = true;
  await page.route(`**${LIVE_STREAM_PATH}`, async (route) => {
    connections += 1;
    if (connections === 1) {
      await route.fulfill({ status: 200, headers: { 'content-type': 'text/event-stream' }, body: captured });
    } else if (refuse) {
      await route.abort();
    } else {
      await route.continue();
    }
  });
  await page.goto(pages.home());
  await expect(liveBadge(page)).toHaveAttribute('data-live-status', 'reconnecting', { timeout: 20_000 });
  await expect(liveBadge(page)).toHaveText(/reconnecting/);
  await expect(dagView(page).locator('a[data-hash]')).not.toHaveCount(0);
  await expect.poll(() => connections, { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
  const before = await figureValue(page, 'Virtual DAA score');
  refuse = false;
  await expect(liveBadge(page)).toHaveAttribute('data-live-status', 'live', { timeout: 30_000 });
  await expect.poll(() => figureValue(page, 'Virtual DAA score'), { timeout: 15_000 }).toBeGreaterThan(before);
});

test('pausing the block stream freezes the rows and resuming shows the new blocks', async ({ page }) => {
  await openLive(page);
  const table = page.getByRole('table', { name: 'Latest blocks' });
  const rows = table.locator('tbody tr');
  await expect(rows).not.toHaveCount(0);
  await page.getByRole('button', { name: 'Pause' }).click();
  const frozen = await rows.evaluateAll((items) => items.map((item) => item.getAttribute('data-block-hash')));
  const resume = page.getByRole('button', { name: /Resume · \d+ new blocks?/ });
  await expect(resume).toBeVisible({ timeout: 15_000 });
  expect(await rows.evaluateAll((items) => items.map((item) => item.getAttribute('data-block-hash')))).toEqual(frozen);
  await resume.click();
  await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
  await expect.poll(() => rows.first().getAttribute('data-block-hash')).not.toBe(frozen[0]);
});

test('live updates keep the reader’s scroll position', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 600 });
  await openLive(page);
  const heading = page.getByRole('heading', { name: 'Latest transactions' });
  await heading.scrollIntoViewIfNeeded();
  const top = () => heading.evaluate((element) => Math.round(element.getBoundingClientRect().top));
  const scroll = () => page.evaluate(() => window.scrollY);
  await expect(page.getByRole('table', { name: 'Latest blocks' }).locator('tbody tr')).toHaveCount(12, { timeout: 15_000 });
  const [startTop, startScroll] = [await top(), await scroll()];
  const start = await figureValue(page, 'Virtual DAA score');
  await expect.poll(() => figureValue(page, 'Virtual DAA score'), { timeout: 20_000 }).toBeGreaterThan(start + 20n);
  expect(await scroll()).toBe(startScroll);
  expect(await top()).toBe(startTop);
});

test('DAG nodes open their block pages, by click and by keyboard', async ({ page }) => {
  await openLive(page);
  const nodes = dagView(page).locator('a[data-hash]');
  await expect(nodes).not.toHaveCount(0);
  const focused = dagView(page).locator('a[data-hash][tabindex="0"]');
  await expect(focused).toHaveCount(1);
  await focused.focus();
  await page.keyboard.press('ArrowLeft');
  const hash = await page.evaluate(() => document.activeElement?.getAttribute('data-hash') ?? '');
  expect(hash).toMatch(/^[0-9a-f]{64}$/);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(pages.block(hash), { timeout: 20_000 });

  await openLive(page);
  const clicked = (await dagView(page).locator('a[data-hash]').last().getAttribute('data-hash')) ?? '';
  // Nodes slide left as blocks arrive, so the click is dispatched to the node rather than aimed at a position.
  await dagView(page).locator(`a[data-hash="${clicked}"]`).dispatchEvent('click', { button: 0 });
  await expect(page).toHaveURL(pages.block(clicked), { timeout: 20_000 });
});

test('the dashboard has no serious or critical accessibility violations', async ({ page }) => {
  // axe walks every DAG node (one link per block of the last minute) while the page keeps updating.
  test.setTimeout(120_000);
  await openLive(page);
  await expect(dagView(page).locator('a[data-hash]')).not.toHaveCount(0);
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
});

test('a phone-sized viewport renders without horizontal scrolling', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openLive(page);
  await expect(dagView(page).locator('a[data-hash]')).not.toHaveCount(0);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
