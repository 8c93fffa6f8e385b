import { expect, test } from '@playwright/test';
import { measureFirstSpend } from '../../bench/support/first-spend';

// A newcomer's first start: default settings (only ports, the server key and a scratch DATA_DIR are its own). The
// devnet bootstrap funds the traffic wallets at genesis, so spending transactions reach the dashboard within seconds of
// readiness, while mined coins still wait Kaspa's 1000-DAA coinbase maturity.
const SPEND_WITHIN_MS = 20_000;

test('a fresh app shows a spending transaction on the dashboard within 20 s of readiness', async ({ browser }) => {
  // Readiness waits for the indexer to follow the node; on a loaded machine that alone can take minutes.
  test.setTimeout(420_000);
  const result = await measureFirstSpend({ browser, readyTimeoutMs: 360_000, spendTimeoutMs: SPEND_WITHIN_MS });
  expect(result.transactionId).toMatch(/^[0-9a-f]{64}$/);
  expect(result.firstSpendMs).not.toBeNull();
});
