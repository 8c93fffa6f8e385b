import type { Db } from './connection';
import { allBucketsOf, CANDLE_COLUMNS, candleRowsSelect, STAT_BUCKET_COLUMNS, statBucketRowsSelect } from './token-buckets';

/**
 * Versioned schema changes. Append only: a shipped migration is never edited, a change is a new version. Every SQL
 * text runs unchanged on PGlite 0.5 and PostgreSQL 15.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/*
 * Storage choices (migration 1):
 * - Hashes, ids, scripts and payloads are bytea: 32 bytes per hash instead of 64 hex characters, and bytea ordering is
 *   byte order, which is also the order of the hex strings the API shows.
 * - Unbounded u64 quantities (amounts, nonce, lock time, gas, mass, sequence) are numeric(20,0): int8 stops at 2^63−1.
 *   Blue work (u192) is numeric(58,0).
 * - u64 quantities that grow with time (timestamps in ms, DAA and blue scores) are int8: they stay below 2^63 for
 *   hundreds of millions of years, and int8 keeps the keys used for ranges and paging small and fast.
 * - bits and outpoint indices (u32) are int8 because int4 is signed; indices of a transaction's own inputs and
 *   outputs are int4 (a transaction's mass bounds their count far below 2^31).
 * - parents_by_level is ragged, which a 2-D SQL array cannot hold, so element i is level i's hashes concatenated.
 * - Acceptance lives in its own table keyed by transaction, so a reorganisation deletes and inserts acceptance rows
 *   by accepting block and never rewrites transactions or address history; "accepted" is derived by joining it.
 * - Address history rows carry the transaction's block time so one index serves keyset paging in both directions.
 *   A transaction's block time is the earliest among its containing blocks (writes.ts), so the key is the chain's.
 * - Only the indexes the API reads and the indexer's lookups need; no triggers, no foreign keys (ingest speed).
 */
const INITIAL_SCHEMA = `
CREATE TABLE blocks (
  hash bytea PRIMARY KEY,
  version integer NOT NULL,
  parents_by_level bytea[] NOT NULL,
  hash_merkle_root bytea NOT NULL,
  accepted_id_merkle_root bytea NOT NULL,
  utxo_commitment bytea NOT NULL,
  timestamp bigint NOT NULL,
  bits bigint NOT NULL,
  nonce numeric(20,0) NOT NULL,
  daa_score bigint NOT NULL,
  blue_score bigint NOT NULL,
  blue_work numeric(58,0) NOT NULL,
  pruning_point bytea NOT NULL,
  selected_parent_hash bytea,
  merge_set_blues bytea[] NOT NULL,
  merge_set_reds bytea[] NOT NULL,
  difficulty double precision NOT NULL,
  is_chain_block boolean NOT NULL
);
CREATE INDEX blocks_daa_score ON blocks (daa_score);

CREATE TABLE block_children (
  parent_hash bytea NOT NULL,
  child_hash bytea NOT NULL,
  PRIMARY KEY (parent_hash, child_hash)
);

CREATE TABLE transactions (
  transaction_id bytea PRIMARY KEY,
  hash bytea NOT NULL,
  version integer NOT NULL,
  lock_time numeric(20,0) NOT NULL,
  subnetwork_id bytea NOT NULL,
  gas numeric(20,0) NOT NULL,
  payload bytea NOT NULL,
  mass numeric(20,0) NOT NULL,
  block_time bigint NOT NULL
);

CREATE TABLE transaction_inputs (
  transaction_id bytea NOT NULL,
  input_index integer NOT NULL,
  previous_transaction_id bytea NOT NULL,
  previous_index bigint NOT NULL,
  signature_script bytea NOT NULL,
  sequence numeric(20,0) NOT NULL,
  sig_op_count smallint NOT NULL,
  previous_amount numeric(20,0),
  previous_script_version integer,
  previous_script bytea,
  previous_address text COLLATE "C",
  previous_script_type text,
  PRIMARY KEY (transaction_id, input_index)
);

CREATE TABLE transaction_outputs (
  transaction_id bytea NOT NULL,
  output_index integer NOT NULL,
  amount numeric(20,0) NOT NULL,
  script_version integer NOT NULL,
  script bytea NOT NULL,
  address text COLLATE "C",
  script_type text NOT NULL,
  PRIMARY KEY (transaction_id, output_index)
);

CREATE TABLE block_transactions (
  block_hash bytea NOT NULL,
  position integer NOT NULL,
  transaction_id bytea NOT NULL,
  PRIMARY KEY (block_hash, position)
);
CREATE INDEX block_transactions_transaction ON block_transactions (transaction_id, block_hash);

CREATE TABLE transaction_acceptances (
  transaction_id bytea PRIMARY KEY,
  accepting_block_hash bytea NOT NULL
);
CREATE INDEX transaction_acceptances_block ON transaction_acceptances (accepting_block_hash);

CREATE TABLE address_transactions (
  address text COLLATE "C" NOT NULL,
  block_time bigint NOT NULL,
  transaction_id bytea NOT NULL,
  amount_sent numeric(20,0) NOT NULL,
  amount_received numeric(20,0) NOT NULL,
  PRIMARY KEY (address, block_time, transaction_id)
);

CREATE TABLE indexer_checkpoints (
  name text PRIMARY KEY,
  block_hash bytea NOT NULL,
  blue_score bigint NOT NULL,
  daa_score bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
`;

