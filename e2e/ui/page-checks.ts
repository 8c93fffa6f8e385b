import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Page } from '@playwright/test';

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** No serious or critical axe violation on the page as it stands. */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(serious.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
}

export function metaContent(html: string, attribute: 'property' | 'name', key: string): string | null {
  const pattern = new RegExp(`<meta ${attribute}="${key.replace(':', '\\:')}" content="([^"]*)"`);
  return pattern.exec(html)?.[1]?.replace(/&amp;/g, '&') ?? null;
}

/** The page's share tags: title, description, a large Twitter card, its canonical og:url and its own PNG preview. */
export async function expectSharePreview(request: APIRequestContext, path: string, baseURL: string | undefined): Promise<void> {
  const response = await request.get(path);
  expect(response.status(), path).toBe(200);
  const html = await response.text();
  expect(metaContent(html, 'property', 'og:title'), path).toBeTruthy();
  expect(metaContent(html, 'property', 'og:description'), path).toBeTruthy();
  expect(metaContent(html, 'name', 'twitter:card'), path).toBe('summary_large_image');
  expect(metaContent(html, 'property', 'og:url'), path).toBe(new URL(path, baseURL).toString());
  const image = metaContent(html, 'property', 'og:image');
  expect(image, path).toBeTruthy();
  const imageUrl = new URL(image!);
  expect(decodeURIComponent(imageUrl.pathname)).toBe(decodeURIComponent(`${path}/opengraph-image`));
  const png = await request.get(`${imageUrl.pathname}${imageUrl.search}`);
  expect(png.status(), image!).toBe(200);
  expect(png.headers()['content-type']).toBe('image/png');
  expect([...(await png.body()).subarray(0, 8)]).toEqual(PNG_MAGIC);
}
