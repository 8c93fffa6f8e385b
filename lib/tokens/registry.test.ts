import { describe, expect, it } from 'vitest';
import { TOKEN_TRAFFIC_TICKERS } from '../devnet/traffic/token-traffic';
import devnetRegistry from './devnet-registry.json';
import { tokenRegistry } from './registry';

describe('token registry', () => {
  it('looks entries up by tick in any case and fills the optional lists', () => {
    const registry = tokenRegistry({ tokens: { dagb: { iconUrl: 'https://example.com/a.svg' } } });
    expect(registry.entry('DAGB')).toEqual({ iconUrl: 'https://example.com/a.svg', socialLinks: [], markets: [] });
    expect(registry.entry('dAgB')).toBeDefined();
    expect(registry.entry('NONE')).toBeUndefined();
  });

  it.each([
    ['javascript:alert(1)', 'iconUrl'],
    ['data:image/svg+xml,<svg/>', 'iconUrl'],
    ['ftp://example.com/x', 'iconUrl'],
    ['not a url', 'iconUrl'],
    ['//example.com/x.svg', 'iconUrl'],
  ])('refuses %s (only http and https, and paths on this site for icons)', (url, field) => {
    expect(() => tokenRegistry({ tokens: { DAGB: { [field]: url } } })).toThrow(
      /tokens\.DAGB\.iconUrl: must be an http or https URL, or a path on this site/,
    );
    expect(() => tokenRegistry({ tokens: { DAGB: { socialLinks: [{ type: 'x', url }] } } })).toThrow(/socialLinks\.0\.url/);
    expect(() => tokenRegistry({ tokens: { DAGB: { markets: [{ name: 'm', url }] } } })).toThrow(/markets\.0\.url/);
  });

  it('takes a path on this site for an icon', () => {
    expect(tokenRegistry({ tokens: { DAGB: { iconUrl: '/token-icons/dagb.svg' } } }).entry('DAGB')?.iconUrl).toBe('/token-icons/dagb.svg');
  });

  it('refuses unknown fields and keys that are not ticks', () => {
    expect(() => tokenRegistry({ tokens: { DAGB: { website: 'https://example.com' } } })).toThrow(/token registry/);
    expect(() => tokenRegistry({ tokens: { 'DA GB': {} } })).toThrow(/token registry: tokens\.DA GB/);
  });

  it('the shipped devnet registry is valid and names every ticker the devnet traffic deploys', () => {
    const registry = tokenRegistry(devnetRegistry);
    expect(TOKEN_TRAFFIC_TICKERS.filter((tick) => registry.entry(tick) === undefined)).toEqual([]);
    expect(registry.entry('DAGB')?.markets.length).toBeGreaterThan(0);
  });
});