/** API keys (lib/api/keys/keys.ts): only the SHA-256 of a key is stored; limits in RU with milli-RU precision. */
const API_KEYS = `
CREATE TABLE api_keys (
  id text PRIMARY KEY,
  name text NOT NULL,
  hash bytea NOT NULL UNIQUE,
  created timestamptz NOT NULL,
  disabled boolean NOT NULL DEFAULT false,
  ru_per_second numeric(15,3) NOT NULL,
  ru_per_month numeric(15,3) NOT NULL
);
`;

/*
 * KRC-20 token state (lib/tokens, written by the token indexer), migration 3:
 * - Token amounts are numeric(78,0): they reach 10^32 − 1 per op and sums must never wrap; sompi stay numeric(20,0).
 * - Token keys are the upper-case tick or, for issue-mode tokens, the lower-case ca, in "C" collation.
 * - Holders are the balance rows: a row with nothing available and nothing locked is deleted, so every row is a
 *   holder, and token_balances_holders orders them by balance + locked for the top list.
 * - token_ops keeps every op record (failed ones with op_error; `record` is the op's scripts as JSON text, which
 *   nothing queries inside); token_stats the token's counters after each op;
 *   token_fills the fills the charts are built from (a fill is always input 0's send, so one per op). Snapshots and
 *   fills carry their op record's tick and opScore, so undoing chain blocks deletes them through the op records.
 * - token_undo holds, per chain block that changed state, the value each touched key had before it (the engine's
 *   undo log), so a reorganisation can restore it after a restart.
 */
