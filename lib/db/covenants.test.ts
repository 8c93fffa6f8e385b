import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bytesToHex } from '../kaspa/bytes';
import type { Db } from './connection';
import { getCovenant, getCovenants } from './covenant-reads';
import { INDEX_TABLE_COLUMNS, tableDigests } from './digests';
import { migrate } from './migrations';
import { getCovenantTransactions, getTransaction } from './reads';
import type { BlockRecord, ChainBlockAcceptance, TransactionRecord } from './records';
import {
  asSpent,
  covenantOutput,
  hashOf,
  payToAddressOutput,
  syntheticBlock,
  syntheticTransaction,
} from './test-support/fixtures';
import { testBackends, type TestDatabase } from './test-support/test-databases';
import { applyVirtualChainChange, insertBlocks, insertTransactions } from './writes';

const COVENANT = hashOf('counter covenant');
const OTHER_COVENANT = hashOf('vault covenant');

/** funding → genesis (binds output 0) → two continuations → an end that pays out unbound. */
function lineage() {
  const funding = syntheticTransaction('funding', 1_000n, [], [payToAddressOutput('owner', 10_000n)]);
  const spend = (from: TransactionRecord, index = 0) => ({
    previousTransactionId: from.transactionId,
    previousIndex: index,
    previousOutput: from.outputs[index]!,
  });
  const genesis = syntheticTransaction('genesis', 2_000n, [spend(funding)], [
    covenantOutput('state 0', 9_000n, COVENANT, 0),
    payToAddressOutput('owner', 900n),
  ]);
  const first = syntheticTransaction('continuation 1', 3_000n, [spend(genesis)], [covenantOutput('state 1', 8_900n, COVENANT, 0)]);
  const second = syntheticTransaction('continuation 2', 4_000n, [spend(first)], [covenantOutput('state 2', 8_800n, COVENANT, 0)]);
  const end = syntheticTransaction('end', 5_000n, [spend(second)], [payToAddressOutput('owner', 8_700n)]);
  return { funding, genesis, first, second, end };
}

const chainBlock = (label: string, daaScore: bigint, transactions: TransactionRecord[]): BlockRecord =>
  syntheticBlock({
    label,
    daaScore,
    parents: [],
    transactionIds: transactions.map((transaction) => transaction.transactionId),
    isChainBlock: false,
  });

const accepting = (block: BlockRecord): ChainBlockAcceptance => ({
  acceptingBlockHash: block.hash,
  acceptedTransactionIds: block.transactionIds,
});

const ids = (transactions: readonly { transactionId: Uint8Array }[]) => transactions.map((t) => bytesToHex(t.transactionId));

