import { bytesToHex } from '../kaspa/bytes';
import type { Hash } from '../kaspa/types';
import type { Queryable, QueryOptions } from './connection';
import { getTransactions, pageDirection, UnknownCursorError } from './reads';
import type { IndexedTransaction } from './records';

/*
 * The wallet reads: many addresses at once, every statement driven by address_transactions' primary key
 * (address, block_time, transaction_id), one index descent per address.
 */

const PREPARED: QueryOptions = { prepared: true };

/** The addresses among `addresses` that appear in any indexed transaction, retained or pruned by retention. */
export async function usedAddresses(db: Queryable, addresses: readonly string[]): Promise<Set<string>> {
  if (addresses.length === 0) return new Set();
  const { rows } = await db.query<{ address: string }>(
    `SELECT w.address FROM unnest($1::text[]) AS w(address)
     WHERE EXISTS (SELECT 1 FROM address_transactions h WHERE h.address = w.address)
        OR EXISTS (SELECT 1 FROM pruned_address_activity p WHERE p.address = w.address)`,
    [addresses],
    PREPARED,
  );
  return new Set(rows.map((row) => row.address));
}

export interface AddressActivity {
  address: string;
  transactionCount: number;
  firstBlockTime: bigint;
  lastBlockTime: bigint;
}

/** Per address with any indexed transaction: how many, and the first and last block times (pruned ones included). */
export async function addressActivity(db: Queryable, addresses: readonly string[]): Promise<AddressActivity[]> {
  if (addresses.length === 0) return [];
  const { rows } = await db.query<{ address: string; count: string; first: bigint; last: bigint }>(
    `SELECT address, sum(count)::text AS count, min(first) AS first, max(last) AS last FROM (
       SELECT address, count(*) AS count, min(block_time) AS first, max(block_time) AS last
       FROM address_transactions WHERE address = ANY($1::text[]) GROUP BY address
       UNION ALL
       SELECT address, transaction_count, first_block_time, last_block_time
       FROM pruned_address_activity WHERE address = ANY($1::text[])
     ) activity GROUP BY address`,
    [addresses],
    PREPARED,
  );
  return rows.map((row) => ({
    address: row.address,
    transactionCount: Number(row.count),
    firstBlockTime: row.first,
    lastBlockTime: row.last,
  }));
}

export interface WalletPageQuery {
  addresses: readonly string[];
  /** PAGE_LIMIT.min … PAGE_LIMIT.max. */
  limit: number;
  startingAfter?: Hash;
  endingBefore?: Hash;
  acceptedOnly: boolean;
  includePayload: boolean;
}

export interface WalletTransactionRecord extends IndexedTransaction {
  /** What the wallet's addresses spent in it (their inputs) and received (their outputs), summed over addresses. */
  walletSent: bigint;
  walletReceived: bigint;
}

export interface WalletPage {
  transactions: WalletTransactionRecord[];
  hasMore: boolean;
}

/**
 * One page of the wallet's merged history, newest first by (block time, transaction id), each transaction once.
 * Each address contributes at most limit + 1 rows: every transaction of the merged page ranks within the first
 * limit + 1 of each of its addresses' own lists, so the per-transaction sums over those rows are exact.
 */
export async function getWalletTransactions(db: Queryable, query: WalletPageQuery): Promise<WalletPage> {
  const { addresses, limit } = query;
  const { cursorId, backward, order } = pageDirection(query);
  const parameters: unknown[] = [addresses, limit];
  let cursorCondition = '';
  if (cursorId) {
    const { rows } = await db.query<{ block_time: bigint }>(
      'SELECT block_time FROM transactions WHERE transaction_id = $1',
      [cursorId],
      PREPARED,
    );
    if (rows.length === 0) throw new UnknownCursorError(`unknown cursor transaction ${bytesToHex(cursorId)}`);
    parameters.push(rows[0]!.block_time, cursorId);
    cursorCondition = `AND (h.block_time, h.transaction_id) ${backward ? '>' : '<'} ($3::bigint, $4::bytea)`;
  }
  const acceptedCondition = query.acceptedOnly
    ? 'AND EXISTS (SELECT 1 FROM transaction_acceptances a WHERE a.transaction_id = h.transaction_id)'
    : '';
  const { rows } = await db.query<{ transaction_id: Uint8Array; sent: string; received: string }>(
    `SELECT r.transaction_id, sum(r.amount_sent)::text AS sent, sum(r.amount_received)::text AS received
     FROM unnest($1::text[]) AS w(address)
     CROSS JOIN LATERAL (
       SELECT h.transaction_id, h.block_time, h.amount_sent, h.amount_received
       FROM address_transactions h
       WHERE h.address = w.address ${cursorCondition} ${acceptedCondition}
       ORDER BY h.block_time ${order}, h.transaction_id ${order}
       LIMIT $2 + 1
     ) r
     GROUP BY r.block_time, r.transaction_id
     ORDER BY r.block_time ${order}, r.transaction_id ${order}
     LIMIT $2 + 1`,
    parameters,
    PREPARED,
  );
  const pageRows = rows.slice(0, limit);
  const records = await getTransactions(
    db,
    pageRows.map((row) => row.transaction_id),
    { includePayload: query.includePayload },
  );
  const amounts = new Map(pageRows.map((row) => [bytesToHex(row.transaction_id), row]));
  const transactions = records.map((record): WalletTransactionRecord => {
    const row = amounts.get(bytesToHex(record.transactionId))!;
    return { ...record, walletSent: BigInt(row.sent), walletReceived: BigInt(row.received) };
  });
  if (backward) transactions.reverse();
  return { transactions, hasMore: rows.length > limit };
}

export interface AddressTotals {
  transactionCount: number;
  acceptedTransactionCount: number;
  /** Sums over the accepted transactions: what the address's outputs received and its inputs spent (change included). */
  totalReceived: bigint;
  totalSent: bigint;
  firstBlockTime: bigint | null;
  lastBlockTime: bigint | null;
}

/** The address's indexed history in figures, one pass over its address_transactions rows. */
export async function addressTotals(db: Queryable, address: string): Promise<AddressTotals> {
  const { rows } = await db.query<{
    count: string;
    accepted: string;
    received: string;
    sent: string;
    first: bigint | null;
    last: bigint | null;
  }>(
    `SELECT count(*)::text AS count, count(a.transaction_id)::text AS accepted,
            coalesce(sum(h.amount_received) FILTER (WHERE a.transaction_id IS NOT NULL), 0)::text AS received,
            coalesce(sum(h.amount_sent) FILTER (WHERE a.transaction_id IS NOT NULL), 0)::text AS sent,
            min(h.block_time) AS first, max(h.block_time) AS last
     FROM address_transactions h LEFT JOIN transaction_acceptances a ON a.transaction_id = h.transaction_id
     WHERE h.address = $1`,
    [address],
    PREPARED,
  );
  const row = rows[0]!;
  return {
    transactionCount: Number(row.count),
    acceptedTransactionCount: Number(row.accepted),
    totalReceived: BigInt(row.received),
    totalSent: BigInt(row.sent),
    firstBlockTime: row.first,
    lastBlockTime: row.last,
  };
}
