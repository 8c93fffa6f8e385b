import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Queryable, QueryResult } from './connection';
import { migrate } from './migrations';
import { getCovenant, getCovenants } from './covenant-reads';
import {
  getAddressTransactions,
  getBlocksByDaaScore,
  getCovenantTransactions,
  getTransaction,
  getTransactions,
  type AddressPageQuery,
  type DaaScoreRangeQuery,
} from './reads';
import type { BlockRecord, TransactionRecord } from './records';
import {
  addressOf,
  covenantOutput,
  hashOf,
  payToAddressOutput,
  syntheticBlock,
  syntheticTransaction,
  type SyntheticSpend,
} from './test-support/fixtures';
import { testBackends, type TestDatabase } from './test-support/test-databases';
import {
  applyVirtualChainChange,
  insertBlocks,
  insertTransactions,
  readCheckpoint,
  removeAcceptances,
  resolvePreviousOutputs,
  setChainBlockFlags,
} from './writes';

/**
 * Tables that grow with the chain: reading one without an index condition is a bug in a read path. With a few
 * thousand rows a sequential scan, or a merge or hash join over a whole table, is sometimes genuinely cheapest, so
 * plans are taken with those priced out (as they are at mainnet sizes for key lookups): the planner then still picks
 * a whole-table scan only where no index can serve the statement.
 */
const AT_SCALE_PLANNER_SETTINGS = ['enable_seqscan', 'enable_mergejoin', 'enable_hashjoin'].map(
  (setting) => `SET LOCAL ${setting} = off`,
);
/** `covenants` is left out: the list's first page reads it in index order with a LIMIT, which needs no condition. */
const LARGE_TABLES = new Set([
  'blocks',
  'block_children',
  'block_transactions',
  'transactions',
  'transaction_inputs',
  'transaction_outputs',
  'transaction_acceptances',
  'address_transactions',
  'covenant_transactions',
  'covenant_utxos',
]);

const BLOCK_COUNT = 800;
const EXPLAIN_COVENANT = hashOf('explain covenant');
const TRANSACTIONS_PER_BLOCK = 3;
const ADDRESS_COUNT = 40;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

interface ExplainedStatement {
  sql: string;
  unindexedScans: string[];
}

/** Sequential scans and full index scans (no index condition) of large tables, as `node type on table`. */
function unindexedScans(node: PlanNode): string[] {
  const table = node['Relation Name'];
  const type = node['Node Type'];
  const unindexed =
    table !== undefined &&
    LARGE_TABLES.has(table) &&
    (type === 'Seq Scan' || (type.startsWith('Index') && node['Index Cond'] === undefined));
  return [...(unindexed ? [`${type} on ${table}`] : []), ...(node.Plans ?? []).flatMap(unindexedScans)];
}

/** Must run inside a transaction (the settings are SET LOCAL). */
async function unindexedScansOf(tx: Queryable, sql: string, params?: readonly unknown[]): Promise<string[]> {
  for (const setting of AT_SCALE_PLANNER_SETTINGS) await tx.query(setting);
  const { rows } = await tx.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
  const raw = rows[0]?.['QUERY PLAN'];
  const [plan] = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode }[];
  if (!plan) throw new Error(`no plan for ${sql}`);
  return unindexedScans(plan.Plan);
}

/** Runs every statement twice: once under EXPLAIN to record its plan, once for real so the caller gets its rows. */
function explaining(db: Db, explained: ExplainedStatement[]): Queryable {
  return {
    async query<T>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>> {
      const scans = await db.transaction((tx) => unindexedScansOf(tx, sql, params));
      explained.push({ sql: sql.replace(/\s+/g, ' ').trim(), unindexedScans: scans });
      return db.query<T>(sql, params);
    },
    exec: (sql) => db.exec(sql),
  };
}

function spendOf(transaction: TransactionRecord, index: number): SyntheticSpend {
  return {
    previousTransactionId: transaction.transactionId,
    previousIndex: index,
    previousOutput: transaction.outputs[index] ?? null,
  };
}

