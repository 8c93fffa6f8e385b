import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTransactions, migrate, type Db } from '../db';
import { hashOf, payToAddressOutput, syntheticTransaction } from '../db/test-support/fixtures';
import { testBackends, type TestDatabase } from '../db/test-support/test-databases';
import { createInputResolver } from './resolve';

describe('input resolution', () => {
  const [pglite] = testBackends();
  let opened: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    opened = await pglite!.open();
    db = opened.db;
    await migrate(db);
  }, 60_000);
  afterAll(() => opened.dispose());

  it('resolves from the same batch, then from the index, and completes a spender once its creator arrives', async () => {
    const stored = syntheticTransaction('stored', 1n, [], [payToAddressOutput('alice', 500n)]);
    await insertTransactions(db, [stored]);
    const creatorLater = syntheticTransaction('later', 3n, [], [payToAddressOutput('carol', 700n)]);
    const sameBatchCreator = syntheticTransaction('same batch', 2n, [], [payToAddressOutput('bob', 300n)]);
    const spender = syntheticTransaction(
      'spender',
      2n,
      [
        { previousTransactionId: stored.transactionId, previousIndex: 0, previousOutput: null },
        { previousTransactionId: sameBatchCreator.transactionId, previousIndex: 0, previousOutput: null },
        { previousTransactionId: creatorLater.transactionId, previousIndex: 0, previousOutput: null },
        { previousTransactionId: hashOf('never indexed'), previousIndex: 1, previousOutput: null },
      ],
      [payToAddressOutput('dave', 1_000n)],
    );
    const resolver = createInputResolver();

    const first = await resolver.resolve(db, [sameBatchCreator, spender]);
    expect(first).toEqual([sameBatchCreator, spender]);
    expect(spender.inputs.map((input) => input.previousOutput?.amount ?? null)).toEqual([500n, 300n, null, null]);
    expect(resolver.waiting).toBe(2);

    const second = await resolver.resolve(db, [creatorLater]);
    expect(second).toEqual([creatorLater, spender]);
    expect(spender.inputs.map((input) => input.previousOutput?.amount ?? null)).toEqual([500n, 300n, 700n, null]);
    expect(spender.inputs[2]!.previousOutput!.address).toBe(payToAddressOutput('carol', 0n).address);
    expect(resolver.waiting).toBe(1);
  });

  it('resolves from the latest batches before they are stored, keeping at most maxRecentOutputs of their outputs', async () => {
    const resolver = createInputResolver({ maxRecentOutputs: 2 });
    const older = syntheticTransaction('older batch', 1n, [], [payToAddressOutput('erin', 10n)]);
    const newer = syntheticTransaction('newer batch', 2n, [], [payToAddressOutput('frank', 20n), payToAddressOutput('grace', 30n)]);
    await resolver.resolve(db, [older]);
    await resolver.resolve(db, [newer]);
    const spend = (label: string, creator: typeof older, index: number) =>
      syntheticTransaction(label, 3n, [{ previousTransactionId: creator.transactionId, previousIndex: index, previousOutput: null }], []);
    const fromRecent = spend('spends the newer batch', newer, 1);
    const fromEvicted = spend('spends the older batch', older, 0);

    await resolver.resolve(db, [fromRecent, fromEvicted]);
    expect(fromRecent.inputs[0]!.previousOutput?.amount).toBe(30n);
    expect(fromEvicted.inputs[0]!.previousOutput).toBeNull();
  });

  it('forgets the outputs of batches older than maxRecentBatches, however few they are', async () => {
    const resolver = createInputResolver({ maxRecentBatches: 2 });
    const batches = ['first', 'second', 'third'].map((label, index) =>
      syntheticTransaction(`${label} batch`, BigInt(index + 1), [], [payToAddressOutput(label, BigInt(index + 1))]),
    );
    for (const batch of batches) await resolver.resolve(db, [batch]);
    const spend = (label: string, creator: (typeof batches)[number]) =>
      syntheticTransaction(label, 9n, [{ previousTransactionId: creator.transactionId, previousIndex: 0, previousOutput: null }], []);
    const fromFirst = spend('spends the first batch', batches[0]!);
    const fromThird = spend('spends the third batch', batches[2]!);
    await resolver.resolve(db, [fromFirst, fromThird]);
    expect(fromFirst.inputs[0]!.previousOutput).toBeNull();
    expect(fromThird.inputs[0]!.previousOutput?.amount).toBe(3n);
  });

  it('forgets the oldest waiting spenders beyond its bound', async () => {
    const resolver = createInputResolver({ maxWaiting: 2 });
    const spenders = ['a', 'b', 'c'].map((label) =>
      syntheticTransaction(label, 1n, [{ previousTransactionId: hashOf(`creator ${label}`), previousIndex: 0, previousOutput: null }], []),
    );
    await resolver.resolve(db, spenders);
    expect(resolver.waiting).toBe(2);
    const creatorA = { ...syntheticTransaction('creator a', 1n, [], [payToAddressOutput('x', 1n)]), transactionId: hashOf('creator a') };
    expect(await resolver.resolve(db, [creatorA])).toEqual([creatorA]);
    const creatorC = { ...syntheticTransaction('creator c', 1n, [], [payToAddressOutput('y', 2n)]), transactionId: hashOf('creator c') };
    expect(await resolver.resolve(db, [creatorC])).toEqual([creatorC, spenders[2]]);
  });
});
