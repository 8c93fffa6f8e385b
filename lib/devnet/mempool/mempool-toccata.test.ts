/**
 * The mempool across Toccata's activation (rusty-kaspa v2.0.1 mining/src/toccata_transient_mass_activation_tests.rs
 * and check_transaction_standard.rs tests): the standard mass cap lifted 30 minutes before activation, the block-fit
 * limits applied before consensus (gas, compute, transient) or after it (storage), and the mempool's transient block
 * limit taking Toccata's 1,000,000 only 24 hours after activation, for admission, templates and replace-by-fee alike.
 */
import { describe, expect, it } from 'vitest';
import { bytesToHex } from '../../kaspa/bytes';
import { computeMass, transientMass } from '../../kaspa/mass';
import { transactionId } from '../../kaspa/transaction';
import type { Transaction } from '../../kaspa/types';
import { FORK_NEVER } from '../consensus/params';
import { FakeVirtualState, KAS, newMempool, pay, rejection, spend, transfer, wallet, type Coin } from '../test-support/mempool-fixtures';

const alice = wallet('toccata-alice');
const bob = wallet('toccata-bob');

const ACTIVATION = 100_000n;
/** 30 minutes and 24 hours of DAA score at 10 blocks per second. */
const RELAXATION_WINDOW = 18_000n;
const MEMPOOL_ACTIVATION = ACTIVATION + 864_000n;

const idOf = (tx: Transaction) => bytesToHex(transactionId(tx));

function crossing(daaScore: bigint, options: { acceptNonStandard?: boolean } = {}) {
  const state = new FakeVirtualState();
  state.daaScore = daaScore;
  const mempool = newMempool(state, { toccataActivation: ACTIVATION, config: options });
  return { state, mempool };
}

/** A 1-in 1-out P2PK transaction of exactly `bytes` estimated bytes (transient mass 4 × bytes), paying `fee`. */
function ofBytes(coin: Coin, bytes: number, fee: bigint, to = bob): Transaction {
  const tx = transfer([coin], to, fee, { payload: new Uint8Array(bytes - 264) });
  expect(transientMass(tx)).toBe(4n * BigInt(bytes));
  return tx;
}

describe('the standard mass cap', () => {
  it('refuses more than 100,000 transient mass as non-standard until 30 minutes before activation', () => {
    const early = crossing(ACTIVATION - RELAXATION_WINDOW - 1n);
    const tx = ofBytes(early.state.fund(alice, 5n * KAS), 30_264, 7_000_000n);
    expect(rejection(() => early.mempool.submitTransaction(tx)).message).toBe(
      `transaction ${idOf(tx)} is not standard: transaction transient (storage) mass of 121056 is larger than max allowed size of 100000`,
    );
    const relaxed = crossing(ACTIVATION - RELAXATION_WINDOW);
    expect(relaxed.mempool.submitTransaction(ofBytes(relaxed.state.fund(alice, 5n * KAS), 30_264, 7_000_000n)).accepted).toHaveLength(1);
  });

  it('refuses more than 100,000 storage mass as non-standard for as long as Toccata never activates', () => {
    const state = new FakeVirtualState();
    const mempool = newMempool(state, { toccataActivation: FORK_NEVER });
    // C / 5,000,000 sompi = 200,000 grams for the small output.
    const tx = spend([state.fund(alice, 5n * KAS)], [pay(bob, 5_000_000n), pay(alice, 4n * KAS)]);
    expect(rejection(() => mempool.submitTransaction(tx)).message).toBe(
      `transaction ${idOf(tx)} is not standard: transaction storage mass of 200500 is larger than max allowed size of 100000`,
    );
  });
});

describe('transaction versions', () => {
  it('takes a version 1 transaction with a compute budget once Toccata is active, and refuses it before', () => {
    const after = crossing(ACTIVATION);
    const v1 = transfer([after.state.fund(alice, 5n * KAS)], bob, 1_000_000n, { version: 1, computeBudget: 10 });
    after.mempool.submitTransaction(v1);
    expect(after.mempool.has(transactionId(v1))).toBe(true);

    const before = crossing(ACTIVATION - 10n);
    const early = transfer([before.state.fund(alice, 5n * KAS)], bob, 1_000_000n, { version: 1, computeBudget: 10 });
    expect(rejection(() => before.mempool.submitTransaction(early)).message).toBe('transaction version 1 is unknown');
  });
});

