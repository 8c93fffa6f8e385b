import { describe, expect, it } from 'vitest';
import { bytesToHex } from '../kaspa/bytes';
import { computeMass } from '../kaspa/mass';
import { transactionId } from '../kaspa/transaction';
import { SUBNETWORK_ID_COINBASE, type Transaction } from '../kaspa/types';
import { MempoolQueryError, transactionQuery } from './mempool';
import { MempoolRuleError } from './mempool-errors';
import {
  FakeVirtualState,
  KAS,
  newMempool,
  outputCoin,
  pay,
  seededRandom,
  spend,
  transfer,
  wallet,
  type Coin,
} from './test-support/mempool-fixtures';

const alice = wallet('alice');
const bob = wallet('bob');
const carol = wallet('carol', 'ecdsa');

const idOf = (tx: Transaction) => bytesToHex(transactionId(tx));
const outpointText = (coin: Coin) => `(${bytesToHex(coin.outpoint.transactionId)}, ${coin.outpoint.index})`;

/** 1 input, 1 P2PK output, sig-op count 1: size 264 = 10 + 118 (input) + 8 + 52 (output) + 76; + 36·10 + 1000. */
const ONE_TO_ONE_COMPUTE_MASS = 1624n;

function rejection(action: () => unknown): MempoolRuleError {
  try {
    action();
  } catch (error) {
    if (error instanceof MempoolRuleError) return error;
    throw error;
  }
  throw new Error('expected a MempoolRuleError');
}

function setup() {
  const state = new FakeVirtualState();
  const mempool = newMempool(state);
  return { state, mempool };
}

describe('submitTransaction: acceptance', () => {
  it('accepts a signed P2PK transaction and records fee, masses and the consensus storage mass', () => {
    const { state, mempool } = setup();
    const coin = state.fund(alice, 10n * KAS);
    const tx = spend([coin], [pay(bob, 4n * KAS), pay(alice, 6n * KAS - 5000n)]);
    const result = mempool.submitTransaction(tx);
    expect(result.orphaned).toBe(false);
    expect(result.accepted.map(idOf)).toEqual([idOf(tx)]);
    const entry = mempool.getEntry(idOf(tx))!;
    expect(entry.fee).toBe(5000n);
    expect(entry.computeMass).toBe(computeMass(tx));
    // KIP-9 with one input: C/4 KAS + C/(6 KAS − 5000) − C/10 KAS, C = 10^12 (integer divisions per term).
    expect(entry.storageMass).toBe(2500n + 1666n - 1000n);
    expect(entry.transaction.storageMass).toBe(entry.storageMass);
    expect(entry.mass).toBe(entry.storageMass > entry.computeMass ? entry.storageMass : entry.computeMass);
    expect(entry.isOrphan).toBe(false);
    expect(entry.spentEntries).toEqual([coin.entry]);
    expect(mempool.readyTransactionCount()).toBe(1);
    expect(mempool.readyTransactionTotalMass()).toBe(entry.mass);
  });

  it('accepts an ECDSA P2PK spend', () => {
    const { state, mempool } = setup();
    const coin = state.fund(carol, 3n * KAS);
    const tx = transfer([coin], alice, 10_000n);
    expect(mempool.submitTransaction(tx).accepted).toHaveLength(1);
  });

  it('accepts a chain: a child spending a pool transaction is no orphan but stays out of the frontier', () => {
    const { state, mempool } = setup();
    const parent = transfer([state.fund(alice, 5n * KAS)], bob, 3000n);
    mempool.submitTransaction(parent);
    const child = transfer([outputCoin(parent, 0, bob)], alice, 3000n);
    const result = mempool.submitTransaction(child);
    expect(result.orphaned).toBe(false);
    expect(mempool.getEntry(idOf(child))!.spentEntries[0]!.blockDaaScore).toBe((1n << 64n) - 1n);
    expect(mempool.transactionCount()).toBe(2);
    expect(mempool.readyTransactionCount()).toBe(1);
    expect(mempool.selectTransactionsForTemplate().map((entry) => bytesToHex(entry.transactionId))).toEqual([idOf(parent)]);
  });

  it('accepts a spend of a coinbase output once the maturity (1000 DAA at 10 BPS) has passed', () => {
    const { state, mempool } = setup();
    const coin = state.fund(alice, 5n * KAS, { isCoinbase: true, blockDaaScore: state.daaScore - 1000n });
    expect(mempool.submitTransaction(transfer([coin], bob, 3000n)).accepted).toHaveLength(1);
  });

  it('accepts a payload on a native transaction, which Crescendo allows', () => {
    const { state, mempool } = setup();
    const tx = transfer([state.fund(alice, 5n * KAS)], bob, 5000n, { payload: new TextEncoder().encode('hello kaspa') });
    expect(mempool.submitTransaction(tx).accepted).toHaveLength(1);
    expect(mempool.getEntry(idOf(tx))!.computeMass).toBe(ONE_TO_ONE_COMPUTE_MASS + 11n);
  });

  it('takes the relay fee on compute mass: exactly the minimum passes', () => {
    const { state, mempool } = setup();
    const tx = transfer([state.fund(alice, 5n * KAS)], bob, ONE_TO_ONE_COMPUTE_MASS);
    expect(computeMass(tx)).toBe(ONE_TO_ONE_COMPUTE_MASS);
    expect(mempool.submitTransaction(tx).accepted).toHaveLength(1);
  });
});

