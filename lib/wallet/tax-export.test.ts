import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/connection';
import { migrate } from '../db/migrations';
import type { TransactionRecord } from '../db/records';
import { addressOf, hashOf, payToAddressOutput, syntheticTransaction } from '../db/test-support/fixtures';
import { testBackends, type TestDatabase } from '../db/test-support/test-databases';
import { getWalletExportPage } from '../db/wallet-export-reads';
import { applyVirtualChainChange, insertTransactions } from '../db/writes';
import { bytesToHex, compareBytes } from '../kaspa/bytes';
import { fixedKasUsd } from '../tokens/kas-usd';
import { taxPage, taxRows, type TaxExportQuery } from './tax-export';

const wallet = [addressOf('mine a'), addressOf('mine b')];
const spend = (transaction: TransactionRecord, index: number) => ({
  previousTransactionId: transaction.transactionId,
  previousIndex: index,
  previousOutput: transaction.outputs[index]!,
});

// t1 pays the wallet 500; t2 pays 300 out with 190 change and a 10 fee; t3 moves 190 within the wallet for a 5 fee;
// t4 (same time as t3) pays 50 but is never accepted; t5 pays 1000.
const t1 = syntheticTransaction('export t1', 1000n, [], [payToAddressOutput('mine a', 500n)]);
const t2 = syntheticTransaction('export t2', 2000n, [spend(t1, 0)], [
  payToAddressOutput('other x', 300n),
  payToAddressOutput('mine b', 190n),
]);
const t3 = syntheticTransaction('export t3', 3000n, [spend(t2, 1)], [payToAddressOutput('mine a', 185n)]);
const t4 = syntheticTransaction('export t4', 3000n, [], [payToAddressOutput('mine b', 50n)]);
const t5 = syntheticTransaction('export t5', 4000n, [], [payToAddressOutput('mine a', 1000n)]);
const byPosition = [t1, t2, t3, t4, t5].sort((a, b) =>
  a.blockTime === b.blockTime ? compareBytes(a.transactionId, b.transactionId) : Number(a.blockTime - b.blockTime),
);
const expectedBalance = new Map([t1, t2, t3, t4, t5].map((t, i) => [bytesToHex(t.transactionId), i]));

function query(overrides: Partial<TaxExportQuery> = {}): TaxExportQuery {
  return {
    addresses: wallet,
    from: null,
    to: null,
    after: null,
    openingBalance: null,
    virtualBlueScore: 100n,
    kasUsd: fixedKasUsd(0.25),
    ...overrides,
  };
}

describe.each(testBackends())('tax export ($name)', (backend) => {
  let database: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    database = await backend.open();
    db = database.db;
    await migrate(db);
    await insertTransactions(db, [t1, t2, t3, t4, t5]);
    await applyVirtualChainChange(db, {
      removedChainBlockHashes: [],
      added: [{ acceptingBlockHash: hashOf('export acceptor'), acceptedTransactionIds: [t1, t2, t3, t5].map((t) => t.transactionId) }],
    });
  }, 60_000);

  afterAll(async () => {
    await database?.dispose();
  });

  it('lists the wallet oldest first, each transaction once, with a running balance moved only by accepted ones', async () => {
    const rows = [];
    for await (const row of taxRows(db, query(), 2)) rows.push(row);
    expect(rows.map((row) => row.transactionId)).toEqual(byPosition.map((t) => bytesToHex(t.transactionId)));
    const byId = new Map(rows.map((row) => [row.transactionId, row]));
    const row = (t: TransactionRecord) => byId.get(bytesToHex(t.transactionId))!;
    expect(row(t1)).toMatchObject({ direction: 'in', amount: 500n, netChange: 500n, runningBalance: 500n, accepted: true });
    expect(row(t2)).toMatchObject({ direction: 'out', amount: 300n, fee: 10n, netChange: -310n, runningBalance: 190n });
    expect(row(t2).counterparties).toEqual([addressOf('other x')]);
    expect(row(t3)).toMatchObject({ direction: 'internal', amount: 0n, fee: 5n, netChange: -5n, runningBalance: 185n });
    expect(row(t4)).toMatchObject({ direction: 'in', amount: 50n, accepted: false, confirmations: 0 });
    expect(row(t5).runningBalance).toBe(1185n);
    expect(row(t5)).toMatchObject({ kasUsd: 0.25, priceSource: 'fixed' });
    expect(expectedBalance.size).toBe(5);
  });

  it('starts a range with the accepted balance before it and ends before `to`', async () => {
    const page = await taxPage(db, query({ from: 3000n, to: 4000n }), 10);
    expect(page.rows.map((row) => row.blockTime)).toEqual([3000, 3000]);
    expect(page.rows.at(-1)!.runningBalance).toBe(185n);
    expect(page.closingBalance).toBe(185n);
    expect(page.hasMore).toBe(false);
  });

  it('continues after a cursor with the balance through it, computed or carried', async () => {
    const first = await taxPage(db, query(), 2);
    expect(first.hasMore).toBe(true);
    const computed = await taxPage(db, query({ after: first.last }), 10);
    const carried = await taxPage(db, query({ after: first.last, openingBalance: first.closingBalance }), 10);
    expect(computed.rows).toEqual(carried.rows);
    expect(computed.rows.map((row) => row.runningBalance).at(-1)).toBe(1185n);
    expect([...first.rows, ...computed.rows]).toHaveLength(5);
  });

  it('pages exactly with one row read per address (the horizon stops before any partial transaction)', async () => {
    const seen: string[] = [];
    let after = null;
    for (let guard = 0; guard < 20; guard += 1) {
      const page = await getWalletExportPage(db, { addresses: wallet, from: null, to: null, after, limit: 10, perAddressLimit: 1 });
      for (const record of page.transactions) {
        seen.push(bytesToHex(record.transactionId));
        if (bytesToHex(record.transactionId) === bytesToHex(t2.transactionId)) {
          expect([record.walletSent, record.walletReceived]).toEqual([500n, 190n]);
        }
        after = { blockTime: record.blockTime, transactionId: record.transactionId };
      }
      if (!page.hasMore) break;
    }
    expect(seen).toEqual(byPosition.map((t) => bytesToHex(t.transactionId)));
  });
});
