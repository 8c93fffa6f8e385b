import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWalletSet } from '../devnet/wallet';
import { devnetWalletNames, readNamesFile } from './names';

describe('address names', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dagboard-names-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('names the wallets the devnet traffic uses, derived from the same seed', () => {
    const wallets = createWalletSet({ seed: 'names-test-seed', count: 3, prefix: 'kaspadev' });
    expect(devnetWalletNames('names-test-seed', 3)).toEqual(
      wallets.wallets.map((wallet, index) => ({ address: wallet.address, name: `devnet wallet ${index}` })),
    );
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
