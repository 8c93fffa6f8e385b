/**
 * The stream event log (migration 11): what the indexer announces to subscribers, written in the transaction of the
 * change it describes, read back by cursor (the event id), pruned after a retention window.
 */
import type { Hash } from '../kaspa/types';
import { bytesToHex } from '../kaspa/bytes';
import type { Queryable } from './connection';
import { STREAM_EVENTS_CHANNEL } from './stream-notify';

export const STREAM_TOPICS = ['block', 'chain', 'address', 'covenant', 'fees', 'token'] as const;
export type StreamTopic = (typeof STREAM_TOPICS)[number];

export interface NewStreamEvent {
  topic: StreamTopic;
  /** The address an `address` event is about; null for the other topics. */
  address: string | null;
  /** The covenant id (hex) a `covenant` event is about, the ticker of a `token` event; absent for the others. */
  subject?: string | null;
  /** JSON-safe (u64 values as decimal strings). */
  data: unknown;
}

/** Non-coinbase transactions a `block` event lists (the explorer's latest transactions draw from them). */
export const BLOCK_EVENT_LISTED_TRANSACTIONS = 20;

/** A `block` event's data, as the indexer announces it and the explorer's live feed reads it. */
export interface BlockEventData {
  hash: string;
  daaScore: string;
  blueScore: string;
  /** Epoch ms, as a decimal string. */
  timestamp: string;
  selectedParent: string | null;
  /** Direct parents (level 0). */
  parents: string[];
  /** All transactions, the coinbase included. */
  transactionCount: number;
  /** The first BLOCK_EVENT_LISTED_TRANSACTIONS non-coinbase transactions: id and the sum of their outputs (sompi). */
  transactions: { id: string; outputSompi: string }[];
  /** Non-coinbase transactions of version 1, and those creating a covenant-bound output, of the whole block. */
  versionOneTransactions: number;
  covenantTransactions: number;
  /** The block's merge set as GHOSTDAG coloured it: the colours its blocks get when it becomes a chain block. */
  mergeSetBlues: string[];
  mergeSetReds: string[];
  /** Whether the node counted it a chain block when the indexer read it. */
  isChainBlock: boolean;
}

export interface StreamEvent {
  /** The cursor: ids only grow, in commit order. */
  id: bigint;
  topic: StreamTopic;
  address: string | null;
  /** See NewStreamEvent. */
  subject: string | null;
  /** Epoch ms when the event was written. */
  createdAt: bigint;
  /** The event's JSON text. */
  data: string;
}

/** Key of the transaction-scoped advisory lock every writer of stream_events takes before inserting. */
export const STREAM_EVENTS_LOCK_KEY = 4_712_020_261_124n;

/**
 * Takes the writers' lock until the transaction ends (a writer that must decide under it what to append), and queues
 * the notification other processes' readers wait for (stream-notify.ts; PostgreSQL sends it at commit).
 */
