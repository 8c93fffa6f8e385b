import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, readStreamEvents, type Db, type Queryable } from '../db';
import { loadTokenSnapshot, readTokenCheckpoint } from '../db/token-store';
import { testBackends, type TestDatabase } from '../db/test-support/test-databases';
import type { AcceptedTransaction } from '../tokens/engine';
import { createTokenIndexer, type TokenEventData, type TokenIndexer } from './token-indexer';
import { DEPLOY_FEE_FLOOR, MINT_FEE_FLOOR } from '../tokens/operations';
import { DEVNET_PROFILE } from '../tokens/profile';
import { makeChain, storeChainCandidate, type StoredChainBlock } from './test-support/token-chain-index';
import { KAS, listingAddress, reveal, schnorrParty, sendInput, transaction, type Party } from '../tokens/test-support/transactions';

const owner = schnorrParty(20);
const alice = schnorrParty(21);
const bob = schnorrParty(22);

function op(signer: Party, fields: Record<string, string>, fee = 0n, outputs?: { address: string; value: bigint }[]) {
  const total = (outputs ?? [{ address: signer.address, value: KAS }]).reduce((sum, output) => sum + output.value, 0n);
  return reveal({ signer, op: { p: 'krc-20', ...fields }, inputAmount: total + fee, outputs });
}

const deploy = () =>
  op(owner, { op: 'deploy', tick: 'dagt', max: '100000000000000000000000', lim: '30000000000000000000', dec: '8', pre: '1000' }, DEPLOY_FEE_FLOOR + KAS);
const mint = (signer: Party) => op(signer, { op: 'mint', tick: 'dagt' }, MINT_FEE_FLOOR + KAS);
const transfer = (from: Party, to: Party, amt: string) => op(from, { op: 'transfer', tick: 'dagt', amt, to: to.address });

/** The state and history tables as plain rows, to compare two indexes. */
async function dump(db: Queryable) {
  const table = async (sql: string) => (await db.query<Record<string, unknown>>(sql)).rows;
  return {
    snapshot: await loadTokenSnapshot(db),
    ops: await table('SELECT op_score, tx_id, op, tick, accepted, op_error, amount FROM token_ops ORDER BY op_score'),
    stats: await table('SELECT * FROM token_stats ORDER BY tick, op_score'),
    fills: await table('SELECT * FROM token_fills ORDER BY tick, op_score'),
  };
}