describe('submitTransaction: rejections carry kaspad v1.0.1 messages', () => {
  it('rejects a duplicate', () => {
    const { state, mempool } = setup();
    const tx = transfer([state.fund(alice, 5n * KAS)], bob, 3000n);
    mempool.submitTransaction(tx);
    const error = rejection(() => mempool.submitTransaction(tx));
    expect(error.kind).toBe('RejectDuplicate');
    expect(error.message).toBe(`transaction ${idOf(tx)} is already in the mempool`);
  });

  it('rejects a double spend of a pool transaction', () => {
    const { state, mempool } = setup();
    const coin = state.fund(alice, 5n * KAS);
    const first = transfer([coin], bob, 3000n);
    mempool.submitTransaction(first);
    const error = rejection(() => mempool.submitTransaction(transfer([coin], carol, 9000n)));
    expect(error.message).toBe(`output ${outpointText(coin)} already spent by transaction ${idOf(first)} in the mempool`);
  });

  it('rejects a transaction with a missing input unless orphans are allowed', () => {
    const { state, mempool } = setup();
    const parent = transfer([state.fund(alice, 5n * KAS)], bob, 3000n);
    const child = transfer([outputCoin(parent, 0, bob)], alice, 3000n);
    const error = rejection(() => mempool.submitTransaction(child));
    expect(error.message).toBe(`transaction ${idOf(child)} is an orphan where orphan is disallowed`);
    expect(mempool.transactionCount('all')).toBe(0);
  });

  it('rejects a fee below 1 sompi per gram of compute mass', () => {
    const { state, mempool } = setup();
    const tx = transfer([state.fund(alice, 5n * KAS)], bob, ONE_TO_ONE_COMPUTE_MASS - 1n);
    const error = rejection(() => mempool.submitTransaction(tx));
    expect(error.kind).toBe('RejectNonStandard');
    expect(error.message).toBe(
      `transaction ${idOf(tx)} is not standard: transaction has 1623 fees which is under the required amount of 1624`,
    );
  });

  it('rejects an immature coinbase spend', () => {
    const { state, mempool } = setup();
    const coinbaseDaa = state.daaScore - 999n;
    const coin = state.fund(alice, 5n * KAS, { isCoinbase: true, blockDaaScore: coinbaseDaa });
    const error = rejection(() => mempool.submitTransaction(transfer([coin], bob, 3000n)));
    expect(error.kind).toBe('RejectImmatureSpend');
    expect(error.message).toBe(
      `one of the transaction inputs spends an immature UTXO: transaction input #0 tried to spend coinbase outpoint ${outpointText(coin)} ` +
        `with daa score of ${coinbaseDaa} \n    while the merging block daa score is ${state.daaScore} and the coinbase maturity period ` +
        `of 1000 hasn't passed yet`,
    );
  });

  it('rejects a bad signature', () => {
    const { state, mempool } = setup();
    const coin = state.fund(alice, 5n * KAS);
    const signed = transfer([coin], bob, 3000n);
    const forged: Transaction = { ...signed, outputs: [pay(carol, signed.outputs[0]!.value)] };
    const error = rejection(() => mempool.submitTransaction(forged));
    expect(error.kind).toBe('RejectTxRule');
    expect(error.message).toBe('failed to verify the signature script: false stack entry at end of script execution');
  });

  it('rejects an unsigned input as an empty signature script', () => {
    const { state, mempool } = setup();
    const tx = transfer([state.fund(alice, 5n * KAS)], bob, 3000n, { unsigned: true });
    expect(rejection(() => mempool.submitTransaction(tx)).message).toBe(
      'failed to verify empty signature script. Inner error: opcode requires at least 2 but stack has only 1',
    );
  });

  it('rejects a P2PK spend committing to zero sig ops (Crescendo counts them at run time)', () => {
    const { state, mempool } = setup();
    const tx = transfer([state.fund(alice, 5n * KAS)], bob, 3000n, { sigOpCount: 0 });
    expect(rejection(() => mempool.submitTransaction(tx)).message).toBe(
      'failed to verify the signature script: sig op count exceeds passed limit of 0',
    );
  });

  it('rejects a non-standard output script', () => {
    const { state, mempool } = setup();
    const tx = spend([state.fund(alice, 5n * KAS)], [{ value: 4n * KAS, scriptPublicKey: { version: 0, script: Uint8Array.of(0x51) } }]);
    expect(rejection(() => mempool.submitTransaction(tx)).message).toBe(
      `transaction ${idOf(tx)} is not standard: transaction output #0: non-standard script form`,
    );
  });

  it('rejects a script public key version above 0', () => {
    const { state, mempool } = setup();
    const tx = spend([state.fund(alice, 5n * KAS)], [{ value: 4n * KAS, scriptPublicKey: { ...bob.scriptPublicKey, version: 1 } }]);
    expect(rejection(() => mempool.submitTransaction(tx)).message).toBe(
      `transaction ${idOf(tx)} is not standard: transaction output #0: the version of the scriptPublicKey is higher than the known version`,
    );
  });

  it('rejects dust: a P2PK output under 600 sompi', () => {
    const { state, mempool } = setup();
    const coin = state.fund(alice, 5n * KAS);
    const dusty = spend([coin], [pay(bob, 599n), pay(alice, 4n * KAS)]);
    expect(rejection(() => mempool.submitTransaction(dusty)).message).toBe(
      `transaction ${idOf(dusty)} is not standard: transaction output #0: payment of 599 is dust`,
    );
    expect(mempool.isTransactionOutputDust(pay(bob, 600n))).toBe(false);
  });

  it('rejects a transaction version other than 0 as non-standard', () => {
    const { state, mempool } = setup();
    const tx = transfer([state.fund(alice, 5n * KAS)], bob, 3000n, { version: 1, unsigned: true });
    expect(rejection(() => mempool.submitTransaction(tx)).message).toBe(
      `transaction ${idOf(tx)} is not standard: transaction version 1 is not in the valid range of 0-0`,
    );
  });

  it('rejects spending more than the inputs hold', () => {
    const { state, mempool } = setup();
    const coin = state.fund(alice, 5n * KAS);
    const tx = spend([coin], [pay(bob, 5n * KAS + 1n)]);
    expect(rejection(() => mempool.submitTransaction(tx)).message).toBe(
      `transaction tries to spend ${5n * KAS + 1n} while its total inputs amount is ${5n * KAS}`,
    );
  });

  it('rejects a submitted coinbase transaction: it has no inputs to pay its outputs', () => {
    const { mempool } = setup();
    const coinbase: Transaction = {
      ...spend([], [pay(alice, 5n * KAS)], { unsigned: true }),
      subnetworkId: SUBNETWORK_ID_COINBASE,
    };
    expect(rejection(() => mempool.submitTransaction(coinbase)).message).toBe(
      `transaction tries to spend ${5n * KAS} while its total inputs amount is 0`,
    );
  });

  it('rejects a spend of a script this node cannot run as a non-standard input', () => {
    const { state, mempool } = setup();
    const coin = state.fund(alice, 5n * KAS, { scriptPublicKey: { version: 0, script: Uint8Array.of(0x51) } });
    const unsigned = spend([coin], [pay(bob, 4n * KAS)], { unsigned: true });
    const tx: Transaction = { ...unsigned, inputs: [{ ...unsigned.inputs[0]!, signatureScript: Uint8Array.of(0x51) }] };
    expect(rejection(() => mempool.submitTransaction(tx)).message).toBe(
      `transaction ${idOf(tx)} is not standard: transaction input 0: non-standard script form`,
    );
  });

  it('rejects a time-locked transaction whose lock DAA score has not been reached', () => {
    const { state, mempool } = setup();
    const tx = transfer([state.fund(alice, 5n * KAS)], bob, 3000n, { lockTime: state.daaScore });
    expect(rejection(() => mempool.submitTransaction(tx)).message).toBe('transaction input #0 is not finalized');
    const ready = transfer([state.fund(alice, 5n * KAS)], bob, 3000n, { lockTime: state.daaScore - 1n });
    expect(mempool.submitTransaction(ready).accepted).toHaveLength(1);
  });

  it('rejects an input whose relative sequence lock has not expired', () => {
    const { state, mempool } = setup();
    const coin = state.fund(alice, 5n * KAS, { blockDaaScore: state.daaScore - 10n });
    const tx = transfer([coin], bob, 3000n, { sequence: 11n });
    expect(rejection(() => mempool.submitTransaction(tx)).message).toBe('one of the transaction sequence locks conditions was not met');
    const unlocked = transfer([state.fund(alice, 5n * KAS, { blockDaaScore: state.daaScore - 10n })], bob, 3000n, { sequence: 10n });
    expect(mempool.submitTransaction(unlocked).accepted).toHaveLength(1);
  });

  it('rejects a transaction already accepted by a block', () => {
    const { state, mempool } = setup();
    const tx = transfer([state.fund(alice, 5n * KAS)], bob, 3000n);
    mempool.handleNewBlockTransactions(state.daaScore, [tx]);
    expect(rejection(() => mempool.submitTransaction(tx)).message).toBe(`transaction ${idOf(tx)} was already accepted by the consensus`);
  });
});

