import { expect, test, type APIRequestContext } from '@playwright/test';
import type { IndexedTransactionView } from '../../lib/api/endpoints/indexed-format';
import { lineageStep } from '../../lib/web/covenant-lineage';
import { COVENANT_LINEAGE_PAGE_SIZE, resources, type CovenantDetail, type CovenantLineagePage, type CovenantListPage } from '../../lib/web/resources';
import { pages, v1Path } from '../../lib/web/urls';
import { E2E_API_KEY } from '../api/settings';
import { expectAccessible, expectSharePreview } from './page-checks';

const keyed = { 'x-api-key': E2E_API_KEY };
/** The traffic's first covenant starts once its wallets' coinbase outputs mature; a step follows every ~10 s. */
const LINEAGE_WAIT_MS = 5 * 60_000;
/** Each test opens several server-rendered pages; a loaded machine renders one in seconds. */
const TEST_TIMEOUT_MS = 3 * 60_000;

interface Lineage {
  covenant: CovenantDetail;
  transactions: IndexedTransactionView[];
}

async function getJson<T>(request: APIRequestContext, path: string): Promise<T> {
  const response = await request.get(path, { headers: keyed });
  expect(response.status(), path).toBe(200);
  return (await response.json()) as T;
}

/** A covenant of the devnet's traffic whose indexed lineage holds its genesis and at least two accepted continuations. */
async function findLineage(request: APIRequestContext): Promise<Lineage> {
  let found: Lineage | undefined;
  await expect
    .poll(
      async () => {
        const { covenants } = await getJson<CovenantListPage>(request, v1Path(resources.covenants.route, {}, { limit: 20 }));
        for (const summary of covenants) {
          const params = { covenantId: summary.covenantId };
          const lineage = await getJson<CovenantLineagePage>(request, v1Path(resources.covenantLineage.route, params, { limit: 100 }));
          if (lineage.metadata.hasMore) continue;
          const kinds = lineage.transactions.map((transaction) => lineageStep(transaction, summary.covenantId).kind);
          const continued = lineage.transactions.filter(
            (transaction, index) => transaction.isAccepted && kinds[index] === 'continuation',
          ).length;
          if (kinds.includes('genesis') && continued >= 2) {
            const { covenant } = await getJson<{ covenant: CovenantDetail }>(request, v1Path(resources.covenant.route, params));
            found = { covenant, transactions: lineage.transactions };
            return true;
          }
        }
        return false;
      },
      { timeout: LINEAGE_WAIT_MS, intervals: [3_000] },
    )
    .toBe(true);
  return found!;
}

