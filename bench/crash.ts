/**
 * Crash bench: the whole app (`node server.mjs`: devnet worker, indexer and embedded PGlite in one process) SIGKILLed
 * at seeded random moments, again and again in one DATA_DIR; every start must become ready with the indexed view
 * equal to the node's (bench/support/crash-trials.ts says how it compares). Stops by itself and removes its directory.
 *
 * Usage: npm run build && npm run bench:crash [-- --trials 20] [--seed 16] [--max-run-seconds 4]
 *        [--startup-kill-share 0.3] [--blocks-per-second 10]
 *
 * Figures: ready time (spawn to /api/status ready) p50 and max, with the first start's (a fresh DATA_DIR: the
 * baseline, nothing to replay or recover) beside them; how the ready time grows with the chain (the devnet replays its
 * whole block log on each start); block-log tails the devnet dropped; indexer walk-backs and gaps; blocks compared.
 */
import { parseArgs } from 'node:util';
import { percentile } from './support/app-server';
import { runCrashTrials } from './support/crash-trials';

const { values } = parseArgs({
  options: {
    trials: { type: 'string', default: '20' },
    seed: { type: 'string', default: '16' },
    'max-run-seconds': { type: 'string', default: '4' },
    'startup-kill-share': { type: 'string', default: '0.3' },
    'blocks-per-second': { type: 'string', default: '10' },
  },
});

const trials = Number(values.trials);
if (!(Number.isInteger(trials) && trials >= 2)) throw new Error('--trials must be an integer of at least 2');

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const results = await runCrashTrials({
  trials,
  seed: Number(values.seed),
  maxRunMs: Number(values['max-run-seconds']) * 1000,
  startupKillShare: Number(values['startup-kill-share']),
  readyTimeoutMs: 600_000,
  env: { DEVNET_BLOCKS_PER_SECOND: values['blocks-per-second'] },
  log: (line) => console.log(line),
});

const restarts = results.slice(1);
const readyTimes = restarts.map((trial) => trial.readyMs).sort((a, b) => a - b);
const last = results.at(-1)!;
console.log('');
console.log(`trials: ${results.length} kill -9 trials in one DATA_DIR (${results.filter((trial) => trial.killedWhileStarting).length} also killed while starting); every start became ready with the index equal to the node's`);
console.log(`ready time, first start (fresh DATA_DIR, baseline): ${seconds(results[0]!.readyMs)}`);
console.log(`ready time after kill -9 (${restarts.length} restarts): p50 ${seconds(percentile(readyTimes, 50))}, max ${seconds(readyTimes.at(-1)!)}`);
console.log(`ready time of the last restart: ${seconds(last.readyMs)} at DAA score ${last.indexedDaaScore} (the devnet replays its whole block log)`);
console.log(`recoveries: devnet block-log tails dropped ${results.filter((trial) => trial.devnetRecovered).length}, indexer walk-backs ${results.reduce((sum, trial) => sum + trial.indexerRecoveries, 0)}, index gaps ${last.indexGaps}`);
console.log(`blocks compared with the node: ${results.reduce((sum, trial) => sum + trial.comparedBlocks, 0)}`);
