import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  addressActivity,
  applyVirtualChainChange,
  getAddressTransactions,
  getTransaction,
  insertBlocks,
  insertTransactions,
  migrate,
  readRetentionBound,
  resolvePreviousOutputs,
  usedAddresses,
  writeCheckpoint,
  type BlockRecord,
  type Db,
  type TransactionRecord,
} from '../db';
import {
  addressOf,
  covenantOutput,
  hashOf,
  payToAddressOutput,
  syntheticBlock,
  syntheticTransaction,
} from '../db/test-support/fixtures';
import { testBackends, type TestDatabase } from '../db/test-support/test-databases';
import { bytesToHex } from '../kaspa/bytes';
import { retentionStatus } from '../status';
import type { Hash } from '../kaspa/types';
import { createHistoryPruner, DEVNET_RETENTION, retentionPolicyFor, type HistoryPrunerOptions } from './history-pruner';
import { DEFAULT_CHECKPOINT_NAME } from '../db';

/*
 * A synthetic chain of 40 chain blocks (DAA scores 1 … 40, block time 100 ms apart) whose checkpoint block names block
 * 30 as its pruning point. Block d holds a coinbase-like `cb d` paying a miner and, from d = 6, `spend d` spending
 * `cb (d−5)`; each chain block accepts its own transactions. Beside them: `loser` (block 3, never accepted), `late`
 * (block 9, accepted by block 12), `straddle` (block 18, accepted by block 21 — above the cutoff) and `bound` (block 5,
 * an output in a covenant's current UTXO set).
 */
const CHAIN_LENGTH = 40;
const PRUNING_POINT_DAA = 30n;
const BLOCK_INTERVAL_MS = 100n;
const DAY_MS = 86_400_000;
const covenantId = hashOf('retention covenant');

const coinbase = (daa: number) =>
  syntheticTransaction(`cb ${daa}`, 0n, [], [payToAddressOutput(`miner ${daa % 3}`, 1_000n + BigInt(daa))]);
const coinbases = Array.from({ length: CHAIN_LENGTH }, (_, index) => coinbase(index + 1));
const spend = (daa: number) => {
  const spent = coinbases[daa - 6]!;
  return syntheticTransaction(
    `spend ${daa}`,
    0n,
    [{ previousTransactionId: spent.transactionId, previousIndex: 0, previousOutput: spent.outputs[0]! }],
    [payToAddressOutput(`payee ${daa % 4}`, 900n + BigInt(daa))],
  );
};
const loser = syntheticTransaction('loser', 0n, [], [payToAddressOutput('loser', 7n)]);
const late = syntheticTransaction('late', 0n, [], [payToAddressOutput('late', 8n)]);
const straddle = syntheticTransaction('straddle', 0n, [], [payToAddressOutput('straddle', 9n)]);
const bound = syntheticTransaction(
  'bound',
  0n,
  [{ previousTransactionId: hashOf('outside'), previousIndex: 0, previousOutput: null }],
  [covenantOutput('holder', 500n, covenantId, 0)],
);

interface Seeded {
  blocks: BlockRecord[];
  transactionsOf: Map<number, TransactionRecord[]>;
}

function seedChain(): Seeded {
  const blocks: BlockRecord[] = [];
  const transactionsOf = new Map<number, TransactionRecord[]>();
  const pruningPoint = hashOf(`block chain ${PRUNING_POINT_DAA}`);
  for (let daa = 1; daa <= CHAIN_LENGTH; daa++) {
    const extra = { 3: [loser], 5: [bound], 9: [late], 18: [straddle] }[daa] ?? [];
    const contained = [coinbases[daa - 1]!, ...(daa >= 6 ? [spend(daa)] : []), ...extra];
    const block = syntheticBlock({
      label: `chain ${daa}`,
      daaScore: BigInt(daa),
      parents: blocks.length > 0 ? [blocks.at(-1)!.hash] : [],
      transactionIds: contained.map((transaction) => transaction.transactionId),
      isChainBlock: true,
    });
    const timed = contained.map((transaction) => ({ ...transaction, blockTime: block.header.timestamp }));
    blocks.push({ ...block, header: { ...block.header, pruningPoint } });
    transactionsOf.set(daa, timed);
  }
  return { blocks, transactionsOf };
}

const idHex = (transaction: { transactionId: Hash }) => bytesToHex(transaction.transactionId);

