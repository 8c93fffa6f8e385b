/** The address-history CSV export: one header line, then one line per transaction, newest first (RFC 4180). */
import type { AddressTransactionView } from '../api/indexed-format';

export const ADDRESS_CSV_HEADER = [
  'transaction_id',
  'block_time_utc',
  'block_time_ms',
  'accepted',
  'accepting_block_hash',
  'confirmations',
  'amount_sent_sompi',
  'amount_received_sompi',
  'balance_change_sompi',
  'fee_sompi',
] as const;

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

export function csvLine(fields: readonly string[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

export function addressCsvLine(transaction: AddressTransactionView): string {
  return csvLine([
    transaction.transactionId,
    new Date(transaction.blockTime).toISOString(),
    String(transaction.blockTime),
    String(transaction.isAccepted),
    transaction.acceptingBlockHash ?? '',
    String(transaction.confirmations),
    transaction.amountSent,
    transaction.amountReceived,
    transaction.balanceChange,
    transaction.fee ?? '',
  ]);
}

/** A file name safe in a Content-Disposition header. */
export function addressCsvFileName(address: string): string {
  return `${address.replace(/[^a-z0-9]+/gi, '-')}-transactions.csv`;
}
