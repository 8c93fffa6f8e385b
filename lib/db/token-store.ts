import { bytesToHex, hexToBytes } from '../kaspa/bytes';
import type {
  BalanceState,
  BlacklistState,
  BlockApplication,
  MarketOrderState,
  OpRecord,
  StateChange,
  TokenEngineSnapshot,
  TokenState,
} from '../tokens/engine';
import { OP_SCORE_MULTIPLIER } from '../tokens/engine';
import { fillsFromOps } from '../tokens/market';
import type { Queryable } from './connection';
import { addTokenStatBuckets, rebuildTokenStatBuckets, refreshTokenCandles } from './token-buckets';
import { reviveTokenJson, tokenJsonText } from './token-json';

/*
 * The token indexer's writes: engine state (tokens, balances, orders, blacklist), op records, fills, counter
 * snapshots, the per-block undo log and the checkpoint. Meant to run inside the token indexer's batch transaction, so
 * a batch and its checkpoint commit together.
 */

export const TOKEN_CHECKPOINT_NAME = 'krc20';

export interface TokenCheckpoint {
  name: string;
  blockHash: Uint8Array;
  daaScore: bigint;
}

export async function readTokenCheckpoint(db: Queryable, name = TOKEN_CHECKPOINT_NAME): Promise<TokenCheckpoint | null> {
  const { rows } = await db.query<{ block_hash: Uint8Array; daa_score: bigint }>(
    'SELECT block_hash, daa_score FROM token_checkpoints WHERE name = $1',
    [name],
  );
  const row = rows[0];
  return row ? { name, blockHash: row.block_hash, daaScore: row.daa_score } : null;
}

export async function writeTokenCheckpoint(db: Queryable, checkpoint: TokenCheckpoint): Promise<void> {
  await db.query(
    `INSERT INTO token_checkpoints (name, block_hash, daa_score) VALUES ($1, $2, $3)
     ON CONFLICT (name) DO UPDATE SET block_hash = EXCLUDED.block_hash, daa_score = EXCLUDED.daa_score,
       updated_at = now()`,
    [checkpoint.name, checkpoint.blockHash, checkpoint.daaScore],
  );
}

/** Forgets the checkpoint: the next batch starts at the first chain block of the chain index. */
export async function deleteTokenCheckpoint(db: Queryable, name = TOKEN_CHECKPOINT_NAME): Promise<void> {
  await db.query('DELETE FROM token_checkpoints WHERE name = $1', [name]);
}

export interface TokenRow {
  tick: string;
  mode: string;
  name: string;
  max: string;
  lim: string;
  pre: string;
  dec: number;
  from_address: string;
  to_address: string;
  minted: string;
  burned: string;
  tx_id: Uint8Array;
  op_score_add: bigint;
  op_score_mod: bigint;
  mts_add: bigint;
  mts_mod: bigint;
  holder_total: number;
  mint_total: number;
  transfer_total: number;
}

export const TOKEN_COLUMNS =
  'tick, mode, name, max, lim, pre, dec, from_address, to_address, minted, burned, tx_id, op_score_add, ' +
  'op_score_mod, mts_add, mts_mod, holder_total, mint_total, transfer_total';

export function tokenFromRow(row: TokenRow): TokenState {
  return {
    tick: row.tick,
    mode: row.mode === 'issue' ? 'issue' : 'mint',
    name: row.name,
    max: BigInt(row.max),
    lim: BigInt(row.lim),
    pre: BigInt(row.pre),
    dec: row.dec,
    from: row.from_address,
    to: row.to_address,
    minted: BigInt(row.minted),
    burned: BigInt(row.burned),
    txId: bytesToHex(row.tx_id),
    opScoreAdd: row.op_score_add,
    opScoreMod: row.op_score_mod,
    mtsAdd: Number(row.mts_add),
    mtsMod: Number(row.mts_mod),
    holderTotal: row.holder_total,
    mintTotal: row.mint_total,
    transferTotal: row.transfer_total,
  };
}

interface BalanceRow {
  tick: string;
  address: string;
  dec: number;
  balance: string;
  locked: string;
  op_score_mod: bigint;
}