describe.each(testBackends())('history pruner on $name', (backend) => {
  let database: TestDatabase;
  let db: Db;
  let seeded: Seeded;

  beforeEach(async () => {
    database = await backend.open();
    db = database.db;
    await migrate(db);
    seeded = seedChain();
    const { blocks, transactionsOf } = seeded;
    const notSelfAccepted = new Set([loser, late, straddle].map(idHex));
    await db.transaction(async (tx) => {
      await insertBlocks(tx, blocks);
      await insertTransactions(tx, [...transactionsOf.values()].flat());
      await applyVirtualChainChange(tx, {
        removedChainBlockHashes: [],
        added: blocks.map((block, index) => {
          const own = transactionsOf.get(index + 1)!.filter((transaction) => !notSelfAccepted.has(idHex(transaction)));
          const extra = { 12: [late], 21: [straddle] }[index + 1] ?? [];
          return {
            acceptingBlockHash: block.hash,
            acceptedTransactionIds: [...own, ...extra].map((transaction) => transaction.transactionId),
          };
        }),
      });
      const top = blocks.at(-1)!;
      await writeCheckpoint(tx, {
        name: DEFAULT_CHECKPOINT_NAME,
        blockHash: top.hash,
        blueScore: top.header.blueScore,
        daaScore: top.header.daaScore,
      });
      for (const daa of [10, 25]) {
        await tx.query(`INSERT INTO token_undo (block_hash, daa_score, changes) VALUES ($1, $2, '[]'::jsonb)`, [
          blocks[daa - 1]!.hash,
          daa,
        ]);
      }
    });
  }, 180_000);

  afterEach(async () => {
    await database?.dispose();
  });

  /** Days that reach back from the checkpoint's block time to block `daa`'s. */
  const daysBackTo = (daa: number) => (Number(BigInt(CHAIN_LENGTH - daa) * BLOCK_INTERVAL_MS) / DAY_MS);

  const pruner = (options: Partial<HistoryPrunerOptions> & Pick<HistoryPrunerOptions, 'policy'>) =>
    createHistoryPruner({ db, pauseMs: 0, ...options });

  async function storedDaaScores(): Promise<number[]> {
    const { rows } = await db.query<{ daa_score: bigint }>('SELECT daa_score FROM blocks ORDER BY daa_score');
    return rows.map((row) => Number(row.daa_score));
  }

  async function storedTransactionIds(): Promise<Set<string>> {
    const { rows } = await db.query<{ transaction_id: Uint8Array }>('SELECT transaction_id FROM transactions');
    return new Set(rows.map((row) => bytesToHex(row.transaction_id)));
  }

  /** Outputs of accepted transactions that no accepted input spends, with what they hold. */
  async function utxoSet(): Promise<string[]> {
    const { rows } = await db.query<{ transaction_id: Uint8Array; output_index: number; amount: string; address: string }>(
      `SELECT o.transaction_id, o.output_index, o.amount, o.address FROM transaction_outputs o
        WHERE EXISTS (SELECT 1 FROM transaction_acceptances a WHERE a.transaction_id = o.transaction_id)
          AND NOT EXISTS (SELECT 1 FROM transaction_inputs i JOIN transaction_acceptances a USING (transaction_id)
                           WHERE i.previous_transaction_id = o.transaction_id AND i.previous_index = o.output_index)`,
    );
    return rows.map((row) => `${bytesToHex(row.transaction_id)}:${row.output_index} ${row.amount} ${row.address}`).sort();
  }

  /** Every output row with what it holds (an output of a deleted transaction stays only while it is unspent). */
  async function outputRows(): Promise<Set<string>> {
    const { rows } = await db.query<{ transaction_id: Uint8Array; output_index: number; amount: string; address: string }>(
      'SELECT transaction_id, output_index, amount, address FROM transaction_outputs',
    );
    return new Set(rows.map((row) => `${bytesToHex(row.transaction_id)}:${row.output_index} ${row.amount} ${row.address}`));
  }

  it('deletes the history below the time bound in bounded batches, keeps everything above, records the bound', async () => {
    const run = await pruner({ policy: { days: daysBackTo(20), gigabytes: null }, batchBlocks: 4 }).runOnce();
    expect(run).toMatchObject({ cutoff: 20n, bound: 'time', blocks: 19, batches: 5 });
    expect(await storedDaaScores()).toEqual(Array.from({ length: CHAIN_LENGTH - 19 }, (_, index) => index + 20));

    const stored = await storedTransactionIds();
    const retainedBlocks = [...seeded.transactionsOf].filter(([daa]) => daa >= 20).flatMap(([, list]) => list);
    for (const transaction of [...retainedBlocks, straddle, bound]) expect(stored).toContain(idHex(transaction));
    for (const daa of [1, 6, 19]) expect(stored).not.toContain(idHex(seeded.transactionsOf.get(daa)![0]!));
    for (const transaction of [loser, late, spend(19)]) expect(stored).not.toContain(idHex(transaction));
    expect(stored.size).toBe(retainedBlocks.length + 2);

    const straddleRead = await getTransaction(db, straddle.transactionId, { includePayload: false });
    expect(straddleRead?.acceptingBlockHash && bytesToHex(straddleRead.acceptingBlockHash)).toBe(
      bytesToHex(seeded.blocks[20]!.hash),
    );

    const { rows: undo } = await db.query<{ daa_score: bigint }>('SELECT daa_score FROM token_undo');
    expect(undo.map((row) => row.daa_score)).toEqual([25n]);
    const { rows: orphans } = await db.query<{ count: bigint }>(
      `SELECT (SELECT count(*) FROM block_transactions bt WHERE NOT EXISTS (SELECT 1 FROM blocks b WHERE b.hash = bt.block_hash))
            + (SELECT count(*) FROM block_children c WHERE NOT EXISTS (SELECT 1 FROM blocks b WHERE b.hash = c.parent_hash))
            + (SELECT count(*) FROM transaction_inputs i WHERE NOT EXISTS (SELECT 1 FROM transactions t WHERE t.transaction_id = i.transaction_id))
            + (SELECT count(*) FROM address_transactions a WHERE NOT EXISTS (SELECT 1 FROM transactions t WHERE t.transaction_id = a.transaction_id))
            AS count`,
    );
    expect(orphans[0]!.count).toBe(0n);

    const recorded = await readRetentionBound(db);
    expect(recorded).toMatchObject({
      fromDaaScore: 20n,
      fromTime: seeded.blocks[19]!.header.timestamp,
      policy: { days: daysBackTo(20), gigabytes: null },
      prunedBlocks: 19n,
      prunedTransactions: BigInt(19 + 14 + 2),
    });
    expect(await pruner({ policy: { days: daysBackTo(20), gigabytes: null } }).runOnce()).toMatchObject({ blocks: 0 });
    expect(await retentionStatus(db, DEVNET_RETENTION)).toEqual({
      fromDaaScore: '20',
      fromTime: new Date(Number(seeded.blocks[19]!.header.timestamp)).toISOString(),
      policy: { days: daysBackTo(20), gigabytes: null },
      prunedBlocks: '19',
      prunedTransactions: '35',
    });
  });

  it('keeps the UTXO set: unspent outputs stay, spent ones of deleted transactions go, later spenders still resolve', async () => {
    const utxosBefore = await utxoSet();
    const outputsBefore = await outputRows();
    await pruner({ policy: { days: daysBackTo(20), gigabytes: null } }).runOnce();
    const outputsAfter = await outputRows();
    for (const utxo of utxosBefore) expect(outputsAfter).toContain(utxo);
    for (const row of outputsAfter) expect(outputsBefore).toContain(row);

    const spentAndGone = coinbases.slice(0, 14).map((transaction) => `${idHex(transaction)}:0`);
    for (const outpoint of spentAndGone) expect([...outputsAfter].some((row) => row.startsWith(outpoint))).toBe(false);
    expect([...outputsAfter].some((row) => row.startsWith(`${idHex(loser)}:0`))).toBe(false);

    const unspentOfDeleted = spend(10);
    const [resolved] = await resolvePreviousOutputs(db, [{ transactionId: unspentOfDeleted.transactionId, index: 0 }]);
    expect(resolved?.amount).toBe(910n);
    expect(resolved?.address).toBe(addressOf('payee 2'));
    const { rows: covenantUtxos } = await db.query<{ count: bigint }>('SELECT count(*) AS count FROM covenant_utxos');
    expect(covenantUtxos[0]!.count).toBe(1n);
  });

  it('pages address history over the retained rows; used addresses and activity still count the deleted ones', async () => {
    const payee = addressOf('payee 1');
    const fullHistory = async () => {
      const seen: string[] = [];
      let cursor: Hash | undefined;
      for (;;) {
        const page = await getAddressTransactions(db, {
          address: payee,
          limit: 3,
          startingAfter: cursor,
          acceptedOnly: false,
          includePayload: false,
        });
        seen.push(...page.transactions.map(idHex));
        if (!page.hasMore) return seen;
        cursor = page.transactions.at(-1)!.transactionId;
      }
    };
    const before = await fullHistory();
    const [activityBefore] = await addressActivity(db, [payee]);
    await pruner({ policy: { days: daysBackTo(20), gigabytes: null } }).runOnce();
    const retainedIds = new Set([...seeded.transactionsOf].filter(([daa]) => daa >= 20).flatMap(([, list]) => list.map(idHex)));
    expect(await fullHistory()).toEqual(before.filter((id) => retainedIds.has(id)));
    expect((await fullHistory()).length).toBeLessThan(before.length);

    const onlyPruned = [addressOf('loser'), addressOf('late')];
    expect(await usedAddresses(db, [...onlyPruned, addressOf('never used')])).toEqual(new Set(onlyPruned));
    expect(await addressActivity(db, [payee])).toEqual([activityBefore]);
  });

  it('never passes the token checkpoint nor the checkpoint block\'s pruning point', async () => {
    const tinyWindow = { days: daysBackTo(38), gigabytes: null };
    await db.query(`INSERT INTO token_checkpoints (name, block_hash, daa_score) VALUES ('tokens', $1, 25)`, [
      seeded.blocks[24]!.hash,
    ]);
    expect(await pruner({ policy: tinyWindow }).runOnce()).toMatchObject({ cutoff: 25n, blocks: 24 });
    await db.query('UPDATE token_checkpoints SET daa_score = 35');
    expect(await pruner({ policy: tinyWindow }).runOnce()).toMatchObject({ cutoff: PRUNING_POINT_DAA, blocks: 5 });
    expect((await storedDaaScores())[0]).toBe(Number(PRUNING_POINT_DAA));
  });

  it('prunes for the size bound once, and again only after the database grew past the size it left', async () => {
    const tiny = { days: null, gigabytes: 1e-9 };
    expect(await pruner({ policy: tiny }).runOnce()).toMatchObject({ cutoff: PRUNING_POINT_DAA, bound: 'size' });
    expect((await readRetentionBound(db))?.databaseBytesAtSizePrune).toBeGreaterThan(0n);
    await db.query('UPDATE history_retention SET database_bytes_at_size_prune = 2 * database_bytes_at_size_prune');
    expect(await pruner({ policy: tiny }).runOnce()).toMatchObject({ cutoff: null, blocks: 0 });
  });

  it('deletes nothing when the policy keeps everything', async () => {
    expect(await pruner({ policy: { days: null, gigabytes: null } }).runOnce()).toMatchObject({ cutoff: null, blocks: 0 });
    expect(await storedDaaScores()).toHaveLength(CHAIN_LENGTH);
    expect(await readRetentionBound(db)).toBeNull();
    expect(await retentionStatus(db, DEVNET_RETENTION)).toEqual({
      fromDaaScore: null,
      fromTime: null,
      policy: DEVNET_RETENTION,
      prunedBlocks: '0',
      prunedTransactions: '0',
    });
  });
});

describe('retentionPolicyFor', () => {
  it('bounds the embedded devnet by default and keeps everything against a real node', () => {
    expect(retentionPolicyFor({ days: undefined, gigabytes: undefined, embeddedDevnet: true })).toEqual(DEVNET_RETENTION);
    expect(retentionPolicyFor({ days: undefined, gigabytes: undefined, embeddedDevnet: false })).toEqual({
      days: null,
      gigabytes: null,
    });
  });

  it('takes each configured bound, `all` (null) included, over the default', () => {
    expect(retentionPolicyFor({ days: null, gigabytes: undefined, embeddedDevnet: true })).toEqual({
      days: null,
      gigabytes: DEVNET_RETENTION.gigabytes,
    });
    expect(retentionPolicyFor({ days: 2, gigabytes: 50, embeddedDevnet: false })).toEqual({ days: 2, gigabytes: 50 });
  });
});
