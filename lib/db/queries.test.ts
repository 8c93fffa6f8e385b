import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesToHex, compareBytes } from '../kaspa/bytes';
import type { Hash } from '../kaspa/types';
import type { Db } from './connection';
import { migrate } from './migrations';
import {
  getAddressTransactions,
  getBlocksByDaaScore,
  getTransaction,
  getTransactions,
  UnknownCursorError,
  type AddressPageQuery,
} from './reads';
import { confirmations, isAccepted, type BlockRecord, type TransactionRecord } from './records';
import { addressOf, asSpent, hashOf, payToAddressOutput, syntheticBlock, syntheticTransaction } from './test-support/fixtures';
import { testBackends, type TestDatabase } from './test-support/test-databases';
import {
  applyVirtualChainChange,
  insertBlocks,
  insertTransactions,
  readCheckpoint,
  resolvePreviousOutputs,
  writeCheckpoint,
} from './writes';

const MAX_U64 = 2n ** 64n - 1n;
const MAX_I64 = 2n ** 63n - 1n;
const TABLES = [
  'blocks',
  'block_children',
  'block_transactions',
  'transactions',
  'transaction_inputs',
  'transaction_outputs',
  'transaction_acceptances',
  'address_transactions',
];

const idHex = (transaction: { transactionId: Hash }) => bytesToHex(transaction.transactionId);
const hashHex = (block: { hash: Hash }) => bytesToHex(block.hash);
const emptyBlock = (label: string, daaScore: bigint) =>
  syntheticBlock({ label, daaScore, parents: [], transactionIds: [], isChainBlock: false });

function bytes(length: number, seed: number): Uint8Array {
  return Uint8Array.from({ length }, (_, index) => (index * 31 + seed) % 256);
}

const extremeTransaction: TransactionRecord = {
  transactionId: hashOf('extreme transaction'),
  hash: Uint8Array.from({ length: 32 }, (_, index) => (index % 2 === 0 ? 0xff : 0x00)),
  version: 1,
  lockTime: MAX_U64,
  subnetworkId: new Uint8Array(20).fill(0xff),
  gas: MAX_U64,
  payload: bytes(300, 7),
  mass: MAX_U64,
  storageMass: MAX_U64,
  computeMass: MAX_U64,
  blockTime: MAX_I64,
  inputs: [
    {
      previousOutpoint: { transactionId: new Uint8Array(32), index: 2 ** 32 - 1 },
      signatureScript: bytes(66, 3),
      sequence: MAX_U64,
      sigOpCount: 255,
      computeBudget: 65_535,
      previousOutput: {
        amount: MAX_U64,
        scriptPublicKey: { version: 65_535, script: bytes(35, 9) },
        address: addressOf('extreme sender'),
        scriptType: 'scripthash',
        covenantId: new Uint8Array(32).fill(0xfe),
      },
    },
    {
      previousOutpoint: { transactionId: new Uint8Array(32).fill(0xff), index: 0 },
      signatureScript: new Uint8Array(0),
      sequence: 0n,
      sigOpCount: 0,
      computeBudget: 0,
      previousOutput: null,
    },
  ],
  outputs: [
    payToAddressOutput('extreme receiver', MAX_U64),
    {
      amount: 0n,
      scriptPublicKey: { version: 0, script: new Uint8Array([0x6a]) },
      address: null,
      scriptType: 'nonstandard',
      covenantId: new Uint8Array(32).fill(0xff),
      authorizingInput: 65_535,
    },
  ],
};