const TOKENS = `
CREATE TABLE token_tokens (
  tick text COLLATE "C" PRIMARY KEY,
  mode text NOT NULL,
  name text NOT NULL,
  max numeric(78,0) NOT NULL,
  lim numeric(78,0) NOT NULL,
  pre numeric(78,0) NOT NULL,
  dec smallint NOT NULL,
  from_address text COLLATE "C" NOT NULL,
  to_address text COLLATE "C" NOT NULL,
  minted numeric(78,0) NOT NULL,
  burned numeric(78,0) NOT NULL,
  tx_id bytea NOT NULL,
  op_score_add bigint NOT NULL UNIQUE,
  op_score_mod bigint NOT NULL,
  mts_add bigint NOT NULL,
  mts_mod bigint NOT NULL,
  holder_total integer NOT NULL,
  mint_total integer NOT NULL,
  transfer_total integer NOT NULL
);

CREATE TABLE token_balances (
  tick text COLLATE "C" NOT NULL,
  address text COLLATE "C" NOT NULL,
  dec smallint NOT NULL,
  balance numeric(78,0) NOT NULL,
  locked numeric(78,0) NOT NULL,
  op_score_mod bigint NOT NULL,
  PRIMARY KEY (tick, address)
);
CREATE INDEX token_balances_address ON token_balances (address, tick);
CREATE INDEX token_balances_holders ON token_balances (tick, (balance + locked) DESC, address);

CREATE TABLE token_orders (
  tick text COLLATE "C" NOT NULL,
  seller text COLLATE "C" NOT NULL,
  u_tx_id bytea NOT NULL,
  u_addr text COLLATE "C" NOT NULL,
  u_amt numeric(20,0) NOT NULL,
  u_script bytea NOT NULL,
  amount numeric(78,0) NOT NULL,
  op_score_add bigint NOT NULL,
  PRIMARY KEY (tick, seller, u_tx_id)
);
CREATE INDEX token_orders_open ON token_orders (tick, op_score_add);

CREATE TABLE token_blacklist (
  tick text COLLATE "C" NOT NULL,
  address text COLLATE "C" NOT NULL,
  op_score_add bigint NOT NULL,
  PRIMARY KEY (tick, address)
);

CREATE TABLE token_ops (
  op_score bigint PRIMARY KEY,
  tx_id bytea NOT NULL,
  block_accept bytea NOT NULL,
  mts_add bigint NOT NULL,
  fee_rev numeric(20,0) NOT NULL,
  op text NOT NULL,
  tick text COLLATE "C" NOT NULL,
  from_address text COLLATE "C" NOT NULL,
  to_address text COLLATE "C",
  amount numeric(78,0),
  accepted boolean NOT NULL,
  op_error text,
  record text NOT NULL
);
CREATE INDEX token_ops_tick ON token_ops (tick, op_score);

CREATE TABLE token_stats (
  tick text COLLATE "C" NOT NULL,
  op_score bigint NOT NULL,
  mts bigint NOT NULL,
  holder_total integer NOT NULL,
  mint_total integer NOT NULL,
  transfer_total integer NOT NULL,
  PRIMARY KEY (tick, op_score)
);
CREATE INDEX token_stats_time ON token_stats (tick, mts, op_score);

CREATE TABLE token_fills (
  tick text COLLATE "C" NOT NULL,
  op_score bigint NOT NULL,
  mts bigint NOT NULL,
  tx_id bytea NOT NULL,
  seller text COLLATE "C" NOT NULL,
  buyer text COLLATE "C" NOT NULL,
  amount numeric(78,0) NOT NULL,
  price numeric(20,0) NOT NULL,
  dec smallint NOT NULL,
  PRIMARY KEY (tick, op_score)
);
CREATE INDEX token_fills_time ON token_fills (tick, mts, op_score);

CREATE TABLE token_undo (
  block_hash bytea PRIMARY KEY,
  daa_score bigint NOT NULL UNIQUE,
  changes jsonb NOT NULL
);

CREATE TABLE token_checkpoints (
  name text PRIMARY KEY,
  block_hash bytea NOT NULL,
  daa_score bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
`;

/*
 * Per-bucket chart rows derived from token_fills and token_stats (lib/db/token-buckets.ts says how), migration 4;
 * existing fills and snapshots are backfilled with the same statements the token indexer uses.
 */
const TOKEN_CANDLES = `
CREATE SEQUENCE token_candles_revision;
CREATE TABLE token_candles (
  tick text COLLATE "C" NOT NULL,
  bucket_ms bigint NOT NULL,
  bucket bigint NOT NULL,
  trades integer NOT NULL,
  last_op_score bigint NOT NULL,
  open_kas float8 NOT NULL,
  high_kas float8 NOT NULL,
  low_kas float8 NOT NULL,
  close_kas float8 NOT NULL,
  volume_kas float8 NOT NULL,
  volume_tokens float8 NOT NULL,
  fills bytea NOT NULL,
  revision bigint NOT NULL DEFAULT nextval('token_candles_revision'),
  PRIMARY KEY (tick, bucket_ms, bucket)
);
CREATE INDEX token_candles_latest ON token_candles (tick, bucket_ms, last_op_score);

INSERT INTO token_candles (${CANDLE_COLUMNS})
${candleRowsSelect(allBucketsOf('token_fills'))};

CREATE TABLE token_stat_buckets (
  tick text COLLATE "C" NOT NULL,
  bucket_ms bigint NOT NULL,
  bucket bigint NOT NULL,
  op_score bigint NOT NULL,
  holder_total integer NOT NULL,
  mint_total integer NOT NULL,
  transfer_total integer NOT NULL,
  PRIMARY KEY (tick, bucket_ms, bucket)
);
CREATE INDEX token_stat_buckets_latest ON token_stat_buckets (tick, bucket_ms, op_score);

INSERT INTO token_stat_buckets (${STAT_BUCKET_COLUMNS})
${statBucketRowsSelect(allBucketsOf('token_stats'))};
`;

/** Inputs whose spent output is not stored yet, found again when the transaction creating it is stored. */
const UNRESOLVED_INPUTS = `
CREATE INDEX transaction_inputs_unresolved ON transaction_inputs (previous_transaction_id, previous_index)
  WHERE previous_amount IS NULL;
`;