describe('orphan pool', () => {
  it('keeps an orphan until its parent arrives, then inserts both', () => {
    const { state, mempool } = setup();
    const parent = transfer([state.fund(alice, 5n * KAS)], bob, 3000n);
    const child = transfer([outputCoin(parent, 0, bob)], carol, 3000n);
    const orphaned = mempool.submitTransaction(child, { allowOrphan: true });
    expect(orphaned).toMatchObject({ orphaned: true, accepted: [] });
    expect(mempool.getEntry(idOf(child))).toBeUndefined();
    expect(mempool.getEntry(idOf(child), 'all')).toMatchObject({ isOrphan: true, fee: 0n });
    expect(mempool.transactionCount('orphans')).toBe(1);

    const result = mempool.submitTransaction(parent);
    expect(result.accepted.map(idOf)).toEqual([idOf(parent), idOf(child)]);
    expect(mempool.transactionCount('orphans')).toBe(0);
    expect(mempool.getEntry(idOf(child))).toMatchObject({ isOrphan: false, fee: 3000n });
  });

  it('unorphans when the parent is mined instead', () => {
    const { state, mempool } = setup();
    const parent = transfer([state.fund(alice, 5n * KAS)], bob, 3000n);
    const child = transfer([outputCoin(parent, 0, bob)], carol, 3000n);
    mempool.submitTransaction(child, { allowOrphan: true });
    state.accept([parent]);
    expect(mempool.handleNewBlockTransactions(state.daaScore, [parent]).map(idOf)).toEqual([idOf(child)]);
    expect(mempool.has(idOf(child))).toBe(true);
  });

  it('clears an orphan’s entry from a pool parent that leaves without its redeemers', () => {
    const { state, mempool } = setup();
    const parentCoin = state.fund(alice, 5n * KAS);
    const parent = transfer([parentCoin], bob, 3000n);
    mempool.submitTransaction(parent);
    const unknownParent = transfer([state.fund(carol, 5n * KAS)], carol, 3000n);
    const orphan = transfer([outputCoin(parent, 0, bob), outputCoin(unknownParent, 0, carol)], alice, 6000n);
    mempool.submitTransaction(orphan, { allowOrphan: true });
    expect(mempool.getEntry(idOf(orphan), 'orphans')!.spentEntries.map(Boolean)).toEqual([true, false]);

    state.remove(parentCoin.outpoint);
    mempool.revalidateHighPriorityTransactions();
    expect(mempool.has(idOf(parent))).toBe(false);
    expect(mempool.getEntry(idOf(orphan), 'orphans')!.spentEntries.map(Boolean)).toEqual([false, false]);
  });

  it('rejects a duplicate orphan and an orphan double spending another', () => {
    const { state, mempool } = setup();
    const parent = transfer([state.fund(alice, 5n * KAS)], bob, 3000n);
    const child = transfer([outputCoin(parent, 0, bob)], carol, 3000n);
    mempool.submitTransaction(child, { allowOrphan: true });
    expect(rejection(() => mempool.submitTransaction(child, { allowOrphan: true })).message).toBe(
      `orphan transaction ${idOf(child)} is already in the orphan pool`,
    );
    const rival = transfer([outputCoin(parent, 0, bob)], alice, 4000n);
    expect(rejection(() => mempool.submitTransaction(rival, { allowOrphan: true })).message).toBe(
      `orphan transaction ${idOf(rival)} is double spending an input from already existing orphan ${idOf(child)}`,
    );
  });

  it('refuses high-priority orphans beyond the limit and evicts low-priority ones', () => {
    const state = new FakeVirtualState();
    const mempool = newMempool(state, { config: { maximumOrphanTransactionCount: 1 } });
    const orphanOf = (label: string) => {
      const parent = transfer([state.fund(wallet(label), 5n * KAS)], bob, 3000n);
      return transfer([outputCoin(parent, 0, bob)], carol, 3000n);
    };
    const low = orphanOf('a');
    mempool.submitTransaction(low, { allowOrphan: true, priority: 'low' });
    const high = orphanOf('b');
    mempool.submitTransaction(high, { allowOrphan: true });
    expect(mempool.has(idOf(low), 'orphans')).toBe(false);
    expect(mempool.has(idOf(high), 'orphans')).toBe(true);
    expect(rejection(() => mempool.submitTransaction(orphanOf('c'), { allowOrphan: true })).message).toBe(
      'number of high-priority transactions in orphan pool (1) has reached the maximum allowed (1)',
    );
  });

  it('rejects orphans above the orphan mass limit', () => {
    const state = new FakeVirtualState();
    const mempool = newMempool(state, { config: { maximumOrphanTransactionMass: 1000n } });
    const parent = transfer([state.fund(alice, 5n * KAS)], bob, 3000n);
    const child = transfer([outputCoin(parent, 0, bob)], carol, 3000n);
    // max(compute, transient): compute = 265 bytes + 37·10 for the ECDSA output script + 1000 for the sig op.
    expect(computeMass(child)).toBe(1635n);
    expect(rejection(() => mempool.submitTransaction(child, { allowOrphan: true })).message).toBe(
      'orphan transaction size of 1635 bytes is larger than max allowed size of 1000 bytes',
    );
  });

  it('expires low-priority orphans after 60 s of DAA score, never high-priority ones', () => {
    const { state, mempool } = setup();
    const orphanOf = (label: string) => {
      const parent = transfer([state.fund(wallet(label), 5n * KAS)], bob, 3000n);
      return transfer([outputCoin(parent, 0, bob)], carol, 3000n);
    };
    const low = orphanOf('low');
    const high = orphanOf('high');
    mempool.submitTransaction(low, { allowOrphan: true, priority: 'low' });
    mempool.submitTransaction(high, { allowOrphan: true });
    state.daaScore += 600n;
    mempool.expireLowPriorityTransactions();
    expect(mempool.has(idOf(low), 'orphans')).toBe(true);
    // The next scan waits 10 s of DAA score (100 at 10 BPS).
    state.daaScore += 99n;
    mempool.expireLowPriorityTransactions();
    expect(mempool.has(idOf(low), 'orphans')).toBe(true);
    state.daaScore += 1n;
    mempool.expireLowPriorityTransactions();
    expect(mempool.has(idOf(low), 'orphans')).toBe(false);
    expect(mempool.has(idOf(high), 'orphans')).toBe(true);
  });
});

