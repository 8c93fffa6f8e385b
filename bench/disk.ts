/**
 * Disk use of the embedded default: `npm run bench:disk [-- --warmup-seconds 150 --minutes 5]`; stops by itself.
 *
 * The embedded devnet runs at the default settings (lib/env.ts defaults: 10 blocks/s, 20 transactions/s of traffic
 * with its token and covenant share, 4 miners, persisted block log) on a worker thread, as in the app; two indexers
 * follow it with their token indexers, as `npm run indexer` does: one into an on-disk PGlite, one into a scratch
 * PostgreSQL database (--postgres, default postgres://postgres@127.0.0.1:5432/test; dropped afterwards).
 *
 * Coinbase outputs mature after 1000 DAA scores (100 s), and the traffic needs them, so the first --warmup-seconds are
 * not measured: sizes and row counts are read at the end of the warm-up and again --minutes later, and every figure
 * comes from the difference (the steady state, without the fixed cost of an empty database):
 *   bytes per transaction and per block   of each database: pg_database_size (tables, indexes, TOAST; PostgreSQL's
 *                                         WAL is cluster-wide and recycled, so not counted) and, for PGlite, its
 *                                         directory on disk after a CHECKPOINT (blocks allocated, WAL included);
 *   block-log bytes per block             the devnet's persisted directory;
 *   growth per day                        bytes per block × 864,000 blocks (10 blocks/s), and at the rate observed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDb, type Db } from '../lib/db';
import { parseEnv } from '../lib/env';
import type { Indexer } from '../lib/indexer';
import { createRpcClient } from '../lib/rpc';
import type { TokenIndexer } from '../lib/indexer/token-indexer';
import { sleep } from './support/app-server';
import { diskBytes, followInto, mb, readSizes, scratchPostgres, startDefaultDevnet, type SizeReading } from './support/disk-usage';

const { values } = parseArgs({
  options: {
    'warmup-seconds': { type: 'string', default: '150' },
    minutes: { type: 'string', default: '5' },
    postgres: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/test' },
  },
});
const WARMUP_SECONDS = Number(values['warmup-seconds']);
const MINUTES = Number(values.minutes);
if (!(WARMUP_SECONDS >= 0 && MINUTES > 0)) throw new Error('--warmup-seconds must be ≥ 0 and --minutes positive');

const defaults = parseEnv({});
const BLOCKS_PER_DAY = defaults.DEVNET_BLOCKS_PER_SECOND * 86_400;

interface Store {
  name: string;
  db: Db;
  /** The PGlite directory; undefined on PostgreSQL. */
  dir?: string;
  indexer?: Indexer;
  tokens?: TokenIndexer;
}

const read = (store: Store) => readSizes(store.db, store.dir);

const gb = (bytes: number) => `${(bytes / 2 ** 30).toFixed(2)} GB`;

function report(name: string, first: SizeReading, last: SizeReading): void {
  const blocks = last.blocks - first.blocks;
  const transactions = last.transactions - first.transactions;
  const seconds = (last.at - first.at) / 1000;
  console.log(`\n${name}: +${blocks} blocks, +${transactions} transactions in ${seconds.toFixed(0)} s (${(transactions / blocks).toFixed(2)} transactions a block, coinbase included)`);
  const line = (label: string, bytes: number) =>
    console.log(
      `  ${label.padEnd(22)} ${(bytes / transactions).toFixed(0).padStart(6)} B/transaction ${(bytes / blocks).toFixed(0).padStart(7)} B/block` +
        `  → ${gb((bytes / blocks) * BLOCKS_PER_DAY)}/day at ${defaults.DEVNET_BLOCKS_PER_SECOND} blocks/s` +
        ` (${gb((bytes / seconds) * 86_400)}/day at the rate observed)`,
    );
  line('pg_database_size', last.databaseBytes - first.databaseBytes);
  if (first.dirBytes !== null && last.dirBytes !== null) line('directory on disk', last.dirBytes - first.dirBytes);
  console.log(`  size at the end: ${mb(last.databaseBytes)}${last.dirBytes === null ? '' : `, directory ${mb(last.dirBytes)}`}`);
}

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'dagboard-bench-disk-'));
  const devnetDir = join(root, 'devnet');
  const postgres = await scratchPostgres(values.postgres, 'disk');
  const stores: Store[] = [
    { name: 'PGlite', db: await openDb({ url: join(root, 'pglite') }), dir: join(root, 'pglite') },
    { name: 'PostgreSQL', db: await openDb({ url: postgres.url }) },
  ];
  const devnet = await startDefaultDevnet({ seed: 'bench-disk', coinbaseMaturity: defaults.DEVNET_COINBASE_MATURITY, persistenceDir: devnetDir });
  const rpc = createRpcClient({ url: devnet.url });
  try {
    const { network } = await rpc.call('getBlockDagInfo', {});
    for (const store of stores) {
      ({ indexer: store.indexer, tokens: store.tokens } = await followInto(rpc, store.db, network));
    }
    console.log(
      `devnet at the defaults (${defaults.DEVNET_BLOCKS_PER_SECOND} blocks/s, ${defaults.DEVNET_TX_PER_SECOND} transactions/s, ` +
        `${defaults.DEVNET_MINERS} miners); warm-up ${WARMUP_SECONDS} s, then ${MINUTES} min measured`,
    );
    await sleep(WARMUP_SECONDS * 1000);
    const nodeBlocks = async () => Number((await rpc.call('getBlockDagInfo', {})).blockCount);
    const firstLog = { at: Date.now(), blocks: await nodeBlocks(), bytes: diskBytes(devnetDir) };
    const first = await Promise.all(stores.map(read));
    await sleep(MINUTES * 60_000);
    const lastLog = { at: Date.now(), blocks: await nodeBlocks(), bytes: diskBytes(devnetDir) };
    const last = await Promise.all(stores.map(read));

    const logBlocks = lastLog.blocks - firstLog.blocks;
    const logBytes = lastLog.bytes - firstLog.bytes;
    const observedRate = logBlocks / ((lastLog.at - firstLog.at) / 1000);
    console.log(
      `\ndevnet block log: +${logBlocks} blocks at ${observedRate.toFixed(1)} blocks/s, ${(logBytes / logBlocks).toFixed(0)} B/block` +
        ` → ${gb((logBytes / logBlocks) * BLOCKS_PER_DAY)}/day at ${defaults.DEVNET_BLOCKS_PER_SECOND} blocks/s; ${mb(lastLog.bytes)} at the end`,
    );
    stores.forEach((store, index) => report(store.name, first[index]!, last[index]!));
  } finally {
    for (const store of stores) {
      await store.tokens?.stop();
      await store.indexer?.stop();
    }
    await rpc.close();
    await devnet.stop();
    for (const store of stores) await store.db.close();
    await postgres.drop();
    await rm(root, { recursive: true, force: true });
  }
}

await main();
