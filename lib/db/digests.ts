import type { Queryable } from './connection';

/**
 * The index's tables with the columns that are the index's content (the checkpoint's `updated_at` is bookkeeping,
 * not content). Two indexes of the same chain hold the same rows in these, however they were written.
 */
export const INDEX_TABLE_COLUMNS: Readonly<Record<string, string>> = {
  blocks: '*',
  block_children: '*',
  block_transactions: '*',
  transactions: '*',
  transaction_inputs: '*',
  transaction_outputs: '*',
  transaction_acceptances: '*',
  address_transactions: '*',
  covenant_transactions: '*',
  covenant_utxos: '*',
  covenants: '*',
  indexer_checkpoints: 'name, block_hash, blue_score, daa_score',
};

export interface TableDigest {
  rows: number;
  /** md5 of the rows' text forms, sorted and joined by newlines. */
  md5: string;
}

/** One order-independent digest per index table, for comparing two indexes (crash recovery against a reindex). */
export async function tableDigests(db: Queryable): Promise<Record<string, TableDigest>> {
  const digests: Record<string, TableDigest> = {};
  for (const [table, columns] of Object.entries(INDEX_TABLE_COLUMNS)) {
    const { rows } = await db.query<{ rows: number; md5: string }>(
      `SELECT count(*)::integer AS rows, md5(coalesce(string_agg(row_text, E'\\n' ORDER BY row_text COLLATE "C"), '')) AS md5
       FROM (SELECT (t.*)::text AS row_text FROM (SELECT ${columns} FROM ${table}) t) rows_as_text`,
    );
    const row = rows[0];
    if (row) digests[table] = { rows: row.rows, md5: row.md5 };
  }
  return digests;
}
