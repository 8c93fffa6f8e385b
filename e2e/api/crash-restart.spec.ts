import { expect, test } from '@playwright/test';
import { runCrashTrials } from '../../bench/support/crash-trials';

// A few of bench:crash's trials: its own app on a port the system picks, in its own scratch DATA_DIR. Five blocks a
// second keep the indexer's catch-up within reach on a loaded test machine; the trials are about kills, not speed.
const TRIALS = 3;

test('the whole app SIGKILLed at random moments in one DATA_DIR comes back ready every time, its index equal to the node\'s', async () => {
  test.setTimeout(TRIALS * 240_000);
  const results = await runCrashTrials({
    trials: TRIALS,
    seed: 2026,
    maxRunMs: 3_000,
    startupKillShare: 0.5,
    readyTimeoutMs: 180_000,
    env: { DEVNET_BLOCKS_PER_SECOND: '5' },
  });
  expect(results).toHaveLength(TRIALS);
  expect(results.every((trial) => trial.comparedBlocks > 0)).toBe(true);
  expect(results.at(-1)!.indexedDaaScore).toBeGreaterThan(results[0]!.indexedDaaScore);
  expect(results.every((trial) => trial.indexGaps === 0)).toBe(true);
});