test.describe('covenants in the explorer', () => {
  let lineage: Lineage;

  test.beforeAll(async ({ request }) => {
    test.setTimeout(LINEAGE_WAIT_MS + 30_000);
    lineage = await findLineage(request);
  });

  test.beforeEach(() => {
    test.setTimeout(TEST_TIMEOUT_MS);
  });

  test('the covenant page draws the lineage from genesis, lists it newest first and shows the current UTXOs and the script', async ({ page }) => {
    const { covenant, transactions } = lineage;
    await page.goto(pages.covenant(covenant.covenantId.toUpperCase()));
    await expect(page).toHaveURL(pages.covenant(covenant.covenantId.toUpperCase()));
    await expect(page.getByTestId('covenant-id')).toContainText(covenant.covenantId);

    const rows = page.getByTestId('lineage-row');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(Math.min(transactions.length, COVENANT_LINEAGE_PAGE_SIZE));
    // Older pages load on demand (as the reader scrolls, or with the button).
    const older = page.getByRole('button', { name: 'Load older lineage transactions' });
    while (await older.isVisible()) {
      const before = await rows.count();
      await older.click();
      await expect.poll(() => rows.count()).toBeGreaterThan(before);
    }
    expect(await rows.count()).toBeGreaterThanOrEqual(transactions.length);
    const ids = await rows.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-txid')));
    // Newest first, each once, the oldest being the genesis.
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.slice(-transactions.length)).toEqual(transactions.map((transaction) => transaction.transactionId).slice(-transactions.length));
    await expect(rows.last()).toHaveAttribute('data-kind', 'genesis');
    expect(await page.locator('[data-testid=lineage-row][data-kind=continuation]').count()).toBeGreaterThanOrEqual(2);
    // One mark per listed transaction on the timeline, each a link to it.
    await expect(page.getByTestId('covenant-timeline').locator('a')).toHaveCount(await rows.count());

    // The covenant may have ended since its lineage was found: the state and the UTXO rows are read from one render.
    const shown = await page.evaluate(() => ({
      state: document.querySelector('[data-testid=covenant-state]')?.textContent?.trim(),
      utxos: document.querySelectorAll('[data-testid=covenant-utxos] tbody tr').length,
    }));
    if (shown.state === 'active') {
      expect(shown.utxos).toBeGreaterThanOrEqual(1);
      await expect(page.getByTestId('covenant-spk')).not.toBeEmpty();
    } else {
      expect(shown).toEqual({ state: 'ended', utxos: 0 });
    }
    // A continuation reveals the redeem script; it is shown as opcodes, the covenant's introspection ones among them.
    await expect(page.getByTestId('covenant-redeem-script')).toContainText('OP_CHECKSIGVERIFY');
    await expect(page.getByTestId('covenant-redeem-script')).toContainText(/OP_(AUTH_OUTPUT_COUNT|TX_OUTPUT_SPK)/);
    await expectAccessible(page);
  });

  test('a continuation’s transaction page shows version 1, the input’s compute budget and both covenant links', async ({ page }) => {
    const { covenant, transactions } = lineage;
    const continuation = transactions.find((transaction) => lineageStep(transaction, covenant.covenantId).kind === 'continuation')!;
    await page.goto(pages.transaction(continuation.transactionId));
    await expect(page.getByTestId('transaction-version')).toHaveText('1');
    await expect(page.getByTestId('input-budget').first()).toContainText('× 10,000 units');
    const outputLink = page.getByTestId('output-covenant').getByRole('link');
    await expect(outputLink.first()).toHaveAttribute('href', pages.covenant(covenant.covenantId));
    // The spent output was bound to the same covenant.
    await expect(page.getByRole('table', { name: /Inputs/ }).getByRole('link', { name: covenant.covenantId.slice(0, 8), exact: false }).first()).toBeVisible();
    await outputLink.first().click();
    // Next keeps the old page up while the server renders the next one; a loaded machine takes a while.
    await expect(page).toHaveURL(pages.covenant(covenant.covenantId), { timeout: 30_000 });
    await expect(page.getByTestId('covenant-id')).toContainText(covenant.covenantId);
  });

  test('search finds the covenant by its id, and the list, the dashboard and the state’s address show it', async ({ page }) => {
    const { covenant } = lineage;
    await page.goto(pages.home());
    await page.getByRole('searchbox').fill(covenant.covenantId);
    await page.getByRole('searchbox').press('Enter');
    await expect(page).toHaveURL(pages.covenant(covenant.covenantId), { timeout: 30_000 });

    await page.goto(pages.covenants());
    await expect(page.getByTestId('covenant-row').first()).toBeVisible();
    await expectAccessible(page);

    await page.goto(pages.home());
    await expect(page.getByTestId('dashboard-covenants').getByTestId('covenant-link').first()).toBeVisible();
    await expect(page.getByText('Version 1 share')).toBeVisible();

    // The state's P2SH address holds the covenant-bound UTXO until the lineage's next step spends it: read it fresh.
    await expect(async () => {
      const params = { covenantId: covenant.covenantId };
      const fresh = (await getJson<{ covenant: CovenantDetail }>(page.request, v1Path(resources.covenant.route, params))).covenant;
      const state = fresh.currentUtxos[0];
      if (state === undefined) return;
      await page.goto(pages.address(state.address));
      await expect(page.getByTestId('covenant-utxo-count')).not.toHaveText('0', { timeout: 3_000 });
      await expect(page.getByTestId('covenant-utxos').getByRole('link', { name: covenant.covenantId.slice(0, 8), exact: false }).first()).toBeVisible({
        timeout: 3_000,
      });
    }).toPass({ timeout: 60_000 });
  });

  test('the covenant page carries share tags with its own PNG preview; an unknown id is the branded 404', async ({ page, request, baseURL }) => {
    await expectSharePreview(request, pages.covenant(lineage.covenant.covenantId), baseURL);
    const missing = await page.goto(pages.covenant('c'.repeat(64)));
    expect(missing?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: 'Covenant not found' })).toBeVisible();
    const malformed = await page.goto(pages.covenant('not-an-id'));
    expect(malformed?.status()).toBe(404);
  });
});
