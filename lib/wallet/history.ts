/**
 * What one transaction means to a wallet (a set of addresses): its net change, the fee the wallet paid, its direction
 * and the other side. Pure functions over the index's records.
 *   - internal: the wallet spent inputs and every input and output is the wallet's; its net change is minus the fee;
 *   - outgoing: the wallet spent inputs otherwise; incoming: it spent none;
 *   - the fee is the wallet's when it funded every input; with other parties' inputs beside its own (a joint
 *     transaction) it bears its share in proportion to the input value it spent, rounded down;
 *   - counterparties: the other side's addresses in first-appearance order (outputs for outgoing, spent outputs for
 *     incoming, none for internal).
 */
import { transactionFee, type IndexedTransaction } from '../db';

export type WalletDirection = 'incoming' | 'outgoing' | 'internal';

export interface WalletEffect {
  sent: bigint;
  received: bigint;
  netChange: bigint;
  /** Null while a spent output is unknown (created before the indexed history). */
  fee: bigint | null;
  feePaid: bigint | null;
  direction: WalletDirection;
  counterparties: string[];
}

export function walletEffect(
  transaction: IndexedTransaction,
  wallet: ReadonlySet<string>,
  sent: bigint,
  received: bigint,
): WalletEffect {
  const fee = transactionFee(transaction);
  const inputAddresses = transaction.inputs.map((input) => input.previousOutput?.address ?? null);
  const outputAddresses = transaction.outputs.map((output) => output.address);
  const ours = (address: string | null) => address !== null && wallet.has(address);
  const internal = sent > 0n && inputAddresses.every(ours) && outputAddresses.every(ours);
  const direction: WalletDirection = internal ? 'internal' : sent > 0n ? 'outgoing' : 'incoming';
  let feePaid: bigint | null = null;
  if (fee !== null) {
    const inputTotal = transaction.inputs.reduce((total, input) => total + (input.previousOutput?.amount ?? 0n), 0n);
    feePaid = sent === 0n || inputTotal === 0n ? 0n : sent >= inputTotal ? fee : (fee * sent) / inputTotal;
  }
  const otherSide = direction === 'outgoing' ? outputAddresses : direction === 'incoming' ? inputAddresses : [];
  const counterparties = [...new Set(otherSide.filter((address): address is string => address !== null && !ours(address)))];
  return { sent, received, netChange: received - sent, fee, feePaid, direction, counterparties };
}
