import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import pg from 'pg';
import { bytesToHex, hexToBytes } from '../kaspa/bytes';
import { listenOnPostgres, type Listener } from './pg-listener';

/** Anything SQL can be sent to: the database itself or an open transaction. */
export interface Queryable {
  /** One statement with `$n` parameters; rows come back with the normalised types described on `Db`. */
  query<T>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<QueryResult<T>>;
  /** Several `;`-separated statements without parameters (migrations, ANALYZE). */
  exec(sql: string): Promise<void>;
}

export interface QueryOptions {
  /**
   * The text is one of a fixed few that run often (the API's reads): PostgreSQL parses it once per connection, as a
   * named statement, instead of on every call. Never for generated texts (multi-row VALUES), which would pile up
   * statements on every connection. PGlite, in-process, ignores it.
   */
  prepared?: boolean;
}

export interface QueryResult<T> {
  rows: T[];
  /** Rows inserted, updated, deleted or returned by the statement. */
  rowCount: number;
}

/**
 * Both backends hand back the same JavaScript values: int8 → bigint, numeric → decimal string, bytea → Uint8Array
 * (never Node's Buffer), int2/int4 → number, float8 → number, bool → boolean, arrays element-wise.
 */
export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` inside BEGIN … COMMIT, rolling back if it throws. Transactions do not nest. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Calls `onNotify` for each NOTIFY on `channel` committed by any connection, and once the listener is in place (or
   * back after a lost connection, when notifications may have been missed).
   */
  listen(channel: string, onNotify: () => void, onError: (error: Error) => void): Promise<Listener>;
  /** PostgreSQL's connection pool right now; absent on PGlite, one in-process connection. */
  poolStats?(): DbPoolStats;
  close(): Promise<void>;
}

export interface DbPoolStats {
  max: number;
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
}

export interface OpenDbOptions {
  /** `memory://` (in-memory PGlite), `postgres://…` / `postgresql://…` (a pool), or a PGlite data directory path. */
  url: string;
  /** Connections in the PostgreSQL pool. */
  poolSize?: number;
}

export async function openDb({ url, poolSize = 10 }: OpenDbOptions): Promise<Db> {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return openPostgres(url, poolSize);
  if (url === 'memory://') return openPglite(undefined);
  const dataDir = resolve(url);
  await mkdir(dirname(dataDir), { recursive: true });
  return openPglite(dataDir);
}

const PG_OID = { bytea: 17, int8: 20, byteaArray: 1001, textArray: 1009, int8Array: 1016, numericArray: 1231 } as const;

function serializeBytea(value: unknown): string {
  if (!(value instanceof Uint8Array)) throw new TypeError('a bytea parameter must be a Uint8Array');
  return `\\x${bytesToHex(value)}`;
}

/** A bytea[] literal: hex digits need no escaping, so each element is quoted as is (its backslash doubled). */
function serializeByteaArray(value: unknown): string {
  if (!Array.isArray(value)) throw new TypeError('a bytea[] parameter must be an array');
  const elements = value.map((element: unknown) =>
    element === null || element === undefined
      ? 'NULL'
      : Array.isArray(element)
        ? serializeByteaArray(element)
        : `"\\${serializeBytea(element)}"`,
  );
  return `{${elements.join(',')}}`;
}

/**
 * PGlite's bytea codecs go byte by byte through closures and strings, and its array serializer escapes every element
 * with regular expressions; the indexer sends tens of thousands of hashes a batch, and on PGlite that work shares
 * the one thread with the database.
 */
const PGLITE_QUERY_OPTIONS = {
  serializers: { [pgliteTypes.BYTEA]: serializeBytea, [PG_OID.byteaArray]: serializeByteaArray },
};

async function openPglite(dataDir: string | undefined): Promise<Db> {
  const pglite = new PGlite({
    dataDir,
    parsers: {
      [pgliteTypes.INT8]: (value: string) => BigInt(value),
      [pgliteTypes.BYTEA]: (value: string) => hexToBytes(value.slice(2)),
    },
  });
  await pglite.waitReady;
  const queryable = (target: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    async query<T>(sql: string, params: readonly unknown[] = []) {
      const result = await target.query<T>(sql, params as unknown[], PGLITE_QUERY_OPTIONS);
      return { rows: result.rows, rowCount: result.rowCount ?? result.affectedRows ?? result.rows.length };
    },
    async exec(sql: string) {
      await target.exec(sql);
    },
  });
  return {
    kind: 'pglite',
    ...queryable(pglite),
    transaction: (fn) => pglite.transaction((tx) => fn(queryable(tx))),
    async listen(channel, onNotify) {
      const unlisten = await pglite.listen(channel, () => onNotify());
      onNotify();
      return { close: () => unlisten() };
    },
    close: () => pglite.close(),
  };
}

const toBytes = (buffer: Buffer): Uint8Array => new Uint8Array(buffer);
const toBytesOrNull = (buffer: Buffer | null): Uint8Array | null => (buffer === null ? null : toBytes(buffer));