describe('replace by fee', () => {
  it('replaces the single conflicting transaction and evicts its descendants', () => {
    const { state, mempool } = setup();
    const coin = state.fund(alice, 5n * KAS);
    const original = transfer([coin], bob, 2000n);
    mempool.submitTransaction(original);
    const child = transfer([outputCoin(original, 0, bob)], carol, 2000n);
    mempool.submitTransaction(child);
    const replacement = transfer([coin], alice, 4000n);
    const result = mempool.submitTransactionReplacement(replacement);
    expect(idOf(result.replacedTransaction)).toBe(idOf(original));
    expect(mempool.getEntries().map((entry) => bytesToHex(entry.transactionId))).toEqual([idOf(replacement)]);
  });

  it('rejects a replacement whose feerate is not higher', () => {
    const { state, mempool } = setup();
    const coin = state.fund(alice, 5n * KAS);
    mempool.submitTransaction(transfer([coin], bob, 2000n));
    const sameFee = transfer([coin], carol, 2000n);
    expect(rejection(() => mempool.submitTransactionReplacement(sameFee)).message).toBe(
      'fee rate per contextual mass gram is not greater than the fee rate of the replaced transaction',
    );
  });

  it('rejects a replacement conflicting with two transactions', () => {
    const { state, mempool } = setup();
    const first = state.fund(alice, 5n * KAS);
    const second = state.fund(alice, 5n * KAS);
    mempool.submitTransaction(transfer([first], bob, 2000n));
    mempool.submitTransaction(transfer([second], bob, 2000n));
    expect(rejection(() => mempool.submitTransactionReplacement(transfer([first, second], carol, 50_000n))).message).toBe(
      'replace by fee found more than one double spending transaction in the mempool',
    );
  });

  it('rejects a replacement that conflicts with nothing', () => {
    const { state, mempool } = setup();
    expect(rejection(() => mempool.submitTransactionReplacement(transfer([state.fund(alice, 5n * KAS)], bob, 9000n))).message).toBe(
      'replace by fee found no double spending transaction in the mempool',
    );
  });

  it('with the allowed policy replaces every conflicting transaction it beats', () => {
    const { state, mempool } = setup();
    const first = state.fund(alice, 5n * KAS);
    const second = state.fund(alice, 5n * KAS);
    const a = transfer([first], bob, 2000n);
    const b = transfer([second], bob, 2000n);
    mempool.submitTransaction(a);
    mempool.submitTransaction(b);
    const both = transfer([first, second], carol, 50_000n);
    const result = mempool.submitTransaction(both, { rbfPolicy: 'allowed', priority: 'low' });
    expect(idOf(result.replaced!)).toBe(idOf(a));
    expect(mempool.getEntries().map((entry) => bytesToHex(entry.transactionId))).toEqual([idOf(both)]);
  });
});

