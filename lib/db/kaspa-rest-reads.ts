import type { Hash } from '../kaspa/types';
import type { Queryable, QueryOptions } from './connection';

/*
 * The reads the kaspa-rest-server interface (lib/kaspa-rest) needs beyond the /v1 ones: address history by block time
 * (its before/after paging), accepting block times, and whole-index statistics. The history reads walk
 * address_transactions' primary key (address, block_time, transaction_id); the statistics scan acceptances and
 * history and are meant to be cached by the caller.
 */

const PREPARED: QueryOptions = { prepared: true };

/**
 * Blue-score reads bound the DAA score index from below, as a block's DAA score is close to its blue score: on mainnet
 * above it, but on the embedded devnet a chain block at blue score 172 had DAA score 171. This is the slack allowed.
 */
const DAA_BELOW_BLUE = 10_000;

const COINBASE_SUBNETWORK = Uint8Array.of(1, ...new Array<number>(19).fill(0));

export interface TimedTransactionId {
  transactionId: Hash;
  blockTime: bigint;
}

export interface TimedHistoryPage {
  /** The page's rows, and when the page is full every row at its newest and oldest block times (no duplicates). */
  rows: TimedTransactionId[];
  /** Whether the address has history newer than the page's newest row and older than its oldest. */
  hasNewer: boolean;
  hasOlder: boolean;
}

type TimedPageRow = { transaction_id: Uint8Array | null; block_time: bigint | null; newer: boolean | null; older: boolean | null };

/** The page's SQL condition and order for each kind of bound (with neither, the newest rows). */
const TIMED_PAGE_READS = {
  after: { where: 'block_time > $3::bigint', order: 'block_time, transaction_id' },
  before: { where: 'block_time < $3::bigint', order: 'block_time DESC, transaction_id DESC' },
  // Without a bound the planner walks the key backward; a bound above every row could lead it to sort them all.
  newest: { where: 'TRUE', order: 'block_time DESC, transaction_id DESC' },
} as const;

/**
 * One page of the address's history by block time, in one statement: up to `limit` rows (with `before`, block time
 * < before, newest first; with `after`, block time > after, oldest first; with neither, the newest), widened when full
 * to every row at its edge times so ties never straddle two pages, and whether history lies beyond either edge.
 */
export async function addressHistoryPageByTime(
  db: Queryable,
  address: string,
  query: { limit: number; before?: bigint; after?: bigint },
): Promise<TimedHistoryPage> {
  const { limit, before, after } = query;
  const kind = after !== undefined ? 'after' : before !== undefined ? 'before' : 'newest';
  const { where, order } = TIMED_PAGE_READS[kind];
  const bound = after ?? before;
  // Ordered, limited subqueries rather than EXISTS: a prepared statement's generic plan for EXISTS may scan the table
  // (the whole of it when nothing is newer), while an order along the key keeps it on the index.
  const { rows } = await db.query<TimedPageRow>(
    `WITH page AS (
       SELECT transaction_id, block_time FROM address_transactions
       WHERE address = $1 AND ${where} ORDER BY ${order} LIMIT $2
     ), edge AS (SELECT max(block_time) AS newest, min(block_time) AS oldest, count(*) AS size FROM page)
     SELECT transaction_id, block_time, NULL::boolean AS newer, NULL::boolean AS older FROM page
     UNION ALL
     SELECT a.transaction_id, a.block_time, NULL, NULL FROM edge JOIN address_transactions a
       ON a.address = $1 AND a.block_time IN (edge.newest, edge.oldest)
     WHERE edge.size = $2
     UNION ALL
     SELECT NULL, NULL,
       (SELECT block_time FROM address_transactions WHERE address = $1 AND block_time > edge.newest
        ORDER BY block_time LIMIT 1) IS NOT NULL,
       (SELECT block_time FROM address_transactions WHERE address = $1 AND block_time < edge.oldest
        ORDER BY block_time DESC LIMIT 1) IS NOT NULL
     FROM edge WHERE edge.size > 0`,
    bound === undefined ? [address, limit] : [address, limit, bound],
    PREPARED,
  );
  const page = new Map<string, TimedTransactionId>();
  let hasNewer = false;
  let hasOlder = false;
  for (const row of rows) {
    if (row.transaction_id === null || row.block_time === null) {
      hasNewer = row.newer ?? false;
      hasOlder = row.older ?? false;
    } else {
      page.set(Buffer.from(row.transaction_id).toString('hex'), { transactionId: row.transaction_id, blockTime: row.block_time });
    }
  }
  return { rows: [...page.values()], hasNewer, hasOlder };
}

