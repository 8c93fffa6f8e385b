import { bytesToHex, equalBytes } from '../kaspa/bytes';
import { SUBNETWORK_ID_COINBASE, type Hash, type Outpoint, type ScriptPublicKey } from '../kaspa/types';
import type { Queryable, QueryOptions } from './connection';
import { pageDirection, UnknownCursorError } from './reads';

/*
 * The covenant summaries (migration 7, kept by writes.ts refreshCovenants). Each statement is driven by a primary key
 * or the covenants_activity index (explain.test.ts).
 */

const PREPARED: QueryOptions = { prepared: true };

/** "ended": no output bound to the covenant is both created by an accepted transaction and spent by none. */
export type CovenantState = 'active' | 'ended';

export interface CovenantSummary {
  covenantId: Hash;
  /** Null when the genesis lies before the indexed history. */
  genesisTransactionId: Hash | null;
  /** Milliseconds: the genesis transaction's block time (else the earliest indexed lineage transaction's). */
  createdAt: bigint;
  lastTransactionId: Hash;
  /** Milliseconds: the newest lineage transaction's block time. */
  lastActivityAt: bigint;
  state: CovenantState;
  utxoCount: number;
}

export interface CovenantUtxo {
  outpoint: Outpoint;
  /** Null for scripts without an address form. */
  address: string | null;
  amount: bigint;
  scriptPublicKey: ScriptPublicKey;
  /** The accepting chain block's DAA score, as kaspad's UTXO entry carries it. */
  blockDaaScore: bigint;
  isCoinbase: boolean;
  covenantId: Hash;
}

export interface CovenantDetails extends CovenantSummary {
  /** By outpoint. */
  currentUtxos: CovenantUtxo[];
}

export interface CovenantPage {
  covenants: CovenantSummary[];
  /** More items exist beyond this page in the direction of travel. */
  hasMore: boolean;
}

export interface CovenantPageQuery {
  /** PAGE_LIMIT.min … PAGE_LIMIT.max. */
  limit: number;
  /** Forward (less recently active) paging: the last covenant id of the previous page. */
  startingAfter?: Hash;
  /** Backward (more recently active) paging: the first covenant id of the current page. */
  endingBefore?: Hash;
}

interface CovenantRow {
  covenant_id: Uint8Array;
  genesis_transaction_id: Uint8Array | null;
  created_at: bigint;
  last_transaction_id: Uint8Array;
  last_activity_at: bigint;
  utxo_count: number;
}

const SUMMARY_COLUMNS =
  'covenant_id, genesis_transaction_id, created_at, last_transaction_id, last_activity_at, utxo_count';

function summaryFromRow(row: CovenantRow): CovenantSummary {
  return {
    covenantId: row.covenant_id,
    genesisTransactionId: row.genesis_transaction_id,
    createdAt: row.created_at,
    lastTransactionId: row.last_transaction_id,
    lastActivityAt: row.last_activity_at,
    state: row.utxo_count > 0 ? 'active' : 'ended',
    utxoCount: row.utxo_count,
  };
}

/** One page of covenants, most recently active first by (last activity, covenant id). */
export async function getCovenants(db: Queryable, query: CovenantPageQuery): Promise<CovenantPage> {
  const { limit } = query;
  const { cursorId, backward, order } = pageDirection(query);
  const orderBy = `ORDER BY v.last_activity_at ${order}, v.covenant_id ${order}`;
  if (cursorId === undefined) {
    const { rows } = await db.query<CovenantRow>(
      `SELECT ${SUMMARY_COLUMNS} FROM covenants v ${orderBy} LIMIT $1 + 1`,
      [limit],
      PREPARED,
    );
    return { covenants: rows.slice(0, limit).map(summaryFromRow), hasMore: rows.length > limit };
  }
  // The page hangs off the cursor's row: no row at all is an unknown cursor, one row of nulls a known cursor with
  // nothing beyond it.
  const { rows } = await db.query<CovenantRow | { covenant_id: null }>(
    `SELECT page.* FROM (SELECT last_activity_at FROM covenants WHERE covenant_id = $2) c
     LEFT JOIN LATERAL (
       SELECT ${SUMMARY_COLUMNS.split(', ').map((column) => `v.${column}`).join(', ')} FROM covenants v
       WHERE (v.last_activity_at, v.covenant_id) ${backward ? '>' : '<'} (c.last_activity_at, $2)
       ${orderBy} LIMIT $1 + 1
     ) page ON true`,
    [limit, cursorId],
    PREPARED,
  );
  if (rows.length === 0) throw new UnknownCursorError(`unknown cursor covenant ${bytesToHex(cursorId)}`);
  const found = rows.filter((row): row is CovenantRow => row.covenant_id !== null);
  const covenants = found.slice(0, limit).map(summaryFromRow);
  if (backward) covenants.reverse();
  return { covenants, hasMore: found.length > limit };
}

interface UtxoRow {
  transaction_id: Uint8Array;
  output_index: number;
  block_daa_score: bigint;
  amount: string;
  script_version: number;
  script: Uint8Array;
  address: string | null;
  subnetwork_id: Uint8Array;
}

/** A covenant's summary with its current UTXO set; null for a covenant the index holds no accepted lineage of. */
export async function getCovenant(db: Queryable, covenantId: Hash): Promise<CovenantDetails | null> {
  const [summary, utxos] = await Promise.all([
    db.query<CovenantRow>(`SELECT ${SUMMARY_COLUMNS} FROM covenants WHERE covenant_id = $1`, [covenantId], PREPARED),
    db.query<UtxoRow>(
      `SELECT u.transaction_id, u.output_index, u.block_daa_score, o.amount, o.script_version, o.script, o.address,
              t.subnetwork_id
       FROM covenant_utxos u
       JOIN transaction_outputs o ON o.transaction_id = u.transaction_id AND o.output_index = u.output_index
       JOIN transactions t ON t.transaction_id = u.transaction_id
       WHERE u.covenant_id = $1
       ORDER BY u.transaction_id, u.output_index`,
      [covenantId],
      PREPARED,
    ),
  ]);
  const row = summary.rows[0];
  if (row === undefined) return null;
  return {
    ...summaryFromRow(row),
    currentUtxos: utxos.rows.map((utxo) => ({
      outpoint: { transactionId: utxo.transaction_id, index: utxo.output_index },
      address: utxo.address,
      amount: BigInt(utxo.amount),
      scriptPublicKey: { version: utxo.script_version, script: utxo.script },
      blockDaaScore: utxo.block_daa_score,
      isCoinbase: equalBytes(utxo.subnetwork_id, SUBNETWORK_ID_COINBASE),
      covenantId,
    })),
  };
}
