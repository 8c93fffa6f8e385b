/**
 * Sustained throughput and CPU cost of the embedded devnet: one node in-process (memory persistence, its simulated
 * miners, the traffic generator on its worker thread), measured over a fixed window after a warm-up. Run with
 * `npx tsx bench/devnet.ts` (or `npm run bench:devnet`); the run stops by itself.
 *
 * Options (all optional): --bps 10, --tps 100 (0 runs no traffic: the cost of the blocks alone), --duration 60 (seconds measured), --warmup (seconds; default: the
 * coinbase maturity in seconds plus 10, and in any case until the virtual DAA score has passed the maturity by 100,
 * so the wallets hold mature coinbase outputs before the window opens even when blocks come slower than --bps),
 * --maturity 100 (coinbase maturity in DAA units, passed as the node's `params` override; Crescendo's is 1000, which
 * at 10 blocks/s would need a warm-up of well over 100 s), --seed bench, --partition-every (seconds between one miner
 * partition's end and the next one's start, each lasting 15–25 s and until k + 25 blocks went by; default: the
 * node's, every 30–90 s), --toccata 0 (the DAA score from which Toccata applies, or never; 0 as the embedded default).
 *
 * DAG shape in the window: chain reorganisations (virtual-chain changes removing chain blocks) and red blocks per
 * minute, and the mean mergeset size (selected parent included) of the blocks added.
 *
 * CPU: process.cpuUsage covers every thread of the process (main, traffic worker, V8 and libuv helpers); the
 * per-thread figures come from /proc/self/task (Linux only) and are omitted elsewhere. Percentages are of one core.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { DEFAULT_PARTITION_DURATION_MS, DEFAULT_PARTITION_MAX_HELD_BLOCKS } from '../lib/devnet/mining/miner';
import { createDevnetNode } from '../lib/devnet/node';
import { CRESCENDO_PARAMS, FORK_NEVER } from '../lib/devnet/consensus/params';

const { values } = parseArgs({
  options: {
    bps: { type: 'string', default: '10' },
    tps: { type: 'string', default: '100' },
    duration: { type: 'string', default: '60' },
    warmup: { type: 'string' },
    maturity: { type: 'string', default: '100' },
    seed: { type: 'string', default: 'bench' },
    toccata: { type: 'string', default: '0' },
    'partition-every': { type: 'string' },
  },
});

function positive(name: string, text: string | undefined): number {
  const value = Number(text);
  if (!(value > 0)) throw new RangeError(`--${name} must be a positive number, got ${text}`);
  return value;
}

function nonNegative(name: string, text: string | undefined): number {
  const value = Number(text);
  if (!(value >= 0)) throw new RangeError(`--${name} must be zero or a positive number, got ${text}`);
  return value;
}

const blocksPerSecond = positive('bps', values.bps);
const txPerSecond = nonNegative('tps', values.tps);
const durationSeconds = positive('duration', values.duration);
const coinbaseMaturity = Math.round(positive('maturity', values.maturity));
const toccataActivation = values.toccata === 'never' ? FORK_NEVER : BigInt(Math.round(nonNegative('toccata', values.toccata)));
const partitionGapMs =
  values['partition-every'] === undefined ? undefined : positive('partition-every', values['partition-every']) * 1000;
const warmupSeconds = values.warmup === undefined ? coinbaseMaturity / blocksPerSecond + 10 : positive('warmup', values.warmup);

const CLOCK_TICKS_PER_SECOND = 100;

interface ThreadSample {
  name: string;
  cpuSeconds: number;
  /** Time the thread was ready to run but waited for a core (schedstat); null where unavailable. */
  waitSeconds: number | null;
}

function readWaitSeconds(tid: string): number | null {
  try {
    const [, waitNs] = readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').trim().split(' ');
    return waitNs === undefined ? null : Number(waitNs) / 1e9;
  } catch {
    return null;
  }
}

