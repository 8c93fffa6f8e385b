import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { bytesToHex } from '../../lib/kaspa/bytes';
import { transactionId } from '../../lib/kaspa/transaction';
import { stringifyJson } from '../../lib/rpc/json';
import { pages } from '../../lib/web/urls';
import { awaitMatureWalletUtxos, FEE, freshReceiver, spend, submissionOf } from '../devnet-wallet';

async function broadcast(page: Page, text: string): Promise<void> {
  await page.getByLabel(/The transaction as JSON/).fill(text);
  await page.getByRole('button', { name: 'Broadcast' }).click();
}

test.describe('broadcast page', () => {
  test('a signed transaction goes to the node and is followed to acceptance', async ({ page, request }) => {
    test.setTimeout(300_000);
    const candidates = await awaitMatureWalletUtxos(request, { moreThan: 3, timeout: 240_000 });
    await page.goto(pages.broadcast());
    // The traffic generator spends this wallet too: an output it spent first is refused, and the next one is tried.
    let sent: string | null = null;
    for (const utxo of candidates.slice(0, 8)) {
      const transaction = spend(utxo, FEE, freshReceiver('broadcast').script);
      await broadcast(page, stringifyJson({ transaction: submissionOf(transaction) }));
      const outcome = page.getByRole('region', { name: 'Submitted transaction' }).or(page.getByTestId('broadcast-rejection'));
      await expect(outcome).toBeVisible({ timeout: 30_000 });
      if (await page.getByTestId('broadcast-rejection').isVisible()) continue;
      sent = bytesToHex(transactionId(transaction));
      break;
    }
    expect(sent, 'a transaction broadcast from the page went through').not.toBeNull();
    const submitted = page.getByRole('region', { name: 'Submitted transaction' });
    await expect(submitted.getByRole('link', { name: sent! })).toHaveAttribute('href', pages.transaction(sent!));
    await expect(submitted.locator('[data-stage="accepted"]')).toBeVisible({ timeout: 60_000 });
    await expect(submitted.getByTestId('broadcast-confirmations')).toHaveText(/^[\d,]+ confirmations?$/);
  });

  test("the node's refusal and bad input are said plainly", async ({ page }) => {
    await page.goto(pages.broadcast());
    const form = page.getByRole('form', { name: 'Broadcast' });
    await broadcast(page, '{"inputs": [');
    await expect(form.getByRole('alert')).toContainText('This is not valid JSON');
    await broadcast(page, '{"version": 0}');
    await expect(form.getByRole('alert')).toContainText('"inputs" and "outputs"');
    // Spending an output nobody created is an orphan, which the node refuses unless orphans are allowed.
    const orphan = spend({ outpoint: { transactionId: 'ef'.repeat(32), index: 1 }, amount: '500000000', blockDaaScore: '0', isCoinbase: false }, FEE);
    await broadcast(page, stringifyJson(submissionOf(orphan)));
    await expect(page.getByTestId('broadcast-rejection')).toContainText(/^4\d\d /);
    const axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => violation.id)).toEqual([]);
  });
});