describe('block-fit limits', () => {
  it('refuses gas over the per-lane limit before consensus sees the transaction, standard or not', () => {
    const { state, mempool } = crossing(ACTIVATION, { acceptNonStandard: true });
    const tooMuch = transfer([state.fund(alice, 5n * KAS)], bob, 1_000_000n, { gas: 1_000_000_001n });
    expect(rejection(() => mempool.submitTransaction(tooMuch))).toMatchObject({
      kind: 'RejectGas',
      message: 'transaction gas of 1000000001 is larger than max allowed per-lane gas of 1000000000',
    });
    // Within the limit, consensus has its say: under Toccata only version 1 transactions on user lanes carry gas.
    const some = transfer([state.fund(alice, 5n * KAS)], bob, 1_000_000n, { gas: 1n });
    expect(rejection(() => mempool.submitTransaction(some)).message).toBe(
      'transaction has non-zero gas: gas is only allowed for Toccata-or-newer tx versions',
    );
  });

  it('refuses compute mass over 500,000 before consensus, even accepting non-standard transactions', () => {
    const { state, mempool } = crossing(ACTIVATION, { acceptNonStandard: true });
    const heavy = transfer([state.fund(alice, 5n * KAS)], bob, 1_000_000n, { payload: new Uint8Array(500_000) });
    expect(computeMass(heavy)).toBe(501_624n);
    expect(rejection(() => mempool.submitTransaction(heavy))).toMatchObject({
      kind: 'RejectComputeMass',
      message: 'transaction compute mass of 501624 is larger than max allowed size of 500000',
    });
  });

  it('refuses storage mass over 500,000 once consensus computed it', () => {
    const { state, mempool } = crossing(MEMPOOL_ACTIVATION);
    const tx = spend([state.fund(alice, 5n * KAS)], [pay(bob, 1_000_000n), pay(alice, 4n * KAS)]);
    expect(rejection(() => mempool.submitTransaction(tx))).toMatchObject({
      kind: 'RejectStorageMass',
      message: 'transaction storage mass of 1000500 is larger than max allowed size of 500000',
    });
  });

  it('keeps the transient block limit at 500,000 until 24 hours of DAA score after activation', () => {
    for (const daaScore of [ACTIVATION - 1n, ACTIVATION, MEMPOOL_ACTIVATION - 1n]) {
      const { state, mempool } = crossing(daaScore);
      const tx = ofBytes(state.fund(alice, 5n * KAS), 187_500, 40_000_000n);
      expect(rejection(() => mempool.submitTransaction(tx)).message).toBe(
        'transaction transient (storage) mass of 750000 is larger than max allowed size of 500000',
      );
    }
    const { state, mempool } = crossing(MEMPOOL_ACTIVATION);
    expect(mempool.submitTransaction(ofBytes(state.fund(alice, 5n * KAS), 187_500, 40_000_000n)).accepted).toHaveLength(1);
  });
});

describe('templates and replace-by-fee across the mempool activation', () => {
  /** 62,500 bytes: transient 250,000, compute 63,860; normalized 250,000 before the mempool activation, 125,000 after. */
  const BYTES = 62_500;
  const FEE = 13_000_000n;

  function selectedAfterAdding(daaScores: readonly bigint[], selectAt: bigint) {
    const { state, mempool } = crossing(daaScores[0]!);
    const txs = daaScores.map((daaScore, index) => {
      state.daaScore = daaScore;
      const tx = ofBytes(state.fund(wallet(`payer-${index}`), 5n * KAS), BYTES, FEE);
      mempool.submitTransaction(tx);
      return tx;
    });
    state.daaScore = selectAt;
    const selected = mempool.selectTransactionsForTemplate();
    return { txs, selected, transient: selected.reduce((sum, entry) => sum + entry.transientMass, 0n) };
  }

  it('fills a template with 500,000 transient mass before, and Toccata’s 1,000,000 after', () => {
    const before = selectedAfterAdding(Array(4).fill(MEMPOOL_ACTIVATION - 1n), MEMPOOL_ACTIVATION - 1n);
    expect(before.selected).toHaveLength(2);
    expect(before.transient).toBe(500_000n);
    const after = selectedAfterAdding(Array(4).fill(MEMPOOL_ACTIVATION), MEMPOOL_ACTIVATION);
    expect(after.selected).toHaveLength(4);
    expect(after.transient).toBe(1_000_000n);
  });

  it('keeps a transaction admitted before the mempool activation selectable beside newer ones', () => {
    const mixed = selectedAfterAdding([MEMPOOL_ACTIVATION - 1n, MEMPOOL_ACTIVATION, MEMPOOL_ACTIVATION], MEMPOOL_ACTIVATION);
    expect(new Set(mixed.selected.map((entry) => bytesToHex(entry.transactionId)))).toEqual(new Set(mixed.txs.map(idOf)));
    expect(mixed.transient).toBe(750_000n);
  });

  it('compares a replacement with the replaced transaction under the same, current limits', () => {
    const { state, mempool } = crossing(MEMPOOL_ACTIVATION - 1n);
    const coin = state.fund(alice, 5n * KAS);
    mempool.submitTransaction(ofBytes(coin, BYTES, 20_000_000n));
    state.daaScore = MEMPOOL_ACTIVATION;
    // 15,000,000 / 125,000 beats the owner's 20,000,000 / 250,000 as it entered, but not its 20,000,000 / 125,000 now.
    const lower = ofBytes(coin, BYTES, 15_000_000n, alice);
    expect(rejection(() => mempool.submitTransactionReplacement(lower)).message).toBe(
      'fee rate per contextual mass gram is not greater than the fee rate of the replaced transaction',
    );
    expect(mempool.submitTransactionReplacement(ofBytes(coin, BYTES, 21_000_000n, alice)).accepted).toHaveLength(1);
  });
});