/** utime + stime of every OS thread of this process, by thread id; empty where /proc is unavailable. */
function sampleThreads(): Map<string, ThreadSample> {
  const samples = new Map<string, ThreadSample>();
  let tasks: string[];
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    return samples;
  }
  for (const tid of tasks) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const nameEnd = stat.lastIndexOf(')');
      const name = stat.slice(stat.indexOf('(') + 1, nameEnd);
      const fields = stat.slice(nameEnd + 2).split(' ');
      const ticks = Number(fields[11]) + Number(fields[12]);
      samples.set(tid, { name, cpuSeconds: ticks / CLOCK_TICKS_PER_SECOND, waitSeconds: readWaitSeconds(tid) });
    } catch {
      // The thread exited between listing and reading.
    }
  }
  return samples;
}

const percent = (fraction: number) => `${(fraction * 100).toFixed(1)}%`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const errors = new Map<string, number>();
const node = createDevnetNode({
  seed: values.seed,
  persistence: null,
  blocksPerSecond,
  txPerSecond,
  trafficThread: 'worker',
  params: { coinbaseMaturity, toccataActivation },
  ...(partitionGapMs === undefined
    ? {}
    : {
        partitions: {
          gapMs: { min: partitionGapMs, max: partitionGapMs },
          durationMs: DEFAULT_PARTITION_DURATION_MS,
          minBlocksMissed: CRESCENDO_PARAMS.ghostdagK + 25,
          maxHeldBlocks: DEFAULT_PARTITION_MAX_HELD_BLOCKS,
        },
      }),
  onEvent: (event) => {
    if (event.type !== 'error') return;
    const message = event.error instanceof Error ? event.error.message : String(event.error);
    const key = `${event.source}: ${message.replace(/[0-9a-f]{16,}/g, '…').slice(0, 120)}`;
    errors.set(key, (errors.get(key) ?? 0) + 1);
  },
});

console.log(
  `devnet bench: ${blocksPerSecond} blocks/s, ${txPerSecond} tx/s${txPerSecond > 0 ? ', traffic on its worker thread' : ''}; coinbase maturity ` +
    `lowered to ${coinbaseMaturity} DAA (bench option --maturity; Crescendo uses 1000) so the wallets are funded ` +
    `after a ${warmupSeconds} s warm-up; measuring ${durationSeconds} s`,
);
await node.start();
await sleep(warmupSeconds * 1000);
const maturedAt = BigInt(coinbaseMaturity + 100);
while (node.stats().virtualDaaScore < maturedAt) await sleep(500);

const dag = { reds: 0, reorganisations: 0, deepestReorganisation: 0, mergesetBlocks: 0, mergesetTotal: 0 };
const stopCountingReds = node.consensus.events.on('blockAdded', ({ hash }) => {
  const ghostdag = node.consensus.getBlock(hash)?.ghostdag;
  if (ghostdag === undefined) return;
  dag.reds += ghostdag.mergesetReds.length;
  dag.mergesetBlocks++;
  dag.mergesetTotal += ghostdag.mergesetBlues.length + ghostdag.mergesetReds.length;
});
const stopCountingReorganisations = node.consensus.events.on('virtualChainChanged', ({ removedChainBlockHashes }) => {
  if (removedChainBlockHashes.length === 0) return;
  dag.reorganisations++;
  dag.deepestReorganisation = Math.max(dag.deepestReorganisation, removedChainBlockHashes.length);
});
const swarmBefore = node.swarm?.stats();
const before = node.stats();
const trafficBefore = node.traffic?.stats();
const cpuBefore = process.cpuUsage();
const threadsBefore = sampleThreads();
const eluBefore = performance.eventLoopUtilization();
const started = performance.now();
await sleep(durationSeconds * 1000);
const elapsedSeconds = (performance.now() - started) / 1000;
const after = node.stats();
const cpu = process.cpuUsage(cpuBefore);
const threadsAfter = sampleThreads();
const mainLoop = performance.eventLoopUtilization(eluBefore);
const trafficStats = node.traffic?.stats();
const swarmAfter = node.swarm?.stats();
stopCountingReds();
stopCountingReorganisations();
await node.stop();

const acceptedInWindow = after.transactionsAccepted - before.transactionsAccepted;
const blocksRate = (after.blocksAdded - before.blocksAdded) / elapsedSeconds;
const txRate = acceptedInWindow / elapsedSeconds;
const cpuCores = (cpu.user + cpu.system) / 1e6 / elapsedSeconds;

