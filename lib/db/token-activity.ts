import type { Fill } from '../tokens/market';
import type { Queryable } from './connection';
import { UnknownCursorError } from './reads';
import { FILL_COLUMNS, fillFromRow, getTokenOps, type FillRow, type TokenOpRow } from './token-reads';

/*
 * The token page's activity reads: holders (largest first), op records and fills (newest first), each a keyset page of
 * `limit` rows plus whether more follow. Every statement is driven by an index (see token-activity.test.ts).
 */

export interface Page<T> {
  rows: T[];
  hasMore: boolean;
}

function checkLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new RangeError('limit must be an integer from 1 to 1000');
}

function paged<T>(rows: T[], limit: number): Page<T> {
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}

export interface TokenHolder {
  address: string;
  balance: bigint;
  locked: bigint;
}

/**
 * Holders by balance + locked (largest first), then address, after the holder `afterAddress` when given; an address
 * that holds nothing of the token is an UnknownCursorError.
 */
export async function getTokenHolderPage(
  db: Queryable,
  tick: string,
  limit: number,
  afterAddress?: string,
): Promise<Page<TokenHolder>> {
  checkLimit(limit);
  const params: unknown[] = [tick, limit + 1];
  let condition = '';
  if (afterAddress !== undefined) {
    const { rows } = await db.query<{ total: string }>(
      'SELECT (balance + locked)::text AS total FROM token_balances WHERE tick = $1 AND address = $2',
      [tick, afterAddress],
    );
    if (!rows[0]) throw new UnknownCursorError(`${afterAddress} holds no ${tick}`);
    params.push(rows[0].total, afterAddress);
    condition = `AND (balance + locked) <= $3::numeric
                 AND ((balance + locked) < $3::numeric OR address > $4)`;
  }
  const { rows } = await db.query<{ address: string; balance: string; locked: string }>(
    `SELECT address, balance::text AS balance, locked::text AS locked FROM token_balances
     WHERE tick = $1 ${condition} ORDER BY (balance + locked) DESC, address LIMIT $2`,
    params,
  );
  return paged(
    rows.map((row) => ({ address: row.address, balance: BigInt(row.balance), locked: BigInt(row.locked) })),
    limit,
  );
}

/** The token's op records newest first, below `beforeOpScore` when given. */
export async function getTokenOpPage(
  db: Queryable,
  tick: string,
  limit: number,
  beforeOpScore?: bigint,
): Promise<Page<TokenOpRow>> {
  checkLimit(limit);
  return paged(await getTokenOps(db, tick, limit + 1, beforeOpScore), limit);
}

/** The token's fills newest first (by opScore), below `beforeOpScore` when given. */
export async function getTokenFillPage(
  db: Queryable,
  tick: string,
  limit: number,
  beforeOpScore?: bigint,
): Promise<Page<Fill>> {
  checkLimit(limit);
  const { rows } = await db.query<FillRow>(
    `SELECT ${FILL_COLUMNS} FROM token_fills WHERE tick = $1 AND op_score < $3 ORDER BY op_score DESC LIMIT $2`,
    [tick, limit + 1, beforeOpScore ?? 1n << 62n],
  );
  return paged(rows.map(fillFromRow), limit);
}
