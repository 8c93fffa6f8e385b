/** What the disk benchmarks share: bytes a directory takes on disk, and a scratch PostgreSQL database. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { migrate, type Db } from '../../lib/db';
import { forkActivationOf } from '../../lib/devnet/consensus/params';
import { parseEnv } from '../../lib/env';
import { addressPrefixOf } from '../../lib/indexer/convert';
import { createIndexer, type Indexer } from '../../lib/indexer';
import type { RpcClient } from '../../lib/rpc';
import { startEmbeddedDevnet } from '../../lib/runtime/embedded-devnet';
import { createTokenIndexer, type TokenIndexer } from '../../lib/indexer/token-indexer';
import { tokenProfileFor } from '../../lib/tokens/profile';

const DEFAULTS = parseEnv({});

/** Bytes allocated on disk under `path` (du's figure, not the apparent size). */
export function diskBytes(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.blocks * 512;
  return readdirSync(path).reduce((sum, name) => sum + diskBytes(join(path, name)), stat.blocks * 512);
}

/** A database of its own on the server at `adminUrl`, dropped (with any connection left) by `drop`. */
export async function scratchPostgres(adminUrl: string, label: string) {
  const name = `dagboard_${label}_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

export const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

export interface SizeReading {
  at: number;
  blocks: number;
  transactions: number;
  databaseBytes: number;
  /** The PGlite directory on disk (WAL included); null on PostgreSQL. */
  dirBytes: number | null;
}

/** Rows held and sizes; a PGlite (`dir` given) is checkpointed first so its directory holds what was written. */
export async function readSizes(db: Db, dir: string | undefined): Promise<SizeReading> {
  if (dir !== undefined) await db.exec('CHECKPOINT');
  const { rows } = await db.query<{ blocks: bigint; transactions: bigint; size: bigint }>(
    `SELECT (SELECT count(*) FROM blocks) AS blocks, (SELECT count(*) FROM transactions) AS transactions,
            pg_database_size(current_database()) AS size`,
  );
  const row = rows[0]!;
  return {
    at: Date.now(),
    blocks: Number(row.blocks),
    transactions: Number(row.transactions),
    databaseBytes: Number(row.size),
    dirBytes: dir === undefined ? null : diskBytes(dir),
  };
}

/** The embedded devnet at the default rates (lib/env.ts), on a worker thread as in the app, on a free port. */
export function startDefaultDevnet(options: { seed: string; coinbaseMaturity: number; persistenceDir: string | null }) {
  return startEmbeddedDevnet({
    projectRoot: process.cwd(),
    seed: options.seed,
    blocksPerSecond: DEFAULTS.DEVNET_BLOCKS_PER_SECOND,
    txPerSecond: DEFAULTS.DEVNET_TX_PER_SECOND,
    miners: DEFAULTS.DEVNET_MINERS,
    coinbaseMaturity: options.coinbaseMaturity,
    bootstrap: DEFAULTS.DEVNET_BOOTSTRAP,
    pruningDepth: DEFAULTS.DEVNET_PRUNING_DEPTH,
    toccataActivation: forkActivationOf(DEFAULTS.DEVNET_TOCCATA_ACTIVATION),
    persistenceDir: options.persistenceDir,
    port: 0,
    log: () => undefined,
  });
}

/** Migrates `db` and follows the node into it as `npm run indexer` does: the chain indexer and the token indexer. */
export async function followInto(rpc: RpcClient, db: Db, network: string): Promise<{ indexer: Indexer; tokens: TokenIndexer }> {
  await migrate(db);
  const indexer = createIndexer({ rpc, db });
  await indexer.start();
  const tokens = createTokenIndexer({ db, profile: tokenProfileFor(addressPrefixOf(network)) });
  tokens.start();
  return { indexer, tokens };
}
