import { expect, test, type APIRequestContext, type Browser } from '@playwright/test';
import { resources } from '../../lib/web/resources';
import { pages, v1Path } from '../../lib/web/urls';
import { E2E_API_KEY } from '../api/settings';

/**
 * Every page of the explorer on a phone (390 × 844) and a laptop (1366 × 900), in the light and the dark theme, loaded
 * directly (no client navigation before it): no page error, no console error, no failed resource, no horizontal
 * overflow (wide content only inside a region marked `data-scroll-container`, which scrolls with a cue), and the theme
 * the reader chose survives the load even where the system prefers the other one.
 */

const keyed = { 'x-api-key': E2E_API_KEY };
/** A fresh devnet deploys its first token once coinbase outputs mature; under load that takes minutes (tokens.spec.ts). */
const TOKEN_WAIT_MS = 8 * 60_000;
const THEME_KEY = 'dagboard-theme';

interface Targets {
  transactionId: string;
  blockHash: string;
  address: string;
  start: number;
  end: number;
  ticker: string;
  covenantId: string;
}

interface RangeTransaction {
  transactionId: string;
  isAccepted: boolean;
  blockHashes: string[];
  inputs: { previousOutput: { scriptPublicKeyAddress: string | null } }[];
}

async function findTargets(request: APIRequestContext): Promise<Targets> {
  let chain: Omit<Targets, 'ticker' | 'covenantId'> | undefined;
  let ticker: string | undefined;
  let covenantId: string | undefined;
  await expect
    .poll(
      async () => {
        if (chain === undefined) {
          const dag = await request.get(v1Path('GET /v1/rpc/getBlockDagInfo'), { headers: keyed });
          const virtual = Number(((await dag.json()) as { virtualDaaScore: string }).virtualDaaScore);
          const end = virtual - 30;
          const start = Math.max(0, end - 40);
          const range = await request.get(
            v1Path(
              'GET /v1/blocks/daa-score/{daa_score_start}/{daa_score_end}',
              { daa_score_start: String(start), daa_score_end: String(end) },
              { chain_blocks_only: true, include_transactions: true },
            ),
            { headers: keyed },
          );
          if (range.status() === 200) {
            const { transactions } = (await range.json()) as { transactions: RangeTransaction[] };
            const transfer = transactions.find(
              (transaction) => transaction.isAccepted && transaction.inputs[0]?.previousOutput.scriptPublicKeyAddress != null,
            );
            if (transfer !== undefined) {
              chain = {
                transactionId: transfer.transactionId,
                blockHash: transfer.blockHashes[0]!,
                address: transfer.inputs[0]!.previousOutput.scriptPublicKeyAddress!,
                start,
                end,
              };
            }
          }
        }
        const tokens = await request.get(v1Path('GET /v1/tokens/tk20', {}, { limit: 1 }), { headers: keyed });
        if (tokens.status() === 200) ticker ??= ((await tokens.json()) as { tokens: { ticker: string }[] }).tokens[0]?.ticker;
        const covenants = await request.get(v1Path(resources.covenants.route, {}, { limit: 1 }), { headers: keyed });
        if (covenants.status() === 200) {
          covenantId ??= ((await covenants.json()) as { covenants: { covenantId: string }[] }).covenants[0]?.covenantId;
        }
        return `${chain === undefined ? 'no transfer yet' : 'transfer'} · ${ticker === undefined ? 'no token yet' : `token ${ticker}`} · ${
          covenantId === undefined ? 'no covenant yet' : 'covenant'
        }`;
      },
      { timeout: TOKEN_WAIT_MS, intervals: [2_000, 5_000] },
    )
    .toMatch(/^transfer · token [A-Za-z]+ · covenant$/);
  return { ...chain!, ticker: ticker!, covenantId: covenantId! };
}

interface PageSpec {
  name: string;
  path: (targets: Targets) => string;
  /** The document's expected status (200 unless said). */
  status?: number;
}

const PAGES: PageSpec[] = [
  { name: 'dashboard', path: () => pages.home() },
  { name: 'live BlockDAG', path: () => pages.dag() },
  { name: 'block', path: (targets) => pages.block(targets.blockHash) },
  { name: 'transaction', path: (targets) => pages.transaction(targets.transactionId) },
  { name: 'address', path: (targets) => pages.address(targets.address) },
  { name: 'DAA range', path: (targets) => pages.daaRange(BigInt(targets.start), BigInt(targets.end)) },
  { name: 'mempool', path: () => pages.mempool() },
  { name: 'fees', path: () => pages.fees() },
  { name: 'statistics', path: () => pages.statistics() },
  { name: 'statistics by day', path: () => pages.statistics('day') },
  { name: 'tokens', path: () => pages.tokens() },
  { name: 'token', path: (targets) => pages.token(targets.ticker) },
  { name: 'covenants', path: () => pages.covenants() },
  { name: 'covenant', path: (targets) => pages.covenant(targets.covenantId) },
  { name: 'wallet', path: () => pages.wallet() },
  { name: 'wallet of an address', path: (targets) => pages.wallet({ addresses: [targets.address] }) },
  { name: 'console', path: () => pages.console() },
  { name: 'docs', path: () => pages.docs() },
  { name: 'broadcast', path: () => pages.broadcast() },
  { name: 'search', path: () => pages.search('nothing-like-this') },
  { name: 'not found', path: () => '/no-such-page', status: 404 },
];

