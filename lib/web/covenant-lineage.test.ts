import { describe, expect, it } from 'vitest';
import { lineageStep, lineageTimeline, type LineageTransactionShape } from './covenant-lineage';

const COVENANT = 'ab'.repeat(32);
const OTHER = 'cd'.repeat(32);

function transaction(spends: (string | null)[], binds: (string | null)[], blockTime = 0): LineageTransactionShape {
  return {
    transactionId: `${blockTime}`.padStart(64, '0'),
    blockTime,
    inputs: spends.map((covenantId) => ({ previousOutput: { covenantId } })),
    outputs: binds.map((covenantId, index) => ({
      index,
      amount: String(1_000 * (index + 1)),
      covenant: covenantId === null ? null : { authorizingInput: 0, covenantId },
    })),
  };
}

describe('lineageStep', () => {
  it('tells a genesis, a continuation, a split and an end apart by what they spend and bind', () => {
    expect(lineageStep(transaction([null], [COVENANT, null]), COVENANT)).toEqual({
      kind: 'genesis',
      boundOutputs: [0],
      boundAmount: 1_000n,
      spentStates: 0,
    });
    expect(lineageStep(transaction([COVENANT], [COVENANT]), COVENANT).kind).toBe('continuation');
    expect(lineageStep(transaction([COVENANT], [COVENANT, COVENANT]), COVENANT)).toMatchObject({
      kind: 'split',
      boundOutputs: [0, 1],
      boundAmount: 3_000n,
    });
    expect(lineageStep(transaction([COVENANT], [null]), COVENANT)).toMatchObject({ kind: 'end', boundOutputs: [] });
  });

  it('counts only this covenant’s outputs, whatever the case of the id', () => {
    const step = lineageStep(transaction([OTHER, COVENANT.toUpperCase()], [OTHER, COVENANT]), COVENANT);
    expect(step).toMatchObject({ kind: 'continuation', boundOutputs: [1], spentStates: 1 });
  });
});

describe('lineageTimeline', () => {
  it('places the steps oldest first by time between the genesis and the end of the axis', () => {
    const points = lineageTimeline(
      [
        { transactionId: 'c', blockTime: 3_000, kind: 'continuation' },
        { transactionId: 'a', blockTime: 1_000, kind: 'genesis' },
        { transactionId: 'b', blockTime: 2_000, kind: 'continuation' },
      ],
      1_000,
      5_000,
    );
    expect(points).toEqual([
      { transactionId: 'a', kind: 'genesis', at: 0 },
      { transactionId: 'b', kind: 'continuation', at: 0.25 },
      { transactionId: 'c', kind: 'continuation', at: 0.5 },
    ]);
  });

  it('clamps times outside the axis and puts everything at the end of an axis of no length', () => {
    const steps = [{ transactionId: 'a', blockTime: 9_000, kind: 'end' as const }];
    expect(lineageTimeline(steps, 1_000, 5_000)[0]!.at).toBe(1);
    expect(lineageTimeline(steps, 5_000, 5_000)[0]!.at).toBe(1);
  });
});