export function balanceFromRow(row: BalanceRow): BalanceState {
  return {
    address: row.address,
    tick: row.tick,
    dec: row.dec,
    balance: BigInt(row.balance),
    locked: BigInt(row.locked),
    opScoreMod: row.op_score_mod,
  };
}

interface OrderRow {
  tick: string;
  seller: string;
  u_tx_id: Uint8Array;
  u_addr: string;
  u_amt: string;
  u_script: Uint8Array;
  amount: string;
  op_score_add: bigint;
}

function orderFromRow(row: OrderRow): MarketOrderState {
  return {
    tick: row.tick,
    seller: row.seller,
    uTxId: bytesToHex(row.u_tx_id),
    uAddr: row.u_addr,
    uAmt: BigInt(row.u_amt),
    uScript: bytesToHex(row.u_script),
    amount: BigInt(row.amount),
    opScoreAdd: row.op_score_add,
  };
}

/** The whole engine state, to start the engine where the stored checkpoint left it. */
export async function loadTokenSnapshot(db: Queryable, name = TOKEN_CHECKPOINT_NAME): Promise<TokenEngineSnapshot> {
  const [tokens, balances, orders, blacklist, checkpoint] = await Promise.all([
    db.query<TokenRow>(`SELECT ${TOKEN_COLUMNS} FROM token_tokens ORDER BY tick`),
    db.query<BalanceRow>('SELECT tick, address, dec, balance, locked, op_score_mod FROM token_balances ORDER BY tick, address'),
    db.query<OrderRow>(
      'SELECT tick, seller, u_tx_id, u_addr, u_amt, u_script, amount, op_score_add FROM token_orders ORDER BY tick, seller, u_tx_id',
    ),
    db.query<{ tick: string; address: string; op_score_add: bigint }>(
      'SELECT tick, address, op_score_add FROM token_blacklist ORDER BY tick, address',
    ),
    readTokenCheckpoint(db, name),
  ]);
  return {
    tokens: tokens.rows.map(tokenFromRow),
    balances: balances.rows.map(balanceFromRow),
    orders: orders.rows.map(orderFromRow),
    blacklist: blacklist.rows.map((row) => ({ tick: row.tick, address: row.address, opScoreAdd: row.op_score_add })),
    lastDaaScore: checkpoint?.daaScore ?? null,
  };
}

type Latest = Map<string, StateChange>;