function syntheticChain(): { blocks: BlockRecord[]; transactions: TransactionRecord[] } {
  const blocks: BlockRecord[] = [];
  const transactions: TransactionRecord[] = [];
  let previous: TransactionRecord | undefined;
  for (let height = 0; height < BLOCK_COUNT; height++) {
    const timestamp = 1_700_000_000_000n + BigInt(height) * 100n;
    const contained: TransactionRecord[] = [];
    for (let slot = 0; slot < TRANSACTIONS_PER_BLOCK; slot++) {
      const n = height * TRANSACTIONS_PER_BLOCK + slot;
      const spends = previous
        ? [spendOf(previous, 0)]
        : [];
      // Output 0 carries the chain of spends, bound to a covenant: the chain is also one long lineage.
      const transaction = syntheticTransaction(`explain ${n}`, timestamp, spends, [
        covenantOutput(`explain ${n % ADDRESS_COUNT}`, 1_000_000n - BigInt(n), EXPLAIN_COVENANT, 0),
        payToAddressOutput(`explain ${(n * 7 + 3) % ADDRESS_COUNT}`, 5_000n),
      ]);
      contained.push(transaction);
      previous = transaction;
    }
    const parent = blocks.at(-1);
    blocks.push(
      syntheticBlock({
        label: `explain ${height}`,
        daaScore: BigInt(height),
        parents: parent ? [parent.hash] : [],
        transactionIds: contained.map((transaction) => transaction.transactionId),
        isChainBlock: false,
      }),
    );
    transactions.push(...contained);
  }
  return { blocks, transactions };
}

