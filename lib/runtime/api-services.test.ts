import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { authenticateApiKey } from '../api';
import { migrate, openDb, type Db } from '../db';
import { parseEnv } from '../env';
import type { RpcClient } from '../rpc';
import { createApiServices, DEMO_KEY_FILE, keyFromFile, SERVER_KEY_FILE, SERVER_KEY_LIMITS } from './api-services';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'dagboard-api-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

let db: Db;
beforeAll(async () => {
  db = await openDb({ url: 'memory://' });
  await migrate(db);
}, 60_000);
afterAll(async () => {
  await db.close();
});

/** Every start sees an empty key table, as an in-memory database after a restart does. */
async function emptyDb(): Promise<Db> {
  await db.query('DELETE FROM api_keys');
  return db;
}

const rpc = {
  call: async () => ({ network: 'devnet' }),
} as unknown as RpcClient;

async function start(dir: string, extra: Record<string, string> = {}, embeddedDevnet = true) {
  const lines: string[] = [];
  const services = await createApiServices({
    env: parseEnv({ DATA_DIR: dir, ...extra }),
    db: await emptyDb(),
    rpc,
    embeddedDevnet,
    log: (line) => lines.push(line),
  });
  cleanups.push(() => services.close());
  return { services, lines };
}

describe('keyFromFile', () => {
  it('creates a key readable by the owner only, then returns the same key', async () => {
    const path = join(await tempDir(), 'nested', 'key');
    const first = await keyFromFile(path);
    expect(first.created).toBe(true);
    expect(first.key).toMatch(/^dgb_[A-Za-z0-9_-]{43}$/);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await keyFromFile(path)).toEqual({ key: first.key, created: false });
  });
});

describe('createApiServices', () => {
  it('seeds API_KEYS and makes server and demo keys that authenticate, logging no key text', async () => {
    const dir = await tempDir();
    const { services, lines } = await start(dir, { API_KEYS: 'alpha-key,beta-key' });
    const { keys } = services.context;
    expect((await authenticateApiKey(keys, 'alpha-key')).name).toBe('seeded from API_KEYS');
    const server = await authenticateApiKey(keys, services.serverApiKey);
    expect(server.milliRuPerSecond).toBe(SERVER_KEY_LIMITS.milliRuPerSecond);
    expect(services.demoApiKey).not.toBeNull();
    expect((await authenticateApiKey(keys, services.demoApiKey!)).name).toBe('demo (embedded devnet)');
    expect((await readFile(join(dir, SERVER_KEY_FILE), 'utf8')).trim()).toBe(services.serverApiKey);
    expect((await readFile(join(dir, DEMO_KEY_FILE), 'utf8')).trim()).toBe(services.demoApiKey);
    const logged = lines.join('\n');
    for (const secret of ['alpha-key', services.serverApiKey, services.demoApiKey!]) expect(logged).not.toContain(secret);
    expect(await services.context.addressPrefix()).toBe('kaspadev');
  });

  it('keeps the same keys across a restart on an empty database', async () => {
    const dir = await tempDir();
    const first = await start(dir);
    const second = await start(dir);
    expect(await first.services.context.keys.list()).toHaveLength(2);
    expect(second.services.serverApiKey).toBe(first.services.serverApiKey);
    expect(second.services.demoApiKey).toBe(first.services.demoApiKey);
    await expect(authenticateApiKey(second.services.context.keys, first.services.demoApiKey)).resolves.toBeDefined();
  });

  it('uses SERVER_API_KEY when set and makes no demo key for an external node', async () => {
    const dir = await tempDir();
    const { services } = await start(dir, { SERVER_API_KEY: 'operator-chosen-key' }, false);
    expect(services.serverApiKey).toBe('operator-chosen-key');
    expect(services.demoApiKey).toBeNull();
    await expect(authenticateApiKey(services.context.keys, 'operator-chosen-key')).resolves.toBeDefined();
    await expect(stat(join(dir, SERVER_KEY_FILE))).rejects.toThrow();
    await expect(stat(join(dir, DEMO_KEY_FILE))).rejects.toThrow();
  });
});