/** Per key, the state to store: the last `after` across the blocks (or, when reverting, the oldest `before`). */
async function writeStates(db: Queryable, changes: Latest, side: 'after' | 'before'): Promise<void> {
  const tokens: TokenState[] = [];
  const balances: BalanceState[] = [];
  const orders: MarketOrderState[] = [];
  const blacklist: BlacklistState[] = [];
  const gone = { token: [] as string[], balance: [] as [string, string][], order: [] as MarketOrderState[], blacklist: [] as BlacklistState[] };
  for (const change of changes.values()) {
    const value = change[side];
    const other = change[side === 'after' ? 'before' : 'after'];
    // Created and removed within the span written (e.g. an order listed and filled in one block): nothing to store.
    if (value === null && other === null) continue;
    switch (change.table) {
      case 'token':
        if (value) tokens.push(value as TokenState);
        else gone.token.push(change.key);
        break;
      case 'balance': {
        if (value) balances.push(value as BalanceState);
        else {
          const known = other as BalanceState;
          gone.balance.push([known.tick, known.address]);
        }
        break;
      }
      case 'order':
        if (value) orders.push(value as MarketOrderState);
        else gone.order.push(other as MarketOrderState);
        break;
      case 'blacklist':
        if (value) blacklist.push(value as BlacklistState);
        else gone.blacklist.push(other as BlacklistState);
        break;
    }
  }
  if (gone.token.length > 0) {
    await db.query('DELETE FROM token_tokens WHERE tick = ANY($1::text[])', [gone.token]);
  }
  if (tokens.length > 0) {
    await db.query(
      `INSERT INTO token_tokens (${TOKEN_COLUMNS})
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::numeric[], $5::numeric[], $6::numeric[],
         $7::smallint[], $8::text[], $9::text[], $10::numeric[], $11::numeric[], $12::bytea[], $13::bigint[],
         $14::bigint[], $15::bigint[], $16::bigint[], $17::integer[], $18::integer[], $19::integer[])
       ON CONFLICT (tick) DO UPDATE SET mode = EXCLUDED.mode, name = EXCLUDED.name, max = EXCLUDED.max,
         lim = EXCLUDED.lim, pre = EXCLUDED.pre, dec = EXCLUDED.dec, from_address = EXCLUDED.from_address,
         to_address = EXCLUDED.to_address, minted = EXCLUDED.minted, burned = EXCLUDED.burned, tx_id = EXCLUDED.tx_id,
         op_score_add = EXCLUDED.op_score_add, op_score_mod = EXCLUDED.op_score_mod, mts_add = EXCLUDED.mts_add,
         mts_mod = EXCLUDED.mts_mod, holder_total = EXCLUDED.holder_total, mint_total = EXCLUDED.mint_total,
         transfer_total = EXCLUDED.transfer_total`,
      [
        tokens.map((t) => t.tick),
        tokens.map((t) => t.mode),
        tokens.map((t) => t.name),
        tokens.map((t) => t.max.toString()),
        tokens.map((t) => t.lim.toString()),
        tokens.map((t) => t.pre.toString()),
        tokens.map((t) => t.dec),
        tokens.map((t) => t.from),
        tokens.map((t) => t.to),
        tokens.map((t) => t.minted.toString()),
        tokens.map((t) => t.burned.toString()),
        tokens.map((t) => hexToBytes(t.txId)),
        tokens.map((t) => t.opScoreAdd),
        tokens.map((t) => t.opScoreMod),
        tokens.map((t) => BigInt(t.mtsAdd)),
        tokens.map((t) => BigInt(t.mtsMod)),
        tokens.map((t) => t.holderTotal),
        tokens.map((t) => t.mintTotal),
        tokens.map((t) => t.transferTotal),
      ],
    );
  }
  if (gone.balance.length > 0) {
    await db.query(
      `DELETE FROM token_balances b USING unnest($1::text[], $2::text[]) AS gone(tick, address)
       WHERE b.tick = gone.tick AND b.address = gone.address`,
      [gone.balance.map(([tick]) => tick), gone.balance.map(([, address]) => address)],
    );
  }
  if (balances.length > 0) {
    await db.query(
      `INSERT INTO token_balances (tick, address, dec, balance, locked, op_score_mod)
       SELECT * FROM unnest($1::text[], $2::text[], $3::smallint[], $4::numeric[], $5::numeric[], $6::bigint[])
       ON CONFLICT (tick, address) DO UPDATE SET dec = EXCLUDED.dec, balance = EXCLUDED.balance,
         locked = EXCLUDED.locked, op_score_mod = EXCLUDED.op_score_mod`,
      [
        balances.map((b) => b.tick),
        balances.map((b) => b.address),
        balances.map((b) => b.dec),
        balances.map((b) => b.balance.toString()),
        balances.map((b) => b.locked.toString()),
        balances.map((b) => b.opScoreMod),
      ],
    );
  }
  if (gone.order.length > 0) {
    await db.query(
      `DELETE FROM token_orders o USING unnest($1::text[], $2::text[], $3::bytea[]) AS gone(tick, seller, u_tx_id)
       WHERE o.tick = gone.tick AND o.seller = gone.seller AND o.u_tx_id = gone.u_tx_id`,
      [gone.order.map((o) => o.tick), gone.order.map((o) => o.seller), gone.order.map((o) => hexToBytes(o.uTxId))],
    );
  }
  if (orders.length > 0) {
    await db.query(
      `INSERT INTO token_orders (tick, seller, u_tx_id, u_addr, u_amt, u_script, amount, op_score_add)
       SELECT * FROM unnest($1::text[], $2::text[], $3::bytea[], $4::text[], $5::numeric[], $6::bytea[],
         $7::numeric[], $8::bigint[])
       ON CONFLICT (tick, seller, u_tx_id) DO UPDATE SET u_addr = EXCLUDED.u_addr, u_amt = EXCLUDED.u_amt,
         u_script = EXCLUDED.u_script, amount = EXCLUDED.amount, op_score_add = EXCLUDED.op_score_add`,
      [
        orders.map((o) => o.tick),
        orders.map((o) => o.seller),
        orders.map((o) => hexToBytes(o.uTxId)),
        orders.map((o) => o.uAddr),
        orders.map((o) => o.uAmt.toString()),
        orders.map((o) => hexToBytes(o.uScript)),
        orders.map((o) => o.amount.toString()),
        orders.map((o) => o.opScoreAdd),
      ],
    );
  }
  if (gone.blacklist.length > 0) {
    await db.query(
      `DELETE FROM token_blacklist b USING unnest($1::text[], $2::text[]) AS gone(tick, address)
       WHERE b.tick = gone.tick AND b.address = gone.address`,
      [gone.blacklist.map((b) => b.tick), gone.blacklist.map((b) => b.address)],
    );
  }
  if (blacklist.length > 0) {
    await db.query(
      `INSERT INTO token_blacklist (tick, address, op_score_add)
       SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])
       ON CONFLICT (tick, address) DO UPDATE SET op_score_add = EXCLUDED.op_score_add`,
      [blacklist.map((b) => b.tick), blacklist.map((b) => b.address), blacklist.map((b) => b.opScoreAdd)],
    );
  }
}

