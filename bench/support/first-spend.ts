/**
 * A fresh start as a newcomer sees it: `node server.mjs` with default settings (its own scratch DATA_DIR, a port the
 * system picks, a fresh server key) until /api/status says ready, then the dashboard in Chromium until its Latest
 * transactions table shows a row (a non-coinbase transaction: the live feed lists no coinbase). Used by
 * e2e/ui/first-minute.spec.ts and bench/first-spend.ts (`npm run bench:first-spend`). Needs `next build` first.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from '@playwright/test';
import { spawnApp, stopGently, untilReady } from './crash-trials';

export interface FirstSpend {
  /** From spawning the app until /api/status said ready. */
  readyMs: number;
  /** From readiness until the dashboard's `load` event (under load, much of the figure below). */
  pageLoadMs: number;
  /** From readiness until the dashboard showed a spending transaction; null when none showed within the wait. */
  firstSpendMs: number | null;
  transactionId: string | null;
}

export interface FirstSpendOptions {
  browser: Browser;
  /** Settings over the defaults (e.g. DEVNET_BOOTSTRAP=false for the old behaviour). */
  env?: Record<string, string>;
  readyTimeoutMs?: number;
  /** How long after readiness the dashboard is watched. */
  spendTimeoutMs: number;
}

const LATEST_TRANSACTION_ROW = 'table[aria-label="Latest transactions"] tr[data-transaction-id]';

export async function measureFirstSpend({ browser, env = {}, readyTimeoutMs = 180_000, spendTimeoutMs }: FirstSpendOptions): Promise<FirstSpend> {
  const dataDir = mkdtempSync(join(tmpdir(), 'dagboard-first-spend-'));
  const started = performance.now();
  const app = spawnApp(dataDir, randomBytes(24).toString('hex'), env);
  const context = await browser.newContext();
  try {
    const base = await app.base;
    await untilReady(base, app, readyTimeoutMs);
    const ready = performance.now();
    const page = await context.newPage();
    await page.goto(`${base}/`);
    const loaded = performance.now();
    const firstRow = page.locator(LATEST_TRANSACTION_ROW).first();
    const shownAt = await firstRow.waitFor({ timeout: spendTimeoutMs }).then(
      () => performance.now(),
      () => null,
    );
    return {
      readyMs: ready - started,
      pageLoadMs: loaded - ready,
      firstSpendMs: shownAt === null ? null : shownAt - ready,
      transactionId: shownAt === null ? null : await firstRow.getAttribute('data-transaction-id'),
    };
  } finally {
    await context.close();
    await stopGently(app);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