describe.each(testBackends())('$name', (backend) => {
  let database: TestDatabase;
  let db: Db;
  const { blocks, transactions } = syntheticChain();
  const explained: ExplainedStatement[] = [];
  let traced: Queryable;

  beforeAll(async () => {
    database = await backend.open();
    db = database.db;
    await migrate(db);
    for (let start = 0; start < blocks.length; start += 500) {
      const blockBatch = blocks.slice(start, start + 500);
      await db.transaction(async (tx) => {
        await insertBlocks(tx, blockBatch);
        await insertTransactions(
          tx,
          transactions.slice(start * TRANSACTIONS_PER_BLOCK, (start + 500) * TRANSACTIONS_PER_BLOCK),
        );
        await applyVirtualChainChange(tx, {
          removedChainBlockHashes: [],
          added: blockBatch
            .filter((_, index) => index % 2 === 0)
            .map((block) => ({ acceptingBlockHash: block.hash, acceptedTransactionIds: block.transactionIds })),
        });
      });
    }
    await db.exec('ANALYZE');
    traced = explaining(db, explained);
  }, 300_000);

  afterAll(async () => {
    await database?.dispose();
  });

  const middle = (): TransactionRecord => transactions[Math.floor(transactions.length / 2)]!;
  const busyAddress = addressOf('explain 7');

  const addressPage = (query: Partial<AddressPageQuery>) =>
    getAddressTransactions(traced, {
      address: busyAddress,
      limit: 20,
      acceptedOnly: false,
      includePayload: false,
      ...query,
    });
  const daaRange = (flags: Omit<DaaScoreRangeQuery, 'start' | 'end'>) =>
    getBlocksByDaaScore(traced, { start: 700n, end: 720n, ...flags });

  const readPaths: [string, () => Promise<unknown>][] = [
    ['transaction by id', () => getTransaction(traced, middle().transactionId, { includePayload: true })],
    [
      'transactions by ids',
      () =>
        getTransactions(
          traced,
          transactions.slice(100, 110).map((transaction) => transaction.transactionId),
          { includePayload: false },
        ),
    ],
    ['address history, first page', () => addressPage({})],
    ['address history from a time', () => addressPage({ beforeTime: 40_000n })],
    [
      'address history, accepted only',
      () => addressPage({ acceptedOnly: true, includePayload: true }),
    ],
    [
      'address history, starting after',
      () => addressPage({ startingAfter: transactions[2000]!.transactionId }),
    ],
    [
      'address history, ending before',
      () => addressPage({ endingBefore: transactions[1000]!.transactionId }),
    ],
    [
      'address history, accepted only, starting after',
      () => addressPage({ acceptedOnly: true, startingAfter: transactions[2000]!.transactionId }),
    ],
    [
      'blocks by DAA score with transactions',
      () => daaRange({ chainBlocksOnly: false, includeTransactions: true, includePayload: true }),
    ],
    [
      'chain blocks by DAA score',
      () => daaRange({ chainBlocksOnly: true, includeTransactions: false, includePayload: false }),
    ],
    [
      'previous outputs by outpoint',
      () =>
        resolvePreviousOutputs(
          traced,
          transactions.slice(300, 305).map((transaction) => ({ transactionId: transaction.transactionId, index: 1 })),
        ),
    ],
    ['acceptance removal by chain block', () => removeAcceptances(traced, [hashOf('not a chain block')])],
    [
      'covenant lineage, first page',
      () => getCovenantTransactions(traced, EXPLAIN_COVENANT, { limit: 20, includePayload: false }),
    ],
    [
      'covenant lineage, starting after',
      () =>
        getCovenantTransactions(traced, EXPLAIN_COVENANT, {
          limit: 20,
          startingAfter: transactions[1200]!.transactionId,
          includePayload: false,
        }),
    ],
    [
      'covenant lineage, ending before',
      () =>
        getCovenantTransactions(traced, EXPLAIN_COVENANT, {
          limit: 20,
          endingBefore: transactions[600]!.transactionId,
          includePayload: false,
        }),
    ],
    ['covenant list, first page', () => getCovenants(traced, { limit: 20 })],
    ['covenant list, starting after', () => getCovenants(traced, { limit: 20, startingAfter: EXPLAIN_COVENANT })],
    ['covenant with its UTXOs', () => getCovenant(traced, EXPLAIN_COVENANT)],
    [
      'acceptance change with covenant outputs (reorganisation and back)',
      async () => {
        const block = blocks[600]!;
        await applyVirtualChainChange(traced, { removedChainBlockHashes: [block.hash], added: [] });
        await applyVirtualChainChange(traced, {
          removedChainBlockHashes: [],
          added: [{ acceptingBlockHash: block.hash, acceptedTransactionIds: block.transactionIds }],
        });
      },
    ],
    ['chain flag update', () => setChainBlockFlags(traced, [hashOf('not a block')], true)],
    ['checkpoint read', () => readCheckpoint(traced, 'virtual-chain')],
    [
      'transaction insert, new and already stored',
      () =>
        insertTransactions(traced, [
          syntheticTransaction('explain extra', 1n, [spendOf(middle(), 1)], [payToAddressOutput('explain 1', 10n)]),
          middle(),
        ]),
    ],
  ];

  it.each(readPaths)('%s reads through indexes only', async (_, run) => {
    const from = explained.length;
    await run();
    const statements = explained.slice(from);
    expect(statements.length).toBeGreaterThan(0);
    const offending = statements.filter((statement) => statement.unindexedScans.length > 0);
    expect(offending).toEqual([]);
  });

  it.each([
    'transaction by id',
    'transactions by ids',
    'address history, first page',
    'address history, accepted only',
    'address history, starting after',
    'address history, ending before',
    'address history, accepted only, starting after',
    'covenant lineage, first page',
    'covenant lineage, starting after',
    'covenant lineage, ending before',
  ])('%s is one statement', async (name) => {
    const from = explained.length;
    await new Map(readPaths).get(name)!();
    expect(explained.length - from).toBe(1);
  });

  it('detects a read path whose index is missing', async () => {
    const rollback = new Error('rollback');
    let scans: string[] = [];
    const attempt = db.transaction(async (tx) => {
      await tx.exec('DROP INDEX block_transactions_transaction');
      const membership = 'SELECT block_hash FROM block_transactions WHERE transaction_id = ANY($1::bytea[])';
      scans = await unindexedScansOf(tx, membership, [[middle().transactionId]]);
      throw rollback;
    });
    await expect(attempt).rejects.toBe(rollback);
    expect(scans).toEqual([expect.stringMatching(/ on block_transactions$/)]);
  });

  it('the synthetic chain is large enough for the planner to prefer indexes', async () => {
    const { rows } = await db.query<{ count: bigint }>('SELECT count(*) AS count FROM address_transactions');
    expect(rows[0]!.count).toBeGreaterThan(5_000n);
  });
});