export async function lockStreamEvents(tx: Queryable): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(${STREAM_EVENTS_LOCK_KEY}), pg_notify('${STREAM_EVENTS_CHANNEL}', '')`);
}

/**
 * Appends events in order. The lock, held until the caller's transaction ends, makes commits follow id order even
 * when several write transactions run at once (the indexer's parallel batches): a reader polling `id > cursor`
 * therefore never skips a row that commits later with a smaller id.
 */
export async function appendStreamEvents(tx: Queryable, events: readonly NewStreamEvent[], now: number): Promise<void> {
  if (events.length === 0) return;
  await lockStreamEvents(tx);
  await tx.query(
    `INSERT INTO stream_events (topic, address, created_at, data, subject)
     SELECT e.topic, e.address, $4, e.data, e.subject
     FROM unnest($1::text[], $2::text[], $3::text[], $5::text[]) WITH ORDINALITY AS e(topic, address, data, subject, position)
     ORDER BY e.position`,
    [
      events.map((event) => event.topic),
      events.map((event) => event.address),
      events.map((event) => JSON.stringify(event.data)),
      now,
      events.map((event) => event.subject ?? null),
    ],
  );
}

/** The newest event of a topic's JSON text, or null when the log holds none. */
export async function latestStreamEventData(db: Queryable, topic: StreamTopic): Promise<string | null> {
  const { rows } = await db.query<{ data: string }>('SELECT data FROM stream_events WHERE topic = $1 ORDER BY id DESC LIMIT 1', [topic]);
  return rows[0]?.data ?? null;
}

export interface StreamEventQuery {
  /** Events after this id. */
  after: bigint;
  /** Only these topics; all when absent. */
  topics?: readonly StreamTopic[];
  /** `address` events only for these addresses; all when absent. */
  addresses?: readonly string[];
  /** `covenant` events only for these covenant ids; all when absent. */
  covenants?: readonly string[];
  /** `token` events only for these tickers; all when absent. */
  tickers?: readonly string[];
  limit: number;
}

interface StreamEventRow {
  id: bigint;
  topic: StreamTopic;
  address: string | null;
  subject: string | null;
  created_at: bigint;
  data: string;
}

export async function readStreamEvents(db: Queryable, query: StreamEventQuery): Promise<StreamEvent[]> {
  const { rows } = await db.query<StreamEventRow>(
    `SELECT id, topic, address, subject, created_at, data FROM stream_events
     WHERE id > $1 AND ($2::text[] IS NULL OR topic = ANY($2::text[]))
       AND ($3::text[] IS NULL OR topic <> 'address' OR address = ANY($3::text[]))
       AND ($5::text[] IS NULL OR topic <> 'covenant' OR subject = ANY($5::text[]))
       AND ($6::text[] IS NULL OR topic <> 'token' OR subject = ANY($6::text[]))
     ORDER BY id LIMIT $4`,
    [query.after, query.topics ?? null, query.addresses ?? null, query.limit, query.covenants ?? null, query.tickers ?? null],
    { prepared: true },
  );
  return rows.map((row) => ({
    id: row.id,
    topic: row.topic,
    address: row.address,
    subject: row.subject,
    createdAt: row.created_at,
    data: row.data,
  }));
}

export interface StreamBounds {
  /** The highest id the pruner deleted (0 before any pruning): a cursor below it has lost events. */
  prunedThrough: bigint;
  /** The highest id written (0 when the log is empty). */
  latest: bigint;
}

export async function readStreamBounds(db: Queryable): Promise<StreamBounds> {
  const { rows } = await db.query<{ pruned_through: bigint | null; latest: bigint | null }>(
    `SELECT (SELECT pruned_through FROM stream_event_retention) AS pruned_through,
            (SELECT max(id) FROM stream_events) AS latest`,
  );
  const prunedThrough = rows[0]?.pruned_through ?? 0n;
  const latest = rows[0]?.latest ?? 0n;
  return { prunedThrough, latest: latest > prunedThrough ? latest : prunedThrough };
}

/** Deletes up to `limit` of the oldest events written before `before` (epoch ms); returns how many went. */
export async function pruneStreamEvents(db: Queryable, before: number, limit: number): Promise<number> {
  const { rows } = await db.query<{ pruned: bigint; through: bigint | null }>(
    `WITH gone AS (
       DELETE FROM stream_events WHERE id IN (
         SELECT id FROM stream_events WHERE created_at < $1 ORDER BY id LIMIT $2
       ) RETURNING id
     ), marked AS (
       INSERT INTO stream_event_retention (pruned_through)
       SELECT max(id) FROM gone HAVING count(*) > 0
       ON CONFLICT (singleton) DO UPDATE
         SET pruned_through = greatest(stream_event_retention.pruned_through, EXCLUDED.pruned_through)
     )
     SELECT count(*) AS pruned, max(id) AS through FROM gone`,
    [before, limit],
  );
  return Number(rows[0]?.pruned ?? 0n);
}

/** The addresses each transaction pays or spends from (its outputs' and its resolved inputs'), by hex id. */
export async function addressesOfTransactions(db: Queryable, transactionIds: readonly Hash[]): Promise<Map<string, string[]>> {
  const result = new Map<string, string[]>();
  if (transactionIds.length === 0) return result;
  const { rows } = await db.query<{ transaction_id: Uint8Array; address: string }>(
    `SELECT transaction_id, address FROM transaction_outputs
     WHERE transaction_id = ANY($1::bytea[]) AND address IS NOT NULL
     UNION
     SELECT transaction_id, previous_address FROM transaction_inputs
     WHERE transaction_id = ANY($1::bytea[]) AND previous_address IS NOT NULL`,
    [transactionIds],
  );
  for (const row of rows) {
    const id = bytesToHex(row.transaction_id);
    const list = result.get(id);
    if (list === undefined) result.set(id, [row.address]);
    else list.push(row.address);
  }
  for (const list of result.values()) list.sort();
  return result;
}

/**
 * What a transaction does to a covenant (KIP-20): `genesis` when it creates an output bound to it whose authorizing
 * input spent no output of it, `continuation` when it creates one from the covenant's own output, `end` when it spends
 * the covenant's outputs and creates none.
 */
export type CovenantStepKind = 'genesis' | 'continuation' | 'end';

/** The covenants each transaction creates, continues or ends, by hex id (covenant ids hex, in id order). */
export async function covenantStepsOfTransactions(
  db: Queryable,
  transactionIds: readonly Hash[],
): Promise<Map<string, { covenantId: string; kind: CovenantStepKind }[]>> {
  const result = new Map<string, { covenantId: string; kind: CovenantStepKind }[]>();
  if (transactionIds.length === 0) return result;
  const { rows } = await db.query<{ transaction_id: Uint8Array; covenant_id: Uint8Array; creates: boolean; genesis: boolean }>(
    `WITH touched AS (
       SELECT o.transaction_id, o.covenant_id, true AS creates,
              i.previous_covenant_id IS DISTINCT FROM o.covenant_id AS genesis
       FROM transaction_outputs o
       LEFT JOIN transaction_inputs i ON i.transaction_id = o.transaction_id AND i.input_index = o.covenant_authorizing_input
       WHERE o.transaction_id = ANY($1::bytea[]) AND o.covenant_id IS NOT NULL
       UNION ALL
       SELECT transaction_id, previous_covenant_id, false, false FROM transaction_inputs
       WHERE transaction_id = ANY($1::bytea[]) AND previous_covenant_id IS NOT NULL
     )
     SELECT transaction_id, covenant_id, bool_or(creates) AS creates, bool_or(genesis) AS genesis
     FROM touched GROUP BY transaction_id, covenant_id ORDER BY covenant_id`,
    [transactionIds],
  );
  for (const row of rows) {
    const id = bytesToHex(row.transaction_id);
    const step = { covenantId: bytesToHex(row.covenant_id), kind: row.genesis ? 'genesis' : row.creates ? 'continuation' : 'end' } as const;
    const list = result.get(id);
    if (list === undefined) result.set(id, [step]);
    else list.push(step);
  }
  return result;
}

/** The hashes among `hashes` with a stored row in `table` (blocks by hash, transactions by id), as hex. */
export async function storedAmong(db: Queryable, table: 'blocks' | 'transactions', hashes: readonly Hash[]): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const column = table === 'blocks' ? 'hash' : 'transaction_id';
  const { rows } = await db.query<{ key: Uint8Array }>(`SELECT ${column} AS key FROM ${table} WHERE ${column} = ANY($1::bytea[])`, [
    hashes,
  ]);
  return new Set(rows.map((row) => bytesToHex(row.key)));
}
