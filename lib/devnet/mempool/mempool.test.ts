import { describe, expect, it } from 'vitest';
import { bytesToHex } from '../../kaspa/bytes';
import { computeMass, transientMass } from '../../kaspa/mass';
import { transactionId } from '../../kaspa/transaction';
import { SUBNETWORK_ID_COINBASE, type Transaction } from '../../kaspa/types';
import { MempoolQueryError, transactionQuery } from './mempool';
import { FORK_NEVER } from '../consensus/params';
import {
  FakeVirtualState,
  KAS,
  newMempool,
  outputCoin,
  pay,
  rejection,
  seededRandom,
  spend,
  transfer,
  wallet,
  type Coin,
} from '../test-support/mempool-fixtures';

const alice = wallet('alice');
const bob = wallet('bob');
const carol = wallet('carol', 'ecdsa');

const idOf = (tx: Transaction) => bytesToHex(transactionId(tx));
const outpointText = (coin: Coin) => `(${bytesToHex(coin.outpoint.transactionId)}, ${coin.outpoint.index})`;

/** 1 input, 1 P2PK output, sig-op count 1: size 264 = 10 + 118 (input) + 8 + 52 (output) + 76; + 36·10 + 1000. */
const ONE_TO_ONE_COMPUTE_MASS = 1624n;
/** A fee clearing the RPC floor of every ordinary test transaction (162,400 sompi for a 1-in 1-out one). */
const FEE = 1_000_000n;

/** kaspad 2.0.1's RPC floor, written out: 100 sompi per gram of max(compute mass, 2 × transaction bytes). */
function rpcFloor(tx: Transaction): bigint {
  const compute = computeMass(tx);
  const doubleBytes = transientMass(tx) / 2n;
  return 100n * (compute > doubleBytes ? compute : doubleBytes);
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
    const tx = spend([coin], [pay(bob, 4n * KAS), pay(alice, 6n * KAS - 300_000n)]);
    const result = mempool.submitTransaction(tx);
    expect(result.orphaned).toBe(false);
    expect(result.accepted.map(idOf)).toEqual([idOf(tx)]);
    const entry = mempool.getEntry(idOf(tx))!;
    expect(entry.fee).toBe(300_000n);
    expect(entry.computeMass).toBe(computeMass(tx));
    // KIP-9 with one input: C/4 KAS + C/(6 KAS − 300,000) − C/10 KAS, C = 10^12 (integer divisions per term).
    expect(entry.storageMass).toBe(2500n + 1667n - 1000n);
    expect(entry.transaction.storageMass).toBe(entry.storageMass);
    // Normalized mass: storage and compute count in full, transient at half (its block limit is twice theirs).
    expect(entry.mass).toBe(entry.storageMass);
    expect(entry.isOrphan).toBe(false);
    expect(entry.spentEntries).toEqual([coin.entry]);
    expect(mempool.readyTransactionCount()).toBe(1);
    expect(mempool.readyTransactionTotalMass()).toBe(entry.mass);
  });

  it('accepts an ECDSA P2PK spend', () => {
    const { state, mempool } = setup();
    const coin = state.fund(carol, 3n * KAS);
    const tx = transfer([coin], alice, FEE);
    expect(mempool.submitTransaction(tx).accepted).toHaveLength(1);
  });

  it('accepts a chain: a child spending a pool transaction is no orphan but stays out of the frontier', () => {
    const { state, mempool } = setup();
    const parent = transfer([state.fund(alice, 5n * KAS)], bob, FEE);
    mempool.submitTransaction(parent);
    const child = transfer([outputCoin(parent, 0, bob)], alice, FEE);
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
    expect(mempool.submitTransaction(transfer([coin], bob, FEE)).accepted).toHaveLength(1);
  });

  it('accepts a payload on a native transaction', () => {
    const { state, mempool } = setup();
    const tx = transfer([state.fund(alice, 5n * KAS)], bob, FEE, { payload: new TextEncoder().encode('hello kaspa') });
    expect(mempool.submitTransaction(tx).accepted).toHaveLength(1);
    expect(mempool.getEntry(idOf(tx))!.computeMass).toBe(ONE_TO_ONE_COMPUTE_MASS + 11n);
  });

  it('accepts a small output: kaspad 2.0.1 has no dust rule, storage mass prices it', () => {
    const { state, mempool } = setup();
    const tx = spend([state.fund(alice, 5n * KAS)], [pay(bob, 599n), pay(alice, 4n * KAS)]);
    expect(() => mempool.submitTransaction(tx)).toThrow(/storage mass of \d+ is larger than max allowed size of 500000/);
    const small = spend([state.fund(alice, 5n * KAS)], [pay(bob, 5_000_000n), pay(alice, 4n * KAS)]);
    expect(mempool.submitTransaction(small).accepted).toHaveLength(1);
    expect(mempool.getEntry(idOf(small))!.storageMass).toBeGreaterThan(100_000n);
  });
});

