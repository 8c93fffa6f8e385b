import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { decodeAddress, encodeAddress } from '../../lib/kaspa/address';
import { pages } from '../../lib/web/urls';
import { E2E_API_KEY } from '../api/settings';
import { expectAccessible, expectSharePreview } from './page-checks';

const keyed = { 'x-api-key': E2E_API_KEY };

interface RangeBlock {
  hash: string;
  isChainBlock: boolean;
  daaScore: number;
  timestamp: string;
  transactionIds: string[];
}
interface RangeTransaction {
  transactionId: string;
  isAccepted: boolean;
  blockHashes: string[];
  inputs: { previousOutput: { scriptPublicKeyAddress: string | null; amount: string | null } }[];
  outputs: { amount: string; scriptPublicKeyAddress: string | null }[];
}

/** Real devnet data to open: an accepted transfer (with resolved inputs), its containing block, a chain block and an address. */
interface Sample {
  transactionId: string;
  blockHash: string;
  chainBlock: RangeBlock;
  address: string;
  start: number;
  end: number;
}

async function findSample(request: APIRequestContext): Promise<Sample> {
  let sample: Sample | undefined;
  await expect
    .poll(
      async () => {
        const dag = await request.get('/v1/rpc/getBlockDagInfo', { headers: keyed });
        if (dag.status() !== 200) return false;
        const virtual = Number(((await dag.json()) as { virtualDaaScore: string }).virtualDaaScore);
        const end = virtual - 50;
        const start = Math.max(0, end - 100);
        // A range with a previous one before it (the previous range starts at 0 at the earliest).
        if (end <= 150) return false;
        const response = await request.get(`/v1/blocks/daa-score/${start}/${end}?chain_blocks_only=true&include_transactions=true`, {
          headers: keyed,
        });
        if (response.status() !== 200) return false;
        const { blocks, transactions } = (await response.json()) as { blocks: RangeBlock[]; transactions: RangeTransaction[] };
        const transfer = transactions.find(
          (transaction) =>
            transaction.isAccepted &&
            transaction.inputs.length > 0 &&
            transaction.inputs.every((input) => input.previousOutput.amount !== null) &&
            transaction.inputs[0]?.previousOutput.scriptPublicKeyAddress !== null,
        );
        const chainBlock = blocks.find((block) => block.isChainBlock && block.transactionIds.length > 1);
        if (transfer === undefined || chainBlock === undefined) return false;
        sample = {
          transactionId: transfer.transactionId,
          blockHash: transfer.blockHashes[0]!,
          chainBlock,
          address: transfer.inputs[0]!.previousOutput.scriptPublicKeyAddress!,
          start,
          end,
        };
        return true;
      },
      { timeout: 150_000, intervals: [2_000] },
    )
    .toBe(true);
  return sample!;
}

async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

async function search(page: Page, query: string): Promise<void> {
  await page.goto(pages.home());
  await page.getByRole('searchbox').fill(query);
  await page.getByRole('searchbox').press('Enter');
}

