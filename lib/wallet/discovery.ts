/**
 * Gap-limit discovery over both chains, as HD wallets scan: addresses are derived in batches until `gapLimit`
 * consecutive addresses after the last used one are unused, on the receive and the change chain independently. Each
 * round asks `usedAmong` once for both chains' batches, so a wallet costs a few round trips however it is spread.
 */
import type { AddressPrefix } from '../kaspa/address';
import { deriveAddresses, WALLET_CHAINS, type DerivedAddress, type WalletChain, type WalletKey } from './derivation';

export const GAP_LIMIT = { default: 20, max: 100 } as const;

export interface DiscoveredAddress extends DerivedAddress {
  used: boolean;
}

export class WalletTooLargeError extends Error {
  override name = 'WalletTooLargeError';
  constructor(readonly maxAddresses: number) {
    super(`the wallet needs more than ${maxAddresses} derived addresses`);
  }
}

export interface DiscoveryOptions {
  network: AddressPrefix;
  gapLimit: number;
  /** The most addresses derived over both chains; past it the discovery fails rather than answer a partial wallet. */
  maxAddresses: number;
  /** Which of these addresses have any activity. */
  usedAmong(addresses: readonly string[]): Promise<ReadonlySet<string>>;
}

/** Receive chain first, then change, each in index order, used and unused (the gap after the last used included). */
export async function discoverAddresses(key: WalletKey, options: DiscoveryOptions): Promise<DiscoveredAddress[]> {
  const { gapLimit, maxAddresses, network } = options;
  const found: Record<WalletChain, DiscoveredAddress[]> = { receive: [], change: [] };
  const lastUsed: Record<WalletChain, number> = { receive: -1, change: -1 };
  for (;;) {
    const batch = WALLET_CHAINS.flatMap((chain) => {
      const next = found[chain].length;
      const end = lastUsed[chain] + 1 + gapLimit;
      return end > next ? deriveAddresses(key, chain, next, end - next, network) : [];
    });
    if (batch.length === 0) break;
    if (found.receive.length + found.change.length + batch.length > maxAddresses) {
      throw new WalletTooLargeError(maxAddresses);
    }
    const used = await options.usedAmong(batch.map((item) => item.address));
    for (const item of batch) {
      const isUsed = used.has(item.address);
      found[item.chain].push({ ...item, used: isUsed });
      if (isUsed) lastUsed[item.chain] = Math.max(lastUsed[item.chain], item.index);
    }
  }
  return [...found.receive, ...found.change];
}
