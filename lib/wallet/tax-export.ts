/**
 * The wallet's (or an address's) tax rows, oldest first by (block time, transaction id), page by page from the
 * index: no step holds more than a page. The running balance starts from the accepted balance before the first row
 * (computed from the index unless the caller carries it from its previous page) and moves only with accepted
 * transactions.
 */
import {
  getWalletExportPage,
  isAccepted,
  walletBalanceBefore,
  confirmations,
  type HistoryPosition,
  type WalletTransactionRecord,
} from '../db';
import type { Queryable } from '../db/connection';
import { bytesToHex } from '../kaspa/bytes';
import type { KasUsdSource } from '../tokens/kas-usd';
import { walletEffect } from './history';
import { boundaryAmount, taxDirection, type TaxRow } from './tax-csv';

export interface TaxExportQuery {
  addresses: readonly string[];
  /** Epoch ms, inclusive. */
  from: bigint | null;
  /** Epoch ms, exclusive. */
  to: bigint | null;
  /** Continue after this row. */
  after: HistoryPosition | null;
  /** The running balance before the first row, when the caller carries it; otherwise computed. */
  openingBalance: bigint | null;
  virtualBlueScore: bigint;
  /** null: no price source configured. */
  kasUsd: KasUsdSource | null;
}

export interface TaxPage {
  rows: TaxRow[];
  hasMore: boolean;
  /** The last row's position (the cursor of the next page); null for an empty page. */
  last: HistoryPosition | null;
  closingBalance: bigint;
}

const MIN_PER_ADDRESS = 16;

/** The balance before the query's first row: through its cursor row, or before its start. */
function openingBalance(db: Queryable, query: TaxExportQuery): Promise<bigint> {
  return query.after === null
    ? walletBalanceBefore(db, query.addresses, { blockTime: query.from ?? 0n, transactionId: new Uint8Array(0) }, false)
    : walletBalanceBefore(db, query.addresses, query.after, true);
}

export function taxRowOf(
  record: WalletTransactionRecord,
  wallet: ReadonlySet<string>,
  balanceBefore: bigint,
  query: Pick<TaxExportQuery, 'virtualBlueScore' | 'kasUsd'>,
): TaxRow {
  const effect = walletEffect(record, wallet, record.walletSent, record.walletReceived);
  const involved = new Set(
    [...record.inputs.map((input) => input.previousOutput?.address), ...record.outputs.map((output) => output.address)].filter(
      (address): address is string => address !== null && address !== undefined && wallet.has(address),
    ),
  );
  const direction = taxDirection(effect.direction, involved.size);
  const accepted = isAccepted(record);
  const blockTime = Number(record.blockTime);
  return {
    blockTime,
    transactionId: bytesToHex(record.transactionId),
    blockHash: record.blockHashes[0] === undefined ? '' : bytesToHex(record.blockHashes[0]),
    acceptingBlockHash: record.acceptingBlockHash === null ? null : bytesToHex(record.acceptingBlockHash),
    acceptingBlockBlueScore: record.acceptingBlockBlueScore,
    direction,
    amount: boundaryAmount(direction, effect.netChange, effect.feePaid),
    fee: effect.feePaid,
    netChange: effect.netChange,
    runningBalance: accepted ? balanceBefore + effect.netChange : balanceBefore,
    kasUsd: query.kasUsd?.rateAt(blockTime) ?? null,
    priceSource: query.kasUsd?.label ?? 'unavailable',
    counterparties: effect.counterparties,
    confirmations: confirmations(record, query.virtualBlueScore),
    accepted,
  };
}

/**
 * Up to `limit` rows after the query's position. The reads per address start small (activity spread over many
 * addresses) and grow while a page comes back short (activity concentrated on a few).
 */
export async function taxPage(db: Queryable, query: TaxExportQuery, limit: number): Promise<TaxPage> {
  const wallet = new Set(query.addresses);
  let balance = query.openingBalance ?? (await openingBalance(db, query));
  let after = query.after;
  let perAddressLimit = Math.min(limit, Math.max(MIN_PER_ADDRESS, Math.ceil((2 * limit) / query.addresses.length)));
  const rows: TaxRow[] = [];
  let hasMore = true;
  while (rows.length < limit && hasMore) {
    const page = await getWalletExportPage(db, {
      addresses: query.addresses,
      from: query.from,
      to: query.to,
      after,
      limit: limit - rows.length,
      perAddressLimit,
    });
    for (const record of page.transactions) {
      const row = taxRowOf(record, wallet, balance, query);
      balance = row.runningBalance;
      rows.push(row);
      after = { blockTime: record.blockTime, transactionId: record.transactionId };
    }
    hasMore = page.hasMore;
    if (page.transactions.length <= perAddressLimit) perAddressLimit = Math.min(limit, perAddressLimit * 4);
  }
  return { rows, hasMore, last: after === query.after ? null : after, closingBalance: balance };
}

/** Every row of the range, page after page, the running balance carried between pages. */
export async function* taxRows(db: Queryable, query: TaxExportQuery, pageSize = 1000): AsyncGenerator<TaxRow> {
  let next = query;
  for (;;) {
    const page = await taxPage(db, next, pageSize);
    yield* page.rows;
    if (!page.hasMore || page.last === null) return;
    next = { ...next, after: page.last, openingBalance: page.closingBalance };
  }
}
