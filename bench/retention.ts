/**
 * Steady-state size with history retention, in compressed time:
 * `npm run bench:retention [-- --minutes 10 --window-seconds 60 --interval-seconds 15 --postgres URL]`; stops by itself.
 *
 * The embedded devnet runs at the default rates (10 blocks/s, 20 transactions/s, 4 miners; coinbase maturity 100 DAA
 * scores so the traffic starts within a minute) and three indexers with their token indexers follow it, as `npm run
 * indexer` does: into an on-disk PGlite without retention (the baseline), into an on-disk PGlite with retention, and
 * into a scratch PostgreSQL database with retention (dropped afterwards; --postgres '' leaves it out). Retention keeps
 * --window-seconds of history (HISTORY_RETENTION_DAYS = window / 86,400), and the pruner runs every --interval-seconds,
 * so a week's steady state shows within minutes; the devnet's pruning point (400 blue score, about 40 s) caps it.
 *
 * Every --sample-seconds it prints, per store: blocks and transactions held, pg_database_size and (PGlite) the
 * directory on disk after a CHECKPOINT. At the end: each store's growth over the first and second half of the run
 * (MB a minute), the retained stores' sizes against the baseline's, and the pruner's runs (batches, longest batch).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDb, readRetentionBound, type Db } from '../lib/db';
import { parseEnv } from '../lib/env';
import { createHistoryPruner, type HistoryPruner, type Indexer } from '../lib/indexer';
import { createRpcClient } from '../lib/rpc';
import type { TokenIndexer } from '../lib/indexer/token-indexer';
import { sleep } from './support/app-server';
import { followInto, mb, readSizes, scratchPostgres, startDefaultDevnet, type SizeReading } from './support/disk-usage';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    'window-seconds': { type: 'string', default: '60' },
    'interval-seconds': { type: 'string', default: '15' },
    'sample-seconds': { type: 'string', default: '30' },
    postgres: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/test' },
  },
});
const MINUTES = Number(values.minutes);
const WINDOW_SECONDS = Number(values['window-seconds']);
const INTERVAL_SECONDS = Number(values['interval-seconds']);
const SAMPLE_SECONDS = Number(values['sample-seconds']);
if (!(MINUTES > 0 && WINDOW_SECONDS > 0 && INTERVAL_SECONDS > 0 && SAMPLE_SECONDS > 0)) {
  throw new Error('--minutes, --window-seconds, --interval-seconds and --sample-seconds must be positive');
}

const defaults = parseEnv({});

interface Store {
  name: string;
  db: Db;
  /** The PGlite directory; undefined on PostgreSQL. */
  dir?: string;
  retained: boolean;
  indexer?: Indexer;
  tokens?: TokenIndexer;
  pruner?: HistoryPruner;
  samples: Sample[];
}

interface Sample extends SizeReading {
  fromDaaScore: bigint | null;
}

async function sample(store: Store): Promise<Sample> {
  const sizes = await readSizes(store.db, store.dir);
  return { ...sizes, fromDaaScore: (await readRetentionBound(store.db))?.fromDaaScore ?? null };
}