/*
 * Toccata fields, migration 6. Header version, transaction version, subnetwork id (the KIP-21 lane) and gas have
 * columns since migration 1. Rows written before this migration keep NULL storage and compute mass and no covenant
 * data (a reindex fills them); compute budgets of such rows read 0, which is what every version 0 input carries.
 * An input keeps the covenant id of the output it spends, so lineage and UTXO-set maintenance never join back.
 */
const TOCCATA_FIELDS = `
ALTER TABLE transactions ADD COLUMN storage_mass numeric(20,0), ADD COLUMN compute_mass numeric(20,0);
ALTER TABLE transaction_inputs ADD COLUMN compute_budget integer NOT NULL DEFAULT 0,
  ADD COLUMN previous_covenant_id bytea;
ALTER TABLE transaction_outputs ADD COLUMN covenant_authorizing_input integer, ADD COLUMN covenant_id bytea;
`;

/*
 * KIP-20 covenants, migration 7, all driven by acceptance (writes.ts refreshCovenants):
 * - covenant_transactions is the lineage: each accepted transaction that creates an output bound to the covenant or
 *   spends one, keyed like address_transactions so the same keyset paging serves it; is_genesis marks the
 *   transaction whose binding's authorizing input did not spend an output of the covenant.
 * - covenant_utxos holds the outputs bound to a covenant whose creator is accepted and that no accepted transaction
 *   spends, with the accepting block's DAA score (the UTXO entry's blockDaaScore).
 * - covenants is the per-covenant summary the list pages by (last activity, id); state is derived: utxo_count = 0 is
 *   "ended".
 * - transaction_inputs_covenant_spends finds the accepted spenders of a covenant output.
 */
const COVENANTS = `
CREATE TABLE covenant_transactions (
  covenant_id bytea NOT NULL,
  block_time bigint NOT NULL,
  transaction_id bytea NOT NULL,
  is_genesis boolean NOT NULL,
  PRIMARY KEY (covenant_id, block_time, transaction_id)
);
CREATE INDEX covenant_transactions_genesis ON covenant_transactions (covenant_id) WHERE is_genesis;

CREATE TABLE covenant_utxos (
  covenant_id bytea NOT NULL,
  transaction_id bytea NOT NULL,
  output_index integer NOT NULL,
  block_daa_score bigint NOT NULL,
  PRIMARY KEY (covenant_id, transaction_id, output_index)
);

CREATE TABLE covenants (
  covenant_id bytea PRIMARY KEY,
  genesis_transaction_id bytea,
  created_at bigint NOT NULL,
  last_transaction_id bytea NOT NULL,
  last_activity_at bigint NOT NULL,
  utxo_count integer NOT NULL
);
CREATE INDEX covenants_activity ON covenants (last_activity_at, covenant_id);

CREATE INDEX transaction_inputs_covenant_spends ON transaction_inputs (previous_transaction_id, previous_index)
  WHERE previous_covenant_id IS NOT NULL;
`;

/**
 * Stretches of the chain the index lacks: the node no longer knew any stored chain block (pruned past the index, or a
 * different chain), so indexing resumed at the node's pruning point. Stored history stays; the gap is reported.
 */
const INDEX_GAPS = `
CREATE TABLE index_gaps (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  checkpoint_name text NOT NULL,
  reason text NOT NULL,
  lost_checkpoint_hash bytea NOT NULL,
  lost_checkpoint_daa_score bigint NOT NULL,
  last_kept_hash bytea,
  last_kept_daa_score bigint,
  resumed_hash bytea NOT NULL,
  resumed_daa_score bigint NOT NULL,
  replaced_chain_blocks integer NOT NULL,
  detected_at timestamptz NOT NULL DEFAULT now()
);
`;

/*
 * History retention (lib/db/history-retention.ts), migration 10:
 * - history_retention is one row: the lowest DAA score whose history is kept (everything below was deleted), the
 *   block time of the chain block at that bound, the policy that set it, running totals, and the database size when
 *   the size bound last pruned (the size bound prunes again only once the file has grown past that).
 * - pruned_address_activity keeps, per address, what deleted address rows said (count, first and last block time),
 *   so "has this address been used" (wallet discovery) and an address's activity stay true after its rows are gone.
 */
const HISTORY_RETENTION = `
CREATE TABLE history_retention (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  from_daa_score bigint NOT NULL,
  from_time bigint NOT NULL,
  policy_days double precision,
  policy_gigabytes double precision,
  pruned_blocks bigint NOT NULL,
  pruned_transactions bigint NOT NULL,
  database_bytes_at_size_prune bigint,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE pruned_address_activity (
  address text COLLATE "C" PRIMARY KEY,
  transaction_count bigint NOT NULL,
  first_block_time bigint NOT NULL,
  last_block_time bigint NOT NULL
);
`;

