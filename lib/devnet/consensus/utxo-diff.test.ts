import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { UtxoEntry } from '../../kaspa/types';
import { UtxoDiff, type OutpointKey } from './utxo-diff';

const entry = (amount: bigint, blockDaaScore = 1n): UtxoEntry => ({
  amount,
  blockDaaScore,
  isCoinbase: false,
  scriptPublicKey: { version: 0, script: Uint8Array.of(0x51) },
});

type Step = { kind: 'spend'; pick: number } | { kind: 'create'; key: string; amount: bigint; daaScore: bigint };

const steps = fc.array(
  fc.oneof(
    fc.record({ kind: fc.constant('spend' as const), pick: fc.nat() }),
    fc.record({
      kind: fc.constant('create' as const),
      key: fc.constantFrom('a:0', 'b:0', 'c:1', 'd:2', 'e:0', 'f:3'),
      amount: fc.bigInt({ min: 1n, max: 1000n }),
      daaScore: fc.bigInt({ min: 1n, max: 3n }),
    }),
  ),
  { maxLength: 30 },
);

/** Applies valid steps to a copy of `set`, recording them in a fresh diff over it. */
function run(set: Map<OutpointKey, UtxoEntry>, plan: Step[]): { after: Map<OutpointKey, UtxoEntry>; diff: UtxoDiff } {
  const after = new Map(set);
  const diff = new UtxoDiff();
  for (const step of plan) {
    if (step.kind === 'spend') {
      const keys = [...after.keys()];
      if (keys.length === 0) continue;
      const key = keys[step.pick % keys.length]!;
      diff.remove(key, after.get(key)!);
      after.delete(key);
    } else if (!after.has(step.key)) {
      const created = entry(step.amount, step.daaScore);
      diff.add(step.key, created);
      after.set(step.key, created);
    }
  }
  return { after, diff };
}

const base = () =>
  new Map<OutpointKey, UtxoEntry>([
    ['a:0', entry(5n)],
    ['b:0', entry(7n)],
  ]);

describe('UtxoDiff', () => {
  it('describes the set it was recorded against: committing it reproduces the mutated set', () => {
    fc.assert(
      fc.property(steps, (plan) => {
        const start = base();
        const { after, diff } = run(start, plan);
        const committed = new Map(start);
        diff.commitTo(committed);
        expect(committed).toEqual(after);
        for (const key of ['a:0', 'b:0', 'c:1', 'd:2', 'e:0', 'f:3']) expect(diff.getFrom(start, key)).toEqual(after.get(key));
      }),
    );
  });

  it('composes: folding a second diff gives the state after both, and folding its reverse returns to the first', () => {
    fc.assert(
      fc.property(steps, steps, (first, second) => {
        const start = base();
        const one = run(start, first);
        const two = run(one.after, second);
        const composed = new UtxoDiff();
        composed.applyDiff(one.diff);
        composed.applyDiff(two.diff);
        const both = new Map(start);
        composed.commitTo(both);
        expect(both).toEqual(two.after);

        composed.applyReversed(two.diff);
        const back = new Map(start);
        composed.commitTo(back);
        expect(back).toEqual(one.after);
      }),
    );
  });

  it('keeps a replaced entry when an outpoint is re-created with a different DAA score', () => {
    const start = new Map([['a:0', entry(5n, 1n)]]);
    const diff = new UtxoDiff();
    diff.remove('a:0', entry(5n, 1n));
    diff.add('a:0', entry(5n, 2n));
    expect(diff.getFrom(start, 'a:0')).toEqual(entry(5n, 2n));
    diff.remove('a:0', entry(5n, 2n));
    diff.add('a:0', entry(5n, 1n));
    expect(diff.size).toBe(0);
  });
});
