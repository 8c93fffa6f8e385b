/**
 * History retention: what the pruner (lib/indexer/history-pruner.ts) reads to choose a cutoff, the batch that deletes
 * indexed history below it, and the recorded bound the status and the API report.
 *
 * A batch takes the lowest stored blocks below the cutoff and deletes them with the transactions no retained block
 * still holds or accepts. What stays true afterwards:
 * - Unspent outputs stay: an output row goes only when an accepted, deleted transaction spent it and its own
 *   transaction is gone too, or when its transaction was never accepted. Later spenders still find what they spend
 *   (amount, address, fee), and a spent output can at worst be kept, never an unspent one lost.
 * - A transaction with an output in a covenant's current UTXO set stays whole (the covenant answer reads it).
 * - Address rows deleted are summed into pruned_address_activity, so "used" and activity counts stay honest.
 * - Acceptance rows of retained transactions stay even when their accepting block goes, so "accepted" stays true.
 */
import type { Queryable } from './connection';

export interface RetentionPolicy {
  /** Keep history whose block time lies within this many days of the checkpoint's; null: no time bound. */
  days: number | null;
  /** Keep the database under about this many gigabytes (10^9 bytes); null: no size bound. */
  gigabytes: number | null;
}

export interface RetentionBound {
  /** History below this DAA score was deleted. */
  fromDaaScore: bigint;
  /** Block time (ms) of the chain block at the bound. */
  fromTime: bigint;
  policy: RetentionPolicy;
  prunedBlocks: bigint;
  prunedTransactions: bigint;
  databaseBytesAtSizePrune: bigint | null;
  /** Milliseconds since the Unix epoch. */
  updatedAt: number;
}

/** Where the index stands: what no cutoff may pass. */
export interface RetentionLimits {
  checkpointDaaScore: bigint;
  checkpointTime: bigint;
  /**
   * DAA score of the checkpoint block's pruning point, when stored: the chain below it can no longer reorganise, so
   * no cutoff passes it. Null when the index does not hold that block (then nothing is pruned).
   */
  pruningPointDaaScore: bigint | null;
  /** The lowest token-indexer checkpoint (it still reads the transactions it has not processed); null without one. */
  tokenCheckpointDaaScore: bigint | null;
  /** The lowest stored block's DAA score. */
  lowestDaaScore: bigint;
}

export async function readRetentionLimits(db: Queryable, checkpointName: string): Promise<RetentionLimits | null> {
  const { rows } = await db.query<{
    daa_score: bigint;
    timestamp: bigint;
    pruning_point_daa_score: bigint | null;
    token_daa_score: bigint | null;
    lowest_daa_score: bigint;
  }>(
    `SELECT c.daa_score, b.timestamp, p.daa_score AS pruning_point_daa_score,
            (SELECT min(daa_score) FROM token_checkpoints) AS token_daa_score,
            (SELECT min(daa_score) FROM blocks) AS lowest_daa_score
       FROM indexer_checkpoints c
       JOIN blocks b ON b.hash = c.block_hash
       LEFT JOIN blocks p ON p.hash = b.pruning_point
      WHERE c.name = $1`,
    [checkpointName],
  );
  const row = rows[0];
  if (row === undefined) return null;
  return {
    checkpointDaaScore: row.daa_score,
    checkpointTime: row.timestamp,
    pruningPointDaaScore: row.pruning_point_daa_score,
    tokenCheckpointDaaScore: row.token_daa_score,
    lowestDaaScore: row.lowest_daa_score,
  };
}

export interface ChainBlockPosition {
  daaScore: bigint;
  timestamp: bigint;
}

/** The highest stored chain block at or below `daaScore`. */
export async function chainBlockAtOrBelow(db: Queryable, daaScore: bigint): Promise<ChainBlockPosition | null> {
  const { rows } = await db.query<{ daa_score: bigint; timestamp: bigint }>(
    `SELECT daa_score, timestamp FROM blocks WHERE is_chain_block AND daa_score <= $1
      ORDER BY daa_score DESC LIMIT 1`,
    [daaScore],
  );
  const row = rows[0];
  return row ? { daaScore: row.daa_score, timestamp: row.timestamp } : null;
}

/**
 * The highest DAA score in [low, high] whose first stored block is no later than `time`: a bisection over the DAA
 * score index (about log2(high − low) probes), since block times follow DAA scores and have no index of their own.
 * Null when even the block at `low` is later.
 */
export async function daaScoreAtTime(db: Queryable, time: bigint, low: bigint, high: bigint): Promise<bigint | null> {
  const timeAt = async (daaScore: bigint): Promise<bigint | null> => {
    const { rows } = await db.query<{ timestamp: bigint }>(
      'SELECT timestamp FROM blocks WHERE daa_score >= $1 ORDER BY daa_score LIMIT 1',
      [daaScore],
    );
    return rows[0]?.timestamp ?? null;
  };
  const atLow = await timeAt(low);
  if (atLow === null || atLow > time) return null;
  let [known, unknown] = [low, high + 1n];
  while (unknown - known > 1n) {
    const middle = (known + unknown) / 2n;
    const at = await timeAt(middle);
    if (at !== null && at <= time) known = middle;
    else unknown = middle;
  }
  return known;
}

