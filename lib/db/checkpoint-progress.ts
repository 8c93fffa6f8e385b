/**
 * What a process that does not index (INDEXER_MODE=off, or another process holds the indexer lock) reads of the
 * shared indexer's progress: its checkpoint with the checkpoint block's own timestamp, to measure the lag against
 * the node the same way the indexer does.
 */
import type { Queryable } from './connection';

export interface CheckpointProgress {
  daaScore: bigint;
  /** The checkpoint block's header timestamp (ms); null if the block row is missing. */
  blockTimestamp: bigint | null;
  /** When the indexer last moved the checkpoint, ms since the Unix epoch. */
  updatedAt: number;
}

export async function readCheckpointProgress(db: Queryable, name: string): Promise<CheckpointProgress | null> {
  const { rows } = await db.query<{ daa_score: bigint; timestamp: bigint | null; updated_ms: bigint }>(
    `SELECT c.daa_score, b.timestamp, (extract(epoch FROM c.updated_at) * 1000)::bigint AS updated_ms
       FROM indexer_checkpoints c LEFT JOIN blocks b ON b.hash = c.block_hash WHERE c.name = $1`,
    [name],
  );
  const row = rows[0];
  return row === undefined
    ? null
    : { daaScore: row.daa_score, blockTimestamp: row.timestamp, updatedAt: Number(row.updated_ms) };
}