const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1366, height: 900 },
] as const;

const THEMES = ['light', 'dark'] as const;

interface Overflowing {
  element: string;
  left: number;
  right: number;
}

/** Elements reaching past either edge of the viewport, outside any marked scroll container. */
function overflowingElements(): { scrollWidth: number; innerWidth: number; elements: Overflowing[] } {
  const width = window.innerWidth;
  const elements: Overflowing[] = [];
  for (const element of document.body.querySelectorAll('*')) {
    const container = element.closest('[data-scroll-container]');
    if (container !== null && container !== element) continue;
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    if (box.left < -1 || box.right > width + 1) {
      const id = element.id === '' ? '' : `#${element.id}`;
      const testId = element.getAttribute('data-testid');
      const text = (element.textContent ?? '').trim().slice(0, 40);
      elements.push({
        element: `${element.tagName.toLowerCase()}${id}${testId === null ? '' : `[data-testid=${testId}]`} "${text}"`,
        left: Math.round(box.left),
        right: Math.round(box.right),
      });
    }
  }
  return { scrollWidth: document.documentElement.scrollWidth, innerWidth: width, elements: elements.slice(0, 10) };
}

async function visit(browser: Browser, url: string, spec: PageSpec, viewport: (typeof VIEWPORTS)[number], theme: (typeof THEMES)[number]) {
  // The system prefers the other scheme: the page must follow the reader's stored choice, not the system.
  const context = await browser.newContext({ viewport, colorScheme: theme === 'dark' ? 'light' : 'dark' });
  await context.addInitScript(([key, value]) => window.localStorage.setItem(key, value), [THEME_KEY, theme] as const);
  const page = await context.newPage();
  const problems: string[] = [];
  const expectedStatus = spec.status ?? 200;
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    // The browser logs the expected 404 of the not-found page's own document.
    if (expectedStatus !== 200 && message.location().url === url && /status of 404/.test(message.text())) return;
    problems.push(`console error: ${message.text()} (${message.location().url})`);
  });
  page.on('requestfailed', (request) => {
    // Requests the page itself abandons (a refetch superseded, the live stream closed) are not failures.
    if (request.failure()?.errorText === 'net::ERR_ABORTED') return;
    problems.push(`failed request: ${request.method()} ${request.url()}: ${request.failure()?.errorText}`);
  });
  page.on('response', (response) => {
    if (response.status() < 400) return;
    if (response.url() === url && response.status() === expectedStatus) return;
    problems.push(`HTTP ${response.status()}: ${response.request().method()} ${response.url()}`);
  });

  const response = await page.goto(url, { waitUntil: 'load' });
  expect(response?.status(), url).toBe(expectedStatus);
  // Hydrated and connected: the live badge turns "live" only once React runs and the event stream is open.
  await expect(page.locator('[data-live-status="live"]')).toBeVisible({ timeout: 20_000 });
  await page.waitForTimeout(1_500);

  const html = page.locator('html');
  if (theme === 'dark') await expect(html).toHaveClass(/(^|\s)dark(\s|$)/);
  else await expect(html).not.toHaveClass(/(^|\s)dark(\s|$)/);
  await expect(page.getByTestId('theme-toggle')).toHaveAccessibleName(`${theme === 'dark' ? 'Dark' : 'Light'} theme (click to change)`);

  const overflow = await page.evaluate(overflowingElements);
  await context.close();
  return { problems, overflow };
}

test.describe('every page', () => {
  let targets: Targets;

  test.beforeAll(async ({ request }) => {
    test.setTimeout(TOKEN_WAIT_MS + 30_000);
    targets = await findTargets(request);
  });

  for (const viewport of VIEWPORTS) {
    for (const theme of THEMES) {
      for (const spec of PAGES) {
        test(`${spec.name} at ${viewport.width}×${viewport.height}, ${theme}`, async ({ browser, baseURL }) => {
          const url = new URL(spec.path(targets), baseURL).toString();
          const { problems, overflow } = await visit(browser, url, spec, viewport, theme);
          expect(problems, 'errors and failed resources').toEqual([]);
          expect(overflow.elements, 'elements past the viewport outside a scroll container').toEqual([]);
          expect(overflow.scrollWidth, 'document wider than the viewport').toBeLessThanOrEqual(overflow.innerWidth);
        });
      }
    }
  }
});