const extremeBlock: BlockRecord = {
  hash: new Uint8Array(32).fill(0xff),
  header: {
    version: 65_535,
    parentsByLevel: [[hashOf('p1'), hashOf('p2'), hashOf('p3')], [hashOf('p1'), hashOf('p2')], [hashOf('p1')]],
    hashMerkleRoot: hashOf('hash merkle root'),
    acceptedIdMerkleRoot: new Uint8Array(32),
    utxoCommitment: hashOf('utxo commitment'),
    timestamp: MAX_I64,
    bits: 0xffff_ffff,
    nonce: MAX_U64,
    daaScore: MAX_I64,
    blueScore: MAX_I64,
    blueWork: 2n ** 192n - 1n,
    pruningPoint: hashOf('pruning point'),
  },
  selectedParentHash: hashOf('p1'),
  mergeSetBlues: [hashOf('p1'), hashOf('p2')],
  mergeSetReds: [hashOf('p3')],
  difficulty: 1.2345e30,
  isChainBlock: true,
  transactionIds: [extremeTransaction.transactionId],
};

describe.each(testBackends())('$name', (backend) => {
  let database: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    database = await backend.open();
    db = database.db;
    await migrate(db);
  }, 60_000);

  afterAll(async () => {
    await database?.dispose();
  });

  async function rowCounts(): Promise<Record<string, bigint>> {
    const counts: Record<string, bigint> = {};
    for (const table of TABLES) {
      const { rows } = await db.query<{ count: bigint }>(`SELECT count(*) AS count FROM ${table}`);
      counts[table] = rows[0]!.count;
    }
    return counts;
  }

  describe('round trip', () => {
    beforeAll(async () => {
      await db.transaction(async (tx) => {
        await insertBlocks(tx, [extremeBlock]);
        await insertTransactions(tx, [extremeTransaction]);
      });
    });

    it('returns a block with u64 extremes, ragged parents and exact hashes', async () => {
      const { blocks, transactions } = await getBlocksByDaaScore(db, {
        start: MAX_I64 - 1000n,
        end: MAX_I64,
        chainBlocksOnly: false,
        includeTransactions: true,
        includePayload: true,
      });
      expect(blocks).toEqual([{ ...extremeBlock, childrenHashes: [] }]);
      expect(transactions).toEqual([
        {
          ...extremeTransaction,
          blockHashes: [extremeBlock.hash],
          acceptingBlockHash: null,
          acceptingBlockBlueScore: null,
        },
      ]);
    });

    it('returns a transaction with 2^64−1 amounts, with or without its payload', async () => {
      const withPayload = await getTransaction(db, extremeTransaction.transactionId, { includePayload: true });
      expect(withPayload).toMatchObject({ ...extremeTransaction, blockHashes: [extremeBlock.hash] });
      const withoutPayload = await getTransaction(db, extremeTransaction.transactionId, { includePayload: false });
      expect(withoutPayload?.payload).toBeNull();
      expect(await getTransaction(db, hashOf('never stored'), { includePayload: true })).toBeNull();
    });

    it('reads transactions in the order asked, each once, with nulls kept in place inside their inputs', async () => {
      const nonstandardOutput = {
        amount: 7n,
        scriptPublicKey: { version: 0, script: new Uint8Array([0x6a]) },
        address: null,
        scriptType: 'nonstandard',
        covenantId: null,
        authorizingInput: null,
      };
      const mixed = syntheticTransaction(
        'mixed inputs',
        8_000n,
        [
          { previousTransactionId: hashOf('funding a'), previousIndex: 3, previousOutput: payToAddressOutput('a', 9n) },
          { previousTransactionId: hashOf('funding b'), previousIndex: 0, previousOutput: null },
          { previousTransactionId: hashOf('funding c'), previousIndex: 1, previousOutput: nonstandardOutput },
        ],
        [nonstandardOutput, payToAddressOutput('mixed receiver', MAX_U64)],
      );
      const bare = syntheticTransaction('bare', 8_000n, [], []);
      const containing = ['mixed 1', 'mixed 2', 'mixed 3'].map((label, index) =>
        syntheticBlock({
          label,
          daaScore: 8_000n + BigInt(index),
          parents: [],
          transactionIds: [mixed.transactionId],
          isChainBlock: false,
        }),
      );
      await db.transaction(async (tx) => {
        await insertBlocks(tx, containing);
        await insertTransactions(tx, [mixed, bare]);
      });
      const [bareId, mixedId] = [bare.transactionId, mixed.transactionId];
      const read = await getTransactions(db, [bareId, hashOf('never stored'), mixedId, bareId, mixedId], {
        includePayload: true,
      });
      const unaccepted = { acceptingBlockHash: null, acceptingBlockBlueScore: null };
      expect(read).toEqual([
        { ...bare, blockHashes: [], ...unaccepted },
        { ...mixed, blockHashes: containing.map((block) => block.hash).sort(compareBytes), ...unaccepted },
      ]);
      expect(read.map((transaction) => transaction.payload)).toEqual([new Uint8Array(0), new Uint8Array(0)]);
      expect(await getTransactions(db, [hashOf('never stored')], { includePayload: false })).toEqual([]);
      expect(await getTransactions(db, [], { includePayload: false })).toEqual([]);
    });

    it('derives address rows from the stored inputs and outputs', async () => {
      const sender = await getAddressTransactions(db, {
        address: addressOf('extreme sender'),
        limit: 10,
        acceptedOnly: false,
        includePayload: false,
      });
      expect(sender.transactions).toHaveLength(1);
      expect(sender.transactions[0]).toMatchObject({
        amountSent: MAX_U64,
        amountReceived: 0n,
        balanceChange: -MAX_U64,
        fee: null,
      });
      const receiver = await getAddressTransactions(db, {
        address: addressOf('extreme receiver'),
        limit: 10,
        acceptedOnly: false,
        includePayload: false,
      });
      expect(receiver.transactions[0]).toMatchObject({
        amountSent: 0n,
        amountReceived: MAX_U64,
        balanceChange: MAX_U64,
      });
    });

    it('is idempotent: writing the same batch again, even with repeats inside it, changes nothing', async () => {
      const before = await rowCounts();
      await db.transaction(async (tx) => {
        await insertBlocks(tx, [extremeBlock, extremeBlock]);
        await insertTransactions(tx, [extremeTransaction, extremeTransaction]);
      });
      expect(await rowCounts()).toEqual(before);
    });

    it('accepts a batch that carries one transaction twice', async () => {
      const repeated = syntheticTransaction('repeated', 7n, [], [payToAddressOutput('repeated', 5n)]);
      await insertTransactions(db, [repeated, repeated]);
      await applyVirtualChainChange(db, {
        removedChainBlockHashes: [],
        added: [
          { acceptingBlockHash: hashOf('first acceptor'), acceptedTransactionIds: [repeated.transactionId] },
          { acceptingBlockHash: hashOf('last acceptor'), acceptedTransactionIds: [repeated.transactionId] },
        ],
      });
      const stored = await getTransaction(db, repeated.transactionId, { includePayload: false });
      expect(stored?.outputs).toEqual(repeated.outputs);
      expect(stored?.acceptingBlockHash).toEqual(hashOf('last acceptor'));
    });

    it('keeps the earliest containing block time whatever the write order, moving the address rows with it', async () => {
      const spent = syntheticTransaction('moved funding', 50n, [], [payToAddressOutput('moved payer', 900n)]);
      const atTime = (blockTime: bigint) =>
        syntheticTransaction(
          'moved',
          blockTime,
          [{ previousTransactionId: spent.transactionId, previousIndex: 0, previousOutput: spent.outputs[0]! }],
          [payToAddressOutput('moved payee', 800n)],
        );
      await insertTransactions(db, [spent]);
      await insertTransactions(db, [atTime(300n)]);
      await insertTransactions(db, [atTime(200n), atTime(250n)]);
      await insertTransactions(db, [atTime(400n)]);
      const stored = await getTransaction(db, atTime(0n).transactionId, { includePayload: false });
      expect(stored?.blockTime).toBe(200n);
      const { rows } = await db.query<{ address: string; block_time: bigint }>(
        'SELECT address, block_time FROM address_transactions WHERE transaction_id = $1 ORDER BY address',
        [atTime(0n).transactionId],
      );
      expect(rows).toEqual(
        [addressOf('moved payee'), addressOf('moved payer')].sort().map((address) => ({ address, block_time: 200n })),
      );
    });
  });

  describe('acceptance and reorganisations', () => {
    const blockA = syntheticBlock({ label: 'A', daaScore: 100n, parents: [], transactionIds: [], isChainBlock: false });
    const payment = (label: string) =>
      syntheticTransaction(label, blockA.header.timestamp, [], [payToAddressOutput('reorg payee', 1000n)]);
    const first = payment('first');
    const second = payment('second');
    const blockB = syntheticBlock({
      label: 'B',
      daaScore: 101n,
      parents: [blockA.hash],
      transactionIds: [second.transactionId],
      isChainBlock: false,
    });
    const blockC = syntheticBlock({
      label: 'C',
      daaScore: 101n,
      parents: [blockA.hash],
      transactionIds: [first.transactionId, second.transactionId],
      isChainBlock: false,
    });

    beforeAll(async () => {
      await db.transaction(async (tx) => {
        await insertBlocks(tx, [blockA, blockB, blockC]);
        await insertTransactions(tx, [first, second]);
      });
    });

    async function acceptingBlocks(): Promise<(string | null)[]> {
      const ids = [first.transactionId, second.transactionId];
      const transactions = await getTransactions(db, ids, { includePayload: false });
      return transactions.map(({ acceptingBlockHash }) => acceptingBlockHash && bytesToHex(acceptingBlockHash));
    }

    async function chainFlags(): Promise<boolean[]> {
      const { blocks } = await getBlocksByDaaScore(db, {
        start: 100n,
        end: 101n,
        chainBlocksOnly: false,
        includeTransactions: false,
        includePayload: false,
      });
      const byHash = new Map(blocks.map((block) => [bytesToHex(block.hash), block.isChainBlock]));
      return [blockA, blockB, blockC].map((block) => byHash.get(bytesToHex(block.hash)) ?? false);
    }

    it('lists blocks by DAA score with membership and children derived from parents', async () => {
      const { blocks, transactions } = await getBlocksByDaaScore(db, {
        start: 100n,
        end: 101n,
        chainBlocksOnly: false,
        includeTransactions: true,
        includePayload: false,
      });
      const expectedOrder = [blockA, ...[blockB, blockC].sort((x, y) => compareBytes(x.hash, y.hash))];
      expect(blocks.map(hashHex)).toEqual(expectedOrder.map(hashHex));
      const childrenOfA = blocks[0]!.childrenHashes.map(bytesToHex).sort();
      expect(childrenOfA).toEqual([blockB.hash, blockC.hash].map(bytesToHex).sort());
      expect(transactions.map(idHex).sort()).toEqual(
        [first, second].map(idHex).sort(),
      );
      const secondRead = transactions.find((transaction) => idHex(transaction) === idHex(second));
      expect(secondRead?.blockHashes.map(bytesToHex).sort()).toEqual([blockB.hash, blockC.hash].map(bytesToHex).sort());
    });

    it('accepts, moves acceptance on a reorganisation and unaccepts', async () => {
      await applyVirtualChainChange(db, {
        removedChainBlockHashes: [],
        added: [
          { acceptingBlockHash: blockA.hash, acceptedTransactionIds: [] },
          { acceptingBlockHash: blockB.hash, acceptedTransactionIds: [first.transactionId, second.transactionId] },
        ],
      });
      expect(await acceptingBlocks()).toEqual([bytesToHex(blockB.hash), bytesToHex(blockB.hash)]);
      expect(await chainFlags()).toEqual([true, true, false]);
      const accepted = await getTransaction(db, first.transactionId, { includePayload: false });
      expect(accepted && isAccepted(accepted)).toBe(true);
      expect(accepted?.acceptingBlockBlueScore).toBe(blockB.header.blueScore);
      expect(accepted && confirmations(accepted, blockB.header.blueScore + 5n)).toBe(5);

      await applyVirtualChainChange(db, {
        removedChainBlockHashes: [blockB.hash],
        added: [{ acceptingBlockHash: blockC.hash, acceptedTransactionIds: [second.transactionId] }],
      });
      expect(await acceptingBlocks()).toEqual([null, bytesToHex(blockC.hash)]);
      expect(await chainFlags()).toEqual([true, false, true]);

      await applyVirtualChainChange(db, { removedChainBlockHashes: [blockC.hash], added: [] });
      expect(await acceptingBlocks()).toEqual([null, null]);
      const unaccepted = await getTransaction(db, second.transactionId, { includePayload: false });
      expect(unaccepted && isAccepted(unaccepted)).toBe(false);
      expect(unaccepted && confirmations(unaccepted, 10_000n)).toBe(0);
    });

    it('filters chain blocks only', async () => {
      await applyVirtualChainChange(db, {
        removedChainBlockHashes: [],
        added: [{ acceptingBlockHash: blockC.hash, acceptedTransactionIds: [first.transactionId] }],
      });
      const { blocks } = await getBlocksByDaaScore(db, {
        start: 0n,
        end: 1000n,
        chainBlocksOnly: true,
        includeTransactions: false,
        includePayload: false,
      });
      expect(blocks.map(hashHex)).toEqual([blockA, blockC].map(hashHex));
    });
  });

  describe('previous outputs', () => {
    const funding = syntheticTransaction('funding', 5_000n, [], [
      payToAddressOutput('spender', 700n),
      payToAddressOutput('spender', 300n),
    ]);
    const unresolvedSpend = syntheticTransaction(
      'spend',
      6_000n,
      [{ previousTransactionId: funding.transactionId, previousIndex: 1, previousOutput: null }],
      [payToAddressOutput('shop', 250n)],
    );

    it('resolves stored outpoints in order and leaves unknown ones null', async () => {
      await insertTransactions(db, [funding, unresolvedSpend]);
      const resolved = await resolvePreviousOutputs(db, [
        { transactionId: hashOf('unknown'), index: 0 },
        { transactionId: funding.transactionId, index: 1 },
        { transactionId: funding.transactionId, index: 2 },
        { transactionId: funding.transactionId, index: 0 },
      ]);
      expect(resolved).toEqual([null, asSpent(funding.outputs[1]!), null, asSpent(funding.outputs[0]!)]);
    });

    it('completes a spender stored before the output it spends, once, whichever way the output arrives', async () => {
      const lateFunding = syntheticTransaction('late funding', 7_000n, [], [payToAddressOutput('late spender', 400n)]);
      const earlySpend = syntheticTransaction(
        'early spend',
        7_500n,
        [{ previousTransactionId: lateFunding.transactionId, previousIndex: 0, previousOutput: null }],
        [payToAddressOutput('shop', 350n)],
      );
      const history = async () =>
        (await getAddressTransactions(db, { address: addressOf('late spender'), limit: 10, acceptedOnly: false, includePayload: false }))
          .transactions.map((item) => [idHex(item), item.balanceChange, item.fee]);

      await insertTransactions(db, [earlySpend]);
      expect(await history()).toEqual([]);
      await insertTransactions(db, [lateFunding]);
      const completed = [
        [idHex(earlySpend), -400n, 50n],
        [idHex(lateFunding), 400n, 0n],
      ];
      expect(await history()).toEqual(completed);

      // The indexer may still write the spender again, resolved by it or not: the sums do not move.
      const [spent] = await resolvePreviousOutputs(db, [{ transactionId: lateFunding.transactionId, index: 0 }]);
      await insertTransactions(db, [{ ...earlySpend, inputs: earlySpend.inputs.map((input) => ({ ...input, previousOutput: spent ?? null })) }]);
      await insertTransactions(db, [earlySpend, lateFunding]);
      expect(await history()).toEqual(completed);
    });
  });

  describe('checkpoints', () => {
    it('commits a checkpoint with its batch and rolls both back together', async () => {
      expect(await readCheckpoint(db, 'virtual-chain')).toBeNull();
      const block = emptyBlock('checkpointed', 500n);
      const checkpoint = { name: 'virtual-chain', blockHash: block.hash, blueScore: 500n, daaScore: 501n };
      await db.transaction(async (tx) => {
        await insertBlocks(tx, [block]);
        await writeCheckpoint(tx, checkpoint);
      });
      expect(await readCheckpoint(db, 'virtual-chain')).toEqual(checkpoint);
      const later = emptyBlock('rolled back', 600n);
      await expect(
        db.transaction(async (tx) => {
          await insertBlocks(tx, [later]);
          await writeCheckpoint(tx, { ...checkpoint, blockHash: later.hash, blueScore: 600n });
          throw new Error('batch failed');
        }),
      ).rejects.toThrow('batch failed');
      expect(await readCheckpoint(db, 'virtual-chain')).toEqual(checkpoint);
      const { blocks } = await getBlocksByDaaScore(db, {
        start: 600n,
        end: 600n,
        chainBlocksOnly: false,
        includeTransactions: false,
        includePayload: false,
      });
      expect(blocks).toEqual([]);
    });
  });

  describe('address history paging', () => {
    const address = addressOf('paged');
    const HISTORY_SIZE = 30;
    const history = Array.from({ length: HISTORY_SIZE }, (_, index) =>
      syntheticTransaction(`paged ${index}`, 10_000n + BigInt(Math.floor(index / 4)), [], [
        payToAddressOutput('paged', BigInt(index + 1)),
      ]),
    );
    const acceptedIds = new Set(history.filter((_, index) => index % 3 === 0).map(idHex));
    const newer = (x: TransactionRecord, y: TransactionRecord) =>
      x.blockTime === y.blockTime ? compareBytes(y.transactionId, x.transactionId) : x.blockTime > y.blockTime ? -1 : 1;
    const newestFirst = [...history].sort(newer).map(idHex);
    const acceptedNewestFirst = newestFirst.filter((id) => acceptedIds.has(id));

    beforeAll(async () => {
      const acceptingBlock = emptyBlock('paging acceptor', 900n);
      await db.transaction(async (tx) => {
        await insertBlocks(tx, [acceptingBlock]);
        await insertTransactions(tx, history);
        await applyVirtualChainChange(tx, {
          removedChainBlockHashes: [],
          added: [
            {
              acceptingBlockHash: acceptingBlock.hash,
              acceptedTransactionIds: history
                .filter((transaction) => acceptedIds.has(idHex(transaction)))
                .map((transaction) => transaction.transactionId),
            },
          ],
        });
      });
    });

    const pageOf = (query: Partial<AddressPageQuery> & { limit: number }) =>
      getAddressTransactions(db, { address, acceptedOnly: false, includePayload: false, ...query });

    async function walkForward(limit: number, acceptedOnly: boolean): Promise<string[]> {
      const seen: string[] = [];
      let cursor: Hash | undefined;
      for (;;) {
        const page = await pageOf({ limit, startingAfter: cursor, acceptedOnly });
        expect(page.transactions.length).toBeLessThanOrEqual(limit);
        seen.push(...page.transactions.map(idHex));
        if (!page.hasMore) return seen;
        expect(page.transactions).toHaveLength(limit);
        cursor = page.transactions.at(-1)!.transactionId;
      }
    }

    async function walkBackward(limit: number, acceptedOnly: boolean, from: Hash): Promise<string[]> {
      const seen: string[] = [];
      let cursor = from;
      for (;;) {
        const page = await pageOf({ limit, endingBefore: cursor, acceptedOnly });
        expect(page.transactions.length).toBeLessThanOrEqual(limit);
        seen.unshift(...page.transactions.map(idHex));
        if (!page.hasMore) return seen;
        expect(page.transactions).toHaveLength(limit);
        cursor = page.transactions[0]!.transactionId;
      }
    }

    const oldest = () => history.find((transaction) => idHex(transaction) === newestFirst.at(-1))!;

    it.each([1, 2, 7, 20, 29, 30, 31, 100])('walks both ways with limit %i, each item once in order', async (limit) => {
      expect(await walkForward(limit, false)).toEqual(newestFirst);
      expect(await walkBackward(limit, false, oldest().transactionId)).toEqual(newestFirst.slice(0, -1));
    });

    it('walks every limit from 1 to 100 (sampled) with and without accepted_only', async () => {
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: 100 }), fc.boolean(), async (limit, acceptedOnly) => {
          const expected = acceptedOnly ? acceptedNewestFirst : newestFirst;
          expect(await walkForward(limit, acceptedOnly)).toEqual(expected);
          const backward = await walkBackward(limit, acceptedOnly, oldest().transactionId);
          expect(backward).toEqual(expected.filter((id) => id !== newestFirst.at(-1)));
        }),
        { numRuns: 8 },
      );
    });

    it('reports hasMore and count at the edges', async () => {
      const first = await pageOf({ limit: HISTORY_SIZE });
      expect([first.transactions.length, first.hasMore]).toEqual([HISTORY_SIZE, false]);
      const newest = history.find((transaction) => idHex(transaction) === newestFirst[0])!;
      const beforeNewest = await pageOf({ limit: 5, endingBefore: newest.transactionId });
      expect([beforeNewest.transactions.length, beforeNewest.hasMore]).toEqual([0, false]);
      const afterOldest = await pageOf({ limit: 5, startingAfter: oldest().transactionId });
      expect([afterOldest.transactions.length, afterOldest.hasMore]).toEqual([0, false]);
      const empty = await pageOf({ address: addressOf('nobody'), limit: 5 });
      expect(empty).toEqual({ transactions: [], hasMore: false });
    });

    it('carries the transaction and amounts of each item, and the payload only when asked', async () => {
      const expected = history.find((transaction) => idHex(transaction) === newestFirst[1])!;
      const { transactions } = await pageOf({ limit: 2, includePayload: true });
      expect(transactions.map(idHex)).toEqual(newestFirst.slice(0, 2));
      expect(transactions[1]).toMatchObject({
        ...expected,
        payload: new Uint8Array(0),
        amountSent: 0n,
        amountReceived: expected.outputs[0]!.amount,
        balanceChange: expected.outputs[0]!.amount,
        fee: 0n,
      });
      const withoutPayload = await pageOf({ limit: 2, startingAfter: transactions[1]!.transactionId });
      expect(withoutPayload.transactions.map((transaction) => transaction.payload)).toEqual([null, null]);
    });

    it('rejects bad limits, both cursors at once and unknown cursors', async () => {
      await expect(pageOf({ limit: 0 })).rejects.toBeInstanceOf(RangeError);
      await expect(pageOf({ limit: 101 })).rejects.toBeInstanceOf(RangeError);
      await expect(pageOf({ limit: 1.5 })).rejects.toBeInstanceOf(RangeError);
      const id = history[0]!.transactionId;
      await expect(pageOf({ limit: 5, startingAfter: id, endingBefore: id })).rejects.toBeInstanceOf(RangeError);
      await expect(pageOf({ limit: 5, startingAfter: hashOf('nope') })).rejects.toBeInstanceOf(UnknownCursorError);
    });
  });

  it('rejects DAA-score ranges wider than 1000 or reversed', async () => {
    const range = { chainBlocksOnly: false, includeTransactions: false, includePayload: false };
    await expect(getBlocksByDaaScore(db, { ...range, start: 0n, end: 1001n })).rejects.toBeInstanceOf(RangeError);
    await expect(getBlocksByDaaScore(db, { ...range, start: 5n, end: 4n })).rejects.toBeInstanceOf(RangeError);
    await expect(getBlocksByDaaScore(db, { ...range, start: 0n, end: 1000n })).resolves.toBeDefined();
  });
});
