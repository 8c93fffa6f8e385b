import { describe, expect, it } from 'vitest';
import { createDiscoveryCache, discoveryDigest } from './discovery-cache';

const KEY = 'kpub2HtoTgsG6e1c7ixJ6JY49otNSzhEKkwnH6bsPHLAXUdYnfEuYw9LnhT7uRzaS4LSeit2rzutV6z8Fs9usdEGKnNe6p1JxfP71mK8rbUfYWo';

describe('discovery cache', () => {
  it('keys entries by a digest that does not contain the extended key and differs by gap limit and network', () => {
    const digest = discoveryDigest('kaspadev', 20, KEY);
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(digest).not.toContain(KEY.slice(4, 20));
    expect(discoveryDigest('kaspadev', 21, KEY)).not.toBe(digest);
    expect(discoveryDigest('kaspa', 20, KEY)).not.toBe(digest);
  });

  it('forgets an entry once its time to live has passed', () => {
    let now = 1_000;
    const cache = createDiscoveryCache<string[]>({ ttlMs: 30_000, maxEntries: 4, clock: () => now });
    cache.set('a', ['address']);
    now += 29_999;
    expect(cache.get('a')).toEqual(['address']);
    now += 1;
    expect(cache.get('a')).toBeUndefined();
  });

  it('holds at most maxEntries, evicting the oldest', () => {
    const cache = createDiscoveryCache<number>({ ttlMs: 60_000, maxEntries: 2, clock: () => 0 });
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 2, 3]);
  });
});
