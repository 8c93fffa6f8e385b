import { describe, expect, it } from 'vitest';
import { encodeAddress } from '@/lib/kaspa/address';
import { classifyQuery, entitiesText } from './search-rules';

const payload = new Uint8Array(32).fill(7);
const devnet = encodeAddress({ prefix: 'kaspadev', version: 0, payload });
const mainnet = encodeAddress({ prefix: 'kaspa', version: 0, payload });

describe('classifyQuery', () => {
  it('reads 64 hex characters as a hash, lower-cased', () => {
    expect(classifyQuery(`  ${'AB'.repeat(32)} `, 'kaspadev')).toEqual({ kind: 'hash', hash: 'ab'.repeat(32) });
  });

  it('reads digits as a DAA score and refuses scores past u64', () => {
    expect(classifyQuery('12345', 'kaspadev')).toEqual({ kind: 'daa-score', score: 12345n });
    expect(classifyQuery('18446744073709551616', 'kaspadev')).toEqual({ kind: 'daa-score-too-large' });
  });

  it('recognises addresses of the node network, other networks and broken ones', () => {
    expect(classifyQuery(devnet, 'kaspadev')).toEqual({ kind: 'address', address: devnet });
    expect(classifyQuery(devnet.toUpperCase(), 'kaspadev')).toEqual({ kind: 'address', address: devnet });
    expect(classifyQuery(mainnet, 'kaspadev')).toEqual({ kind: 'wrong-network', address: mainnet, prefix: 'kaspa' });
    const broken = classifyQuery(`${devnet.slice(0, -1)}${devnet.endsWith('q') ? 'p' : 'q'}`, 'kaspadev');
    expect(broken.kind).toBe('bad-address');
  });

  it('completes an address typed without its prefix', () => {
    expect(classifyQuery(devnet.slice('kaspadev:'.length), 'kaspadev')).toEqual({ kind: 'address', address: devnet });
  });

  it('reads 4–6 letters as a ticker and short hex as a truncated hash', () => {
    expect(classifyQuery('kasp', 'kaspadev')).toEqual({ kind: 'ticker', ticker: 'KASP' });
    expect(classifyQuery('deadbeefdeadbeef', 'kaspadev')).toEqual({ kind: 'short-hex', length: 16 });
    expect(classifyQuery('?', 'kaspadev')).toEqual({ kind: 'unknown' });
    expect(classifyQuery('   ', 'kaspadev')).toEqual({ kind: 'empty' });
  });
});

describe('entitiesText', () => {
  it('names what one 64-hex query matched, in the order tried', () => {
    expect(entitiesText(['covenant'])).toBe('a covenant');
    expect(entitiesText(['transaction', 'block'])).toBe('a transaction and a block');
    expect(entitiesText(['transaction', 'block', 'covenant'])).toBe('a transaction, a block and a covenant');
    expect(entitiesText([])).toBe('nothing');
  });
});
