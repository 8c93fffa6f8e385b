import { afterAll, beforeAll, describe } from 'vitest';
import { migrate } from '../../db/migrations';
import { testBackends, type TestDatabase } from '../../db/test-support/test-databases';
import { createSqlKeyStore } from './keys';
import { keyStoreContract } from './test-support/key-store-contract';

describe.each(testBackends())('SQL key store on $name', (backend) => {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await backend.open();
    await migrate(database.db);
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
