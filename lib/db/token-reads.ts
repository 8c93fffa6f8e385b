import type { Fill } from '../tokens/market';
import type { BalanceState, TokenState } from '../tokens/engine';
import { bytesToHex } from '../kaspa/bytes';
import type { Queryable } from './connection';
import { UnknownCursorError } from './reads';
import { balanceFromRow, TOKEN_COLUMNS, tokenFromRow, type TokenRow } from './token-store';

/* The API's token reads. Every statement is driven by a primary key or index (see token-explain.test.ts). */

export const TOKEN_PAGE_LIMIT = { default: 20, max: 100 } as const;

/** By token key: the upper-case tick, or the lower-case ca of an issue-mode token. */
export async function getToken(db: Queryable, tick: string): Promise<TokenState | null> {
  const { rows } = await db.query<TokenRow>(`SELECT ${TOKEN_COLUMNS} FROM token_tokens WHERE tick = $1`, [tick]);
  return rows[0] ? tokenFromRow(rows[0]) : null;
}

/** balance + locked of one address (0n when it holds none). */
export async function getTokenHolding(db: Queryable, tick: string, address: string): Promise<bigint> {
  const { rows } = await db.query<{ balance: string; locked: string }>(
    'SELECT balance, locked FROM token_balances WHERE tick = $1 AND address = $2',
    [tick, address],
  );
  return rows[0] ? BigInt(rows[0].balance) + BigInt(rows[0].locked) : 0n;
}

export interface TokenPageQuery {
  limit: number;
  /** Forward (older deploys): the last ticker of the previous page. */
  startingAfter?: string;
  /** Backward (newer deploys): the first ticker of the current page. */
  endingBefore?: string;
}

/** Tokens newest deploy first (by opScoreAdd); cursors are token keys. */
export async function getTokenPage(db: Queryable, query: TokenPageQuery): Promise<{ tokens: TokenState[]; hasMore: boolean }> {
  const { limit, startingAfter, endingBefore } = query;
  if (!Number.isInteger(limit) || limit < 1 || limit > TOKEN_PAGE_LIMIT.max) {
    throw new RangeError(`limit must be an integer from 1 to ${TOKEN_PAGE_LIMIT.max}`);
  }
  const cursor = startingAfter ?? endingBefore;
  const backward = endingBefore !== undefined;
  const params: unknown[] = [limit + 1];
  let condition = '';
  if (cursor !== undefined) {
    const { rows } = await db.query<{ op_score_add: bigint }>('SELECT op_score_add FROM token_tokens WHERE tick = $1', [cursor]);
    if (!rows[0]) throw new UnknownCursorError(`unknown cursor token ${cursor}`);
    params.push(rows[0].op_score_add);
    condition = `WHERE op_score_add ${backward ? '>' : '<'} $2`;
  }
  const { rows } = await db.query<TokenRow>(
    `SELECT ${TOKEN_COLUMNS} FROM token_tokens ${condition} ORDER BY op_score_add ${backward ? 'ASC' : 'DESC'} LIMIT $1`,
    params,
  );
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit);
  if (backward) page.reverse();
  return { tokens: page.map(tokenFromRow), hasMore };
}

export interface FillRow {
  tick: string;
  op_score: bigint;
  mts: bigint;
  tx_id: Uint8Array;
  seller: string;
  buyer: string;
  amount: string;
  price: string;
  dec: number;
}

export const fillFromRow = (row: FillRow): Fill => ({
  tick: row.tick,
  opScore: row.op_score,
  timestamp: Number(row.mts),
  txId: bytesToHex(row.tx_id),
  seller: row.seller,
  buyer: row.buyer,
  amount: BigInt(row.amount),
  price: BigInt(row.price),
  dec: row.dec,
});

export const FILL_COLUMNS = 'tick, op_score, mts, tx_id, seller, buyer, amount, price, dec';

export interface TokenMarketSummary {
  /** The last fill, by opScore. */
  last: Fill | null;
  /** The last fill before `since` (for the change over the period). */
  before: Fill | null;
  /** Sompi paid by fills at or after `since`, and how many. */
  volumeSompi: bigint;
  trades: number;
}

/** Per token: last fill, last fill before `sinceMs`, and the fills' volume since then. */
export async function getTokenMarketSummaries(
  db: Queryable,
  ticks: readonly string[],
  sinceMs: number,
): Promise<Map<string, TokenMarketSummary>> {
  const summaries = new Map<string, TokenMarketSummary>();
  if (ticks.length === 0) return summaries;
  const since = BigInt(sinceMs);
  const [last, before, volume] = await Promise.all([
    db.query<FillRow>(
      `SELECT f.* FROM unnest($1::text[]) AS t(tick)
       CROSS JOIN LATERAL (SELECT ${FILL_COLUMNS} FROM token_fills f WHERE f.tick = t.tick COLLATE "C"
                           ORDER BY f.op_score DESC LIMIT 1) f`,
      [ticks],
    ),
    db.query<FillRow>(
      `SELECT f.* FROM unnest($1::text[]) AS t(tick)
       CROSS JOIN LATERAL (SELECT ${FILL_COLUMNS} FROM token_fills f WHERE f.tick = t.tick COLLATE "C" AND f.mts < $2
                           ORDER BY mts DESC, op_score DESC LIMIT 1) f`,
      [ticks, since],
    ),
    db.query<{ tick: string; sompi: string; trades: bigint }>(
      `SELECT t.tick, v.sompi, v.trades FROM unnest($1::text[]) AS t(tick)
       CROSS JOIN LATERAL (SELECT coalesce(sum(price), 0) AS sompi, count(*) AS trades FROM token_fills f
                           WHERE f.tick = t.tick COLLATE "C" AND f.mts >= $2) v`,
      [ticks, since],
    ),
  ]);
  for (const tick of ticks) summaries.set(tick, { last: null, before: null, volumeSompi: 0n, trades: 0 });
  for (const row of last.rows) summaries.get(row.tick)!.last = fillFromRow(row);
  for (const row of before.rows) summaries.get(row.tick)!.before = fillFromRow(row);
  for (const row of volume.rows) {
    const summary = summaries.get(row.tick)!;
    summary.volumeSompi = BigInt(row.sompi);
    summary.trades = Number(row.trades);
  }
  return summaries;
}