const changeId = (change: StateChange): string => `${change.table}:${change.key}`;

async function insertOps(db: Queryable, ops: readonly OpRecord[]): Promise<void> {
  if (ops.length === 0) return;
  await db.query(
    `INSERT INTO token_ops (op_score, tx_id, block_accept, mts_add, fee_rev, op, tick, from_address, to_address, amount,
       accepted, op_error, record)
     SELECT op_score, tx_id, block_accept, mts_add, fee_rev, op, tick, from_address, to_address, amount, accepted,
       op_error, record
     FROM unnest($1::bigint[], $2::bytea[], $3::bytea[], $4::bigint[], $5::numeric[], $6::text[], $7::text[],
       $8::text[], $9::text[], $10::numeric[], $11::boolean[], $12::text[], $13::text[])
       AS r(op_score, tx_id, block_accept, mts_add, fee_rev, op, tick, from_address, to_address, amount, accepted,
         op_error, record)
     ON CONFLICT (op_score) DO NOTHING`,
    [
      ops.map((r) => r.opScore),
      ops.map((r) => hexToBytes(r.txId)),
      ops.map((r) => hexToBytes(r.blockAccept)),
      ops.map((r) => BigInt(r.mtsAdd)),
      ops.map((r) => r.feeRev.toString()),
      ops.map((r) => r.primary.op.op),
      ops.map((r) => r.primary.op.tick),
      ops.map((r) => r.primary.op.from),
      ops.map((r) => ('to' in r.primary.op ? r.primary.op.to : null)),
      ops.map((r) => (r.primary.amount === null ? null : r.primary.amount.toString())),
      ops.map((r) => r.accepted),
      ops.map((r) => r.opError),
      ops.map((r) =>
        tokenJsonText({
          fromPayload: r.fromPayload,
          scripts: r.scripts.map(({ inputIndex, op, accepted, opError, amount }) => ({ inputIndex, op, accepted, opError, amount })),
        }),
      ),
    ],
  );
  const stats = ops.filter((r) => r.tokenCounters !== null);
  if (stats.length > 0) {
    await db.query(
      `INSERT INTO token_stats (tick, op_score, mts, holder_total, mint_total, transfer_total)
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::integer[], $5::integer[], $6::integer[])
       ON CONFLICT (tick, op_score) DO NOTHING`,
      [
        stats.map((r) => r.primary.op.tick),
        stats.map((r) => r.opScore),
        stats.map((r) => BigInt(r.mtsAdd)),
        stats.map((r) => r.tokenCounters!.holderTotal),
        stats.map((r) => r.tokenCounters!.mintTotal),
        stats.map((r) => r.tokenCounters!.transferTotal),
      ],
    );
    await addTokenStatBuckets(db, stats.map((r) => ({ tick: r.primary.op.tick, mts: BigInt(r.mtsAdd) })));
  }
  const fills = fillsFromOps(ops);
  if (fills.length > 0) {
    await db.query(
      `INSERT INTO token_fills (tick, op_score, mts, tx_id, seller, buyer, amount, price, dec)
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bytea[], $5::text[], $6::text[],
         $7::numeric[], $8::numeric[], $9::smallint[])
       ON CONFLICT (tick, op_score) DO NOTHING`,
      [
        fills.map((f) => f.tick),
        fills.map((f) => f.opScore),
        fills.map((f) => BigInt(f.timestamp)),
        fills.map((f) => hexToBytes(f.txId)),
        fills.map((f) => f.seller),
        fills.map((f) => f.buyer),
        fills.map((f) => f.amount.toString()),
        fills.map((f) => f.price.toString()),
        fills.map((f) => f.dec),
      ],
    );
    await refreshTokenCandles(db, fills.map((f) => ({ tick: f.tick, mts: BigInt(f.timestamp) })));
  }
}