/** Growth in bytes a minute between two samples, of the directory when there is one. */
const growthPerMinute = (first: Sample, last: Sample) =>
  ((last.dirBytes ?? last.databaseBytes) - (first.dirBytes ?? first.databaseBytes)) / ((last.at - first.at) / 60_000);

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'dagboard-bench-retention-'));
  const postgres = values.postgres ? await scratchPostgres(values.postgres, 'retention') : null;
  const stores: Store[] = [
    { name: 'PGlite, keep all', db: await openDb({ url: join(root, 'all') }), dir: join(root, 'all'), retained: false, samples: [] },
    { name: 'PGlite, retention', db: await openDb({ url: join(root, 'kept') }), dir: join(root, 'kept'), retained: true, samples: [] },
  ];
  if (postgres) stores.push({ name: 'PostgreSQL, retention', db: await openDb({ url: postgres.url }), retained: true, samples: [] });
  const devnet = await startDefaultDevnet({ seed: 'bench-retention', coinbaseMaturity: 100, persistenceDir: null });
  const rpc = createRpcClient({ url: devnet.url });
  const batchMs: number[] = [];
  try {
    const { network } = await rpc.call('getBlockDagInfo', {});
    for (const store of stores) {
      ({ indexer: store.indexer, tokens: store.tokens } = await followInto(rpc, store.db, network));
      if (store.retained) {
        store.pruner = createHistoryPruner({
          db: timedBatches(store.db, batchMs),
          policy: { days: WINDOW_SECONDS / 86_400, gigabytes: null },
          intervalMs: INTERVAL_SECONDS * 1000,
          log: (line) => console.log(`  ${store.name}: ${line}`),
        });
        store.pruner.start();
      }
    }
    console.log(
      `devnet at ${defaults.DEVNET_BLOCKS_PER_SECOND} blocks/s, ${defaults.DEVNET_TX_PER_SECOND} transactions/s; retention ` +
        `window ${WINDOW_SECONDS} s, pruner every ${INTERVAL_SECONDS} s; ${MINUTES} min\n`,
    );
    console.log(['  min', ...stores.map((store) => store.name.padStart(40))].join(' '));
    const started = Date.now();
    while (Date.now() - started < MINUTES * 60_000) {
      await sleep(SAMPLE_SECONDS * 1000);
      const cells: string[] = [];
      for (const store of stores) {
        const now = await sample(store);
        store.samples.push(now);
        const size = now.dirBytes === null ? mb(now.databaseBytes) : `${mb(now.databaseBytes)} (${mb(now.dirBytes)})`;
        cells.push(`${now.blocks} blk ${size}`.padStart(40));
      }
      console.log([((Date.now() - started) / 60_000).toFixed(1).padStart(5), ...cells].join(' '));
    }
    console.log('\ngrowth a minute (PGlite: its directory; PostgreSQL: pg_database_size), first half → second half:');
    for (const store of stores) {
      const { samples } = store;
      const middle = samples[Math.floor(samples.length / 2)]!;
      const last = samples.at(-1)!;
      console.log(
        `  ${store.name.padEnd(24)} ${mb(growthPerMinute(samples[0]!, middle)).padStart(9)} → ${mb(growthPerMinute(middle, last)).padStart(9)}` +
          `  end: ${last.blocks} blocks, ${last.transactions} transactions, ${mb(last.databaseBytes)}` +
          (last.dirBytes === null ? '' : ` (directory ${mb(last.dirBytes)})`) +
          (last.fromDaaScore === null ? '' : `, history from DAA score ${last.fromDaaScore}`),
      );
    }
    const baseline = stores[0]!.samples.at(-1)!;
    for (const store of stores.slice(1)) {
      const last = store.samples.at(-1)!;
      console.log(`  ${store.name}: pg_database_size ${(last.databaseBytes / baseline.databaseBytes).toFixed(2)} × the baseline's`);
    }
    for (const store of stores) {
      const { rows } = await store.db.query<{ relname: string; bytes: bigint }>(
        `SELECT relname, pg_total_relation_size(oid) AS bytes FROM pg_class
          WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace ORDER BY bytes DESC LIMIT 6`,
      );
      console.log(`  ${store.name} largest tables: ${rows.map((row) => `${row.relname} ${mb(Number(row.bytes))}`).join(', ')}`);
    }
    const sorted = [...batchMs].sort((x, y) => x - y);
    console.log(
      `pruner batches: ${sorted.length}, median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(0) ?? '-'} ms, ` +
        `longest ${sorted.at(-1)?.toFixed(0) ?? '-'} ms (each holds the index's writes back at most that long)`,
    );
  } finally {
    for (const store of stores) {
      await store.pruner?.stop();
      await store.tokens?.stop();
      await store.indexer?.stop();
    }
    await rpc.close();
    await devnet.stop();
    for (const store of stores) await store.db.close();
    await postgres?.drop();
    await rm(root, { recursive: true, force: true });
  }
}

/** The database as the pruner sees it, with each transaction's duration (a prune batch) appended to `durations`. */
function timedBatches(db: Db, durations: number[]): Db {
  return {
    kind: db.kind,
    query: db.query.bind(db),
    exec: db.exec.bind(db),
    listen: db.listen.bind(db),
    async transaction(fn) {
      const started = performance.now();
      try {
        return await db.transaction(fn);
      } finally {
        durations.push(performance.now() - started);
      }
    },
    close: () => db.close(),
  };
}

await main();
