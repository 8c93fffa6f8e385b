import { describe, expect, it } from 'vitest';
import { runKeysCommand } from './keys-cli';
import { authenticateApiKey, createMemoryKeyStore } from './keys';
import { ApiError } from '../http/errors';

function harness() {
  const store = createMemoryKeyStore();
  const out: string[] = [];
  const err: string[] = [];
  const io = {
    store,
    now: new Date(Date.UTC(2026, 10, 22)),
    out: (line: string) => out.push(line),
    err: (line: string) => err.push(line),
  };
  return { store, out, err, run: (...argv: string[]) => runKeysCommand(argv, io) };
}

describe('keys command', () => {
  it('creates a key, prints it once, and the key authenticates with its limits', async () => {
    const { store, out, run } = harness();
    expect(await run('create', '--name', 'partner', '--ru-per-second', '2.5', '--ru-per-month', '1000.01')).toBe(0);
    const key = /key \(shown once, store it now\): (dgb_\S+)/.exec(out.join('\n'))?.[1];
    if (key === undefined) throw new Error('no key printed');
    const record = await authenticateApiKey(store, key);
    expect(record).toMatchObject({ name: 'partner', milliRuPerSecond: 2500, milliRuPerMonth: 1_000_010 });
    expect(out[0]).toContain('2.5 RU/s, 1000.01 RU/month');

    out.length = 0;
    expect(await run('list')).toBe(0);
    expect(out).toHaveLength(1);
    expect(out[0]).toContain(record.id);
    expect(out[0]).toContain('active');
    expect(out.join('\n')).not.toContain(key);
  });

  it('disables a key', async () => {
    const { store, out, err, run } = harness();
    await run('create', '--name', 'temp');
    const key = /(dgb_\S+)/.exec(out.join('\n'))?.[1] ?? '';
    const [record] = await store.list();
    expect(await run('disable', record?.id ?? '')).toBe(0);
    await expect(authenticateApiKey(store, key)).rejects.toBeInstanceOf(ApiError);
    expect(await run('disable', 'key_nope')).toBe(1);
    expect(err.join('\n')).toContain('no key with id key_nope');
  });

  it('answers usage errors with exit code 2 and bad limits with 1', async () => {
    const { err, run } = harness();
    expect(await run()).toBe(2);
    expect(await run('rotate')).toBe(2);
    expect(await run('create')).toBe(2);
    expect(await run('create', '--name')).toBe(2);
    expect(await run('create', '--name', 'x', '--colour', 'red')).toBe(2);
    expect(await run('create', '--name', 'x', '--ru-per-second', 'fast')).toBe(2);
    expect(await run('create', '--name', 'x', '--ru-per-second', '0.5')).toBe(1);
    expect(err.join('\n')).toContain('usage: npm run keys');
  });
});
