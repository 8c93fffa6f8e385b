/**
 * The tax-grade CSV (RFC 4180, CRLF lines): one row per transaction of a wallet or an address, oldest first, and two
 * layouts of it:
 *   - generic: every column the export knows, amounts in KAS with 8 decimals, the running balance after the row;
 *   - koinly: Koinly's universal import format; transactions the DAG did not accept moved no coins and are left out.
 * Amounts: `amount` is what crossed the wallet's boundary (received for `in`, paid to others for `out`, nothing for
 * `internal`/`self`), `fee` the fee share the wallet paid, `net_change` = what the balance moved by. The USD figures
 * use the configured KAS/USD source at the row's block time and name it in `price_source`.
 */
import type { WalletDirection } from './history';

export const TAX_CSV_LAYOUTS = ['generic', 'koinly'] as const;
export type TaxCsvLayout = (typeof TAX_CSV_LAYOUTS)[number];

/** `self`: an internal transfer within one address; `internal`: between addresses of the wallet. */
export type TaxDirection = 'in' | 'out' | 'internal' | 'self';

export interface TaxRow {
  /** Epoch ms. */
  blockTime: number;
  transactionId: string;
  /** The first stored block containing the transaction. */
  blockHash: string;
  acceptingBlockHash: string | null;
  acceptingBlockBlueScore: bigint | null;
  direction: TaxDirection;
  amount: bigint;
  /** The wallet's share of the fee; null while a spent output is unknown. */
  fee: bigint | null;
  netChange: bigint;
  /** The balance after this row; unchanged by transactions that were not accepted. */
  runningBalance: bigint;
  /** KAS/USD at the block time; null when the source has no rate. */
  kasUsd: number | null;
  priceSource: string;
  counterparties: readonly string[];
  confirmations: number;
  accepted: boolean;
}

export function taxDirection(direction: WalletDirection, walletAddressesInvolved: number): TaxDirection {
  if (direction === 'incoming') return 'in';
  if (direction === 'outgoing') return 'out';
  return walletAddressesInvolved === 1 ? 'self' : 'internal';
}

/** What crossed the wallet's boundary, in sompi, never negative. */
export function boundaryAmount(direction: TaxDirection, netChange: bigint, fee: bigint | null): bigint {
  if (direction === 'in') return netChange > 0n ? netChange : 0n;
  if (direction === 'out') {
    const paid = -netChange - (fee ?? 0n);
    return paid > 0n ? paid : 0n;
  }
  return 0n;
}

const SOMPI_PER_KAS = 100_000_000n;

/** Exact decimal KAS with 8 decimals: 123456789n → "1.23456789", -5n → "-0.00000005". */
export function kasText(sompi: bigint): string {
  const sign = sompi < 0n ? '-' : '';
  const magnitude = sompi < 0n ? -sompi : sompi;
  return `${sign}${magnitude / SOMPI_PER_KAS}.${String(magnitude % SOMPI_PER_KAS).padStart(8, '0')}`;
}

/** USD value of `sompi` at `rate`, in cents precision; empty without a rate. */
export function usdText(sompi: bigint, rate: number | null): string {
  if (rate === null) return '';
  return ((Number(sompi) / Number(SOMPI_PER_KAS)) * rate).toFixed(2);
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

export function csvLine(fields: readonly string[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

export const GENERIC_HEADER = [
  'time_utc',
  'transaction_id',
  'block_hash',
  'accepting_block_hash',
  'accepting_block_blue_score',
  'direction',
  'amount_kas',
  'fee_kas',
  'net_change_kas',
  'running_balance_kas',
  'kas_usd',
  'value_usd',
  'price_source',
  'counterparties',
  'confirmations',
  'accepted',
] as const;

export const KOINLY_HEADER = [
  'Date',
  'Sent Amount',
  'Sent Currency',
  'Received Amount',
  'Received Currency',
  'Fee Amount',
  'Fee Currency',
  'Net Worth Amount',
  'Net Worth Currency',
  'Label',
  'Description',
  'TxHash',
] as const;

/** "2026-01-31T12:00:00.000Z" → "2026-01-31 12:00:00 UTC", the date form Koinly documents. */
function koinlyDate(blockTime: number): string {
  return `${new Date(blockTime).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

function genericLine(row: TaxRow): string {
  return csvLine([
    new Date(row.blockTime).toISOString(),
    row.transactionId,
    row.blockHash,
    row.acceptingBlockHash ?? '',
    row.acceptingBlockBlueScore === null ? '' : row.acceptingBlockBlueScore.toString(),
    row.direction,
    kasText(row.amount),
    row.fee === null ? '' : kasText(row.fee),
    kasText(row.netChange),
    kasText(row.runningBalance),
    row.kasUsd === null ? '' : String(row.kasUsd),
    usdText(row.amount, row.kasUsd),
    row.priceSource,
    row.counterparties.join(' '),
    String(row.confirmations),
    String(row.accepted),
  ]);
}

/**
 * Koinly's rows: `in` a receipt, `out` a payment with its fee, an internal transfer's fee a `cost` (the only value
 * it moves out of the wallet). Not-accepted transactions give no line.
 */
function koinlyLine(row: TaxRow): string {
  if (!row.accepted) return '';
  const fee = row.fee ?? 0n;
  const isTransfer = row.direction === 'internal' || row.direction === 'self';
  const sent = row.direction === 'out' ? row.amount : isTransfer ? fee : 0n;
  const received = row.direction === 'in' ? row.amount : 0n;
  const chargedFee = row.direction === 'out' && fee > 0n ? fee : 0n;
  return csvLine([
    koinlyDate(row.blockTime),
    sent > 0n ? kasText(sent) : '',
    sent > 0n ? 'KAS' : '',
    received > 0n ? kasText(received) : '',
    received > 0n ? 'KAS' : '',
    chargedFee > 0n ? kasText(chargedFee) : '',
    chargedFee > 0n ? 'KAS' : '',
    usdText(sent > 0n ? sent : received, row.kasUsd),
    row.kasUsd === null ? '' : 'USD',
    isTransfer ? 'cost' : '',
    `${isTransfer ? `${row.direction} transfer fee` : row.direction}; KAS/USD ${row.priceSource}`,
    row.transactionId,
  ]);
}

export function taxCsvHeader(layout: TaxCsvLayout): string {
  return csvLine(layout === 'koinly' ? KOINLY_HEADER : GENERIC_HEADER);
}

/** The row's line in the layout; empty when the layout leaves the row out. */
export function taxCsvLine(layout: TaxCsvLayout, row: TaxRow): string {
  return layout === 'koinly' ? koinlyLine(row) : genericLine(row);
}

/** A file name safe in a Content-Disposition header. */
export function taxCsvFileName(subject: string, layout: TaxCsvLayout): string {
  return `${subject.replace(/[^a-z0-9]+/gi, '-').slice(0, 80)}-${layout}-transactions.csv`;
}