console.log(`window: ${elapsedSeconds.toFixed(1)} s, DAA score ${before.virtualDaaScore} → ${after.virtualDaaScore}`);
console.log(`blocks: ${blocksRate.toFixed(2)} blocks/s (${after.blocksAdded - before.blocksAdded} added)`);
const perMinute = (count: number) => ((count * 60) / elapsedSeconds).toFixed(1);
console.log(
  `DAG: ${perMinute(dag.reorganisations)} chain reorganisations/min (${dag.reorganisations}, deepest: ${dag.deepestReorganisation} ` +
    `chain blocks removed), ${perMinute(dag.reds)} red blocks/min (${dag.reds}), mean mergeset size ` +
    `${dag.mergesetBlocks > 0 ? (dag.mergesetTotal / dag.mergesetBlocks).toFixed(2) : '-'} blocks, ` +
    `${(swarmAfter?.partitions ?? 0) - (swarmBefore?.partitions ?? 0)} miner partitions began`,
);
if (swarmBefore && swarmAfter) {
  const sum = (stats: typeof swarmAfter, field: 'hashesPerSecond' | 'hashesDropped' | 'blocksDiscarded') =>
    stats.miners.reduce((total, miner) => total + miner[field], 0);
  const hashes = swarmAfter.hashes - swarmBefore.hashes;
  const budget = sum(swarmAfter, 'hashesPerSecond') * elapsedSeconds;
  console.log(
    `mining: ${((100 * hashes) / budget).toFixed(1)}% of the configured hash rate done, ` +
      `${sum(swarmAfter, 'hashesDropped') - sum(swarmBefore, 'hashesDropped')} hashes dropped, ` +
      `${swarmAfter.blocksFound - swarmBefore.blocksFound} blocks found, ${swarmAfter.blocksAccepted - swarmBefore.blocksAccepted} accepted, ` +
      `${sum(swarmAfter, 'blocksDiscarded') - sum(swarmBefore, 'blocksDiscarded')} discarded by a partitioned miner`,
  );
}
console.log(`transactions accepted by the selected chain: ${txRate.toFixed(1)} tx/s (${acceptedInWindow} distinct)`);
console.log(`mempool: ${before.mempoolSize} → ${after.mempoolSize} transactions`);
if (trafficStats) {
  const { submitted, accepted, rejected, failed } = trafficStats;
  const acceptedInWindowByMempool = accepted - (trafficBefore?.accepted ?? 0);
  console.log(`traffic submissions the mempool accepted in the window: ${(acceptedInWindowByMempool / elapsedSeconds).toFixed(1)}/s`);
  console.log(`traffic (whole run): submitted ${submitted}, accepted ${accepted}, rejected ${rejected}, failed ${failed}`);
  const skippedInWindow = Object.entries(trafficStats.skippedByReason)
    .map(([reason, count]) => [reason, count - (trafficBefore?.skippedByReason[reason] ?? 0)] as const)
    .filter(([, count]) => count > 0)
    .sort((a, b) => b[1] - a[1]);
  const skipped = skippedInWindow.slice(0, 4);
  if (skipped.length > 0) console.log(`  skipped in the window: ${skipped.map(([reason, count]) => `${reason} ×${count}`).join(', ')}`);
  const unfunded = (record: Record<string, number> | undefined) =>
    Object.entries(record ?? {}).reduce((sum, [reason, count]) => sum + (reason.endsWith(':no_funded_wallet') ? count : 0), 0);
  console.log(
    `  no_funded_wallet skips: ${unfunded(trafficBefore?.skippedByReason)} during the warm-up, ` +
      `${unfunded(trafficStats.skippedByReason) - unfunded(trafficBefore?.skippedByReason)} in the window; ` +
      `splits of large UTXOs: ${trafficStats.byKind.split.accepted} accepted`,
  );
  const rejections = Object.entries(trafficStats.rejectionsByReason).sort((a, b) => b[1] - a[1]).slice(0, 3);
  if (rejections.length > 0) console.log(`  rejections: ${rejections.map(([reason, count]) => `${reason} ×${count}`).join(', ')}`);
  const rejectedByKind = Object.entries(trafficStats.byKind)
    .map(([kind, stats]) => [kind, stats.rejected - (trafficBefore?.byKind[kind as keyof typeof trafficStats.byKind].rejected ?? 0)] as const)
    .filter(([, count]) => count > 0);
  if (rejectedByKind.length > 0) console.log(`  rejected in the window by kind: ${rejectedByKind.map(([kind, count]) => `${kind} ×${count}`).join(', ')}`);
}
console.log(
  `CPU, whole process: ${percent(cpuCores)} of one core (user ${percent(cpu.user / 1e6 / elapsedSeconds)}, ` +
    `system ${percent(cpu.system / 1e6 / elapsedSeconds)})`,
);
console.log(`main thread event-loop utilisation: ${percent(mainLoop.utilization)}`);
const perThread = [...threadsAfter]
  .map(([tid, sample]) => {
    const earlier = threadsBefore.get(tid);
    const waited = sample.waitSeconds === null ? null : sample.waitSeconds - (earlier?.waitSeconds ?? 0);
    return {
      tid,
      name: sample.name,
      fraction: (sample.cpuSeconds - (earlier?.cpuSeconds ?? 0)) / elapsedSeconds,
      waitFraction: waited === null ? null : waited / elapsedSeconds,
    };
  })
  .filter((thread) => thread.fraction >= 0.005)
  .sort((a, b) => b.fraction - a.fraction);