/*
 * The stream event log (lib/db/stream-events.ts), migration 11:
 * - stream_events holds what the indexer announced, each row written in the transaction of the change it describes.
 *   The identity is the cursor clients resume from; rows commit in id order (writers take an advisory lock before
 *   inserting), so a reader that has seen id n never later finds a smaller id committed.
 * - data is the event's JSON as text, sent to clients as is: both backends hand it back byte for byte.
 * - stream_event_retention is one row: the highest id the pruner deleted, so a cursor below it is known to have
 *   lost events (ids also skip where a transaction rolled back; those gaps lose nothing).
 */
const STREAM_EVENTS = `
CREATE TABLE stream_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  topic text NOT NULL,
  address text COLLATE "C",
  created_at bigint NOT NULL,
  data text NOT NULL
);
CREATE INDEX stream_events_address ON stream_events (address, id) WHERE address IS NOT NULL;
CREATE INDEX stream_events_created_at ON stream_events (created_at);

CREATE TABLE stream_event_retention (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  pruned_through bigint NOT NULL
);
`;

/*
 * Webhooks (issue 19), migration 12:
 * - webhooks belong to the API key that made them (key_id); `cursor` is the last stream event id the delivery worker
 *   has turned into deliveries for it (the log's head when the webhook was made). Topics and addresses are the
 *   stream's filter; a null addresses means every address event.
 * - The secret is stored as given out: signing needs it (it is never logged nor shown again).
 * - webhook_deliveries holds one row per webhook and event (the unique pair makes enqueueing idempotent) with the
 *   body to send: retries run for a day, longer than the event log keeps events. next_attempt_at is null once the
 *   delivery succeeded or was given up; while a worker holds a delivery it is the lease's end.
 */
const WEBHOOKS = `
CREATE TABLE webhooks (
  id text PRIMARY KEY,
  key_id text NOT NULL,
  url text NOT NULL,
  topics text[] NOT NULL,
  addresses text[],
  secret text NOT NULL,
  state text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'disabled')),
  disabled_reason text,
  cursor bigint NOT NULL,
  consecutive_failures integer NOT NULL DEFAULT 0,
  created_at bigint NOT NULL
);
CREATE INDEX webhooks_key ON webhooks (key_id, created_at, id);

CREATE TABLE webhook_deliveries (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  webhook_id text NOT NULL,
  event_id bigint NOT NULL,
  topic text NOT NULL,
  body text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  created_at bigint NOT NULL,
  first_attempt_at bigint,
  last_attempt_at bigint,
  next_attempt_at bigint,
  last_status integer,
  last_error text,
  delivered_at bigint,
  UNIQUE (webhook_id, event_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE next_attempt_at IS NOT NULL;
`;

/*
 * Chain statistics (issue 17), migration 13: per window of 600 DAA scores (a minute at 10 blocks/s) the blocks, the
 * chain blocks, the transactions those accepted (coinbases apart) with their mass and fees, and a sketch of the
 * addresses they touched (address-sketch.ts); per UTC hour the same summed over the windows starting in it. Rows
 * outlive the history retention prunes: they are figures about the chain, not its history. `complete` marks a window
 * the refresher will not compute again (the index is a window past it); the progress row names the last window up to
 * which every window is complete (windows without blocks have no row).
 */
const CHAIN_STATISTICS = `
CREATE TABLE chain_statistics_windows (
  window_index bigint PRIMARY KEY,
  start_time bigint NOT NULL,
  end_time bigint NOT NULL,
  blocks integer NOT NULL,
  chain_blocks integer NOT NULL,
  transactions integer NOT NULL,
  mass numeric(30,0) NOT NULL,
  fees numeric(30,0) NOT NULL,
  address_sketch bytea NOT NULL,
  complete boolean NOT NULL
);
CREATE INDEX chain_statistics_windows_start ON chain_statistics_windows (start_time);

CREATE TABLE chain_statistics_hours (
  hour_start bigint PRIMARY KEY,
  end_time bigint NOT NULL,
  blocks integer NOT NULL,
  chain_blocks integer NOT NULL,
  transactions integer NOT NULL,
  mass numeric(30,0) NOT NULL,
  fees numeric(30,0) NOT NULL,
  address_sketch bytea NOT NULL,
  complete boolean NOT NULL
);

CREATE TABLE chain_statistics_progress (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  complete_through bigint NOT NULL
);
`;

