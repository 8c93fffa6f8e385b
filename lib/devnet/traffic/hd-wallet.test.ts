import { describe, expect, it } from 'vitest';
import { deriveAddress, parseExtendedPublicKey } from '../../wallet/derivation';
import { demoExtendedPublicKey, HD_WALLET_ADDRESSES_PER_CHAIN } from './hd-wallet';
import { createWalletSet, HD_FRESH_EVERY } from './wallet';

describe('the devnet HD wallet', () => {
  it('is an account kpub per seed, and its signing wallets sit at the addresses the kpub derives', () => {
    const set = createWalletSet({ seed: 'hd-seed', count: 2 });
    const kpub = demoExtendedPublicKey('hd-seed');
    expect(kpub.startsWith('kpub')).toBe(true);
    expect(set.hd.extendedPublicKey).toBe(kpub);
    expect(demoExtendedPublicKey('other-seed')).not.toBe(kpub);
    const key = parseExtendedPublicKey(kpub);
    const receive = [set.nextHdAddress('receive'), set.nextHdAddress('receive')];
    const change = set.nextHdAddress('change');
    expect(receive).toEqual([deriveAddress(key, 'receive', 0, 'kaspadev'), deriveAddress(key, 'receive', 1, 'kaspadev')]);
    expect(change).toBe(deriveAddress(key, 'change', 0, 'kaspadev'));
    expect(set.hd.wallets().map((wallet) => wallet.address)).toEqual([...receive, change]);
    // Tracked like the wallets (refreshes and subscriptions ask for them), never among the wallets the mix picks.
    expect(set.addresses()).toEqual(expect.arrayContaining([...receive, change]));
    expect(set.wallets.map((wallet) => wallet.address)).not.toContain(receive[0]);
  });

  it('takes one fresh address in HD_FRESH_EVERY, in receive order, and stops at its budget', () => {
    const set = createWalletSet({ seed: 'hd-seed', count: 2 });
    const key = parseExtendedPublicKey(set.hd.extendedPublicKey);
    const fresh = Array.from({ length: HD_FRESH_EVERY * 3 }, () => set.freshAddress());
    expect(fresh.filter((_, index) => index % HD_FRESH_EVERY === 0)).toEqual(
      [0, 1, 2].map((index) => deriveAddress(key, 'receive', index, 'kaspadev')),
    );
    while (set.nextHdAddress('change') !== null);
    expect(set.hd.wallets().filter((wallet) => wallet.address.length > 0)).toHaveLength(3 + HD_WALLET_ADDRESSES_PER_CHAIN);
  });
});
