/**
 * A short-lived, bounded memory of wallet discoveries, so a summary, a history walk and an export of the same wallet
 * derive and query its addresses once. Entries are keyed by a SHA-256 digest of the network, gap limit and extended
 * key: the key itself is never a map key, a log field or a metric label. Oldest entries are evicted first.
 */
import { createHash } from 'node:crypto';

export interface DiscoveryCache<T> {
  get(digest: string): T | undefined;
  set(digest: string, value: T): void;
}

export interface DiscoveryCacheOptions {
  ttlMs: number;
  maxEntries: number;
  /** Epoch milliseconds. */
  clock: () => number;
}

export function discoveryDigest(network: string, gapLimit: number, extendedPublicKey: string): string {
  return createHash('sha256').update(`${network}\n${gapLimit}\n${extendedPublicKey}`).digest('hex');
}

export function createDiscoveryCache<T>(options: DiscoveryCacheOptions): DiscoveryCache<T> {
  const entries = new Map<string, { value: T; expiresAt: number }>();
  return {
    get(digest) {
      const entry = entries.get(digest);
      if (entry === undefined) return undefined;
      if (entry.expiresAt <= options.clock()) {
        entries.delete(digest);
        return undefined;
      }
      return entry.value;
    },
    set(digest, value) {
      entries.delete(digest);
      entries.set(digest, { value, expiresAt: options.clock() + options.ttlMs });
      while (entries.size > options.maxEntries) entries.delete(entries.keys().next().value!);
    },
  };
}
