import { expect, test, type Page } from '@playwright/test';
import { pages } from '../../lib/web/urls';

/** The site around the pages: header, navigation, public files, error statuses, copying, the API reference and console. */

function metaContent(html: string, attribute: 'name' | 'property', key: string): string | undefined {
  return new RegExp(`<meta ${attribute}="${key}" content="([^"]*)"`).exec(html)?.[1];
}

test.describe('public files', () => {
  test('favicon, icons, manifest and the default preview image are served', async ({ request }) => {
    const favicon = await request.get('/favicon.ico');
    expect(favicon.status()).toBe(200);
    const ico = await favicon.body();
    // ICONDIR: reserved 0, type 1 (icon), then the image count.
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]);
    expect(ico.readUInt16LE(4)).toBeGreaterThanOrEqual(1);

    const manifest = await request.get('/manifest.webmanifest');
    expect(manifest.status()).toBe(200);
    const { icons, name } = (await manifest.json()) as { name: string; icons: { src: string }[] };
    expect(name).toContain('dagboard');
    for (const icon of icons) expect((await request.get(icon.src)).status(), icon.src).toBe(200);
    for (const path of ['/apple-touch-icon.png', '/og-default.png', '/icon.svg']) {
      expect((await request.get(path)).status(), path).toBe(200);
    }

    const html = await (await request.get(pages.mempool())).text();
    expect(html).toMatch(/<link rel="icon" href="\/favicon.ico"/);
    expect(html).toMatch(/<link rel="manifest" href="\/manifest.webmanifest"/);
  });

  test('a page without its own preview shares the default one as a large card, with og:url', async ({ request, baseURL }) => {
    for (const path of [pages.mempool(), pages.fees(), pages.docs(), pages.tokens()]) {
      const html = await (await request.get(path)).text();
      expect(metaContent(html, 'name', 'twitter:card'), path).toBe('summary_large_image');
      expect(metaContent(html, 'property', 'og:image'), path).toBe(new URL('/og-default.png', baseURL).toString());
      expect(metaContent(html, 'property', 'og:image:width'), path).toBe('1200');
      expect(metaContent(html, 'property', 'og:url'), path).toBe(new URL(path, baseURL).toString());
    }
  });

  test('ids in upper case keep a lower-case canonical URL', async ({ request, baseURL }) => {
    const { virtualParentHashes } = (await (await request.get(`/api/explorer/v1/rpc/getBlockDagInfo`)).json()) as {
      virtualParentHashes: string[];
    };
    const hash = virtualParentHashes[0]!;
    const html = await (await request.get(`/blocks/${hash.toUpperCase()}`)).text();
    expect(html).toContain(`<link rel="canonical" href="${new URL(pages.block(hash), baseURL).toString()}"/>`);
    expect(pages.block(hash)).toBe(`/blocks/${hash.toLowerCase()}`);
  });
});

test.describe('statuses', () => {
  for (const [path, heading] of [
    ['/tx/zzz', 'Transaction not found'],
    ['/blocks/abc', 'Block not found'],
    ['/address/kaspa:bad', 'Not a valid address'],
    ['/daa/5/1', 'No such DAA range'],
    ['/daa/x/10', 'No such DAA range'],
    ['/no/such/page', 'Page not found'],
  ] as const) {
    test(`${path} answers 404 with the branded page`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(page.getByTestId('not-found')).toContainText('404');
      await expect(page.getByRole('search').first()).toBeVisible();
    });
  }
});