describe('block events', () => {
  it('removes mined transactions, keeps their children, and evicts double spends with descendants', () => {
    const { state, mempool } = setup();
    const mined = transfer([state.fund(alice, 5n * KAS)], bob, 3000n);
    const minedChild = transfer([outputCoin(mined, 0, bob)], carol, 3000n);
    const contested = state.fund(alice, 5n * KAS);
    const loser = transfer([contested], bob, 3000n);
    const loserChild = transfer([outputCoin(loser, 0, bob)], carol, 3000n);
    for (const tx of [mined, minedChild, loser, loserChild]) mempool.submitTransaction(tx);
    const winner = transfer([contested], carol, 5000n);

    state.accept([mined, winner]);
    mempool.handleNewBlockTransactions(state.daaScore, [mined, winner]);
    expect(mempool.getEntries().map((entry) => bytesToHex(entry.transactionId))).toEqual([idOf(minedChild)]);
    expect(mempool.readyTransactionCount()).toBe(1);
    expect(mempool.hasAcceptedTransaction(idOf(winner))).toBe(true);
  });

  it('forgets accepted ids after 120 s of DAA score', () => {
    const clock = { value: 1_700_000_000_000 };
    const state = new FakeVirtualState();
    const mempool = newMempool(state, { clock });
    const tx = transfer([state.fund(alice, 5n * KAS)], bob, 3000n);
    mempool.handleNewBlockTransactions(state.daaScore, [tx]);
    state.daaScore += 1201n;
    clock.value += 10_000;
    mempool.expireLowPriorityTransactions();
    expect(mempool.hasAcceptedTransaction(idOf(tx))).toBe(false);
  });

  it('takes back transactions of blocks that left the chain and drops those that no longer validate', () => {
    const { state, mempool } = setup();
    const coin = state.fund(alice, 5n * KAS);
    const tx = transfer([coin], bob, 3000n);
    const child = transfer([outputCoin(tx, 0, bob)], carol, 3000n);
    const doomedCoin = state.fund(alice, 5n * KAS);
    const doomed = transfer([doomedCoin], bob, 3000n);
    state.accept([tx, child, doomed]);
    mempool.handleNewBlockTransactions(state.daaScore, [tx, child, doomed]);

    // The reorg undoes the three transactions, but the new chain spent doomed's input elsewhere.
    for (const undone of [tx, child, doomed]) state.remove({ transactionId: transactionId(undone), index: 0 });
    state.restore(coin);

    const returned = mempool.returnTransactions([child, doomed, tx]);
    expect(returned.map(idOf)).toEqual([idOf(tx), idOf(child)]);
    expect(mempool.has(idOf(doomed))).toBe(false);
    expect(mempool.hasAcceptedTransaction(idOf(tx))).toBe(false);
  });

  it('revalidation removes a transaction whose input left the virtual UTXO set, keeping its children', () => {
    const { state, mempool } = setup();
    const coin = state.fund(alice, 5n * KAS);
    const tx = transfer([coin], bob, 3000n);
    const child = transfer([outputCoin(tx, 0, bob)], carol, 3000n);
    const healthy = transfer([state.fund(alice, 5n * KAS)], bob, 3000n);
    for (const t of [tx, child, healthy]) mempool.submitTransaction(t);
    state.remove(coin.outpoint);
    expect(mempool.revalidateHighPriorityTransactions().sort()).toEqual([idOf(child), idOf(healthy)].sort());
    expect(mempool.has(idOf(tx))).toBe(false);
    expect(mempool.has(idOf(child))).toBe(true);
  });

  it('expires low-priority pool transactions after 24 h of DAA score', () => {
    const clock = { value: 1_700_000_000_000 };
    const state = new FakeVirtualState();
    const mempool = newMempool(state, { clock });
    const low = transfer([state.fund(alice, 5n * KAS)], bob, 3000n);
    const high = transfer([state.fund(alice, 5n * KAS)], bob, 3000n);
    mempool.submitTransaction(low, { priority: 'low' });
    mempool.submitTransaction(high);
    state.daaScore += 864_001n;
    clock.value += 60_000;
    mempool.expireLowPriorityTransactions();
    expect(mempool.has(idOf(low))).toBe(false);
    expect(mempool.has(idOf(high))).toBe(true);
  });
});

