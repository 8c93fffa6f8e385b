import { describe, expect, it } from 'vitest';
import { parseEnv } from './env';

describe('parseEnv', () => {
  it('applies the embedded defaults when nothing is set', () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.DATA_DIR).toBe('./data');
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.KASPA_RPC_URL).toBeUndefined();
    expect(env.REDIS_URL).toBeUndefined();
    expect(env.API_KEYS).toEqual([]);
    expect(env.DEVNET_PERSIST).toBe(true);
  });

  it('splits API_KEYS and trims blanks', () => {
    expect(parseEnv({ API_KEYS: ' a , b,,c ' }).API_KEYS).toEqual(['a', 'b', 'c']);
  });

  it('treats empty URLs as unset', () => {
    expect(parseEnv({ DATABASE_URL: '', KASPA_RPC_URL: '' }).KASPA_RPC_URL).toBeUndefined();
  });

  it('rejects malformed values with the variable name', () => {
    expect(() => parseEnv({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => parseEnv({ KASPA_RPC_URL: 'http://node' })).toThrow(/KASPA_RPC_URL/);
    expect(() => parseEnv({ DEVNET_PERSIST: 'maybe' })).toThrow(/DEVNET_PERSIST/);
  });

  it('reads SERVER_API_KEY as optional visible ASCII', () => {
    expect(parseEnv({}).SERVER_API_KEY).toBeUndefined();
    expect(parseEnv({ SERVER_API_KEY: '  ' }).SERVER_API_KEY).toBeUndefined();
    expect(parseEnv({ SERVER_API_KEY: ' dgb_server ' }).SERVER_API_KEY).toBe('dgb_server');
    expect(() => parseEnv({ SERVER_API_KEY: 'two words' })).toThrow(/SERVER_API_KEY/);
  });

  it('reads METRICS_TOKEN as optional, at least 16 visible ASCII characters', () => {
    expect(parseEnv({}).METRICS_TOKEN).toBeUndefined();
    expect(parseEnv({ METRICS_TOKEN: '' }).METRICS_TOKEN).toBeUndefined();
    expect(parseEnv({ METRICS_TOKEN: ' prometheus-scraper-01 ' }).METRICS_TOKEN).toBe('prometheus-scraper-01');
    for (const bad of ['too-short', 'sixteen chars but spaces']) {
      expect(() => parseEnv({ METRICS_TOKEN: bad })).toThrow(/METRICS_TOKEN/);
    }
  });

  it('reads HISTORY_RETENTION_DAYS and _GB as unset (the mode decides), all (null) or a positive number', () => {
    const unset = parseEnv({ HISTORY_RETENTION_DAYS: '' });
    expect([unset.HISTORY_RETENTION_DAYS, unset.HISTORY_RETENTION_GB]).toEqual([undefined, undefined]);
    const set = parseEnv({ HISTORY_RETENTION_DAYS: ' all ', HISTORY_RETENTION_GB: '2.5' });
    expect([set.HISTORY_RETENTION_DAYS, set.HISTORY_RETENTION_GB]).toEqual([null, 2.5]);
    expect(parseEnv({ HISTORY_RETENTION_DAYS: '0.01' }).HISTORY_RETENTION_DAYS).toBe(0.01);
    for (const bad of ['0', '-1', 'week', 'none']) {
      expect(() => parseEnv({ HISTORY_RETENTION_DAYS: bad })).toThrow(/HISTORY_RETENTION_DAYS/);
      expect(() => parseEnv({ HISTORY_RETENTION_GB: bad })).toThrow(/HISTORY_RETENTION_GB/);
    }
  });

  it('reads DEVNET_PRUNING_DEPTH as a blue score of at least 100, 400 by default', () => {
    expect(parseEnv({}).DEVNET_PRUNING_DEPTH).toBe(400);
    expect(parseEnv({ DEVNET_PRUNING_DEPTH: '5000' }).DEVNET_PRUNING_DEPTH).toBe(5000);
    for (const bad of ['99', '1.5', 'deep']) expect(() => parseEnv({ DEVNET_PRUNING_DEPTH: bad })).toThrow(/DEVNET_PRUNING_DEPTH/);
  });

  it('reads DEVNET_COINBASE_MATURITY as a positive DAA score count, Kaspa\'s 1000 by default', () => {
    expect(parseEnv({}).DEVNET_COINBASE_MATURITY).toBe(1000);
    expect(parseEnv({ DEVNET_COINBASE_MATURITY: '100' }).DEVNET_COINBASE_MATURITY).toBe(100);
    for (const bad of ['0', '-5', '2.5', 'soon']) {
      expect(() => parseEnv({ DEVNET_COINBASE_MATURITY: bad })).toThrow(/DEVNET_COINBASE_MATURITY/);
    }
  });

  it('reads DEVNET_TOCCATA_ACTIVATION as a DAA score or never, Toccata from genesis by default', () => {
    expect(parseEnv({}).DEVNET_TOCCATA_ACTIVATION).toBe(0n);
    expect(parseEnv({ DEVNET_TOCCATA_ACTIVATION: '30' }).DEVNET_TOCCATA_ACTIVATION).toBe(30n);
    expect(parseEnv({ DEVNET_TOCCATA_ACTIVATION: 'never' }).DEVNET_TOCCATA_ACTIVATION).toBe('never');
    for (const bad of ['-1', '2.5', 'soon', '99999999999999999999']) {
      expect(() => parseEnv({ DEVNET_TOCCATA_ACTIVATION: bad })).toThrow(/DEVNET_TOCCATA_ACTIVATION/);
    }
  });

  it('returns a frozen object', () => {
    expect(Object.isFrozen(parseEnv({}))).toBe(true);
  });
});