describe.each(testBackends())('$name', (backend) => {
  let database: TestDatabase;
  let db: Db;
  const chain = lineage();
  const { funding, genesis, first, second, end } = chain;
  const blocks = [
    chainBlock('k1', 10n, [funding]),
    chainBlock('k2', 20n, [genesis]),
    chainBlock('k3', 30n, [first]),
    chainBlock('k4', 40n, [second]),
  ];
  const replacement = chainBlock('k4 again', 41n, [second, end]);

  const store = async (target: Db) => {
    await target.transaction(async (tx) => {
      await insertBlocks(tx, [...blocks, replacement]);
      await insertTransactions(tx, Object.values(chain));
    });
  };

  beforeAll(async () => {
    database = await backend.open();
    db = database.db;
    await migrate(db);
  }, 120_000);
  afterAll(() => database.dispose());

  beforeEach(async () => {
    await db.exec(`TRUNCATE ${Object.keys(INDEX_TABLE_COLUMNS).join(', ')}`);
    await store(db);
  });

  const lineageIds = async () =>
    ids((await getCovenantTransactions(db, COVENANT, { limit: 100, includePayload: false })).transactions);

  it('stores covenant bindings, spent covenant ids and compute budgets', async () => {
    const read = await getTransaction(db, first.transactionId, { includePayload: false });
    expect(read?.outputs[0]).toMatchObject({ covenantId: COVENANT, authorizingInput: 0 });
    expect(read?.inputs[0]?.previousOutput?.covenantId).toEqual(COVENANT);
    const fromGenesis = await getTransaction(db, genesis.transactionId, { includePayload: false });
    expect(fromGenesis?.inputs[0]?.previousOutput?.covenantId).toBeNull();
    expect(fromGenesis?.outputs[1]).toMatchObject({ covenantId: null, authorizingInput: null });
  });

  it('follows acceptance: the lineage, the current UTXO and the summary', async () => {
    expect(await getCovenant(db, COVENANT)).toBeNull();
    await applyVirtualChainChange(db, { removedChainBlockHashes: [], added: blocks.map(accepting) });
    expect(await lineageIds()).toEqual(ids([second, first, genesis]));
    const covenant = await getCovenant(db, COVENANT);
    expect(covenant).toMatchObject({
      genesisTransactionId: genesis.transactionId,
      createdAt: genesis.blockTime,
      lastTransactionId: second.transactionId,
      lastActivityAt: second.blockTime,
      state: 'active',
      utxoCount: 1,
    });
    expect(covenant?.currentUtxos).toEqual([
      {
        outpoint: { transactionId: second.transactionId, index: 0 },
        address: second.outputs[0]!.address,
        amount: 8_800n,
        scriptPublicKey: second.outputs[0]!.scriptPublicKey,
        blockDaaScore: blocks[3]!.header.daaScore,
        isCoinbase: false,
        covenantId: COVENANT,
      },
    ]);
  });

  it('undoes a reorganisation exactly and ends when the last bound output is spent', { timeout: 120_000 }, async () => {
    await applyVirtualChainChange(db, { removedChainBlockHashes: [], added: blocks.map(accepting) });
    await applyVirtualChainChange(db, { removedChainBlockHashes: [blocks[3]!.hash], added: [] });
    expect(await lineageIds()).toEqual(ids([first, genesis]));
    const rolledBack = await getCovenant(db, COVENANT);
    expect(rolledBack).toMatchObject({ lastTransactionId: first.transactionId, utxoCount: 1, state: 'active' });
    expect(rolledBack?.currentUtxos.map((utxo) => bytesToHex(utxo.outpoint.transactionId))).toEqual(ids([first]));
    expect(rolledBack?.currentUtxos[0]?.blockDaaScore).toBe(blocks[2]!.header.daaScore);

    await applyVirtualChainChange(db, { removedChainBlockHashes: [], added: [accepting(replacement)] });
    expect(await lineageIds()).toEqual(ids([end, second, first, genesis]));
    const ended = await getCovenant(db, COVENANT);
    expect(ended).toMatchObject({ lastTransactionId: end.transactionId, utxoCount: 0, state: 'ended', currentUtxos: [] });

    const fresh = await backend.open();
    try {
      await migrate(fresh.db);
      await store(fresh.db);
      await applyVirtualChainChange(fresh.db, {
        removedChainBlockHashes: [],
        added: [...blocks.slice(0, 3), replacement].map(accepting),
      });
      const [afterReorg, direct] = await Promise.all([tableDigests(db), tableDigests(fresh.db)]);
      for (const table of ['covenant_transactions', 'covenant_utxos', 'covenants']) {
        expect(afterReorg[table], table).toEqual(direct[table]);
      }
    } finally {
      await fresh.dispose();
    }
  });

  it('drops a covenant whose whole lineage lost its acceptance', async () => {
    await applyVirtualChainChange(db, { removedChainBlockHashes: [], added: blocks.map(accepting) });
    await applyVirtualChainChange(db, { removedChainBlockHashes: blocks.slice(1).map((block) => block.hash), added: [] });
    expect(await getCovenant(db, COVENANT)).toBeNull();
    expect(await lineageIds()).toEqual([]);
    expect((await getCovenants(db, { limit: 10 })).covenants).toEqual([]);
  });

  it('moves lineage rows and the summary when a transaction turns up in an earlier block', async () => {
    await applyVirtualChainChange(db, { removedChainBlockHashes: [], added: blocks.map(accepting) });
    await insertTransactions(db, [{ ...genesis, blockTime: 1_500n }]);
    expect(await getCovenant(db, COVENANT)).toMatchObject({ createdAt: 1_500n });
    const page = await getCovenantTransactions(db, COVENANT, { limit: 100, includePayload: false });
    expect(page.transactions.map((transaction) => transaction.blockTime)).toEqual([4_000n, 3_000n, 1_500n]);
  });

  it('lists covenants by last activity and pages both ways by covenant id', async () => {
    const vaultGenesis = syntheticTransaction(
      'vault genesis',
      3_500n,
      [{ previousTransactionId: funding.transactionId, previousIndex: 0, previousOutput: asSpent(funding.outputs[0]!) }],
      [covenantOutput('vault', 5_000n, OTHER_COVENANT, 0)],
    );
    const vaultBlock = chainBlock('vault', 35n, [vaultGenesis]);
    await insertBlocks(db, [vaultBlock]);
    await insertTransactions(db, [vaultGenesis]);
    await applyVirtualChainChange(db, { removedChainBlockHashes: [], added: [...blocks.slice(0, 3), vaultBlock].map(accepting) });
    const all = await getCovenants(db, { limit: 10 });
    expect(all.covenants.map((covenant) => bytesToHex(covenant.covenantId))).toEqual(
      [OTHER_COVENANT, COVENANT].map(bytesToHex),
    );
    expect(all.hasMore).toBe(false);
    const older = await getCovenants(db, { limit: 1, startingAfter: OTHER_COVENANT });
    expect(older.covenants.map((covenant) => bytesToHex(covenant.covenantId))).toEqual([bytesToHex(COVENANT)]);
    expect(older.hasMore).toBe(false);
    const newer = await getCovenants(db, { limit: 1, endingBefore: COVENANT });
    expect(newer.covenants.map((covenant) => bytesToHex(covenant.covenantId))).toEqual([bytesToHex(OTHER_COVENANT)]);
    expect(newer.hasMore).toBe(false);
    const first = await getCovenants(db, { limit: 1 });
    expect(first.hasMore).toBe(true);
    await expect(getCovenants(db, { limit: 1, startingAfter: hashOf('no covenant') })).rejects.toThrow(/unknown cursor/);
  });
});