/** kaspa-rest-server's legacy offset paging: `limit` rows after skipping `offset`, newest first. */
export async function addressHistoryByOffset(
  db: Queryable,
  address: string,
  query: { limit: number; offset: number },
): Promise<TimedTransactionId[]> {
  const { rows } = await db.query<{ transaction_id: Uint8Array; block_time: bigint }>(
    `SELECT transaction_id, block_time FROM address_transactions
     WHERE address = $1 ORDER BY block_time DESC, transaction_id DESC LIMIT $2 OFFSET $3`,
    [address, query.limit, query.offset],
    PREPARED,
  );
  return rows.map((row) => ({ transactionId: row.transaction_id, blockTime: row.block_time }));
}

export interface StoredBlockTime {
  blueScore: bigint;
  timestamp: bigint;
}

/** Blue score and timestamp of the stored blocks among `hashes`, by hex hash. */
export async function blockTimes(db: Queryable, hashes: readonly Hash[]): Promise<Map<string, StoredBlockTime>> {
  if (hashes.length === 0) return new Map();
  const { rows } = await db.query<{ hash: Uint8Array; blue_score: bigint; timestamp: bigint }>(
    'SELECT hash, blue_score, timestamp FROM blocks WHERE hash = ANY($1::bytea[])',
    [hashes],
    PREPARED,
  );
  return new Map(rows.map((row) => [Buffer.from(row.hash).toString('hex'), { blueScore: row.blue_score, timestamp: row.timestamp }]));
}

/** The stored chain blocks with from ≤ blue score < to (the DAA score, at most DAA_BELOW_BLUE under the blue score, bounds the index range). */
export async function chainBlocksByBlueScore(db: Queryable, from: bigint, to: bigint): Promise<Hash[]> {
  const { rows } = await db.query<{ hash: Uint8Array }>(
    `SELECT hash FROM blocks WHERE daa_score >= $1 - ${DAA_BELOW_BLUE} AND blue_score >= $1 AND blue_score < $2 AND is_chain_block`,
    [from, to],
    PREPARED,
  );
  return rows.map((row) => row.hash);
}

/** The transactions the given chain blocks accepted. */
export async function acceptedBy(db: Queryable, acceptingBlocks: readonly Hash[]): Promise<Hash[]> {
  if (acceptingBlocks.length === 0) return [];
  const { rows } = await db.query<{ transaction_id: Uint8Array }>(
    'SELECT transaction_id FROM transaction_acceptances WHERE accepting_block_hash = ANY($1::bytea[])',
    [acceptingBlocks],
    PREPARED,
  );
  return rows.map((row) => row.transaction_id);
}

export interface TransactionCountBucket {
  /** Epoch ms of the bucket's start (a UTC hour). */
  timestamp: bigint;
  coinbase: number;
  regular: number;
}

/** Accepted transactions per UTC hour of block time, oldest first (hours without any are left out). */
export async function acceptedTransactionCounts(db: Queryable): Promise<TransactionCountBucket[]> {
  const { rows } = await db.query<{ hour: string; coinbase: string; regular: string }>(
    `SELECT (t.block_time / 3600000 * 3600000)::text AS hour,
            count(*) FILTER (WHERE t.subnetwork_id = $1)::text AS coinbase,
            count(*) FILTER (WHERE t.subnetwork_id <> $1)::text AS regular
     FROM transaction_acceptances a JOIN transactions t ON t.transaction_id = a.transaction_id
     GROUP BY 1 ORDER BY 1`,
    [COINBASE_SUBNETWORK],
    PREPARED,
  );
  return rows.map((row) => ({ timestamp: BigInt(row.hour), coinbase: Number(row.coinbase), regular: Number(row.regular) }));
}

export interface AddressBalance {
  address: string;
  balance: bigint;
}

export interface BalanceTier {
  /** floor(log10(balance in sompi)) − 4: tier 0 holds [0.0001, 1) KAS … tier 10 [1e9, 1e10) KAS. */
  tier: number;
  count: number;
  amount: bigint;
}

/**
 * Balances from the accepted history (received − sent over accepted transactions): the `top` largest, and every
 * positive balance from 0.0001 KAS up counted by tier.
 */
export async function balanceRanking(db: Queryable, top: number): Promise<{ top: AddressBalance[]; tiers: BalanceTier[] }> {
  const balances = `SELECT h.address, sum(h.amount_received) - sum(h.amount_sent) AS balance
                    FROM address_transactions h JOIN transaction_acceptances a ON a.transaction_id = h.transaction_id
                    GROUP BY h.address`;
  const { rows } = await db.query<{ kind: string; address: string | null; tier: number | null; count: string; amount: string }>(
    `WITH b AS MATERIALIZED (${balances})
     (SELECT 'top' AS kind, address, NULL::integer AS tier, '1' AS count, balance::text AS amount
      FROM b WHERE balance > 0 ORDER BY balance DESC, address LIMIT $1)
     UNION ALL
     (SELECT 'tier', NULL, (floor(log(balance)) - 4)::integer, count(*)::text, sum(balance)::text
      FROM b WHERE balance >= 10000 GROUP BY 3)`,
    [top],
    PREPARED,
  );
  return {
    top: rows.filter((row) => row.kind === 'top').map((row) => ({ address: row.address ?? '', balance: BigInt(row.amount) })),
    tiers: rows
      .filter((row) => row.kind === 'tier')
      .map((row) => ({ tier: row.tier ?? 0, count: Number(row.count), amount: BigInt(row.amount) }))
      .sort((x, y) => x.tier - y.tier),
  };
}

