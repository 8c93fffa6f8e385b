/**
 * `npm run keys -- <command>`: manages API keys in the database the app uses (DATABASE_URL, else the embedded PGlite
 * under DATA_DIR). An embedded PGlite directory admits one process at a time, so stop the app first; with PostgreSQL
 * the app may keep running (it sees a change within the key cache's lifetime).
 */
import { join } from 'node:path';
import { createSqlKeyStore, runKeysCommand } from '../api';
import { migrate, openDb } from '../db';
import { env } from '../env';

async function main(): Promise<number> {
  if (env.DATABASE_URL?.startsWith('memory://')) {
    console.error('DATABASE_URL is memory://: keys made here would vanish with this process; use API_KEYS instead');
    return 1;
  }
  const db = await openDb({ url: env.DATABASE_URL ?? join(env.DATA_DIR, 'pglite') });
  try {
    await migrate(db);
    return await runKeysCommand(process.argv.slice(2), {
      store: createSqlKeyStore(db),
      now: new Date(),
      out: (line) => console.log(line),
      err: (line) => console.error(line),
    });
  } finally {
    await db.close();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
