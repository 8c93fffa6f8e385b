/**
 * `npm run devnet`: the devnet node alone, on ws://127.0.0.1:<DEVNET_RPC_PORT> (18610, kaspad's devnet wRPC JSON
 * port). Settings come from lib/env.ts; with DEVNET_PERSIST the chain lives in <DATA_DIR>/devnet and survives restarts.
 * Prints a status line every few seconds and stops cleanly on SIGINT / SIGTERM.
 */
import { join } from 'node:path';
import { env } from '../env';
import { createDevnetNode, type DevnetNodeStats } from './node';
import { describeNodeEvent } from './node-event-text';
import { forkActivationOf } from './consensus/params';

const STATUS_INTERVAL_MS = 5_000;


function statusLine(current: DevnetNodeStats, previous: DevnetNodeStats, seconds: number): string {
  const blocksPerSecond = (current.blocksAdded - previous.blocksAdded) / seconds;
  const transactionsPerSecond = (current.transactionsAccepted - previous.transactionsAccepted) / seconds;
  return (
    `blocks ${current.blocks} (${blocksPerSecond.toFixed(1)}/s) · tps ${transactionsPerSecond.toFixed(1)} · ` +
    `DAA score ${current.virtualDaaScore} · blue score ${current.sinkBlueScore} · mempool ${current.mempoolSize}`
  );
}

async function main(): Promise<void> {
  const log = (line: string) => console.log(`[devnet ${new Date().toISOString()}] ${line}`);
  const node = createDevnetNode({
    seed: env.DEVNET_SEED,
    blocksPerSecond: env.DEVNET_BLOCKS_PER_SECOND,
    txPerSecond: env.DEVNET_TX_PER_SECOND,
    miners: env.DEVNET_MINERS,
    pruningDepth: env.DEVNET_PRUNING_DEPTH,
    bootstrap: env.DEVNET_BOOTSTRAP,
    params: {
      coinbaseMaturity: env.DEVNET_COINBASE_MATURITY,
      toccataActivation: forkActivationOf(env.DEVNET_TOCCATA_ACTIVATION),
    },
    persistence: env.DEVNET_PERSIST ? { dir: join(env.DATA_DIR, 'devnet') } : null,
    rpcPort: env.DEVNET_RPC_PORT,
    onEvent: (event) => log(describeNodeEvent(event)),
  });
  await node.start();

  let previous = node.stats();
  let previousAt = performance.now();
  const status = setInterval(() => {
    const now = performance.now();
    const current = node.stats();
    log(statusLine(current, previous, (now - previousAt) / 1000));
    previous = current;
    previousAt = now;
  }, STATUS_INTERVAL_MS);

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping`);
    clearInterval(status);
    node.stop().then(
      () => {
        log('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