export async function databaseBytes(db: Queryable): Promise<bigint> {
  const { rows } = await db.query<{ bytes: bigint }>('SELECT pg_database_size(current_database()) AS bytes');
  return rows[0]?.bytes ?? 0n;
}

export interface PrunedBatch {
  blocks: number;
  transactions: number;
}

/** The tables a prune deletes from, which VACUUM then hands back to new rows (PGlite has no autovacuum). */
export const PRUNED_TABLES = [
  'blocks',
  'block_children',
  'block_transactions',
  'transactions',
  'transaction_inputs',
  'transaction_outputs',
  'transaction_acceptances',
  'address_transactions',
  'covenant_transactions',
  'token_undo',
] as const;

/**
 * Deletes the lowest `maxBlocks` stored blocks below `cutoff` and the transactions that leaves without a retained
 * containing or accepting block (see the file comment). Run it inside a transaction.
 */
export async function pruneHistoryBatch(db: Queryable, cutoff: bigint, maxBlocks: number): Promise<PrunedBatch> {
  const { rows: blockRows } = await db.query<{ hash: Uint8Array }>(
    'SELECT hash FROM blocks WHERE daa_score < $1 ORDER BY daa_score, hash LIMIT $2',
    [cutoff, maxBlocks],
  );
  const blocks = blockRows.map((row) => row.hash);
  if (blocks.length === 0) return { blocks: 0, transactions: 0 };
  const { rows: transactionRows } = await db.query<{ transaction_id: Uint8Array }>(
    `WITH candidates AS (
       SELECT transaction_id FROM block_transactions WHERE block_hash = ANY($1::bytea[])
       UNION
       SELECT transaction_id FROM transaction_acceptances WHERE accepting_block_hash = ANY($1::bytea[])
     )
     SELECT c.transaction_id FROM candidates c
     WHERE NOT EXISTS (SELECT 1 FROM block_transactions bt
                        WHERE bt.transaction_id = c.transaction_id AND bt.block_hash <> ALL($1::bytea[]))
       AND NOT EXISTS (SELECT 1 FROM transaction_acceptances a JOIN blocks b ON b.hash = a.accepting_block_hash
                        WHERE a.transaction_id = c.transaction_id AND a.accepting_block_hash <> ALL($1::bytea[]))
       AND NOT EXISTS (SELECT 1 FROM transaction_outputs o
                         JOIN covenant_utxos u ON u.covenant_id = o.covenant_id AND u.transaction_id = o.transaction_id
                                              AND u.output_index = o.output_index
                        WHERE o.transaction_id = c.transaction_id AND o.covenant_id IS NOT NULL)`,
    [blocks],
  );
  const transactions = transactionRows.map((row) => row.transaction_id);
  if (transactions.length > 0) await deleteTransactions(db, transactions);
  await db.query('DELETE FROM block_transactions WHERE block_hash = ANY($1::bytea[])', [blocks]);
  await db.query('DELETE FROM block_children WHERE parent_hash = ANY($1::bytea[])', [blocks]);
  await db.query('DELETE FROM blocks WHERE hash = ANY($1::bytea[])', [blocks]);
  return { blocks: blocks.length, transactions: transactions.length };
}

async function deleteTransactions(db: Queryable, transactions: readonly Uint8Array[]): Promise<void> {
  await db.query(
    `WITH keys AS (
       SELECT o.address, t.block_time, t.transaction_id
         FROM transactions t JOIN transaction_outputs o USING (transaction_id)
        WHERE t.transaction_id = ANY($1::bytea[]) AND o.address IS NOT NULL
       UNION
       SELECT i.previous_address, t.block_time, t.transaction_id
         FROM transactions t JOIN transaction_inputs i USING (transaction_id)
        WHERE t.transaction_id = ANY($1::bytea[]) AND i.previous_address IS NOT NULL
     ), deleted AS (
       DELETE FROM address_transactions a USING keys k
        WHERE a.address = k.address AND a.block_time = k.block_time AND a.transaction_id = k.transaction_id
       RETURNING a.address, a.block_time
     )
     INSERT INTO pruned_address_activity (address, transaction_count, first_block_time, last_block_time)
     SELECT address, count(*), min(block_time), max(block_time) FROM deleted GROUP BY address
     ON CONFLICT (address) DO UPDATE SET
       transaction_count = pruned_address_activity.transaction_count + EXCLUDED.transaction_count,
       first_block_time = LEAST(pruned_address_activity.first_block_time, EXCLUDED.first_block_time),
       last_block_time = GREATEST(pruned_address_activity.last_block_time, EXCLUDED.last_block_time)`,
    [transactions],
  );
  await db.query(
    `WITH keys AS (
       SELECT o.covenant_id, t.block_time, t.transaction_id
         FROM transactions t JOIN transaction_outputs o USING (transaction_id)
        WHERE t.transaction_id = ANY($1::bytea[]) AND o.covenant_id IS NOT NULL
       UNION
       SELECT i.previous_covenant_id, t.block_time, t.transaction_id
         FROM transactions t JOIN transaction_inputs i USING (transaction_id)
        WHERE t.transaction_id = ANY($1::bytea[]) AND i.previous_covenant_id IS NOT NULL
     )
     DELETE FROM covenant_transactions c USING keys k
      WHERE c.covenant_id = k.covenant_id AND c.block_time = k.block_time AND c.transaction_id = k.transaction_id`,
    [transactions],
  );
  await db.query('DELETE FROM transactions WHERE transaction_id = ANY($1::bytea[])', [transactions]);
  await db.query(
    `DELETE FROM transaction_outputs o USING transaction_inputs i, transaction_acceptances a
      WHERE i.transaction_id = ANY($1::bytea[]) AND a.transaction_id = i.transaction_id
        AND o.transaction_id = i.previous_transaction_id AND o.output_index = i.previous_index
        AND NOT EXISTS (SELECT 1 FROM transactions t WHERE t.transaction_id = o.transaction_id)`,
    [transactions],
  );
  await db.query(
    `DELETE FROM transaction_outputs o
      WHERE o.transaction_id = ANY($1::bytea[])
        AND NOT EXISTS (SELECT 1 FROM transaction_acceptances a WHERE a.transaction_id = o.transaction_id)`,
    [transactions],
  );
  await db.query('DELETE FROM transaction_inputs WHERE transaction_id = ANY($1::bytea[])', [transactions]);
  await db.query('DELETE FROM transaction_acceptances WHERE transaction_id = ANY($1::bytea[])', [transactions]);
}

