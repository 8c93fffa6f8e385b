import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { env } from '../../env';
import { openDb, type Db } from '../connection';

/**
 * The backends the db tests run against: always a PGlite (in memory unless asked otherwise), plus PostgreSQL when
 * env.DATABASE_URL is a postgres URL. Each PostgreSQL run gets its own scratch database, dropped on dispose, so
 * runs never interfere.
 */
export interface TestBackend {
  name: 'pglite' | 'postgres';
  open(): Promise<TestDatabase>;
}

export interface TestDatabase {
  db: Db;
  /** What openDb was given: `memory://`, the PGlite data directory, or the scratch database's postgres URL. */
  url: string;
  /** The PGlite data directory, when the backend is an on-disk PGlite. */
  dataDir?: string;
  /** Opens another independent connection (pool) to the same database, e.g. to race two migration runners. */
  openAnother(): Promise<Db>;
  dispose(): Promise<void>;
}

function pgliteBackend(onDisk: boolean): TestBackend {
  return {
    name: 'pglite',
    async open() {
      const root = onDisk ? await mkdtemp(join(tmpdir(), 'dagboard-db-test-')) : undefined;
      const dataDir = root && join(root, 'missing', 'parents', 'pglite');
      const db = await openDb({ url: dataDir ?? 'memory://' });
      return {
        db,
        url: dataDir ?? 'memory://',
        dataDir,
        openAnother: async () => db,
        async dispose() {
          await db.close();
          if (root) await rm(root, { recursive: true, force: true });
        },
      };
    },
  };
}

function postgresBackend(adminUrl: string): TestBackend {
  return {
    name: 'postgres',
    async open() {
      const name = `dagboard_test_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      const opened: Db[] = [];
      const openAnother = async () => {
        const db = await openDb({ url: url.toString(), poolSize: 4 });
        opened.push(db);
        return db;
      };
      const db = await openAnother();
      return {
        db,
        url: url.toString(),
        openAnother,
        async dispose() {
          await Promise.all(opened.map((each) => each.close()));
          await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          await admin.end();
        },
      };
    },
  };
}

/** `pgliteOnDisk` puts the PGlite database in a fresh temporary directory (below parents that do not exist yet). */
export function testBackends({ pgliteOnDisk = false }: { pgliteOnDisk?: boolean } = {}): TestBackend[] {
  const url = env.DATABASE_URL;
  const postgres = url && !url.startsWith('memory://') ? [postgresBackend(url)] : [];
  return [pgliteBackend(pgliteOnDisk), ...postgres];
}