/** Per-pool type parsers (never pg's process-wide registry), so other pg users in the process are unaffected. */
const postgresTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    const standardOf = (id: number) => pg.types.getTypeParser(id, format ?? 'text') as (value: string) => unknown;
    const standard = standardOf(oid);
    switch (oid) {
      case PG_OID.int8:
        return (value: string) => BigInt(value);
      case PG_OID.int8Array:
        return (value: string) =>
          (standard(value) as (string | null)[]).map((item) => (item === null ? null : BigInt(item)));
      case PG_OID.bytea:
        return (value: string) => toBytes(standard(value) as Buffer);
      case PG_OID.byteaArray:
        return (value: string) => (standard(value) as (Buffer | null)[]).map(toBytesOrNull);
      // pg's own numeric[] parser goes through floats, which cannot hold a u64.
      case PG_OID.numericArray:
        return standardOf(PG_OID.textArray);
      default:
        return standard;
    }
  },
} as pg.CustomTypesConfig;

/**
 * A bytea[] parameter in PostgreSQL's binary array format (array_recv: dimensions, flags, element type, then each
 * element's length and bytes). The indexer sends hundreds of thousands of hashes a batch: as text each is hex-encoded
 * here and hex-decoded by the server; a Buffer parameter travels in binary instead. Other arrays stay text (a string
 * array may be meant as numeric[], which only its statement knows).
 */
export function binaryByteaArray(values: readonly unknown[]): Buffer | null {
  let size = 20;
  let hasNull = 0;
  for (const value of values) {
    if (value === null || value === undefined) hasNull = 1;
    else if (value instanceof Uint8Array) size += value.byteLength;
    else return null;
    size += 4;
  }
  if (values.length === 0 || hasNull === 1 && size === 20 + 4 * values.length) return null;
  const buffer = Buffer.allocUnsafe(size);
  buffer.writeInt32BE(1, 0);
  buffer.writeInt32BE(hasNull, 4);
  buffer.writeInt32BE(PG_OID.bytea, 8);
  buffer.writeInt32BE(values.length, 12);
  buffer.writeInt32BE(1, 16);
  let offset = 20;
  for (const value of values) {
    if (value instanceof Uint8Array) {
      buffer.writeInt32BE(value.byteLength, offset);
      buffer.set(value, offset + 4);
      offset += 4 + value.byteLength;
    } else {
      buffer.writeInt32BE(-1, offset);
      offset += 4;
    }
  }
  return buffer;
}

const postgresParam = (value: unknown): unknown => (Array.isArray(value) ? (binaryByteaArray(value) ?? value) : value);

function openPostgres(url: string, poolSize: number): Db {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types: postgresTypes });
  // An idle connection the server drops (restart, admin command) is discarded by the pool and replaced on the next
  // query; without a listener that error would crash the process.
  pool.on('error', () => undefined);
  const statementNames = new Map<string, string>();
  const statementName = (sql: string): string => {
    let name = statementNames.get(sql);
    if (name === undefined) {
      name = `dagboard_${statementNames.size}`;
      statementNames.set(sql, name);
    }
    return name;
  };
  const queryable = (target: pg.Pool | pg.PoolClient): Queryable => ({
    async query<T>(sql: string, params: readonly unknown[] = [], options: QueryOptions = {}) {
      const values = params.map(postgresParam);
      const result = options.prepared
        ? await target.query({ name: statementName(sql), text: sql, values })
        : await target.query(sql, values);
      return { rows: result.rows as T[], rowCount: result.rowCount ?? result.rows.length };
    },
    async exec(sql: string) {
      await target.query(sql);
    },
  });
  /**
   * A transaction's client runs one statement at a time; callers may still start several at once (Promise.all), so
   * they queue here, in order, instead of on the client (which pg 9 will refuse).
   */
  const serialized = (client: pg.PoolClient): Queryable => {
    const direct = queryable(client);
    let tail: Promise<unknown> = Promise.resolve();
    const queued = <T>(run: () => Promise<T>): Promise<T> => {
      const result = tail.then(run, run);
      tail = result.catch(() => undefined);
      return result;
    };
    return {
      query: (sql, params, options) => queued(() => direct.query(sql, params, options)),
      exec: (sql) => queued(() => direct.exec(sql)),
    };
  };
  return {
    kind: 'postgres',
    ...queryable(pool),
    async transaction(fn) {
      const client = await pool.connect();
      let unusable: Error | undefined;
      try {
        await client.query('BEGIN');
        const result = await fn(serialized(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => {
          unusable = rollbackError;
        });
        throw error;
      } finally {
        client.release(unusable);
      }
    },
    listen: async (channel, onNotify, onError) => listenOnPostgres(url, channel, onNotify, onError),
    poolStats: () => ({ max: poolSize, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => pool.end(),
  };
}
