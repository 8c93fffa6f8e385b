import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  applyVirtualChainChange,
  insertBlocks,
  insertTransactions,
  migrate,
  pruneHistoryBatch,
  readStatistics,
  writeCheckpoint,
  type BlockRecord,
  type Db,
  type TransactionRecord,
  DEFAULT_CHECKPOINT_NAME,
} from '../db';
import { payToAddressOutput, syntheticBlock, syntheticTransaction } from '../db/test-support/fixtures';
import { testBackends, type TestDatabase } from '../db/test-support/test-databases';
import { SUBNETWORK_ID_COINBASE } from '../kaspa/types';
import { createStatisticsRefresher } from './statistics-refresher';

/*
 * Chain blocks at DAA scores spread over windows of 600 (0, 0, 1, 2, 66, 66, 133) and hours (timestamps are 100 ms a
 * DAA score, so 40,000 is 4,000 s later). Each holds a coinbase paying `miner n`; from the second on, a payment
 * spending the previous block's coinbase to `payee n` with a fee of 100 + n sompi. The checkpoint is the last block.
 */
const DAA_SCORES = [100, 500, 700, 1_300, 40_000, 40_100, 80_000];
const HOUR_MS = 3_600_000n;
const DAY_MS = 86_400_000n;
const window = (daa: number) => BigInt(Math.floor(daa / 600));

interface Seeded {
  blocks: BlockRecord[];
  coinbases: TransactionRecord[];
  payments: (TransactionRecord | null)[];
}

function seed(): Seeded {
  const blocks: BlockRecord[] = [];
  const coinbases: TransactionRecord[] = [];
  const payments: (TransactionRecord | null)[] = [];
  DAA_SCORES.forEach((daa, index) => {
    const coinbase = { ...syntheticTransaction(`coinbase ${index}`, 0n, [], [payToAddressOutput(`miner ${index}`, 10_000n)]), subnetworkId: SUBNETWORK_ID_COINBASE };
    const previous = coinbases[index - 1];
    const payment =
      previous === undefined
        ? null
        : syntheticTransaction(
            `payment ${index}`,
            0n,
            [{ previousTransactionId: previous.transactionId, previousIndex: 0, previousOutput: previous.outputs[0]! }],
            [payToAddressOutput(`payee ${index}`, 10_000n - 100n - BigInt(index))],
          );
    const contained = payment === null ? [coinbase] : [coinbase, payment];
    const block = syntheticBlock({
      label: `statistics ${index}`,
      daaScore: BigInt(daa),
      parents: blocks.length > 0 ? [blocks.at(-1)!.hash] : [],
      transactionIds: contained.map((transaction) => transaction.transactionId),
      isChainBlock: true,
    });
    blocks.push(block);
    coinbases.push({ ...coinbase, blockTime: block.header.timestamp });
    payments.push(payment === null ? null : { ...payment, blockTime: block.header.timestamp });
  });
  return { blocks, coinbases, payments };
}

