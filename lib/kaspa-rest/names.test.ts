import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readNamesFile } from './names';

describe('address names', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dagboard-names-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads an operator file and refuses one of the wrong shape', async () => {
    const good = join(dir, 'good.json');
    await writeFile(good, JSON.stringify([{ address: 'kaspa:qq', name: 'Pool' }]));
    expect(await readNamesFile(good)).toEqual([{ address: 'kaspa:qq', name: 'Pool' }]);
    const bad = join(dir, 'bad.json');
    await writeFile(bad, JSON.stringify({ 'kaspa:qq': 'Pool' }));
    await expect(readNamesFile(bad)).rejects.toThrow(/expected \[\{"address"/);
  });
});