/** The transaction page asks which token ops a transaction carries. */
const TOKEN_OPS_BY_TRANSACTION = `
CREATE INDEX token_ops_tx ON token_ops (tx_id);
`;

/*
 * The mempool's side of the `address` stream topic (issue 19), migration 15: each transaction announced as having
 * entered the mempool, with the addresses its events named, until it is settled: stored in a block (nothing more to
 * say), or gone from the mempool without a block and announced `dropped`. The primary key makes the announcement
 * once-only across the submitting API instances and the indexing process's mempool poll. left_at / left_daa_score:
 * when the poll first missed it and the node's virtual DAA score then (null while it is in the mempool).
 */
const MEMPOOL_WATCH = `
CREATE TABLE mempool_watch (
  transaction_id bytea PRIMARY KEY,
  addresses text[] COLLATE "C" NOT NULL,
  entered_at bigint NOT NULL,
  left_at bigint,
  left_daa_score bigint
);
CREATE INDEX mempool_watch_left ON mempool_watch (left_at) WHERE left_at IS NOT NULL;
`;

/*
 * Stream filters by covenant and by ticker (issue 19), migration 16: `subject` is what a `covenant` event (its
 * covenant id, hex) or a `token` event (its ticker) is about, so both filter as `address` events do by address.
 */
const STREAM_EVENT_SUBJECTS = `
ALTER TABLE stream_events ADD COLUMN subject text COLLATE "C";
`;

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'initial schema', sql: INITIAL_SCHEMA },
  { version: 2, name: 'api keys', sql: API_KEYS },
  { version: 3, name: 'krc-20 tokens', sql: TOKENS },
  { version: 4, name: 'krc-20 candles', sql: TOKEN_CANDLES },
  { version: 5, name: 'unresolved inputs', sql: UNRESOLVED_INPUTS },
  { version: 6, name: 'toccata fields', sql: TOCCATA_FIELDS },
  { version: 7, name: 'covenants', sql: COVENANTS },
  { version: 9, name: 'index gaps', sql: INDEX_GAPS },
  { version: 10, name: 'history retention', sql: HISTORY_RETENTION },
  { version: 11, name: 'stream events', sql: STREAM_EVENTS },
  { version: 12, name: 'webhooks', sql: WEBHOOKS },
  { version: 13, name: 'chain statistics', sql: CHAIN_STATISTICS },
  { version: 14, name: 'token ops by transaction', sql: TOKEN_OPS_BY_TRANSACTION },
  { version: 15, name: 'mempool watch', sql: MEMPOOL_WATCH },
  { version: 16, name: 'stream event subjects', sql: STREAM_EVENT_SUBJECTS },
];

/** Key of the transaction-scoped advisory lock that serialises migration runners across processes. */
const MIGRATION_LOCK_KEY = 4_712_020_261_122n;

const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS schema_migrations (
  version integer PRIMARY KEY,
  name text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;

export class MigrationError extends Error {
  override name = 'MigrationError';
}

/**
 * Applies every pending migration, each in its own transaction that first takes the migration lock, so two
 * processes starting at once apply each version exactly once. Returns the versions this call applied.
 */
export async function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  assertOrdered(migrations);
  const applied: number[] = [];
  await db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
    await tx.exec(CREATE_MIGRATIONS_TABLE);
    const known = new Map(migrations.map((migration) => [migration.version, migration.name]));
    const { rows } = await tx.query<{ version: number; name: string }>('SELECT version, name FROM schema_migrations');
    for (const row of rows) {
      const name = known.get(row.version);
      if (name === undefined) throw new MigrationError(`database has migration ${row.version}, unknown to this build`);
      if (name !== row.name) {
        throw new MigrationError(`migration ${row.version} is "${row.name}" in the database but "${name}" here`);
      }
    }
  });
  for (const migration of migrations) {
    const didApply = await db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
      const { rows } = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [migration.version]);
      if (rows.length > 0) return false;
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      return true;
    });
    if (didApply) applied.push(migration.version);
  }
  return applied;
}

function assertOrdered(migrations: readonly Migration[]): void {
  migrations.forEach((migration, position) => {
    const previous = migrations[position - 1];
    const increasing = previous === undefined || migration.version > previous.version;
    if (!Number.isInteger(migration.version) || migration.version < 1 || !increasing) {
      throw new MigrationError(`migration versions must be positive and increasing (at ${migration.version})`);
    }
  });
}