describe('submitTransaction: the RPC relay fee floor (100 sompi per gram of max(compute, 2 × bytes))', () => {
  it('takes exactly the floor on compute mass and refuses one sompi less with kaspad’s reason', () => {
    const { state, mempool } = setup();
    const exact = transfer([state.fund(alice, 5n * KAS)], bob, 100n * ONE_TO_ONE_COMPUTE_MASS);
    expect(computeMass(exact)).toBe(ONE_TO_ONE_COMPUTE_MASS);
    expect(rpcFloor(exact)).toBe(162_400n);
    expect(mempool.submitTransaction(exact).accepted).toHaveLength(1);

    const short = transfer([state.fund(alice, 5n * KAS)], bob, 162_399n);
    const error = rejection(() => mempool.submitTransaction(short));
    expect(error.kind).toBe('RejectNonStandard');
    expect(error.message).toBe(
      `transaction ${idOf(short)} is not standard: transaction has 162399 fees which is under the required amount of 162400 for compute mass 1624`,
    );
  });

  it('charges 2 × bytes when the transaction is mostly bytes, naming the normalized transient mass', () => {
    const { state, mempool } = setup();
    const payload = new Uint8Array(2000).fill(7);
    const probe = transfer([state.fund(alice, 5n * KAS)], bob, FEE, { payload });
    // 2264 bytes: compute 3624 g, normalized transient 4528 g.
    expect([computeMass(probe), transientMass(probe)]).toEqual([3624n, 9056n]);
    const exact = transfer([state.fund(alice, 5n * KAS)], bob, 452_800n, { payload });
    expect(mempool.submitTransaction(exact).accepted).toHaveLength(1);
    const short = transfer([state.fund(alice, 5n * KAS)], bob, 452_799n, { payload });
    expect(rejection(() => mempool.submitTransaction(short)).message).toBe(
      `transaction ${idOf(short)} is not standard: transaction has 452799 fees which is under the required amount of 452800 ` +
        'for normalized transient mass 4528 (proportional to transaction byte size)',
    );
  });

  it('charges no relay fee for storage mass', () => {
    const { state, mempool } = setup();
    const tx = spend([state.fund(alice, 5n * KAS)], [pay(bob, 5_000_000n), pay(alice, 5n * KAS - 5_000_000n - 300_000n)]);
    expect(rpcFloor(tx)).toBeLessThan(300_000n);
    mempool.submitTransaction(tx);
    expect(mempool.getEntry(idOf(tx))!.storageMass * 100n).toBeGreaterThan(300_000n);
  });

  it('applies the same floor to RPC submissions where Toccata never activates', () => {
    const state = new FakeVirtualState();
    const mempool = newMempool(state, { toccataActivation: FORK_NEVER });
    const short = transfer([state.fund(alice, 5n * KAS)], bob, 162_399n);
    expect(rejection(() => mempool.submitTransaction(short)).message).toMatch(/under the required amount of 162400 for compute mass 1624$/);
    expect(mempool.submitTransaction(transfer([state.fund(alice, 5n * KAS)], bob, 162_400n)).accepted).toHaveLength(1);
  });

  it('lets peer-relayed (low-priority) transactions pay the legacy 1 sompi per gram until activation', () => {
    const state = new FakeVirtualState();
    state.daaScore = 99_999n;
    const mempool = newMempool(state, { toccataActivation: 100_000n });
    const legacy = () => transfer([state.fund(alice, 5n * KAS)], bob, ONE_TO_ONE_COMPUTE_MASS);
    expect(mempool.submitTransaction(legacy(), { priority: 'low' }).accepted).toHaveLength(1);
    const short = transfer([state.fund(alice, 5n * KAS)], bob, ONE_TO_ONE_COMPUTE_MASS - 1n);
    expect(rejection(() => mempool.submitTransaction(short, { priority: 'low' })).message).toMatch(
      /has 1623 fees which is under the required amount of 1624 for compute mass 1624$/,
    );
    expect(rejection(() => mempool.submitTransaction(legacy())).message).toMatch(/under the required amount of 162400/);
    state.daaScore = 100_000n;
    expect(rejection(() => mempool.submitTransaction(legacy(), { priority: 'low' })).message).toMatch(/under the required amount of 162400/);
  });
});

