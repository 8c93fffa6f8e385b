import { describe, expect, it } from 'vitest';
import { createWalletSet } from './wallet';
import { devnetWalletNames } from './wallet-names';

describe('devnet wallet names', () => {
  it('names the wallets the devnet traffic uses, derived from the same seed', () => {
    const wallets = createWalletSet({ seed: 'names-test-seed', count: 3, prefix: 'kaspadev' });
    expect(devnetWalletNames('names-test-seed', 3)).toEqual(
      wallets.wallets.map((wallet, index) => ({ address: wallet.address, name: `devnet wallet ${index}` })),
    );
  });
});
