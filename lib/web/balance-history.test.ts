import { describe, expect, it } from 'vitest';
import { balanceBefore, balanceHistory } from './balance-history';

const at = (second: number, change: number, isAccepted = true) => ({
  blockTime: second * 1000 + 250,
  balanceChange: String(change),
  isAccepted,
});

describe('balanceHistory', () => {
  it('walks back from the current balance, oldest point first', () => {
    const newestFirst = [at(30, -5), at(20, 40), at(10, 100)];
    expect(balanceHistory(135n, newestFirst)).toEqual([
      { second: 10, balance: 100n },
      { second: 20, balance: 140n },
      { second: 30, balance: 135n },
    ]);
    expect(balanceBefore(135n, newestFirst)).toBe(0n);
  });

  it('keeps one point per second: the balance after the newest transaction of that second', () => {
    expect(balanceHistory(7n, [at(5, 2), at(5, 3), at(4, 2)])).toEqual([
      { second: 4, balance: 2n },
      { second: 5, balance: 7n },
    ]);
  });

  it('leaves out transactions no chain block accepted', () => {
    const newestFirst = [at(9, 1000, false), at(8, 10)];
    expect(balanceHistory(10n, newestFirst)).toEqual([{ second: 8, balance: 10n }]);
    expect(balanceBefore(10n, newestFirst)).toBe(0n);
  });

  it('is empty without accepted history', () => {
    expect(balanceHistory(0n, [])).toEqual([]);
  });
});