if (perThread.length > 0) {
  console.log('CPU by OS thread (main = the process id):');
  for (const thread of perThread) {
    const label = thread.tid === String(process.pid) ? `${thread.name} (main)` : thread.name;
    const waited = thread.waitFraction === null ? '' : `   (ready but waiting for a core: ${percent(thread.waitFraction)})`;
    console.log(`  ${label.padEnd(24)} ${percent(thread.fraction).padStart(6)}${waited}`);
  }
}
const blocksAdded = after.blocksAdded - before.blocksAdded;
if (blocksAdded > 0) {
  const cpuMsPerBlock = ((cpu.user + cpu.system) / 1e3) / blocksAdded;
  console.log(
    `CPU per block added (all threads, traffic included): ${cpuMsPerBlock.toFixed(1)} ms; at the target rates that is ` +
      `about ${percent((cpuMsPerBlock * blocksPerSecond) / 1000)} of one core if the cost per block stays the same`,
  );
}
const mainThreadCpu = perThread.find((thread) => thread.tid === String(process.pid))?.fraction;
if (mainThreadCpu !== undefined && blocksAdded > 0) {
  const otherThreadsCpu = perThread.reduce((sum, thread) => sum + thread.fraction, 0) - mainThreadCpu;
  const perTransaction =
    acceptedInWindow > 0
      ? `; other threads (traffic worker, GC helpers): ${((otherThreadsCpu * elapsedSeconds * 1000) / acceptedInWindow).toFixed(2)} ms CPU per accepted transaction`
      : '';
  console.log(
    `main thread (consensus, mempool, miners): ${((mainThreadCpu * elapsedSeconds * 1000) / blocksAdded).toFixed(1)} ms CPU per block${perTransaction}`,
  );
}
const mainThreadWait = perThread.find((thread) => thread.tid === String(process.pid))?.waitFraction ?? null;
if (mainThreadWait !== null && mainThreadWait > 0.05) {
  console.log(
    `note: the main thread waited for a core ${percent(mainThreadWait)} of the time: other processes competed ` +
      'for the CPUs, so the rates above understate what the node sustains on an idle machine',
  );
}
for (const [key, count] of errors) console.log(`error ×${count}: ${key}`);

const goals = [
  { name: `${blocksPerSecond} blocks/s`, met: blocksRate >= blocksPerSecond * 0.95 },
  ...(txPerSecond > 0 ? [{ name: `${txPerSecond} tx/s`, met: txRate >= txPerSecond * 0.95 }] : []),
  { name: '< 1 core', met: cpuCores < 1 },
];
console.log(`goal (within 5% of the rates): ${goals.map((goal) => `${goal.name} ${goal.met ? 'met' : 'NOT met'}`).join(', ')}`);
console.log(goals.every((goal) => goal.met) ? 'GOAL MET' : 'GOAL NOT MET');