test.describe('header', () => {
  test('at 360 px the search box keeps a full row and the navigation folds into a menu', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(pages.fees());
    const search = page.getByRole('searchbox');
    const box = (await search.boundingBox())!;
    expect(box.width).toBeGreaterThan(200);
    const menu = page.getByRole('button', { name: 'Menu' });
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await menu.click();
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    const navigation = page.getByRole('navigation', { name: 'Main' });
    for (const label of ['Dashboard', 'Mempool', 'Fees', 'Tokens', 'Covenants', 'Wallet', 'API console', 'API docs']) {
      const link = navigation.getByRole('link', { name: label, exact: true });
      await expect(link).toBeVisible();
      const linkBox = (await link.boundingBox())!;
      expect(linkBox.x + linkBox.width, label).toBeLessThanOrEqual(360);
    }
    await expect(navigation.getByRole('link', { name: 'Fees', exact: true })).toHaveAttribute('aria-current', 'page');
    await navigation.getByRole('link', { name: 'Tokens', exact: true }).click();
    // The next page renders on the server first; a loaded machine takes more than the default 5 s.
    await expect(page).toHaveURL(pages.tokens(), { timeout: 30_000 });
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });

  for (const width of [1024, 1280, 1366]) {
    test(`at ${width} px the logo, navigation, search, status and theme share one line`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(pages.mempool());
      const middles = await Promise.all(
        [
          page.getByRole('link', { name: 'dagboard', exact: true }),
          page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API docs' }),
          page.getByRole('searchbox'),
          page.getByRole('button', { name: /theme/i }),
        ].map(async (locator) => {
          const box = (await locator.first().boundingBox())!;
          return box.y + box.height / 2;
        }),
      );
      expect(Math.max(...middles) - Math.min(...middles)).toBeLessThan(12);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    });
  }

  test('the current page is marked in the navigation', async ({ page }) => {
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(pages.mempool());
    const navigation = page.getByRole('navigation', { name: 'Main' });
    await expect(navigation.getByRole('link', { name: 'Mempool' })).toHaveAttribute('aria-current', 'page');
    await expect(navigation.getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current', 'page');
    await navigation.getByRole('link', { name: 'Fees' }).click();
    // The fees page asks the node for its estimate; late in a long run the devnet can take seconds to answer.
    await expect(navigation.getByRole('link', { name: 'Fees' })).toHaveAttribute('aria-current', 'page', { timeout: 20_000 });
    await expect(navigation.getByRole('link', { name: 'Mempool' })).not.toHaveAttribute('aria-current', 'page');
  });

  test('a slow navigation shows a progress bar until the next page is in place', async ({ page }) => {
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(pages.mempool());
    await expect(page.locator('[data-live-status="live"]')).toBeVisible();
    // Hold the next page's server render back, as a loaded server would.
    await page.route(
      (url) => url.pathname === pages.fees(),
      async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        await route.continue();
      },
    );
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Fees' }).click();
    await expect(page.getByTestId('navigation-progress')).toBeVisible();
    await expect(page).toHaveURL(pages.fees(), { timeout: 20_000 });
    await expect(page.getByRole('heading', { level: 1, name: 'Fees' })).toBeVisible();
    await expect(page.getByTestId('navigation-progress')).toHaveCount(0);
  });
});

/** Removes the clipboard API, as on a page served over plain http from a LAN address, and records what execCommand copied. */
async function withoutClipboardApi(page: Page, copyCommandWorks: boolean): Promise<void> {
  await page.addInitScript((works: boolean) => {
    Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined, configurable: true });
    const record = window as unknown as { copied: string[] };
    record.copied = [];
    document.execCommand = (command: string) => {
      if (command !== 'copy' || !works) return false;
      const field = document.activeElement instanceof HTMLTextAreaElement ? document.activeElement : null;
      const area = field ?? [...document.querySelectorAll('textarea')].at(-1);
      record.copied.push(area === undefined ? '' : area.value.slice(area.selectionStart, area.selectionEnd));
      return true;
    };
  }, copyCommandWorks);
}

