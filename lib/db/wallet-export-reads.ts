import { bytesToHex } from '../kaspa/bytes';
import type { Hash } from '../kaspa/types';
import type { Queryable, QueryOptions } from './connection';
import { getTransactions } from './reads';
import type { WalletTransactionRecord } from './wallet-reads';

/*
 * The export's reads: a wallet's history oldest first by (block time, transaction id) within a time range, in pages
 * that never hold more than a bounded slice of it, and the wallet's accepted balance before a position.
 */

const PREPARED: QueryOptions = { prepared: true };

/** A position in the chronological order: a row's (block time, transaction id). */
export interface HistoryPosition {
  blockTime: bigint;
  transactionId: Hash;
}

export interface ExportPageQuery {
  addresses: readonly string[];
  /** Epoch ms, inclusive; null for no lower bound. */
  from: bigint | null;
  /** Epoch ms, exclusive; null for no upper bound. */
  to: bigint | null;
  /** Rows strictly after this position. */
  after: HistoryPosition | null;
  /** Most transactions in the page. */
  limit: number;
  /**
   * Rows read per address. A smaller read bounds the work when activity is spread over many addresses; the page then
   * ends at the horizon (the earliest last row among addresses that filled their read), so it may hold fewer
   * transactions than `limit`, never a partial one.
   */
  perAddressLimit: number;
}

export interface ExportPage {
  transactions: WalletTransactionRecord[];
  /** Whether rows remain after the page's last transaction (within the range). */
  hasMore: boolean;
}

const NO_TIME = -1n;

/** A stored transaction's position, or null for an unknown id. */
export async function transactionPosition(db: Queryable, transactionId: Hash): Promise<HistoryPosition | null> {
  const { rows } = await db.query<{ block_time: bigint }>(
    'SELECT block_time FROM transactions WHERE transaction_id = $1',
    [transactionId],
    PREPARED,
  );
  return rows.length === 0 ? null : { blockTime: BigInt(rows[0]!.block_time), transactionId };
}

/**
 * One chronological page of the wallet's merged history. Each address contributes its first `perAddressLimit` rows
 * after the position; every row at or before the horizon has then been read for every address, so the sums per
 * transaction up to it are exact.
 */
export async function getWalletExportPage(db: Queryable, query: ExportPageQuery): Promise<ExportPage> {
  const { addresses, limit, perAddressLimit } = query;
  if (addresses.length === 0) return { transactions: [], hasMore: false };
  const afterTime = query.after?.blockTime ?? NO_TIME;
  const afterId = query.after?.transactionId ?? new Uint8Array(0);
  const { rows } = await db.query<{ transaction_id: Uint8Array; sent: string; received: string; beyond: boolean }>(
    `WITH r AS (
       SELECT x.*
       FROM unnest($1::text[]) AS w(address)
       CROSS JOIN LATERAL (
         SELECT h.transaction_id, h.block_time, h.amount_sent, h.amount_received,
                row_number() OVER (ORDER BY h.block_time, h.transaction_id) AS n
         FROM address_transactions h
         WHERE h.address = w.address
           AND h.block_time >= greatest($3::bigint, coalesce($5::bigint, $3::bigint))
           AND (h.block_time, h.transaction_id) > ($3::bigint, $4::bytea)
           AND ($6::bigint IS NULL OR h.block_time < $6::bigint)
         ORDER BY h.block_time, h.transaction_id
         LIMIT $2
       ) x
     ),
     horizon AS (
       SELECT block_time, transaction_id FROM r WHERE n = $2 ORDER BY block_time, transaction_id LIMIT 1
     ),
     complete AS (
       SELECT r.transaction_id, r.block_time, sum(r.amount_sent)::text AS sent, sum(r.amount_received)::text AS received
       FROM r
       WHERE NOT EXISTS (SELECT 1 FROM horizon)
          OR (r.block_time, r.transaction_id) <= (SELECT block_time, transaction_id FROM horizon)
       GROUP BY r.block_time, r.transaction_id
     )
     SELECT transaction_id, sent, received, false AS beyond FROM (
       SELECT * FROM complete ORDER BY block_time, transaction_id LIMIT $7
     ) page
     UNION ALL
     SELECT NULL, NULL, NULL, true
     WHERE EXISTS (SELECT 1 FROM horizon) OR (SELECT count(*) FROM complete) > $7`,
    [addresses, perAddressLimit, afterTime, afterId, query.from, query.to, limit],
    PREPARED,
  );
  const pageRows = rows.filter((row) => !row.beyond);
  const records = await getTransactions(
    db,
    pageRows.map((row) => row.transaction_id),
    { includePayload: false },
  );
  const amounts = new Map(pageRows.map((row) => [bytesToHex(row.transaction_id), row]));
  const transactions = records.map((record): WalletTransactionRecord => {
    const row = amounts.get(bytesToHex(record.transactionId))!;
    return { ...record, walletSent: BigInt(row.sent), walletReceived: BigInt(row.received) };
  });
  return { transactions, hasMore: rows.length > pageRows.length };
}

/**
 * The wallet's balance from its accepted transactions before `position` (at it too when `inclusive`; a transaction
 * the DAG did not accept moved no coins). It counts only the indexed history: coins received before the index starts
 * are not in it.
 */
export async function walletBalanceBefore(
  db: Queryable,
  addresses: readonly string[],
  position: HistoryPosition,
  inclusive: boolean,
): Promise<bigint> {
  if (addresses.length === 0) return 0n;
  const { rows } = await db.query<{ balance: string }>(
    `SELECT coalesce(sum(h.amount_received - h.amount_sent), 0)::text AS balance
     FROM address_transactions h
     WHERE h.address = ANY($1::text[])
       AND h.block_time <= $2::bigint
       AND (h.block_time, h.transaction_id) ${inclusive ? '<=' : '<'} ($2::bigint, $3::bytea)
       AND EXISTS (SELECT 1 FROM transaction_acceptances a WHERE a.transaction_id = h.transaction_id)`,
    [addresses, position.blockTime, position.transactionId],
    PREPARED,
  );
  return BigInt(rows[0]!.balance);
}
