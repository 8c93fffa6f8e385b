/**
 * How deep /kaspa-rest/addresses/{a}/full-transactions-page can page for an address with --rows transactions (1,000,000
 * by default): page 1 and the page --depth pages deep (10,000 pages of --limit = 50 items, reached with `before`, as
 * kaspa-explorer-ng pages), beside the legacy offset route (/full-transactions?offset=…) at the same depth as baseline.
 * The keyset page walks address_transactions' primary key from `before`, so its depth costs nothing; the offset route
 * skips every row above it.
 *
 * It makes a scratch PostgreSQL database through --postgres (dropped at the end), fills it with SQL generate_series
 * (one address, --rows transactions with one output each, block times 100 ms apart), and calls the /kaspa-rest handler
 * in-process (no HTTP: the figure is the handler and its database reads), --samples times per case. Stops by itself.
 *
 * Options: --rows 1000000, --limit 50, --depth 10000, --samples 200, --postgres postgres://postgres@127.0.0.1:5432.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createMemoryKeyStore } from '../lib/api/keys/keys';
import { createMemoryMeter } from '../lib/api/keys/metering';
import { migrate, openDb } from '../lib/db';
import { encodeAddress } from '../lib/kaspa/address';
import { createKaspaRestHandler } from '../lib/kaspa-rest/server';
import { createIndexStats } from '../lib/kaspa-rest/stats';
import { percentile } from './support/app-server';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    limit: { type: 'string', default: '50' },
    depth: { type: 'string', default: '10000' },
    samples: { type: 'string', default: '200' },
    postgres: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432' },
  },
});

function positiveInteger(name: string, text: string | undefined): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw new RangeError(`--${name} must be a positive integer, got ${text}`);
  return value;
}

const rows = positiveInteger('rows', values.rows);
const limit = positiveInteger('limit', values.limit);
const depth = positiveInteger('depth', values.depth);
const samples = positiveInteger('samples', values.samples);
if (depth * limit >= rows) throw new RangeError('--depth × --limit must stay below --rows');
const FIRST_TIME = 1_700_000_000_000;
const STEP_MS = 100;
/** The offset route reads every row above its page: fewer samples keep the run short. */
const OFFSET_SAMPLES = 10;

async function main(): Promise<void> {
  const name = `dagboard_bench_depth_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: values.postgres });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(values.postgres!);
  url.pathname = `/${name}`;
  const db = await openDb({ url: url.toString(), poolSize: 4 });
  try {
    await migrate(db);
    const address = encodeAddress({ prefix: 'kaspadev', version: 0, payload: new Uint8Array(32).fill(7) });
    const started = performance.now();
    await db.query(
      `INSERT INTO transactions (transaction_id, hash, version, lock_time, subnetwork_id, gas, payload, mass, block_time)
       SELECT sha256(int8send(i)), sha256(int8send(-i)), 0, 0, '\\x0000000000000000000000000000000000000000', 0, '\\x', 2036,
              $1::bigint + i * $2::bigint
       FROM generate_series(1, $3::bigint) i`,
      [FIRST_TIME, STEP_MS, rows],
    );
    await db.query(
      `INSERT INTO transaction_outputs (transaction_id, output_index, amount, script_version, script, address, script_type)
       SELECT sha256(int8send(i)), 0, 1000, 0, '\\x20' || sha256(int8send(0)) || '\\xac', $1, 'pubkey'
       FROM generate_series(1, $2::bigint) i`,
      [address, rows],
    );
    await db.query(
      `INSERT INTO address_transactions (address, block_time, transaction_id, amount_sent, amount_received)
       SELECT $1, $2::bigint + i * $3::bigint, sha256(int8send(i)), 0, 1000 FROM generate_series(1, $4::bigint) i`,
      [address, FIRST_TIME, STEP_MS, rows],
    );
    // Settled before measuring: otherwise autovacuum works through the new rows during the first case.
    await db.query('VACUUM ANALYZE');
    console.log(`${rows} transactions of one address written in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const clock = () => Date.now();
    const handler = createKaspaRestHandler(() => ({
      data: {
        db,
        rpc: { call: () => Promise.reject(new Error('no node in this bench')) },
        addressPrefix: async () => 'kaspadev',
        virtualBlueScore: async () => 0n,
        indexedTip: async () => null,
        stats: createIndexStats(db, clock),
        names: async () => [],
        healthMaxLagSeconds: 30,
      },
      keys: createMemoryKeyStore(),
      meter: createMemoryMeter(),
      clock,
      logger: { error: (message, entry) => console.error(message, entry) },
      access: { mode: 'keyless', ruPerSecondPerIp: 1_000_000 },
    }));
    const base = `http://bench/kaspa-rest/addresses/${address}`;
    const measure = async (label: string, path: string, count: number, expected: number) => {
      const times: number[] = [];
      for (let sample = 0; sample < count; sample++) {
        const began = performance.now();
        const response = await handler(new Request(`${base}${path}`), '127.0.0.1');
        const body = (await response.json()) as unknown[];
        times.push(performance.now() - began);
        if (response.status !== 200 || body.length !== expected) throw new Error(`${label}: ${response.status}, ${body.length} items`);
      }
      times.sort((x, y) => x - y);
      console.log(`${label.padEnd(44)} p50 ${percentile(times, 50).toFixed(1).padStart(7)} ms  p99 ${percentile(times, 99).toFixed(1).padStart(7)} ms  (${count} calls)`);
    };
    // Page `depth` + 1 holds the rows ranked depth × limit + 1 …: its `before` is the block time of the row just above.
    const before = FIRST_TIME + (rows - depth * limit + 1) * STEP_MS;
    await measure('full-transactions-page, page 1', `/full-transactions-page?limit=${limit}&before=0&after=0&resolve_previous_outpoints=light`, samples, limit);
    await measure(
      `full-transactions-page, page ${depth} deep`,
      `/full-transactions-page?limit=${limit}&before=${before}&resolve_previous_outpoints=light`,
      samples,
      limit,
    );
    await measure(`baseline: full-transactions, offset ${depth * limit}`, `/full-transactions?limit=${limit}&offset=${depth * limit}&resolve_previous_outpoints=light`, OFFSET_SAMPLES, limit);
  } finally {
    await db.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
