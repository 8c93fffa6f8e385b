import { afterAll, beforeAll, describe } from 'vitest';
import { testBackends, type TestDatabase } from '../db/test-support/test-databases';
import { API_KEYS_MIGRATION, createSqlKeyStore } from './keys';
import { keyStoreContract } from './test-support/key-store-contract';

describe.each(testBackends())('SQL key store on $name', (backend) => {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await backend.open();
    await database.db.exec(API_KEYS_MIGRATION.sql);
  }, 60_000);
  afterAll(async () => {
    await database?.dispose();
  });

  keyStoreContract(backend.name, async () => {
    if (database === undefined) throw new Error('database not open');
    await database.db.exec('DELETE FROM api_keys');
    return createSqlKeyStore(database.db);
  });
});