export interface HardestBlock {
  hash: Hash;
  timestamp: bigint;
  difficulty: number;
  daaScore: bigint;
  blueScore: bigint;
}

/** The stored block of highest difficulty (the earliest such by blue score), null when none is stored; a full scan. */
export async function hardestBlock(db: Queryable): Promise<HardestBlock | null> {
  const { rows } = await db.query<{ hash: Uint8Array; timestamp: bigint; difficulty: number; daa_score: bigint; blue_score: bigint }>(
    'SELECT hash, timestamp, difficulty, daa_score, blue_score FROM blocks ORDER BY difficulty DESC, blue_score ASC LIMIT 1',
    [],
    PREPARED,
  );
  const row = rows[0];
  if (row === undefined) return null;
  return { hash: row.hash, timestamp: row.timestamp, difficulty: row.difficulty, daaScore: row.daa_score, blueScore: row.blue_score };
}

/**
 * The stored blue score nearest a bound: the lowest at or above `gte`, or the highest below `lt`; null when none. The
 * blocks table has no blue score index: the DAA score (DAA_BELOW_BLUE) bounds the DAA index from below, and below `lt` the
 * search widens from the 1,000 blue scores under it, fourfold each time, until it finds one or reaches zero.
 */
export async function nearestBlueScore(db: Queryable, bound: { gte: bigint } | { lt: bigint }): Promise<bigint | null> {
  if ('gte' in bound) {
    const { rows } = await db.query<{ blue_score: bigint | null }>(
      `SELECT min(blue_score) AS blue_score FROM blocks WHERE daa_score >= $1 - ${DAA_BELOW_BLUE} AND blue_score >= $1`,
      [bound.gte],
      PREPARED,
    );
    return rows[0]?.blue_score ?? null;
  }
  for (let window = 1_000n; ; window *= 4n) {
    const from = bound.lt > window ? bound.lt - window : 0n;
    const { rows } = await db.query<{ blue_score: bigint | null }>(
      `SELECT max(blue_score) AS blue_score FROM blocks WHERE daa_score >= $1 - ${DAA_BELOW_BLUE} AND blue_score >= $1 AND blue_score < $2`,
      [from, bound.lt],
      PREPARED,
    );
    const found = rows[0]?.blue_score ?? null;
    if (found !== null || from === 0n) return found;
  }
}
/** The stored blocks with exactly this blue score. */
export async function blocksAtBlueScore(db: Queryable, blueScore: bigint): Promise<Hash[]> {
  const { rows } = await db.query<{ hash: Uint8Array }>(`SELECT hash FROM blocks WHERE daa_score >= $1 - ${DAA_BELOW_BLUE} AND blue_score = $1 ORDER BY hash`, [blueScore], PREPARED);
  return rows.map((row) => row.hash);
}

export interface ChainBlockAcceptances {
  hash: Hash;
  blueScore: bigint;
  daaScore: bigint;
  timestamp: bigint;
  /** The transactions it accepted, by id. */
  accepted: Hash[];
}

/** The stored chain blocks with from ≤ blue score < to that accepted transactions, by blue score, with what they accepted. */
export async function chainAcceptances(db: Queryable, from: bigint, to: bigint): Promise<ChainBlockAcceptances[]> {
  const { rows } = await db.query<{ hash: Uint8Array; blue_score: bigint; daa_score: bigint; timestamp: bigint; transaction_id: Uint8Array }>(
    `SELECT b.hash, b.blue_score, b.daa_score, b.timestamp, a.transaction_id
       FROM blocks b JOIN transaction_acceptances a ON a.accepting_block_hash = b.hash
      WHERE b.daa_score >= $1 - ${DAA_BELOW_BLUE} AND b.blue_score >= $1 AND b.blue_score < $2 AND b.is_chain_block
      ORDER BY b.blue_score, b.hash, a.transaction_id`,
    [from, to],
    PREPARED,
  );
  const blocks: ChainBlockAcceptances[] = [];
  for (const row of rows) {
    const last = blocks.at(-1);
    if (last !== undefined && Buffer.from(last.hash).equals(Buffer.from(row.hash))) last.accepted.push(row.transaction_id);
    else blocks.push({ hash: row.hash, blueScore: row.blue_score, daaScore: row.daa_score, timestamp: row.timestamp, accepted: [row.transaction_id] });
  }
  return blocks;
}