describe('submitTransaction: rejections carry kaspad 2.0.1 messages', () => {
  it('rejects a duplicate', () => {
    const { state, mempool } = setup();
    const tx = transfer([state.fund(alice, 5n * KAS)], bob, FEE);
    mempool.submitTransaction(tx);
    const error = rejection(() => mempool.submitTransaction(tx));
    expect(error.kind).toBe('RejectDuplicate');
    expect(error.message).toBe(`transaction ${idOf(tx)} is already in the mempool`);
  });

  it('rejects a double spend of a pool transaction', () => {
    const { state, mempool } = setup();
    const coin = state.fund(alice, 5n * KAS);
    const first = transfer([coin], bob, FEE);
    mempool.submitTransaction(first);
    const error = rejection(() => mempool.submitTransaction(transfer([coin], carol, 3n * FEE)));
    expect(error.message).toBe(`output ${outpointText(coin)} already spent by transaction ${idOf(first)} in the mempool`);
  });

  it('rejects a transaction with a missing input unless orphans are allowed', () => {
    const { state, mempool } = setup();
    const parent = transfer([state.fund(alice, 5n * KAS)], bob, FEE);
    const child = transfer([outputCoin(parent, 0, bob)], alice, FEE);
    const error = rejection(() => mempool.submitTransaction(child));
    expect(error.message).toBe(`transaction ${idOf(child)} is an orphan where orphan is disallowed`);
    expect(mempool.transactionCount('all')).toBe(0);
  });

  it('rejects an input naming an output its pool parent does not have, even with orphans allowed', () => {
    const { state, mempool } = setup();
    const parent = transfer([state.fund(alice, 5n * KAS)], bob, FEE);
    mempool.submitTransaction(parent);
    const beyond = { ...outputCoin(parent, 0, bob), outpoint: { transactionId: transactionId(parent), index: 1 } };
    const error = rejection(() => mempool.submitTransaction(transfer([beyond], alice, FEE), { allowOrphan: true }));
    expect(error.kind).toBe('RejectImpossibleOutpoint');
    expect(error.message).toBe('at least one outpoint of the transaction is impossible to have a matching UTXO entry');
    expect(mempool.transactionCount('orphans')).toBe(0);
  });

  it('rejects an immature coinbase spend', () => {
    const { state, mempool } = setup();
    const coinbaseDaa = state.daaScore - 999n;
    const coin = state.fund(alice, 5n * KAS, { isCoinbase: true, blockDaaScore: coinbaseDaa });
    const error = rejection(() => mempool.submitTransaction(transfer([coin], bob, FEE)));
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
    const signed = transfer([coin], bob, FEE);
    const forged: Transaction = { ...signed, outputs: [pay(carol, signed.outputs[0]!.value)] };
    const error = rejection(() => mempool.submitTransaction(forged));
    expect(error.kind).toBe('RejectTxRule');
    expect(error.message).toBe('failed to verify the signature script: false stack entry at end of script execution');
  });

  it('rejects an unsigned input as an empty signature script', () => {
    const { state, mempool } = setup();
    const tx = transfer([state.fund(alice, 5n * KAS)], bob, FEE, { unsigned: true });
    expect(rejection(() => mempool.submitTransaction(tx)).message).toBe(
      'failed to verify empty signature script. Inner error: opcode requires at least 2 but stack has only 1',
    );
  });

  it('rejects a P2PK spend committing to zero sig ops (counted at run time, in script units under Toccata)', () => {
    const { state, mempool } = setup();
    const tx = transfer([state.fund(alice, 5n * KAS)], bob, FEE, { sigOpCount: 0 });
    expect(rejection(() => mempool.submitTransaction(tx)).message).toBe(
      'failed to verify the signature script: script units exceeded the amount committed in the input: used=100000, limit=9999',
    );
    const crescendo = new FakeVirtualState();
    const legacy = transfer([crescendo.fund(alice, 5n * KAS)], bob, FEE, { sigOpCount: 0 });
    expect(rejection(() => newMempool(crescendo, { toccataActivation: FORK_NEVER }).submitTransaction(legacy)).message).toBe(
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
    const tx = transfer([state.fund(alice, 5n * KAS)], bob, FEE, { lockTime: state.daaScore });
    expect(rejection(() => mempool.submitTransaction(tx)).message).toBe('transaction input #0 is not finalized');
    const ready = transfer([state.fund(alice, 5n * KAS)], bob, FEE, { lockTime: state.daaScore - 1n });
    expect(mempool.submitTransaction(ready).accepted).toHaveLength(1);
  });

  it('rejects an input whose relative sequence lock has not expired', () => {
    const { state, mempool } = setup();
    const coin = state.fund(alice, 5n * KAS, { blockDaaScore: state.daaScore - 10n });
    const tx = transfer([coin], bob, FEE, { sequence: 11n });
    expect(rejection(() => mempool.submitTransaction(tx)).message).toBe('one of the transaction sequence locks conditions was not met');
    const unlocked = transfer([state.fund(alice, 5n * KAS, { blockDaaScore: state.daaScore - 10n })], bob, FEE, { sequence: 10n });
    expect(mempool.submitTransaction(unlocked).accepted).toHaveLength(1);
  });

  it('rejects a transaction already accepted by a block', () => {
    const { state, mempool } = setup();
    const tx = transfer([state.fund(alice, 5n * KAS)], bob, FEE);
    mempool.handleNewBlockTransactions(state.daaScore, [tx]);
    expect(rejection(() => mempool.submitTransaction(tx)).message).toBe(`transaction ${idOf(tx)} was already accepted by the consensus`);
  });
});

describe('orphan pool', () => {
  it('keeps an orphan until its parent arrives, then inserts both', () => {
    const { state, mempool } = setup();
    const parent = transfer([state.fund(alice, 5n * KAS)], bob, FEE);
    const child = transfer([outputCoin(parent, 0, bob)], carol, FEE);
    const orphaned = mempool.submitTransaction(child, { allowOrphan: true });
    expect(orphaned).toMatchObject({ orphaned: true, accepted: [] });
    expect(mempool.getEntry(idOf(child))).toBeUndefined();
    expect(mempool.getEntry(idOf(child), 'all')).toMatchObject({ isOrphan: true, fee: 0n });
    expect(mempool.transactionCount('orphans')).toBe(1);

    const result = mempool.submitTransaction(parent);
    expect(result.accepted.map(idOf)).toEqual([idOf(parent), idOf(child)]);
    expect(mempool.transactionCount('orphans')).toBe(0);
    expect(mempool.getEntry(idOf(child))).toMatchObject({ isOrphan: false, fee: FEE });
  });

  it('drops an unorphaned transaction short of the relay fee floor', () => {
    const { state, mempool } = setup();
    const parent = transfer([state.fund(alice, 5n * KAS)], bob, FEE);
    const cheap = transfer([outputCoin(parent, 0, bob)], carol, 1000n);
    mempool.submitTransaction(cheap, { allowOrphan: true });
    expect(mempool.submitTransaction(parent).accepted.map(idOf)).toEqual([idOf(parent)]);
    expect(mempool.has(idOf(cheap), 'all')).toBe(false);
  });

  it('unorphans when the parent is mined instead', () => {
    const { state, mempool } = setup();
    const parent = transfer([state.fund(alice, 5n * KAS)], bob, FEE);
    const child = transfer([outputCoin(parent, 0, bob)], carol, FEE);
    mempool.submitTransaction(child, { allowOrphan: true });
    state.accept([parent]);
    expect(mempool.handleNewBlockTransactions(state.daaScore, [parent]).map(idOf)).toEqual([idOf(child)]);
    expect(mempool.has(idOf(child))).toBe(true);
  });

  it('clears an orphan’s entry from a pool parent that leaves without its redeemers', () => {
    const { state, mempool } = setup();
    const parentCoin = state.fund(alice, 5n * KAS);
    const parent = transfer([parentCoin], bob, FEE);
    mempool.submitTransaction(parent);
    const unknownParent = transfer([state.fund(carol, 5n * KAS)], carol, FEE);
    const orphan = transfer([outputCoin(parent, 0, bob), outputCoin(unknownParent, 0, carol)], alice, 2n * FEE);
    mempool.submitTransaction(orphan, { allowOrphan: true });
    expect(mempool.getEntry(idOf(orphan), 'orphans')!.spentEntries.map(Boolean)).toEqual([true, false]);

    state.remove(parentCoin.outpoint);
    mempool.revalidateHighPriorityTransactions();
    expect(mempool.has(idOf(parent))).toBe(false);
    expect(mempool.getEntry(idOf(orphan), 'orphans')!.spentEntries.map(Boolean)).toEqual([false, false]);
  });

  it('rejects a duplicate orphan and an orphan double spending another', () => {
    const { state, mempool } = setup();
    const parent = transfer([state.fund(alice, 5n * KAS)], bob, FEE);
    const child = transfer([outputCoin(parent, 0, bob)], carol, FEE);
    mempool.submitTransaction(child, { allowOrphan: true });
    expect(rejection(() => mempool.submitTransaction(child, { allowOrphan: true })).message).toBe(
      `orphan transaction ${idOf(child)} is already in the orphan pool`,
    );
    const rival = transfer([outputCoin(parent, 0, bob)], alice, 2n * FEE);
    expect(rejection(() => mempool.submitTransaction(rival, { allowOrphan: true })).message).toBe(
      `orphan transaction ${idOf(rival)} is double spending an input from already existing orphan ${idOf(child)}`,
    );
  });

  it('refuses high-priority orphans beyond the limit and evicts low-priority ones', () => {
    const state = new FakeVirtualState();
    const mempool = newMempool(state, { config: { maximumOrphanTransactionCount: 1 } });
    const orphanOf = (label: string) => {
      const parent = transfer([state.fund(wallet(label), 5n * KAS)], bob, FEE);
      return transfer([outputCoin(parent, 0, bob)], carol, FEE);
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

  it('rejects orphans above the normalized orphan mass limit', () => {
    const state = new FakeVirtualState();
    const mempool = newMempool(state, { config: { maximumOrphanTransactionNormalizedMass: 1000n } });
    const parent = transfer([state.fund(alice, 5n * KAS)], bob, FEE);
    const child = transfer([outputCoin(parent, 0, bob)], carol, FEE);
    // max(compute, transient / 2): compute = 265 bytes + 37·10 for the ECDSA output script + 1000 for the sig op.
    expect(computeMass(child)).toBe(1635n);
    expect(rejection(() => mempool.submitTransaction(child, { allowOrphan: true })).message).toBe(
      'orphan transaction size of 1635 bytes is larger than max allowed size of 1000 bytes',
    );
  });

  it('admits an orphan of transient mass over 500,000 only under Toccata’s mempool block limits', () => {
    const orphanWithPayload = (state: FakeVirtualState) => {
      const parent = transfer([state.fund(alice, 5n * KAS)], bob, FEE);
      return transfer([outputCoin(parent, 0, bob)], carol, 10n * FEE, { payload: new Uint8Array(130_000) });
    };
    const limit = { maximumOrphanTransactionNormalizedMass: 500_000n };
    const toccata = new FakeVirtualState();
    const child = orphanWithPayload(toccata);
    expect(transientMass(child)).toBeGreaterThan(500_000n);
    expect(newMempool(toccata, { config: limit }).submitTransaction(child, { allowOrphan: true }).orphaned).toBe(true);
    const crescendo = new FakeVirtualState();
    const capped = newMempool(crescendo, { config: limit, toccataActivation: 10n ** 9n });
    expect(rejection(() => capped.submitTransaction(orphanWithPayload(crescendo), { allowOrphan: true })).kind).toBe('RejectTransientMass');
  });

  it('expires low-priority orphans after 60 s of DAA score, never high-priority ones', () => {
    const { state, mempool } = setup();
    const orphanOf = (label: string) => {
      const parent = transfer([state.fund(wallet(label), 5n * KAS)], bob, FEE);
      return transfer([outputCoin(parent, 0, bob)], carol, FEE);
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
    const original = transfer([coin], bob, FEE);
    mempool.submitTransaction(original);
    const child = transfer([outputCoin(original, 0, bob)], carol, FEE);
    mempool.submitTransaction(child);
    const replacement = transfer([coin], alice, 2n * FEE);
    const result = mempool.submitTransactionReplacement(replacement);
    expect(idOf(result.replacedTransaction)).toBe(idOf(original));
    expect(mempool.getEntries().map((entry) => bytesToHex(entry.transactionId))).toEqual([idOf(replacement)]);
  });

  it('rejects a replacement whose feerate is not higher', () => {
    const { state, mempool } = setup();
    const coin = state.fund(alice, 5n * KAS);
    mempool.submitTransaction(transfer([coin], bob, FEE));
    const sameFee = transfer([coin], carol, FEE);
    expect(rejection(() => mempool.submitTransactionReplacement(sameFee)).message).toBe(
      'fee rate per contextual mass gram is not greater than the fee rate of the replaced transaction',
    );
  });

  it('holds a replacement to the relay fee floor even when it beats the replaced feerate', () => {
    const { state, mempool } = setup();
    const coin = state.fund(alice, 5n * KAS);
    // A small output makes the original's mass mostly storage (about 200,000 g), which the floor does not charge.
    const original = spend([coin], [pay(bob, 5_000_000n), pay(alice, 5n * KAS - 5_000_000n - 210_000n)]);
    mempool.submitTransaction(original);
    const originalFeerate = 210_000 / Number(mempool.getEntry(idOf(original))!.mass);
    const cheap = transfer([coin], bob, 100_000n);
    expect(100_000 / Number(ONE_TO_ONE_COMPUTE_MASS)).toBeGreaterThan(originalFeerate);
    expect(rejection(() => mempool.submitTransactionReplacement(cheap)).message).toBe(
      `transaction ${idOf(cheap)} is not standard: transaction has 100000 fees which is under the required amount of 162400 for compute mass 1624`,
    );
    const atFloor = transfer([coin], bob, 162_400n);
    expect(idOf(mempool.submitTransactionReplacement(atFloor).replacedTransaction)).toBe(idOf(original));
  });

  it('rejects a replacement conflicting with two transactions', () => {
    const { state, mempool } = setup();
    const first = state.fund(alice, 5n * KAS);
    const second = state.fund(alice, 5n * KAS);
    mempool.submitTransaction(transfer([first], bob, FEE));
    mempool.submitTransaction(transfer([second], bob, FEE));
    expect(rejection(() => mempool.submitTransactionReplacement(transfer([first, second], carol, 10n * FEE))).message).toBe(
      'replace by fee found more than one double spending transaction in the mempool',
    );
  });

  it('rejects a replacement that conflicts with nothing', () => {
    const { state, mempool } = setup();
    expect(rejection(() => mempool.submitTransactionReplacement(transfer([state.fund(alice, 5n * KAS)], bob, FEE))).message).toBe(
      'replace by fee found no double spending transaction in the mempool',
    );
  });

  it('with the allowed policy replaces every conflicting transaction it beats', () => {
    const { state, mempool } = setup();
    const first = state.fund(alice, 5n * KAS);
    const second = state.fund(alice, 5n * KAS);
    const a = transfer([first], bob, FEE);
    const b = transfer([second], bob, FEE);
    mempool.submitTransaction(a);
    mempool.submitTransaction(b);
    const both = transfer([first, second], carol, 10n * FEE);
    const result = mempool.submitTransaction(both, { rbfPolicy: 'allowed', priority: 'low' });
    expect(idOf(result.replaced!)).toBe(idOf(a));
    expect(mempool.getEntries().map((entry) => bytesToHex(entry.transactionId))).toEqual([idOf(both)]);
  });
});

describe('block events', () => {
  it('removes mined transactions, keeps their children, and evicts double spends with descendants', () => {
    const { state, mempool } = setup();
    const mined = transfer([state.fund(alice, 5n * KAS)], bob, FEE);
    const minedChild = transfer([outputCoin(mined, 0, bob)], carol, FEE);
    const contested = state.fund(alice, 5n * KAS);
    const loser = transfer([contested], bob, FEE);
    const loserChild = transfer([outputCoin(loser, 0, bob)], carol, FEE);
    for (const tx of [mined, minedChild, loser, loserChild]) mempool.submitTransaction(tx);
    const winner = transfer([contested], carol, 2n * FEE);

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
    const tx = transfer([state.fund(alice, 5n * KAS)], bob, FEE);
    mempool.handleNewBlockTransactions(state.daaScore, [tx]);
    state.daaScore += 1201n;
    clock.value += 10_000;
    mempool.expireLowPriorityTransactions();
    expect(mempool.hasAcceptedTransaction(idOf(tx))).toBe(false);
  });

  it('takes back transactions of blocks that left the chain and drops those that no longer validate', () => {
    const { state, mempool } = setup();
    const coin = state.fund(alice, 5n * KAS);
    const tx = transfer([coin], bob, FEE);
    const child = transfer([outputCoin(tx, 0, bob)], carol, FEE);
    const doomedCoin = state.fund(alice, 5n * KAS);
    const doomed = transfer([doomedCoin], bob, FEE);
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
    const tx = transfer([coin], bob, FEE);
    const child = transfer([outputCoin(tx, 0, bob)], carol, FEE);
    const healthy = transfer([state.fund(alice, 5n * KAS)], bob, FEE);
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
    const low = transfer([state.fund(alice, 5n * KAS)], bob, FEE);
    const high = transfer([state.fund(alice, 5n * KAS)], bob, FEE);
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
    const cheap = transfer([state.fund(alice, 5n * KAS)], bob, 200_000n);
    const pricey = transfer([state.fund(alice, 5n * KAS)], bob, 900_000n);
    mempool.submitTransaction(cheap, { priority: 'low' });
    mempool.submitTransaction(pricey, { priority: 'low' });
    const better = transfer([state.fund(alice, 5n * KAS)], bob, 500_000n);
    mempool.submitTransaction(better);
    expect(mempool.has(idOf(cheap))).toBe(false);
    const worse = transfer([state.fund(alice, 5n * KAS)], bob, 400_000n);
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
    const fromAlice = spend([state.fund(alice, 5n * KAS)], [pay(bob, 2n * KAS), pay(alice, 3n * KAS - FEE)]);
    mempool.submitTransaction(fromAlice);
    const missingParent = transfer([state.fund(carol, 5n * KAS)], carol, FEE);
    const orphan = transfer([outputCoin(missingParent, 0, carol)], bob, FEE);
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
      transfer([state.fund(wallet(`sender-${index}`), 5n * KAS)], bob, 200_000n + BigInt(index) * 10_000n),
    );
    for (const tx of txs) mempool.submitTransaction(tx);
    return { mempool, txs };
  }

  const policy = (maxBlockMass: bigint) => ({ maxBlockMass, lanesPerBlock: 50, gasPerLane: 1_000_000_000n });
  const ids = (entries: { transactionId: Uint8Array }[]) => entries.map((entry) => bytesToHex(entry.transactionId));

  it('takes every ready transaction when they fit, highest feerate first', () => {
    const { mempool, txs } = fill(4);
    expect(mempool.templatePolicy()).toEqual(policy(500_000n));
    expect(ids(mempool.selectTransactionsForTemplate())).toEqual(txs.map(idOf).reverse());
  });

  it('stays within the block mass on both sampling paths', () => {
    const { mempool } = fill(12);
    const totalMass = mempool.readyTransactionTotalMass();
    for (const budget of [totalMass / 3n, totalMass / 6n]) {
      const chosen = mempool.selectTransactionsForTemplate(policy(budget));
      expect(chosen.length).toBeGreaterThan(0);
      expect(chosen.reduce((sum, entry) => sum + entry.mass, 0n)).toBeLessThanOrEqual(budget);
      expect(new Set(ids(chosen)).size).toBe(chosen.length);
    }
  });

  it('draws the highest feerate first when the draw lands at the top of the weight range', () => {
    const { mempool, txs } = fill(12, () => 0.999_999);
    const oneMass = mempool.getEntry(idOf(txs[0]!))!.mass;
    const chosen = mempool.selectTransactionsForTemplate(policy(oneMass * 2n + 1n));
    expect(ids(chosen)).toEqual([idOf(txs[11]!), idOf(txs[10]!)]);
  });
});
