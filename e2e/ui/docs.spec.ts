import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { pages } from '../../lib/web/urls';

interface Operation {
  operationId: string;
  'x-cost-ru': number;
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
      // Calls that change the chain and the document itself show the document's example; every other example is
      // asked live (a mempool entry may be mined before it is asked for, and then answers 404).
      if (/^(submit|getOpenApiDocument)/.test(operation.operationId)) {
        await expect(section.getByTestId('docs-example-response')).toHaveAttribute('data-source', 'document');
      } else if (operation.operationId !== 'getMempoolEntry') {
        await expect(section.getByTestId('docs-example-response'), operation.operationId).toHaveAttribute('data-source', 'live');
      }
      await expect(page.locator('#costs').getByRole('row', { name: new RegExp(`^${operation.operationId} `) })).toBeVisible();
    }
    await expect(page.locator('#errors')).toContainText('invalid_api_key');
    await expect(page.locator('#authentication')).toContainText('x-api-key');
    await expect(page.locator('#pagination')).toContainText('starting_after');
  });

  test('has no serious accessibility violations', async ({ page }) => {
    await page.goto(pages.docs());
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
    expect(serious.map((violation) => `${violation.id}: ${violation.help} (${violation.nodes[0]?.target.join(' ')})`)).toEqual([]);
  });
});
