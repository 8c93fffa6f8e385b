import pg from 'pg';

/** Key of the session-scoped advisory lock held by the one process that writes the index of a database. */
export const INDEXER_LOCK_KEY = 4_712_020_261_123n;

export interface IndexerLock {
  release(): Promise<void>;
}

/**
 * Tries to take the indexer lock on its own connection (a session lock lives as long as that connection, so a
 * crashed holder frees it). Returns null when another process holds it. PGlite needs no lock: its data directory
 * is opened by one process only.
 */
export async function acquireIndexerLock(databaseUrl: string): Promise<IndexerLock | null> {
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [
      INDEXER_LOCK_KEY.toString(),
    ]);
    if (rows[0]?.locked !== true) {
      await client.end();
      return null;
    }
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return {
    async release() {
      await client.query('SELECT pg_advisory_unlock($1)', [INDEXER_LOCK_KEY.toString()]).catch(() => undefined);
      await client.end().catch(() => undefined);
    },
  };
}
