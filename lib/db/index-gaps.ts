/**
 * What the indexer reads and writes when the node does not know its checkpoint: the stored selected chain below a
 * point (walked back to find the newest block the node still knows), the chain blocks above a point (undone as a
 * reorganisation undoes them), and the gaps recorded when no stored chain block is known any more.
 *
 * Chain order is (DAA score, blue score): the DAA score never falls along the chain but may repeat (genesis and its
 * chain child share one), the blue score always rises.
 */
import type { Hash } from '../kaspa/types';
import type { Queryable } from './connection';

export interface ChainPosition {
  daaScore: bigint;
  blueScore: bigint;
}

export interface StoredChainBlock extends ChainPosition {
  hash: Hash;
  timestamp: bigint;
}

export type IndexGapReason = 'pruned' | 'different-chain';

export interface IndexGap {
  reason: IndexGapReason;
  /** The checkpoint the node did not know. */
  lostCheckpointHash: Hash;
  lostCheckpointDaaScore: bigint;
  /** The highest stored chain block that stayed on the chain (null when the node's chain replaced all of them). */
  lastKeptHash: Hash | null;
  lastKeptDaaScore: bigint | null;
  /** The node's pruning point, where indexing resumed. */
  resumedHash: Hash;
  resumedDaaScore: bigint;
  /** Stored chain blocks at or above the resume point that left the chain (a different chain replaced them). */
  replacedChainBlocks: number;
  /** Milliseconds since the Unix epoch. */
  detectedAt: number;
}

interface ChainRow {
  hash: Uint8Array;
  daa_score: bigint;
  blue_score: bigint;
  timestamp: bigint;
}

const chainBlockOf = (row: ChainRow): StoredChainBlock => ({
  hash: row.hash,
  daaScore: row.daa_score,
  blueScore: row.blue_score,
  timestamp: row.timestamp,
});

/** How many stored chain blocks sit at or below `at`. */
export async function countChainBlocksUpTo(db: Queryable, at: ChainPosition): Promise<number> {
  const { rows } = await db.query<{ count: bigint }>(
    `SELECT count(*) AS count FROM blocks
      WHERE is_chain_block AND daa_score <= $1 AND (daa_score < $1 OR blue_score <= $2)`,
    [at.daaScore, at.blueScore],
  );
  return Number(rows[0]?.count ?? 0n);
}

/** The stored chain block `depth` chain blocks below the highest one at or below `at` (depth 0: that one). */
export async function readChainBlockAtDepth(
  db: Queryable,
  at: ChainPosition,
  depth: number,
): Promise<StoredChainBlock | null> {
  const { rows } = await db.query<ChainRow>(
    `SELECT hash, daa_score, blue_score, timestamp FROM blocks
      WHERE is_chain_block AND daa_score <= $1 AND (daa_score < $1 OR blue_score <= $2)
      ORDER BY daa_score DESC, blue_score DESC OFFSET $3 LIMIT 1`,
    [at.daaScore, at.blueScore, depth],
  );
  return rows[0] ? chainBlockOf(rows[0]) : null;
}

/** Stored chain blocks strictly above `above` (or at and above, with `inclusive`), highest first. */
export async function readChainBlocksAbove(
  db: Queryable,
  above: ChainPosition,
  inclusive = false,
): Promise<StoredChainBlock[]> {
  const { rows } = await db.query<ChainRow>(
    `SELECT hash, daa_score, blue_score, timestamp FROM blocks
      WHERE is_chain_block AND daa_score >= $1 AND (daa_score > $1 OR blue_score ${inclusive ? '>=' : '>'} $2)
      ORDER BY daa_score DESC, blue_score DESC`,
    [above.daaScore, above.blueScore],
  );
  return rows.map(chainBlockOf);
}

export async function insertIndexGap(db: Queryable, checkpointName: string, gap: Omit<IndexGap, 'detectedAt'>): Promise<void> {
  await db.query(
    `INSERT INTO index_gaps (checkpoint_name, reason, lost_checkpoint_hash, lost_checkpoint_daa_score, last_kept_hash,
       last_kept_daa_score, resumed_hash, resumed_daa_score, replaced_chain_blocks)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      checkpointName,
      gap.reason,
      gap.lostCheckpointHash,
      gap.lostCheckpointDaaScore,
      gap.lastKeptHash,
      gap.lastKeptDaaScore,
      gap.resumedHash,
      gap.resumedDaaScore,
      gap.replacedChainBlocks,
    ],
  );
}

/** The recorded gaps of an index, oldest first. */
export async function readIndexGaps(db: Queryable, checkpointName: string): Promise<IndexGap[]> {
  const { rows } = await db.query<{
    reason: IndexGapReason;
    lost_checkpoint_hash: Uint8Array;
    lost_checkpoint_daa_score: bigint;
    last_kept_hash: Uint8Array | null;
    last_kept_daa_score: bigint | null;
    resumed_hash: Uint8Array;
    resumed_daa_score: bigint;
    replaced_chain_blocks: number;
    detected_ms: bigint;
  }>(
    `SELECT reason, lost_checkpoint_hash, lost_checkpoint_daa_score, last_kept_hash, last_kept_daa_score, resumed_hash,
            resumed_daa_score, replaced_chain_blocks, (extract(epoch FROM detected_at) * 1000)::bigint AS detected_ms
       FROM index_gaps WHERE checkpoint_name = $1 ORDER BY id`,
    [checkpointName],
  );
  return rows.map((row) => ({
    reason: row.reason,
    lostCheckpointHash: row.lost_checkpoint_hash,
    lostCheckpointDaaScore: row.lost_checkpoint_daa_score,
    lastKeptHash: row.last_kept_hash,
    lastKeptDaaScore: row.last_kept_daa_score,
    resumedHash: row.resumed_hash,
    resumedDaaScore: row.resumed_daa_score,
    replacedChainBlocks: row.replaced_chain_blocks,
    detectedAt: Number(row.detected_ms),
  }));
}
