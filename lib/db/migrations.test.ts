import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from './connection';
import { MIGRATIONS, MigrationError, migrate } from './migrations';
import { testBackends, type TestDatabase } from './test-support/test-databases';

const TABLES = [
  'address_transactions',
  'api_keys',
  'block_children',
  'block_transactions',
  'blocks',
  'chain_statistics_hours',
  'chain_statistics_progress',
  'chain_statistics_windows',
  'covenant_transactions',
  'covenant_utxos',
  'covenants',
  'history_retention',
  'index_gaps',
  'indexer_checkpoints',
  'mempool_watch',
  'pruned_address_activity',
  'schema_migrations',
  'stream_event_retention',
  'stream_events',
  'token_balances',
  'token_blacklist',
  'token_candles',
  'token_checkpoints',
  'token_fills',
  'token_ops',
  'token_orders',
  'token_stat_buckets',
  'token_stats',
  'token_tokens',
  'token_undo',
  'transaction_acceptances',
  'transaction_inputs',
  'transaction_outputs',
  'transactions',
  'webhook_deliveries',
  'webhooks',
];

describe.each(testBackends({ pgliteOnDisk: true }))('$name', (backend) => {
  let database: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    database = await backend.open();
    db = database.db;
  }, 60_000);

  afterAll(async () => {
    await database?.dispose();
  });

  describe('openDb', () => {
    it('opens the requested backend, creating the missing parents of a PGlite data directory', () => {
      expect(db.kind).toBe(backend.name);
      expect(database.dataDir === undefined || existsSync(join(database.dataDir, 'PG_VERSION'))).toBe(true);
      expect(database.dataDir !== undefined).toBe(backend.name === 'pglite');
    });

    it('returns int8 as bigint, numeric as string (also in arrays) and bytea as plain Uint8Array', async () => {
      const { rows } = await db.query<Record<string, unknown>>(
        `SELECT 9223372036854775807::int8 AS big, 1::int8 AS small, ARRAY[1::int8, NULL, -2] AS int8s,
                '18446744073709551615'::numeric(20,0) AS u64, '\\x00ff'::bytea AS bytes,
                ARRAY['\\x01'::bytea, NULL] AS byte_arrays, 1.5::float8 AS float, 7::int4 AS int, true AS flag,
                ARRAY['18446744073709551615'::numeric(20,0), NULL] AS u64s`,
      );
      const row = rows[0]!;
      expect(row).toEqual({
        big: 9223372036854775807n,
        small: 1n,
        int8s: [1n, null, -2n],
        u64: '18446744073709551615',
        u64s: ['18446744073709551615', null],
        bytes: new Uint8Array([0, 255]),
        byte_arrays: [new Uint8Array([1]), null],
        float: 1.5,
        int: 7,
        flag: true,
      });
      expect((row.bytes as object).constructor).toBe(Uint8Array);
      expect(((row.byte_arrays as object[])[0] as object).constructor).toBe(Uint8Array);
    });

    it('round-trips bigint, Uint8Array and array parameters', async () => {
      const bytes = new Uint8Array([0, 1, 254, 255]);
      const { rows } = await db.query<{ big: bigint; bytes: Uint8Array; list: Uint8Array[]; u64: string }>(
        'SELECT $1::int8 AS big, $2::bytea AS bytes, $3::bytea[] AS list, $4::numeric AS u64',
        [-9223372036854775808n, bytes, [bytes, new Uint8Array(0)], '18446744073709551615'],
      );
      expect(rows[0]).toEqual({
        big: -9223372036854775808n,
        bytes,
        list: [bytes, new Uint8Array(0)],
        u64: '18446744073709551615',
      });
    });

    it('runs a prepared text like any other, parsing it once per connection on PostgreSQL', async () => {
      const sql = 'SELECT $1::int8 + 1 AS next, $2::bytea AS bytes';
      const prepared = { prepared: true };
      const runs = await db.transaction(async (tx) => {
        const first = await tx.query(sql, [1n, new Uint8Array([1])], prepared);
        const second = await tx.query(sql, [41n, new Uint8Array([2])], prepared);
        const statements = await tx.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements');
        return { rows: [first.rows, second.rows], statements: statements.rows.map((row) => row.statement) };
      });
      expect(runs.rows).toEqual([[{ next: 2n, bytes: new Uint8Array([1]) }], [{ next: 42n, bytes: new Uint8Array([2]) }]]);
      expect(runs.statements.filter((statement) => statement === sql)).toHaveLength(backend.name === 'postgres' ? 1 : 0);
      const pooled = await Promise.all([3n, 4n, 5n].map((value) => db.query(sql, [value, new Uint8Array(0)], prepared)));
      expect(pooled.map((result) => result.rows[0])).toEqual([4n, 5n, 6n].map((next) => ({ next, bytes: new Uint8Array(0) })));
    });

    it('rolls a failed transaction back, commits a successful one and counts rows', async () => {
      await db.exec('CREATE TABLE transaction_probe (value integer)');
      await expect(
        db.transaction(async (tx) => {
          await tx.query('INSERT INTO transaction_probe VALUES (1)');
          throw new Error('abort');
        }),
      ).rejects.toThrow('abort');
      const committed = await db.transaction(async (tx) => {
        await tx.query('INSERT INTO transaction_probe VALUES (2)');
        return (await tx.query<{ value: number }>('SELECT value FROM transaction_probe')).rows;
      });
      expect(committed).toEqual([{ value: 2 }]);
      await db.query('INSERT INTO transaction_probe VALUES (3), (4)');
      expect((await db.query('SELECT value FROM transaction_probe')).rowCount).toBe(3);
      expect((await db.query('DELETE FROM transaction_probe WHERE value > 2')).rowCount).toBe(2);
      await db.exec('DROP TABLE transaction_probe');
    });
  });

  describe('migrate', () => {
    it('applies each version exactly once when two runners start at once', async () => {
      const other = await database.openAnother();
      const [first, second] = await Promise.all([migrate(db), migrate(other)]);
      expect([...first, ...second].sort((x, y) => x - y)).toEqual(MIGRATIONS.map((migration) => migration.version));
      const { rows } = await db.query<{ version: number; name: string }>(
        'SELECT version, name FROM schema_migrations ORDER BY version',
      );
      expect(rows).toEqual(MIGRATIONS.map(({ version, name }) => ({ version, name })));
    });

    it('creates every table', async () => {
      const { rows } = await db.query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name`,
      );
      expect(rows.map((row) => row.table_name)).toEqual(TABLES);
    });

    it('does nothing when rerun', async () => {
      await expect(migrate(db)).resolves.toEqual([]);
      const { rows } = await db.query<{ count: bigint }>('SELECT count(*) AS count FROM schema_migrations');
      expect(rows[0]?.count).toBe(BigInt(MIGRATIONS.length));
    });

    it('rolls back a failing migration completely and records nothing for it', async () => {
      const broken = [
        ...MIGRATIONS,
        { version: 1000, name: 'broken', sql: 'CREATE TABLE half_done (x integer); SELECT * FROM no_such_table;' },
      ];
      await expect(migrate(db, broken)).rejects.toThrow(/no_such_table/);
      const { rows } = await db.query(
        `SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = 'half_done'`,
      );
      expect(rows).toEqual([]);
      await expect(migrate(db)).resolves.toEqual([]);
    });

    it('refuses a database that has a version this build does not know', async () => {
      await db.query(`INSERT INTO schema_migrations (version, name) VALUES (999, 'from the future')`);
      await expect(migrate(db)).rejects.toBeInstanceOf(MigrationError);
      await db.query('DELETE FROM schema_migrations WHERE version = 999');
    });

    it('refuses migrations out of order', async () => {
      const disordered = [...MIGRATIONS, { version: 1, name: 'again', sql: 'SELECT 1' }];
      await expect(migrate(db, disordered)).rejects.toBeInstanceOf(MigrationError);
    });
  });
});
