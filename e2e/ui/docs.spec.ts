import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { DOCUMENT_EXAMPLE_ONLY, familyLabel } from '../../components/docs/reference';
import { groupProblemCodes } from '../../lib/api/http/problem-families';
import { pages } from '../../lib/web/urls';

interface Operation {
  operationId: string;
  'x-cost-ru': number;
  'x-problem-codes': string[];
}

test.describe('API reference', () => {
  test('renders a section for every operation of the OpenAPI document, with example request and live response', async ({
    page,
    request,
  }) => {
    test.setTimeout(600_000);
    const document = (await (await request.get('/v1/openapi.json')).json()) as { paths: Record<string, Record<string, Operation>> };
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ path, method: method.toUpperCase(), ...operation })),
    );
    expect(operations.length).toBeGreaterThanOrEqual(20);
    // The live examples need indexed history and a deployed token; the devnet's traffic makes both within minutes
    // (several under load, as in tokens.spec.ts).
    const example = (id: string) => page.locator(`[data-operation="${id}"] [data-testid="docs-example-response"]`);
    const openExample = (id: string) => page.locator(`[data-operation="${id}"] summary`, { hasText: 'Example response' }).click();
    await expect
      .poll(
        async () => {
          await page.goto(pages.docs());
          await openExample('getAddressTransactions');
          await openExample('getTokenMetadata');
          await example('getTokenMetadata').or(page.locator('[data-operation="getTokenMetadata"] [role="alert"]')).waitFor();
          return [
            (await example('getAddressTransactions').textContent()) ?? '',
            (await example('getTokenMetadata').getAttribute('data-source')) ?? 'error',
          ].join(' ');
        },
        { timeout: 480_000, intervals: [3_000] },
      )
      .toMatch(/"transactionId"[^]*live$/);

    for (const operation of operations) {
      const section = page.locator(`[data-operation="${operation.operationId}"]`);
      await expect(section, operation.operationId).toHaveCount(1);
      await expect(section.getByRole('heading', { level: 3 })).toContainText(`${operation.method} ${operation.path}`);
      await expect(section.getByLabel(`Example request for ${operation.operationId}`)).toContainText(`curl -sS -X ${operation.method}`);
      await openExample(operation.operationId);
      // Calls that change the chain, the document itself and the webhook calls show the document's example; every
      // other example is asked live (a mempool entry may be mined before it is asked for, and then answers 404).
      if (DOCUMENT_EXAMPLE_ONLY.has(operation.operationId)) {
        await expect(section.getByTestId('docs-example-response')).toHaveAttribute('data-source', 'document');
      } else if (operation.operationId !== 'getMempoolEntry') {
        // Each live answer is asked when opened; a loaded server may take more than the default 5 s.
        await expect(section.getByTestId('docs-example-response'), operation.operationId).toHaveAttribute('data-source', 'live', {
          timeout: 30_000,
        });
      }
      const { families, own } = groupProblemCodes(operation['x-problem-codes']);
      const errorLine = section.locator('p', { hasText: 'Error codes' });
      for (const text of [...families.map(familyLabel), ...own]) await expect(errorLine, operation.operationId).toContainText(text);
      await expect(page.locator('#costs').getByRole('row', { name: new RegExp(`^${operation.operationId} `) })).toBeVisible();
    }
    await expect(page.locator('#errors')).toContainText('invalid_api_key');
    await expect(page.locator('#error-node_timeout')).toContainText('calls to the node');
    await expect(page.locator('#authentication')).toContainText('x-api-key');
    await expect(page.locator('#pagination')).toContainText('starting_after');
  });

  test('documents the streams, the webhook signature and the api.kaspa.org interface, whose description it links', async ({ page }) => {
    await page.goto(pages.docs());
    const contents = page.getByRole('navigation', { name: 'Reference contents' });
    for (const [anchor, label] of [['streams', 'Streams'], ['webhooks-signing', 'Webhook signatures'], ['kaspa-rest', 'api.kaspa.org interface']]) {
      await expect(contents.getByRole('link', { name: label, exact: true })).toHaveAttribute('href', `#${anchor}`);
      await expect(page.locator(`#${anchor}`)).toBeVisible();
    }
    await expect(page.locator('#streams')).toContainText('/v1/stream?topics=');
    await expect(page.locator('#streams')).toContainText('Last-Event-ID');
    await expect(page.locator('#webhooks-signing')).toContainText('x-dagboard-signature');
    const description = page.locator('#kaspa-rest').getByRole('link', { name: '/kaspa-rest/openapi.json' });
    const response = await page.request.get((await description.getAttribute('href'))!);
    expect(response.status()).toBe(200);
    expect(((await response.json()) as { paths: Record<string, unknown> }).paths).toHaveProperty('/info/blockdag');
  });

  test('has no serious accessibility violations', async ({ page }) => {
    await page.goto(pages.docs());
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
    expect(serious.map((violation) => `${violation.id}: ${violation.help} (${violation.nodes[0]?.target.join(' ')})`)).toEqual([]);
  });
});
