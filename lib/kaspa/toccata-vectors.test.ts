import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TOCCATA_ENTRY_CONSUMERS, toccataEntryPaths } from './test-support/toccata-vectors';

const REPOSITORY_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const entries = toccataEntryPaths();

describe('toccata-vectors.json completeness', () => {
  it('has a consuming test for every entry', () => {
    const unconsumed = entries.filter((path) => !TOCCATA_ENTRY_CONSUMERS.some((consumer) => consumer.pattern === path));
    expect(unconsumed).toEqual([]);
  });

  it.each(TOCCATA_ENTRY_CONSUMERS.map((consumer) => [consumer.pattern, consumer] as const))(
    '%s is consumed by a test that reads it',
    (pattern, { file }) => {
      expect(entries).toContain(pattern);
      expect(existsSync(REPOSITORY_ROOT + file)).toBe(true);
      const source = readFileSync(REPOSITORY_ROOT + file, 'utf8');
      const list = pattern.split('.').filter((segment) => segment !== '#').at(-1)!;
      expect(source).toContain('toccata');
      expect(source).toContain(list);
    },
  );

  // The counts the tests were written against: a new entry fails here until someone has checked that its list's
  // consumer really covers it (every consumer iterates its whole list) and updated the count.
  it('counts the entries per group', () => {
    const perGroup = Object.fromEntries(
      [...new Set(entries.map((path) => path.split('.')[0]!))].map((group) => [group, entries.filter((path) => path.startsWith(`${group}.`)).length]),
    );
    expect(Object.values(perGroup).reduce((sum, count) => sum + count, 0)).toBe(entries.length);
    expect(perGroup).toEqual({
      keyedHashersBlake3: 8,
      transactionsV1: 10,
      digests: 2,
      sighashV1: 14,
      headerV2: 4,
      covenants: 26,
      txRules: 34,
      mass: 14,
      seqCommit: 24,
    });
  });
});