test.describe('copying', () => {
  test('without the clipboard API the copy button falls back to the copy command and says so', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await withoutClipboardApi(page, true);
    await page.goto(pages.console());
    const code = page.getByRole('tabpanel', { name: 'curl code' });
    await expect(code).toContainText('curl -sS');
    const button = page.getByRole('button', { name: 'Copy as curl' });
    // The button sits above the snippet, never over its first line. Both boxes are read in one frame: the console
    // above the snippet may still be growing (catalogue, examples), which moves both.
    const { buttonBottom, codeTop } = await page.evaluate(() => {
      const buttonRect = document.querySelector('button[aria-label="Copy as curl"]')!.getBoundingClientRect();
      const codeRect = document.querySelector('[role="tabpanel"][aria-label="curl code"]')!.getBoundingClientRect();
      return { buttonBottom: buttonRect.bottom, codeTop: codeRect.top };
    });
    expect(buttonBottom).toBeLessThanOrEqual(codeTop);
    await button.click();
    await expect(page.locator('[data-copy-outcome="copied-by-fallback"]')).toContainText('Copied');
    const copied = await page.evaluate(() => (window as unknown as { copied: string[] }).copied);
    expect(copied).toEqual([await code.textContent()]);
  });

  test('when the browser blocks both ways, the text is offered selected for copying by hand', async ({ page }) => {
    await withoutClipboardApi(page, false);
    await page.goto(pages.console());
    await page.getByRole('button', { name: 'Copy as curl' }).click();
    const outcome = page.locator('[data-copy-outcome="blocked"]');
    await expect(outcome).toContainText('blocked');
    const field = outcome.getByRole('textbox', { name: 'Text to copy' });
    await expect(field).toHaveValue(/^curl -sS/);
    await expect(field).toBeFocused();
  });
});

test.describe('API console and reference', () => {
  test('the console shows collapsed JSON nodes as collapsed, and its request line stays on a phone', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(pages.console({ route: 'POST /v1/rpc/getBlock' }));
    await page.getByRole('button', { name: 'Use the demo key' }).click();
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(page.getByTestId('console-status')).toContainText('200');
    const line = page.getByTestId('console-request-line');
    const lineBox = (await line.boundingBox())!;
    expect(lineBox.x + lineBox.width).toBeLessThanOrEqual(390);
    const collapsed = page.locator('[data-json-node="collapsed"]').first();
    await expect(collapsed).toBeVisible();
    // A collapsed node says how much it holds and closes its bracket.
    await expect(collapsed.locator('summary')).toHaveText(/: [{[]\d+ (keys?|items?)[}\]]$/);
    const node = (await collapsed.elementHandle())!;
    await (await node.$('summary'))!.click();
    await expect.poll(() => node.getAttribute('data-json-node')).toBe('open');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  test("parameter descriptions show `code` as code, in the console and in the reference", async ({ page }) => {
    await page.goto(pages.console({ route: 'GET /v1/addresses/{address}/transactions', params: { address: 'kaspadev:x' } }));
    const form = page.getByRole('form', { name: 'Request' });
    await expect(form.getByText('starting_after', { exact: true })).toBeVisible();
    expect(await form.textContent()).not.toContain('`');
    await expect(form.locator('p code').first()).toBeVisible();

    await page.goto(pages.docs());
    const section = page.locator('[data-operation="getAddressTransactions"]');
    await expect(section.locator('table')).toBeVisible();
    expect(await section.locator('table').textContent()).not.toContain('`');
    await expect(section.locator('td code').first()).toBeVisible();
  });

  test('the reference and the console are small pages, and the reference fits a phone', async ({ page, request }) => {
    for (const path of [pages.docs(), pages.console()]) {
      const bytes = (await (await request.get(path)).body()).length;
      expect(bytes, path).toBeLessThan(200_000);
    }
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(pages.docs());
    const paths = page.getByTestId('operation-path');
    await expect(paths.first()).toBeVisible();
    const boxes = await paths.evaluateAll((elements) =>
      elements.map((element) => ({ text: element.textContent ?? '', width: element.getBoundingClientRect().width })),
    );
    for (const { text, width } of boxes) {
      // Paths wrap at slashes only: as wide as the path itself (a monospace letter is over 7 px) or 120 px, never a
      // column a letter or two wide.
      expect(width, text).toBeGreaterThan(Math.min(120, text.length * 7));
    }
  });

  test('an example answer in the reference is asked live when opened', async ({ page }) => {
    await page.goto(pages.docs());
    const section = page.locator('[data-operation="getBlockDagInfo"]');
    await section.getByText('Example response').click();
    const example = section.getByTestId('docs-example-response');
    await expect(example).toHaveAttribute('data-source', 'live');
    await expect(example).toContainText('"virtualDaaScore"');
  });
});