describe.each(testBackends())('token indexer ($name)', (backend) => {
  let database: TestDatabase;
  let db: Db;
  let indexer: TokenIndexer;
  let daaScore: bigint;
  let tip: StoredChainBlock | null;

  const extend = async (label: string, transactions: AcceptedTransaction[]): Promise<StoredChainBlock> => {
    daaScore += 10n;
    const stored = await storeChainCandidate(db, { label, daaScore, parent: tip?.hash ?? null, transactions });
    await makeChain(db, [], [stored]);
    tip = stored;
    return stored;
  };

  beforeEach(async () => {
    database = await backend.open();
    db = database.db;
    await migrate(db);
    indexer = createTokenIndexer({ db, profile: DEVNET_PROFILE, maxChainBlocks: 2 });
    daaScore = 1000n;
    tip = null;
  }, 60_000);

  afterEach(async () => {
    await indexer.stop();
    await database.dispose();
  }, 60_000);

  it('applies accepted ops in opScore order and stores state, ops with opError, counters and fills', async () => {
    await extend('deploy', [deploy()]);
    await extend('mints', [mint(alice), mint(bob)]);
    const listing = op(alice, { op: 'list', tick: 'dagt', amt: '1000000000' }, 0n, [
      { address: listingAddress(alice, 'DAGT'), value: KAS },
    ]);
    await extend('transfers', [transfer(alice, bob, '5'), transfer(bob, owner, '999999999999999999999999'), listing]);
    const listed = await db.query<{ tx_id: Uint8Array }>(`SELECT tx_id FROM token_ops WHERE op = 'list'`);
    expect(listed.rows).toEqual([]);
    const result = await indexer.catchUp();
    expect(result).toMatchObject({ chainBlocks: 3, ops: 6, reverted: false });
    const listTxId = Buffer.from((await db.query<{ tx_id: Uint8Array }>(`SELECT tx_id FROM token_ops WHERE op = 'list'`)).rows[0]!.tx_id).toString('hex');
    const fill = transaction([sendInput(alice, 'DAGT', listTxId)], [
      { address: alice.address, value: 25n * KAS },
      { address: bob.address, value: KAS },
    ]);
    await extend('fill', [fill]);
    expect(await indexer.catchUp()).toMatchObject({ chainBlocks: 1, ops: 1 });

    const { snapshot, ops, fills, stats } = await dump(db);
    const token = snapshot.tokens[0]!;
    expect(token).toMatchObject({
      tick: 'DAGT',
      max: 100000000000000000000000n,
      minted: 60000000000000001000n,
      holderTotal: 3,
      mintTotal: 2,
      transferTotal: 1,
    });
    const balances = Object.fromEntries(snapshot.balances.map((balance) => [balance.address, [balance.balance, balance.locked]]));
    expect(balances).toEqual({
      [owner.address]: [1000n, 0n],
      [alice.address]: [30000000000000000000n - 5n - 1000000000n, 0n],
      [bob.address]: [30000000000000000000n + 5n + 1000000000n, 0n],
    });
    expect(snapshot.orders).toEqual([]);
    expect(ops.map((row) => [row.op, row.accepted, row.op_error])).toEqual([
      ['deploy', true, null],
      ['mint', true, null],
      ['mint', true, null],
      ['transfer', true, null],
      ['transfer', false, 'balance insuff'],
      ['list', true, null],
      ['send', true, null],
    ]);
    expect(ops.map((row) => row.op_score)).toEqual([10100000n, 10200000n, 10200001n, 10300000n, 10300001n, 10300002n, 10400000n]);
    expect(fills).toEqual([
      expect.objectContaining({ tick: 'DAGT', op_score: 10400000n, amount: '1000000000', price: '2500000000', seller: alice.address, buyer: bob.address }),
    ]);
    expect(stats.map((row) => [row.holder_total, row.mint_total, row.transfer_total])).toEqual([
      [1, 0, 0],
      [2, 1, 0],
      [3, 2, 0],
      [3, 2, 1],
      [3, 2, 1],
      [3, 2, 1],
      [3, 2, 1],
    ]);
    expect(await readTokenCheckpoint(db)).toMatchObject({ daaScore: 1040n });
  }, 60_000);

  it('walks on past chain blocks that share a DAA score, as genesis and its chain child do', async () => {
    const oneAtATime = createTokenIndexer({ db, profile: DEVNET_PROFILE, maxChainBlocks: 1 });
    const genesis = await storeChainCandidate(db, { label: 'genesis', daaScore, parent: null, transactions: [] });
    const child = await storeChainCandidate(db, {
      label: 'genesis child',
      daaScore,
      blueScore: daaScore + 1n,
      parent: genesis.hash,
      transactions: [deploy()],
    });
    await makeChain(db, [], [genesis, child]);
    tip = child;
    await extend('mints', [mint(alice)]);
    expect(await oneAtATime.catchUp()).toMatchObject({ chainBlocks: 3, ops: 2 });
    const { ops } = await dump(db);
    expect(ops.map((row) => [row.op, row.accepted])).toEqual([
      ['deploy', true],
      ['mint', true],
    ]);
  }, 60_000);

  it('undoes the ops of chain blocks that left the chain and reapplies the new chain (reorg)', async () => {
    const deployTx = deploy();
    const mintAlice = mint(alice);
    const newATx = transfer(alice, owner, '11');
    const newBTx = mint(owner);
    await extend('deploy', [deployTx]);
    const base = await extend('mint alice', [mintAlice]);
    const oldA = await extend('old a', [transfer(alice, bob, '7'), mint(bob)]);
    const oldB = await extend('old b', [transfer(bob, owner, '3')]);
    await indexer.catchUp();
    expect((await loadTokenSnapshot(db)).tokens[0]).toMatchObject({ mintTotal: 2, transferTotal: 2, holderTotal: 3 });

    daaScore = base.daaScore;
    tip = base;
    const newA = await storeChainCandidate(db, { label: 'new a', daaScore: base.daaScore + 5n, parent: base.hash, transactions: [newATx] });
    await makeChain(db, [oldB, oldA], [newA]);
    tip = newA;
    daaScore = newA.daaScore;
    await extend('new b', [newBTx]);
    const result = await indexer.catchUp();
    expect(result).toMatchObject({ reverted: true, revertedBlocks: 2 });
    expect(indexer.status().reorganisations).toBe(1);

    const reorganised = await dump(db);
    const fresh = await backend.open();
    try {
      await migrate(fresh.db);
      let replayTip: StoredChainBlock | null = null;
      let score = 1000n;
      for (const [label, transactions] of [
        ['deploy', [deployTx]],
        ['mint alice', [mintAlice]],
      ] as const) {
        score += 10n;
        replayTip = await storeChainCandidate(fresh.db, { label, daaScore: score, parent: replayTip?.hash ?? null, transactions });
        await makeChain(fresh.db, [], [replayTip]);
      }
      const copyA = await storeChainCandidate(fresh.db, { label: 'new a', daaScore: score + 5n, parent: replayTip!.hash, transactions: [newATx] });
      await makeChain(fresh.db, [], [copyA]);
      const copyB = await storeChainCandidate(fresh.db, { label: 'new b', daaScore: score + 15n, parent: copyA.hash, transactions: [newBTx] });
      await makeChain(fresh.db, [], [copyB]);
      await createTokenIndexer({ db: fresh.db, profile: DEVNET_PROFILE }).catchUp();
      const replayed = await dump(fresh.db);
      expect(reorganised.snapshot).toEqual(replayed.snapshot);
      expect(reorganised.ops).toEqual(replayed.ops);
      expect(reorganised.fills).toEqual(replayed.fills);
      expect(reorganised.stats).toEqual(replayed.stats);
    } finally {
      await fresh.dispose();
    }
    expect(reorganised.snapshot.tokens[0]).toMatchObject({ mintTotal: 2, transferTotal: 1 });
    expect((await db.query('SELECT daa_score FROM token_undo ORDER BY daa_score')).rows.map((row) => (row as { daa_score: bigint }).daa_score)).toEqual([1010n, 1020n, 1025n, 1035n]);
  }, 120_000);

  it('announces every op as a token event in opScore order, and a reorganisation the ops it took back, newest first', async () => {
    let wakes = 0;
    await indexer.stop();
    indexer = createTokenIndexer({ db, profile: DEVNET_PROFILE, maxChainBlocks: 2, onStreamEvents: () => (wakes += 1) });
    const tokenEvents = async () =>
      (await readStreamEvents(db, { after: 0n, topics: ['token'], limit: 100 })).map((event) => JSON.parse(event.data) as TokenEventData);
    await extend('deploy', [deploy()]);
    const base = await extend('mint alice', [mint(alice)]);
    const old = await extend('old', [transfer(alice, bob, '7')]);
    await indexer.catchUp();
    const applied = await tokenEvents();
    expect(applied.map((event) => [event.ticker, event.op, event.reverted])).toEqual([
      ['DAGT', 'deploy', false],
      ['DAGT', 'mint', false],
      ['DAGT', 'transfer', false],
    ]);
    expect(applied[2]).toMatchObject({ from: alice.address, to: bob.address, amount: '7', accepted: true, opError: null });
    const scores = applied.map((event) => BigInt(event.opScore));
    expect(scores).toEqual([...scores].sort((a, b) => (a < b ? -1 : 1)));
    expect(wakes).toBeGreaterThan(0);

    const replacement = await storeChainCandidate(db, { label: 'new', daaScore: base.daaScore + 5n, parent: base.hash, transactions: [] });
    await makeChain(db, [old], [replacement]);
    tip = replacement;
    daaScore = replacement.daaScore;
    await indexer.catchUp();
    const after = (await tokenEvents()).slice(applied.length);
    expect(after).toEqual([{ ...applied[2], reverted: true }]);
  }, 120_000);

  it('steps over a gap in the chain index (a resume at a pruning point) and applies the chain above it', async () => {
    await extend('deploy', [deploy()]);
    await extend('mint alice', [mint(alice)]);
    await indexer.catchUp();
    daaScore += 500n;
    tip = { hash: new Uint8Array(32).fill(0xee), daaScore, acceptedIds: [] };
    await extend('pruning point', []);
    await extend('mint bob', [mint(bob)]);
    expect(await indexer.catchUp()).toMatchObject({ chainBlocks: 2, ops: 1, gaps: 1, reverted: false });
    expect(indexer.status().gapsSteppedOver).toBe(1);
    expect((await loadTokenSnapshot(db)).tokens[0]).toMatchObject({ mintTotal: 2, holderTotal: 3 });
    expect(await indexer.catchUp()).toMatchObject({ chainBlocks: 0, gaps: 0 });
  }, 60_000);

  it('undoes everything and starts over when the chain index replaced its whole chain (a different chain)', async () => {
    const first = await extend('deploy', [deploy()]);
    const second = await extend('mint alice', [mint(alice)]);
    await indexer.catchUp();

    const otherDeploy = deploy();
    const otherMint = mint(bob);
    daaScore = 0n;
    tip = null;
    const other = await storeChainCandidate(db, { label: 'other genesis', daaScore: 10n, parent: null, transactions: [otherDeploy] });
    const otherNext = await storeChainCandidate(db, { label: 'other next', daaScore: 20n, parent: other.hash, transactions: [otherMint] });
    await makeChain(db, [second, first], [other, otherNext]);
    expect(await indexer.catchUp()).toMatchObject({ reverted: true, revertedBlocks: 2, chainBlocks: 2, ops: 2 });

    const fresh = await backend.open();
    try {
      await migrate(fresh.db);
      const copy = await storeChainCandidate(fresh.db, { label: 'other genesis', daaScore: 10n, parent: null, transactions: [otherDeploy] });
      const copyNext = await storeChainCandidate(fresh.db, { label: 'other next', daaScore: 20n, parent: copy.hash, transactions: [otherMint] });
      await makeChain(fresh.db, [], [copy, copyNext]);
      await createTokenIndexer({ db: fresh.db, profile: DEVNET_PROFILE }).catchUp();
      const replaced = await dump(db);
      const replayed = await dump(fresh.db);
      expect(replaced.snapshot).toEqual(replayed.snapshot);
      expect(replaced.ops).toEqual(replayed.ops);
    } finally {
      await fresh.dispose();
    }
  }, 120_000);

  it('commits a batch and its checkpoint together: a crash before commit loses nothing and leaves nothing half done', async () => {
    await extend('deploy', [deploy()]);
    await extend('mints', [mint(alice), mint(bob)]);
    await extend('transfer', [transfer(alice, bob, '1')]);
    const crashing: Db = {
      ...db,
      kind: db.kind,
      query: (sql, params) => db.query(sql, params),
      exec: (sql) => db.exec(sql),
      close: () => db.close(),
      transaction: (fn) =>
        db.transaction(async (tx) => {
          await fn(tx);
          throw new Error('crash before commit');
        }),
    };
    const doomed = createTokenIndexer({ db: crashing, profile: DEVNET_PROFILE, maxChainBlocks: 2 });
    await expect(doomed.step()).rejects.toThrow('crash before commit');
    expect(await readTokenCheckpoint(db)).toBeNull();
    expect((await db.query('SELECT count(*)::int AS n FROM token_ops')).rows).toEqual([{ n: 0 }]);
    expect((await loadTokenSnapshot(db)).tokens).toEqual([]);

    await indexer.step();
    await expect(doomed.step()).rejects.toThrow('crash before commit');
    expect(await readTokenCheckpoint(db)).toMatchObject({ daaScore: 1020n });
    await indexer.catchUp();
    const recovered = await dump(db);
    expect(recovered.snapshot.tokens[0]).toMatchObject({ mintTotal: 2, transferTotal: 1, holderTotal: 3 });
    expect(recovered.ops).toHaveLength(4);
  }, 60_000);
});