/** Top holders by balance + locked, then address. */
export async function getTokenHolders(db: Queryable, tick: string, limit: number): Promise<BalanceState[]> {
  const { rows } = await db.query<Parameters<typeof balanceFromRow>[0]>(
    `SELECT tick, address, dec, balance, locked, op_score_mod FROM token_balances
     WHERE tick = $1 ORDER BY (balance + locked) DESC, address LIMIT $2`,
    [tick, limit],
  );
  return rows.map(balanceFromRow);
}

export interface TokenOpRow {
  opScore: bigint;
  txId: string;
  op: string;
  from: string;
  to: string | null;
  amount: bigint | null;
  accepted: boolean;
  opError: string | null;
  mtsAdd: number;
  feeRev: bigint;
}

interface TokenOpDbRow {
  op_score: bigint;
  tx_id: Uint8Array;
  op: string;
  from_address: string;
  to_address: string | null;
  amount: string | null;
  accepted: boolean;
  op_error: string | null;
  mts_add: bigint;
  fee_rev: string;
}

const TOKEN_OP_COLUMNS = 'op_score, tx_id, op, from_address, to_address, amount, accepted, op_error, mts_add, fee_rev';

const tokenOpFromRow = (row: TokenOpDbRow): TokenOpRow => ({
  opScore: row.op_score,
  txId: bytesToHex(row.tx_id),
  op: row.op,
  from: row.from_address,
  to: row.to_address,
  amount: row.amount === null ? null : BigInt(row.amount),
  accepted: row.accepted,
  opError: row.op_error,
  mtsAdd: Number(row.mts_add),
  feeRev: BigInt(row.fee_rev),
});

/** The token's op records, newest first, below `beforeOpScore` when given. */
export async function getTokenOps(
  db: Queryable,
  tick: string,
  limit: number,
  beforeOpScore?: bigint,
): Promise<TokenOpRow[]> {
  const { rows } = await db.query<TokenOpDbRow>(
    `SELECT ${TOKEN_OP_COLUMNS} FROM token_ops WHERE tick = $1 AND op_score < $3 ORDER BY op_score DESC LIMIT $2`,
    [tick, limit, beforeOpScore ?? (1n << 62n)],
  );
  return rows.map(tokenOpFromRow);
}

export interface TransactionTokenOpRow extends TokenOpRow {
  tick: string;
  /** The token's decimals; null when no token of that ticker exists (a failed deploy, an op on an unknown ticker). */
  dec: number | null;
}

/** The op records a transaction carries (a reveal holds one; the indexer keeps failed ones too), by opScore. */
export async function getTokenOpsOfTransaction(db: Queryable, txId: Uint8Array): Promise<TransactionTokenOpRow[]> {
  const { rows } = await db.query<TokenOpDbRow & { tick: string; dec: number | null }>(
    `SELECT ${TOKEN_OP_COLUMNS.split(', ').map((column) => `o.${column}`).join(', ')}, o.tick, t.dec
     FROM token_ops o LEFT JOIN token_tokens t ON t.tick = o.tick
     WHERE o.tx_id = $1 ORDER BY o.op_score`,
    [txId],
  );
  return rows.map((row) => ({ ...tokenOpFromRow(row), tick: row.tick, dec: row.dec === null ? null : Number(row.dec) }));
}

export interface AddressTokenBalance {
  tick: string;
  dec: number;
  balance: bigint;
  locked: bigint;
}

/** What an address holds of each token (balance or locked in a listing), by ticker; at most `limit` tokens. */
export async function getTokenBalancesOfAddress(db: Queryable, address: string, limit: number): Promise<AddressTokenBalance[]> {
  const { rows } = await db.query<{ tick: string; dec: number; balance: string; locked: string }>(
    `SELECT tick, dec, balance::text AS balance, locked::text AS locked FROM token_balances
     WHERE address = $1 AND (balance > 0 OR locked > 0) ORDER BY tick LIMIT $2`,
    [address, limit],
  );
  return rows.map((row) => ({ tick: row.tick, dec: Number(row.dec), balance: BigInt(row.balance), locked: BigInt(row.locked) }));
}

/** The op records at or above an opScore (those a revert above a DAA score removes), by opScore. */
export async function getTokenOpsFrom(db: Queryable, fromOpScore: bigint): Promise<(TokenOpRow & { tick: string })[]> {
  const { rows } = await db.query<TokenOpDbRow & { tick: string }>(
    `SELECT ${TOKEN_OP_COLUMNS}, tick FROM token_ops WHERE op_score >= $1 ORDER BY op_score`,
    [fromOpScore],
  );
  return rows.map((row) => ({ ...tokenOpFromRow(row), tick: row.tick }));
}
