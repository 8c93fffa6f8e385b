/**
 * Time from readiness to the first spending transaction on the dashboard of a fresh start (issue 17's first figure),
 * with the devnet bootstrap (the default) and, as the baseline in the same run, without it (DEVNET_BOOTSTRAP=false:
 * the traffic waits for the first coinbase rewards to mature, 1000 DAA = 100 s at 10 blocks/s).
 *
 * Usage: npx next build && npm run bench:first-spend [-- --runs 1 --baseline-timeout 300]
 */
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { measureFirstSpend, type FirstSpend } from './support/first-spend';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '1' },
    'baseline-timeout': { type: 'string', default: '300' },
  },
});
const runs = Math.max(1, Number(values.runs));
const baselineTimeoutMs = Number(values['baseline-timeout']) * 1000;
const CHROMIUM_ARGS = ['--no-sandbox'];

const seconds = (ms: number | null) => (ms === null ? 'none' : `${(ms / 1000).toFixed(1)} s`);
const describe = (label: string, result: FirstSpend) =>
  `${label.padEnd(26)} ready after ${seconds(result.readyMs).padStart(8)} · dashboard loaded ${seconds(result.pageLoadMs).padStart(7)}` +
  ` · first spending transaction ${seconds(result.firstSpendMs).padStart(8)} after readiness`;

async function main(): Promise<void> {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    for (let run = 1; run <= runs; run++) {
      const bootstrapped = await measureFirstSpend({ browser, spendTimeoutMs: baselineTimeoutMs });
      console.log(describe(`run ${run} bootstrap (default)`, bootstrapped));
      const baseline = await measureFirstSpend({ browser, env: { DEVNET_BOOTSTRAP: 'false' }, spendTimeoutMs: baselineTimeoutMs });
      console.log(describe(`run ${run} baseline (no bootstrap)`, baseline));
    }
  } finally {
    await browser.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