/**
 * Stores what the engine did for consecutive chain blocks: the resulting state of every touched key, the op records,
 * counter snapshots and fills, and per block that changed state its undo log.
 */
export async function persistBlockApplications(db: Queryable, applications: readonly BlockApplication[]): Promise<void> {
  const latest: Latest = new Map();
  for (const application of applications) {
    for (const change of application.changes) {
      const id = changeId(change);
      const existing = latest.get(id);
      latest.set(id, existing ? ({ ...existing, after: change.after } as StateChange) : change);
    }
  }
  await writeStates(db, latest, 'after');
  await insertOps(db, applications.flatMap((application) => application.ops));
  const undone = applications.filter((application) => application.changes.length > 0);
  if (undone.length > 0) {
    await db.query(
      `INSERT INTO token_undo (block_hash, daa_score, changes)
       SELECT block_hash, daa_score, changes::jsonb FROM unnest($1::bytea[], $2::bigint[], $3::text[])
         AS u(block_hash, daa_score, changes)
       ON CONFLICT (block_hash) DO NOTHING`,
      [
        undone.map((application) => hexToBytes(application.hash)),
        undone.map((application) => application.daaScore),
        undone.map((application) =>
          tokenJsonText(
            application.changes.map((change) => ({ table: change.table, key: change.key, before: change.before, after: change.after })),
          ),
        ),
      ],
    );
  }
}

/**
 * Undoes every chain block applied above `daaScore`: each touched key gets back the value it had before the oldest
 * of them, and their op records, snapshots, fills and undo logs are deleted (and the chart buckets of those fills
 * and snapshots rebuilt). Returns how many undo logs were used.
 */
export async function revertTokenBlocksAbove(db: Queryable, daaScore: bigint): Promise<number> {
  const { rows } = await db.query<{ changes: unknown }>(
    'SELECT changes FROM token_undo WHERE daa_score > $1 ORDER BY daa_score DESC',
    [daaScore],
  );
  const oldestBefore: Latest = new Map();
  for (const row of rows) {
    for (const change of reviveTokenJson<StateChange[]>(row.changes)) oldestBefore.set(changeId(change), change);
  }
  await writeStates(db, oldestBefore, 'before');
  const firstRemoved = (daaScore + 1n) * OP_SCORE_MULTIPLIER;
  // Snapshots and fills carry their op record's (primary) tick, so the op records name the rows to delete.
  const removedStats = await db.query<{ tick: string; mts: bigint }>(
    `DELETE FROM token_stats s USING token_ops o
     WHERE o.op_score >= $1 AND s.tick = o.tick AND s.op_score = o.op_score RETURNING s.tick, s.mts`,
    [firstRemoved],
  );
  await rebuildTokenStatBuckets(db, removedStats.rows);
  const removedFills = await db.query<{ tick: string; mts: bigint }>(
    `DELETE FROM token_fills f USING token_ops o
     WHERE o.op_score >= $1 AND f.tick = o.tick AND f.op_score = o.op_score RETURNING f.tick, f.mts`,
    [firstRemoved],
  );
  await refreshTokenCandles(db, removedFills.rows);
  await db.query('DELETE FROM token_ops WHERE op_score >= $1', [firstRemoved]);
  await db.query('DELETE FROM token_undo WHERE daa_score > $1', [daaScore]);
  return rows.length;
}

/** Forgets undo logs at or below `daaScore` (reorganisations cannot reach that deep). */
export async function pruneTokenUndo(db: Queryable, daaScore: bigint): Promise<void> {
  await db.query('DELETE FROM token_undo WHERE daa_score <= $1', [daaScore]);
}