describe('size limit', () => {
  it('evicts the lowest-feerate low-priority transaction for a better one, else refuses', () => {
    const state = new FakeVirtualState();
    const mempool = newMempool(state, { config: { maximumTransactionCount: 2 } });
    const cheap = transfer([state.fund(alice, 5n * KAS)], bob, 2000n);
    const pricey = transfer([state.fund(alice, 5n * KAS)], bob, 9000n);
    mempool.submitTransaction(cheap, { priority: 'low' });
    mempool.submitTransaction(pricey, { priority: 'low' });
    const better = transfer([state.fund(alice, 5n * KAS)], bob, 5000n);
    mempool.submitTransaction(better);
    expect(mempool.has(idOf(cheap))).toBe(false);
    const worse = transfer([state.fund(alice, 5n * KAS)], bob, 4000n);
    expect(rejection(() => mempool.submitTransaction(worse)).message).toBe(
      "transaction could not be added to the mempool because it's full with transactions with higher priority",
    );
  });
});

describe('queries', () => {
  it('maps the RPC flags the way kaspad does', () => {
    expect(transactionQuery(false, false)).toBe('transactions');
    expect(transactionQuery(false, true)).toBe('all');
    expect(transactionQuery(true, true)).toBe('orphans');
    expect(() => transactionQuery(true, false)).toThrow(
      new MempoolQueryError('transaction query must either not filter transactions or include orphans'),
    );
  });

  it('lists pool transactions before orphans and groups them by script', () => {
    const { state, mempool } = setup();
    const fromAlice = spend([state.fund(alice, 5n * KAS)], [pay(bob, 2n * KAS), pay(alice, 3n * KAS - 5000n)]);
    mempool.submitTransaction(fromAlice);
    const missingParent = transfer([state.fund(carol, 5n * KAS)], carol, 3000n);
    const orphan = transfer([outputCoin(missingParent, 0, carol)], bob, 3000n);
    mempool.submitTransaction(orphan, { allowOrphan: true });

    expect(mempool.getEntries('all').map((entry) => [bytesToHex(entry.transactionId), entry.isOrphan])).toEqual([
      [idOf(fromAlice), false],
      [idOf(orphan), true],
    ]);
    expect(mempool.getEntries('orphans')).toHaveLength(1);
    expect(mempool.getEntry(idOf(fromAlice), 'orphans')).toBeUndefined();
    expect(mempool.getEntry(idOf(orphan), 'transactions')).toBeUndefined();
    expect(mempool.transactionCount('all')).toBe(2);

    const idsOf = (entries: { transactionId: Uint8Array }[]) => entries.map((entry) => bytesToHex(entry.transactionId));
    const [forAlice, forBob, forCarol, forNobody] = mempool.getEntriesByScriptPublicKeys(
      [alice.scriptPublicKey, bob.scriptPublicKey, carol.scriptPublicKey, wallet('nobody').scriptPublicKey, alice.scriptPublicKey],
      'all',
    );
    expect([idsOf(forAlice!.sending), idsOf(forAlice!.receiving)]).toEqual([[idOf(fromAlice)], [idOf(fromAlice)]]);
    expect([idsOf(forBob!.sending), idsOf(forBob!.receiving)]).toEqual([[], [idOf(fromAlice), idOf(orphan)]]);
    // The orphan's input is unknown, so it is not listed as sending for carol.
    expect([idsOf(forCarol!.sending), idsOf(forCarol!.receiving)]).toEqual([[], []]);
    expect(forNobody).toMatchObject({ sending: [], receiving: [] });
    expect(mempool.getEntriesByScriptPublicKeys([alice.scriptPublicKey, alice.scriptPublicKey])).toHaveLength(1);
  });
});