test.describe('entity pages', () => {
  let sample: Sample;

  test.beforeAll(async ({ request }) => {
    test.setTimeout(180_000);
    sample = await findSample(request);
  });

  test('the block page shows header, GHOSTDAG data, relatives and transactions', async ({ page }) => {
    await page.goto(pages.block(sample.chainBlock.hash));
    await expect(page.getByRole('heading', { level: 1, name: 'Block' })).toBeVisible();
    await expect(page.getByTestId('block-hash')).toContainText(sample.chainBlock.hash);
    const main = page.getByRole('main');
    for (const label of ['DAA score', 'Blue score', 'Blue work', 'Difficulty', 'Selected parent', 'Merge set blues']) {
      await expect(main.getByText(label, { exact: false }).first()).toBeVisible();
    }
    await expect(main.getByRole('link', { name: sample.chainBlock.daaScore.toLocaleString('en-US'), exact: true })).toHaveAttribute(
      'href',
      /^\/daa\/\d+\/\d+$/,
    );
    await expect(main.getByText('accepts the transactions of its merge set')).toBeVisible();
    const version = Number(await page.getByTestId('header-version').innerText());
    expect([1, 2]).toContain(version);
    await expect(main.getByText(version === 2 ? 'Sequencing commitment (KIP-21)' : 'Accepted id merkle root', { exact: true })).toBeVisible();
    // A chain block always carries its coinbase, on the coinbase subnetwork.
    await expect(page.getByTestId('block-lanes')).toContainText('01' + '00'.repeat(19));
    for (const id of sample.chainBlock.transactionIds) {
      await expect(main.locator(`a[href="${pages.transaction(id)}"]`)).toBeVisible();
    }
    // The devnet's subsidy is 44 KAS in its first month; the miner is the payload's address, not the outputs' payees.
    await expect(page.getByTestId('block-subsidy')).toHaveText(/^44(\.0+)? KAS$/);
    const minerCard = main.locator('section').filter({ has: page.getByRole('heading', { name: 'Miner and reward' }) }).last();
    await expect(minerCard.locator('a[href^="/address/kaspadev"]').first()).toBeVisible();
    await expect(main.getByRole('link', { name: /Show API call/ })).toHaveAttribute('href', /^\/console\?route=POST/);
    await expectAccessible(page);
  });

  test("the block page draws the block's place in the DAG: its parents, the selected one marked, and its children", async ({ page, request }) => {
    const { block } = (await (
      await request.post('/v1/rpc/getBlock', { headers: keyed, data: { hash: sample.chainBlock.hash, includeTransactions: false } })
    ).json()) as { block: { header: { parentsByLevel: string[][] }; verboseData: { selectedParentHash: string; mergeSetRedsHashes: string[] } } };
    const parents = block.header.parentsByLevel[0]!;
    await page.goto(pages.block(sample.chainBlock.hash));
    const drawing = page.getByTestId('block-neighbourhood');
    await expect(drawing.getByTestId('neighbourhood-self')).toBeVisible();
    const selected = drawing.locator('a[data-tone="selected"]');
    await expect(selected).toHaveAttribute('data-hash', block.verboseData.selectedParentHash);
    await expect(drawing.locator('a[data-tone="selected"], a[data-tone="blue"], a[data-tone="red"]')).toHaveCount(Math.min(6, parents.length));
    for (const red of block.verboseData.mergeSetRedsHashes.filter((hash) => parents.slice(0, 6).includes(hash))) {
      await expect(drawing.locator(`a[data-hash="${red}"]`)).toHaveAttribute('data-tone', 'red');
    }
    // A chain block below the tip has children by now; the drawing follows them as the page refreshes.
    await expect(drawing.locator('a[data-tone="child"]').first()).toBeVisible({ timeout: 20_000 });
    await selected.click();
    await expect(page).toHaveURL(pages.block(block.verboseData.selectedParentHash), { timeout: 30_000 });
  });

  test('the transaction page shows status, inputs, outputs and fee, and its confirmations rise live', async ({ page }) => {
    await page.goto(pages.transaction(sample.transactionId));
    await expect(page.getByTestId('transaction-id')).toContainText(sample.transactionId);
    await expect(page.getByTestId('transaction-status')).toContainText('Accepted');
    const main = page.getByRole('main');
    await expect(main.locator(`a[href="${pages.address(sample.address)}"]`).first()).toBeVisible();
    await expect(main.getByText('Fee rate')).toBeVisible();
    await expect(main.getByText(/sompi\/g/)).toBeVisible();
    await expect(main.locator(`a[href="${pages.block(sample.blockHash)}"]`).first()).toBeVisible();
    const confirmations = async () => Number((await page.getByTestId('confirmations').innerText()).replace(/,/g, ''));
    const first = await confirmations();
    await expect.poll(confirmations, { timeout: 30_000 }).toBeGreaterThan(first);
    await expectAccessible(page);
  });

  test('a shared transaction link opened in a fresh browser context shows the same transaction', async ({ page, browser, baseURL }) => {
    await page.goto(pages.transaction(sample.transactionId));
    const canonical = await page.locator('link[rel="canonical"]').getAttribute('href');
    expect(canonical).toBe(new URL(pages.transaction(sample.transactionId), baseURL).toString());
    const outputs = await page.getByRole('table', { name: 'Outputs', exact: true }).innerText();
    const fresh = await browser.newContext();
    try {
      const other = await fresh.newPage();
      await other.goto(canonical!);
      await expect(other.getByTestId('transaction-id')).toContainText(sample.transactionId);
      expect(await other.getByRole('table', { name: 'Outputs', exact: true }).innerText()).toBe(outputs);
    } finally {
      await fresh.close();
    }
  });

  test('the DAA range page browses ranges, toggles all blocks and jumps to a score and a time', async ({ page }) => {
    test.setTimeout(180_000);
    const width = sample.end - sample.start;
    await page.goto(pages.daaRange(String(sample.start), String(sample.end)));
    await expect(page.getByRole('heading', { level: 1 })).toContainText('DAA scores');
    await expect(page.getByTestId('range-block').first()).toBeVisible();
    await expect(page.locator(`a[href="${pages.block(sample.chainBlock.hash)}"]`)).toBeVisible();
    await expectAccessible(page);

    const heading = page.getByRole('heading', { level: 1 });
    await page.getByRole('link', { name: 'Previous range' }).click();
    // The previous range stops at DAA score 0; the next range keeps the width of the one shown.
    const previousStart = Math.max(0, sample.start - width - 1);
    const shownWidth = sample.start - 1 - previousStart;
    await expect(page).toHaveURL(pages.daaRange(String(previousStart), String(sample.start - 1)), { timeout: 20_000 });
    await expect(heading).toContainText(`${(sample.start - 1).toLocaleString('en-US')}`);
    await page.getByRole('link', { name: 'Next range' }).click();
    await expect(page).toHaveURL(pages.daaRange(String(sample.start), String(sample.start + shownWidth)), { timeout: 20_000 });
    await expect(heading).toContainText(`${(sample.start + shownWidth).toLocaleString('en-US')}`);

    await page.getByRole('link', { name: 'All blocks' }).click();
    await expect(page).toHaveURL(/\?all=1$/, { timeout: 20_000 });
    await expect(page.getByRole('columnheader', { name: 'Chain' })).toBeVisible();

    const score = sample.chainBlock.daaScore;
    await page.getByLabel('Jump to DAA score').fill(String(score));
    await page.getByLabel('Jump to DAA score').press('Enter');
    const half = Math.floor(shownWidth / 2);
    await expect(page).toHaveURL(`${pages.daaRange(String(Math.max(0, score - half)), String(Math.max(0, score - half) + shownWidth))}?all=1`, {
      timeout: 20_000,
    });

    const stamp = Date.parse(sample.chainBlock.timestamp);
    const inSeconds = new Date(Math.ceil(stamp / 1000) * 1000).toISOString().slice(0, 19);
    await page.getByLabel('Jump to a time (UTC)').fill(inSeconds);
    await page.getByLabel('Jump to a time (UTC)').press('Enter');
    await expect(page.getByTestId('time-jump')).toBeVisible({ timeout: 20_000 });
    const found = Number(new URL(page.url()).searchParams.get('found'));
    expect(Math.abs(found - score)).toBeLessThanOrEqual(100);
    await expect(page.getByTestId('range-block').first()).toBeVisible();
  });

  test('search finds transactions, blocks, addresses and DAA scores and goes straight to them', async ({ page }) => {
    test.setTimeout(120_000);
    await search(page, sample.transactionId);
    await expect(page).toHaveURL(pages.transaction(sample.transactionId), { timeout: 20_000 });
    await search(page, sample.chainBlock.hash.toUpperCase());
    await expect(page).toHaveURL(pages.block(sample.chainBlock.hash), { timeout: 20_000 });
    await search(page, sample.address);
    await expect(page).toHaveURL(pages.address(sample.address), { timeout: 20_000 });
    await search(page, String(sample.chainBlock.daaScore));
    await expect(page).toHaveURL(/\/daa\/\d+\/\d+$/, { timeout: 20_000 });
    const [, start, end] = /\/daa\/(\d+)\/(\d+)$/.exec(page.url())!;
    expect(Number(start)).toBeLessThanOrEqual(sample.chainBlock.daaScore);
    expect(Number(end)).toBeGreaterThanOrEqual(sample.chainBlock.daaScore);
  });

  test('search explains what it cannot find', async ({ page }) => {
    const mainnet = encodeAddress({ ...decodeAddress(sample.address), prefix: 'kaspa' });
    await page.goto(pages.search(mainnet));
    await expect(page.getByTestId('search-empty')).toContainText('mainnet');
    await expect(page.getByTestId('search-empty')).toContainText('devnet');

    await page.goto(pages.search('f'.repeat(64)));
    await expect(page.getByTestId('search-empty')).toContainText('No transaction, block or covenant with this hash');

    await page.goto(pages.search('what is this?'));
    await expect(page.getByTestId('search-empty')).toContainText('Nothing found');
    await expectAccessible(page);
  });

  test('transaction, block and address pages carry OpenGraph and Twitter tags with a PNG preview', async ({ request, baseURL }) => {
    for (const path of [pages.transaction(sample.transactionId), pages.block(sample.blockHash), pages.address(sample.address)]) {
      await expectSharePreview(request, path, baseURL);
    }
    const html = await (await request.get(pages.transaction(sample.transactionId))).text();
    expect(html).toContain(`<link rel="canonical" href="${new URL(pages.transaction(sample.transactionId), baseURL).toString()}"/>`);
  });

  test('not-found and bad-input states', async ({ page }) => {
    const missingBlock = await page.goto(pages.block('a'.repeat(64)));
    expect(missingBlock?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: 'Block not found' })).toBeVisible();
    await expectAccessible(page);

    const missingTransaction = await page.goto(pages.transaction('b'.repeat(64)));
    expect(missingTransaction?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: 'Transaction not found' })).toBeVisible();

    // A malformed id names nothing: the same branded 404, which says what an id looks like.
    const malformedBlock = await page.goto(pages.block('not-a-hash'));
    expect(malformedBlock?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: 'Block not found' })).toBeVisible();
    await expect(page.getByTestId('not-found')).toContainText('64 hexadecimal characters');

    await page.goto(pages.daaRange('0', '5000'));
    await expect(page.getByRole('heading', { level: 1, name: 'DAA range too wide' })).toBeVisible();
    await expect(page.getByRole('link', { name: /Show the first 1,000 scores/ })).toHaveAttribute('href', pages.daaRange('0', '1000'));
  });

  test('the pages fit a phone screen without horizontal scrolling', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    for (const path of [
      pages.transaction(sample.transactionId),
      pages.block(sample.chainBlock.hash),
      pages.daaRange(String(sample.start), String(sample.end)),
      pages.search('nothing here'),
    ]) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectNoHorizontalScroll(page);
    }
  });
});
