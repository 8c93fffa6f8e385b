import { describe, expect, it } from 'vitest';
import { payToAddressOutput, addressOf, syntheticTransaction, hashOf } from '../db/test-support/fixtures';
import type { IndexedTransaction } from '../db';
import { walletEffect } from './history';

function indexed(record: ReturnType<typeof syntheticTransaction>): IndexedTransaction {
  return { ...record, blockHashes: [], acceptingBlockHash: null, acceptingBlockBlueScore: null };
}

const wallet = new Set([addressOf('mine a'), addressOf('mine b')]);
const funding = syntheticTransaction('h funding', 1n, [], [payToAddressOutput('mine a', 1_000n), payToAddressOutput('them', 500n)]);

describe('walletEffect', () => {
  it('a transaction whose spent output is unknown has no fee and no fee share, but still its direction', () => {
    const unknownSpend = indexed(
      syntheticTransaction('h unknown', 2n, [{ previousTransactionId: hashOf('before'), previousIndex: 0, previousOutput: null }], [
        payToAddressOutput('mine a', 300n),
      ]),
    );
    expect(walletEffect(unknownSpend, wallet, 0n, 300n)).toMatchObject({
      fee: null,
      feePaid: null,
      direction: 'incoming',
      netChange: 300n,
      counterparties: [],
    });
  });

  it('a change-only spend across two of its addresses is internal and nets to minus the fee', () => {
    const spend = indexed(
      syntheticTransaction('h internal', 2n, [{ previousTransactionId: funding.transactionId, previousIndex: 0, previousOutput: funding.outputs[0]! }], [
        payToAddressOutput('mine b', 990n),
      ]),
    );
    expect(walletEffect(spend, wallet, 1_000n, 990n)).toMatchObject({
      direction: 'internal',
      netChange: -10n,
      fee: 10n,
      feePaid: 10n,
      counterparties: [],
    });
  });

  it('a payment to itself that also pays someone else is outgoing, and the other side is the counterparty', () => {
    const spend = indexed(
      syntheticTransaction('h out', 2n, [{ previousTransactionId: funding.transactionId, previousIndex: 0, previousOutput: funding.outputs[0]! }], [
        payToAddressOutput('them', 400n),
        payToAddressOutput('mine b', 590n),
        payToAddressOutput('them', 5n),
      ]),
    );
    expect(walletEffect(spend, wallet, 1_000n, 590n)).toMatchObject({
      direction: 'outgoing',
      netChange: -410n,
      fee: 5n,
      feePaid: 5n,
      counterparties: [addressOf('them')],
    });
  });
});