describe('template selection', () => {
  function fill(count: number, random = seededRandom(7)) {
    const state = new FakeVirtualState();
    const mempool = newMempool(state, { random });
    const txs = Array.from({ length: count }, (_, index) =>
      transfer([state.fund(wallet(`sender-${index}`), 5n * KAS)], bob, 2000n + BigInt(index) * 500n),
    );
    for (const tx of txs) mempool.submitTransaction(tx);
    return { mempool, txs };
  }

  const limits = (mass: bigint) => ({ maxComputeMass: mass, maxStorageMass: mass, maxTransientMass: mass });

  it('takes every ready transaction when they fit, lowest feerate first', () => {
    const { mempool, txs } = fill(4);
    expect(mempool.selectTransactionsForTemplate().map((entry) => bytesToHex(entry.transactionId))).toEqual(txs.map(idOf));
  });

  it('stays within the smallest mass limit on both sampling paths', () => {
    const { mempool } = fill(12);
    const totalMass = mempool.readyTransactionTotalMass();
    for (const budget of [totalMass / 3n, totalMass / 6n]) {
      const chosen = mempool.selectTransactionsForTemplate({ ...limits(budget * 2n), maxTransientMass: budget });
      expect(chosen.length).toBeGreaterThan(0);
      expect(chosen.reduce((sum, entry) => sum + entry.mass, 0n)).toBeLessThanOrEqual(budget);
      expect(new Set(chosen.map((entry) => bytesToHex(entry.transactionId))).size).toBe(chosen.length);
    }
  });

  it('draws the highest feerate first when the draw lands at the top of the weight range', () => {
    const { mempool, txs } = fill(12, () => 0.999_999);
    const oneMass = mempool.getEntry(idOf(txs[0]!))!.mass;
    const chosen = mempool.selectTransactionsForTemplate(limits(oneMass * 2n + 1n));
    expect(chosen.map((entry) => bytesToHex(entry.transactionId))).toEqual([idOf(txs[11]!), idOf(txs[10]!)]);
  });
});
