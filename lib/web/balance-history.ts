/**
 * A wallet's balance over time, walked back from its current balance through its history (newest first): the balance
 * after each accepted transaction is the one after the next newer minus that newer one's net change. Transactions no
 * chain block accepted did not change the UTXO set the current balance comes from, so they are left out.
 */

export interface BalanceChange {
  blockTime: number;
  balanceChange: string;
  isAccepted: boolean;
}

export interface BalancePoint {
  /** UTC seconds (the chart's time unit); one point per second, the balance at its end. */
  second: number;
  balance: bigint;
}

/** Oldest first, each second once, as the chart library requires. */
export function balanceHistory(currentBalance: bigint, newestFirst: readonly BalanceChange[]): BalancePoint[] {
  const points: BalancePoint[] = [];
  let balance = currentBalance;
  for (const transaction of newestFirst) {
    if (!transaction.isAccepted) continue;
    const second = Math.floor(transaction.blockTime / 1000);
    const newerPoint = points.at(-1);
    if (newerPoint === undefined || second < newerPoint.second) points.push({ second, balance });
    balance -= BigInt(transaction.balanceChange);
  }
  return points.reverse();
}

/** The balance before the oldest change walked, for the chart's starting point. */
export function balanceBefore(currentBalance: bigint, newestFirst: readonly BalanceChange[]): bigint {
  return newestFirst.reduce(
    (balance, transaction) => (transaction.isAccepted ? balance - BigInt(transaction.balanceChange) : balance),
    currentBalance,
  );
}
