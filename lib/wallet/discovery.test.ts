import { describe, expect, it } from 'vitest';
import { deriveAddress, parseExtendedPublicKey, type WalletChain } from './derivation';
import { discoverAddresses, WalletTooLargeError } from './discovery';
import { accountKeyOf, RUSTY_KASPA_MASTER_KPRV } from './test-support/keys';

const key = parseExtendedPublicKey(accountKeyOf(RUSTY_KASPA_MASTER_KPRV, 'kpub'));

function usedSet(positions: Array<[WalletChain, number]>): Set<string> {
  return new Set(positions.map(([chain, index]) => deriveAddress(key, chain, index, 'kaspa')));
}

async function discover(used: Set<string>, gapLimit: number, maxAddresses = 1000) {
  const asked: number[] = [];
  const addresses = await discoverAddresses(key, {
    network: 'kaspa',
    gapLimit,
    maxAddresses,
    async usedAmong(batch) {
      asked.push(batch.length);
      return new Set(batch.filter((address) => used.has(address)));
    },
  });
  const indexes = (chain: WalletChain, onlyUsed: boolean) =>
    addresses.filter((item) => item.chain === chain && (!onlyUsed || item.used)).map((item) => item.index);
  return { addresses, asked, indexes };
}

describe('discoverAddresses', () => {
  it('an unused wallet is one gap on each chain, asked in one round', async () => {
    const { addresses, asked, indexes } = await discover(new Set(), 20);
    expect(indexes('receive', false)).toEqual([...Array(20).keys()]);
    expect(indexes('change', false)).toEqual([...Array(20).keys()]);
    expect(addresses.every((item) => !item.used)).toBe(true);
    expect(asked).toEqual([40]);
  });

  it('honours the gap limit on each chain on its own', async () => {
    // receive: 24 lies within 20 of 5, so it is found, and then 40 within 20 of 24; 70 lies beyond the gap after 40.
    // change: 19 is the last index of the first gap; 45 lies 26 past it, outside the gap.
    const used = usedSet([
      ['receive', 0],
      ['receive', 5],
      ['receive', 24],
      ['receive', 40],
      ['receive', 70],
      ['change', 19],
      ['change', 45],
    ]);
    const { indexes } = await discover(used, 20);
    expect(indexes('receive', true)).toEqual([0, 5, 24, 40]);
    expect(indexes('receive', false)).toEqual([...Array(61).keys()]);
    expect(indexes('change', true)).toEqual([19]);
    expect(indexes('change', false)).toEqual([...Array(40).keys()]);
  });

  it('a smaller gap limit stops sooner', async () => {
    const used = usedSet([
      ['receive', 2],
      ['receive', 8],
    ]);
    const { indexes } = await discover(used, 5);
    expect(indexes('receive', true)).toEqual([2]);
    expect(indexes('receive', false)).toEqual([...Array(8).keys()]);
    expect(indexes('change', false)).toEqual([...Array(5).keys()]);
  });

  it('refuses a wallet past the address budget instead of answering part of it', async () => {
    const used = usedSet([...Array(30).keys()].map((index): [WalletChain, number] => ['receive', index]));
    await expect(discover(used, 20, 45)).rejects.toBeInstanceOf(WalletTooLargeError);
  });
});