/** Token undo logs below the cutoff: no reorganisation reaches them any more. */
export async function pruneTokenUndo(db: Queryable, cutoff: bigint): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM token_undo WHERE daa_score < $1', [cutoff]);
  return rowCount;
}

export interface RetentionBoundUpdate {
  fromDaaScore: bigint;
  fromTime: bigint;
  policy: RetentionPolicy;
  prunedBlocks: number;
  prunedTransactions: number;
  /** Set when the size bound chose this cutoff; otherwise the recorded value stays. */
  databaseBytesAtSizePrune?: bigint;
}

/** Records the bound (it only rises) and adds the batch's counts to the totals. */
export async function recordRetentionBound(db: Queryable, update: RetentionBoundUpdate): Promise<void> {
  await db.query(
    `INSERT INTO history_retention (from_daa_score, from_time, policy_days, policy_gigabytes, pruned_blocks,
       pruned_transactions, database_bytes_at_size_prune)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (singleton) DO UPDATE SET
       from_daa_score = GREATEST(history_retention.from_daa_score, EXCLUDED.from_daa_score),
       from_time = CASE WHEN EXCLUDED.from_daa_score > history_retention.from_daa_score
                        THEN EXCLUDED.from_time ELSE history_retention.from_time END,
       policy_days = EXCLUDED.policy_days,
       policy_gigabytes = EXCLUDED.policy_gigabytes,
       pruned_blocks = history_retention.pruned_blocks + EXCLUDED.pruned_blocks,
       pruned_transactions = history_retention.pruned_transactions + EXCLUDED.pruned_transactions,
       database_bytes_at_size_prune = COALESCE(EXCLUDED.database_bytes_at_size_prune,
                                               history_retention.database_bytes_at_size_prune),
       updated_at = now()`,
    [
      update.fromDaaScore,
      update.fromTime,
      update.policy.days,
      update.policy.gigabytes,
      update.prunedBlocks,
      update.prunedTransactions,
      update.databaseBytesAtSizePrune ?? null,
    ],
  );
}

export async function readRetentionBound(db: Queryable): Promise<RetentionBound | null> {
  const { rows } = await db.query<{
    from_daa_score: bigint;
    from_time: bigint;
    policy_days: number | null;
    policy_gigabytes: number | null;
    pruned_blocks: bigint;
    pruned_transactions: bigint;
    database_bytes_at_size_prune: bigint | null;
    updated_ms: bigint;
  }>(
    `SELECT from_daa_score, from_time, policy_days, policy_gigabytes, pruned_blocks, pruned_transactions,
            database_bytes_at_size_prune, (extract(epoch FROM updated_at) * 1000)::bigint AS updated_ms
       FROM history_retention`,
  );
  const row = rows[0];
  if (row === undefined) return null;
  return {
    fromDaaScore: row.from_daa_score,
    fromTime: row.from_time,
    policy: { days: row.policy_days, gigabytes: row.policy_gigabytes },
    prunedBlocks: row.pruned_blocks,
    prunedTransactions: row.pruned_transactions,
    databaseBytesAtSizePrune: row.database_bytes_at_size_prune,
    updatedAt: Number(row.updated_ms),
  };
}

/** Hands the space of deleted rows back for reuse (and trailing free pages back to the file system). */
export async function vacuumPrunedTables(db: Queryable): Promise<void> {
  await db.exec(`VACUUM ${PRUNED_TABLES.join(', ')}`);
}