describe.each(testBackends())('statistics refresher on $name', (backend) => {
  let database: TestDatabase;
  let db: Db;
  let seeded: Seeded;

  beforeEach(async () => {
    database = await backend.open();
    db = database.db;
    await migrate(db);
    seeded = seed();
    const { blocks, coinbases, payments } = seeded;
    await db.transaction(async (tx) => {
      await insertBlocks(tx, blocks);
      await insertTransactions(tx, [...coinbases, ...payments.filter((payment) => payment !== null)]);
      await applyVirtualChainChange(tx, {
        removedChainBlockHashes: [],
        added: blocks.map((block, index) => ({
          acceptingBlockHash: block.hash,
          acceptedTransactionIds: [coinbases[index]!, payments[index]].filter((item) => item != null).map((item) => item.transactionId),
        })),
      });
      const top = blocks.at(-1)!;
      await writeCheckpoint(tx, { name: DEFAULT_CHECKPOINT_NAME, blockHash: top.hash, blueScore: top.header.blueScore, daaScore: top.header.daaScore });
    });
  }, 120_000);

  afterEach(async () => {
    await database?.dispose();
  });

  it('computes each window from its chain blocks: blocks, accepted payments, their mass and fees, active addresses', async () => {
    const run = await createStatisticsRefresher({ db, maxWindows: 1_000 }).runOnce();
    expect(run.completeThrough).toBe(window(80_000) - 2n);
    const rows = await readStatistics(db, 'window', 100);
    // The last window is still open (the checkpoint is in it): not computed.
    const expected = [...new Set(DAA_SCORES.map(window))].filter((index) => index < window(80_000) - 1n).reverse().map((index) => {
      const members = DAA_SCORES.flatMap((daa, position) => (window(daa) === index ? [position] : []));
      const paid = members.filter((position) => position > 0);
      return {
        start: seeded.blocks[members[0]!]!.header.timestamp,
        end: seeded.blocks[members.at(-1)!]!.header.timestamp,
        blocks: members.length,
        chainBlocks: members.length,
        transactions: paid.length,
        mass: (2036n * BigInt(paid.length)).toString(),
        fees: paid.reduce((total, position) => total + 100n + BigInt(position), 0n).toString(),
        // The miners paid and, for each payment, the previous miner (spent) and the payee.
        activeAddresses: new Set(members.flatMap((position) => (position > 0 ? [`m${position}`, `m${position - 1}`, `p${position}`] : ['m0']))).size,
        complete: true,
        daaScores: { start: index * 600n, end: index * 600n + 599n },
      };
    });
    expect(rows).toEqual(expected);
  });

  it('sums the windows starting in each UTC hour and each day, merging their address sketches', async () => {
    await createStatisticsRefresher({ db, maxWindows: 1_000 }).runOnce();
    const windows = await readStatistics(db, 'window', 100);
    for (const [interval, span] of [['hour', HOUR_MS], ['day', DAY_MS]] as const) {
      const rows = await readStatistics(db, interval, 100);
      const groups = new Map<bigint, typeof windows>();
      for (const row of windows) {
        const start = (row.start / span) * span;
        groups.set(start, [...(groups.get(start) ?? []), row]);
      }
      expect(rows.map((row) => [row.start, row.end, row.blocks, row.transactions, row.fees])).toEqual(
        [...groups].map(([start, members]) => [
          start,
          start + span,
          members.reduce((total, row) => total + row.blocks, 0),
          members.reduce((total, row) => total + row.transactions, 0),
          members.reduce((total, row) => total + BigInt(row.fees), 0n).toString(),
        ]),
      );
      // The newest hour and day may still gain windows: a complete window after them is what closes them.
      expect(rows[0]!.complete).toBe(false);
    }
    const [all] = await readStatistics(db, 'day', 1);
    // Addresses repeat across windows (a miner is paid in one window and spent in the next): counted once.
    expect(all!.activeAddresses).toBeLessThan(windows.reduce((total, row) => total + row.activeAddresses, 0));
  });

  it('counts what the chain accepted when the window completes, and keeps complete windows after their history is pruned', async () => {
    // Block 40,100 leaves the chain before its window is computed: its block stays, its acceptances go.
    const leaving = seeded.blocks[5]!;
    await db.transaction((tx) => applyVirtualChainChange(tx, { removedChainBlockHashes: [leaving.hash], added: [] }));
    const refresher = createStatisticsRefresher({ db, maxWindows: 1_000 });
    await refresher.runOnce();
    const before = await readStatistics(db, 'window', 100);
    expect(before.find((row) => row.daaScores!.start === 66n * 600n)).toMatchObject({
      blocks: 2,
      chainBlocks: 1,
      transactions: 1,
      fees: String(100 + 4),
    });
    await db.transaction((tx) => pruneHistoryBatch(tx, 40_000n, 100));
    await refresher.runOnce();
    expect(await readStatistics(db, 'window', 100)).toEqual(before);
  });

  it('works a backlog off in bounded runs and ends where a single run would', async () => {
    const bounded = createStatisticsRefresher({ db, maxWindows: 7 });
    let runs = 0;
    while ((await bounded.runOnce()).windows === 7) runs += 1;
    expect(runs).toBeGreaterThan(10);
    const stepwise = await readStatistics(db, 'hour', 100);
    await db.exec('DELETE FROM chain_statistics_windows; DELETE FROM chain_statistics_hours; DELETE FROM chain_statistics_progress');
    await createStatisticsRefresher({ db, maxWindows: 1_000 }).runOnce();
    expect(await readStatistics(db, 'hour', 100)).toEqual(stepwise);
  });

  it('answers nothing before the index has a checkpoint', async () => {
    await db.exec('DELETE FROM indexer_checkpoints');
    expect(await createStatisticsRefresher({ db, maxWindows: 1_000 }).runOnce()).toEqual({ windows: 0, completeThrough: null });
    expect(await readStatistics(db, 'window', 10)).toEqual([]);
  });
});
