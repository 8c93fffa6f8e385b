import { secp256k1 } from '@noble/curves/secp256k1.js';
import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { AddressVersion, decodeAddress } from '../../kaspa/address';
import { bytesToHex } from '../../kaspa/bytes';
import { computeMass, coveringComputeBudget, transactionStorageMass, transientMass } from '../../kaspa/mass';
import { measureInputScriptUnits } from '../../kaspa/script-engine';
import { verifyP2pkInput } from '../../kaspa/signing';
import type { Transaction, UtxoEntry } from '../../kaspa/types';
import type { RpcClient } from '../../rpc/client';
import type { RpcUtxosByAddressesEntry } from '../../rpc/types';
import { MAXIMUM_STANDARD_TRANSACTION_MASS_PRE_TOCCATA, relayFeeFloor } from '../mempool/mempool-policy';
import {
  COINBASE_MATURITY,
  createWalletSet,
  deriveWalletPrivateKey,
  largestMass,
  P2PK_V1_COMPUTE_BUDGET,
  storageSafeAmount,
  WalletError,
  type BuiltTransaction,
  type UtxosChangedSource,
  type Wallet,
  type WalletSet,
} from './wallet';

const KAS = 100_000_000n;

let fundingCounter = 0;

interface Funding {
  amount: bigint;
  blockDaaScore?: bigint;
  isCoinbase?: boolean;
}

function fundingEntry(wallet: Wallet, funding: Funding): RpcUtxosByAddressesEntry {
  fundingCounter += 1;
  const transactionId = fundingCounter.toString(16).padStart(64, 'a');
  return {
    address: wallet.address,
    outpoint: { transactionId, index: fundingCounter % 3 },
    utxoEntry: {
      amount: funding.amount,
      scriptPublicKey: `0000${bytesToHex(wallet.scriptPublicKey.script)}`,
      blockDaaScore: funding.blockDaaScore ?? 0n,
      isCoinbase: funding.isCoinbase ?? false,
      covenantId: null,
    },
  };
}

function fundedSet(fundings: Funding[][], virtualDaaScore = 10_000n, seed = 'wallet-tests'): WalletSet {
  const set = createWalletSet({ seed, count: Math.max(2, fundings.length) });
  set.setVirtualDaaScore(virtualDaaScore);
  set.setUtxos(fundings.flatMap((list, index) => list.map((funding) => fundingEntry(set.wallets[index]!, funding))));
  return set;
}

function expectStandardAndValid(built: BuiltTransaction): void {
  const tx: Transaction = built.transaction;
  const entries: UtxoEntry[] = built.inputs.map((utxo) => utxo.entry);
  expect(tx.version).toBe(0);
  tx.inputs.forEach((input, index) => {
    expect(input.sigOpCount).toBe(1);
    expect(verifyP2pkInput(tx, index, entries)).toMatchObject({ status: 'valid', scheme: 'schnorr' });
  });
  const totalIn = entries.reduce((sum, entry) => sum + entry.amount, 0n);
  const totalOut = tx.outputs.reduce((sum, output) => sum + output.value, 0n);
  expect(totalOut + built.fee).toBe(totalIn);
  const compute = computeMass(tx);
  const transient = transientMass(tx);
  const storage = transactionStorageMass(tx, entries);
  expect({ compute, transient, storage }).toEqual(built.masses);
  expect(tx.storageMass).toBe(storage);
  // kaspad 2.0.1's RPC floor: 100 sompi per gram of max(compute, 2 × bytes).
  const bytes = transient / 4n;
  const floorMass = compute > 2n * bytes ? compute : 2n * bytes;
  expect(relayFeeFloor({ compute, transient }).minimumFee).toBe(100n * floorMass);
  expect(built.fee).toBeGreaterThanOrEqual(100n * floorMass);
  for (const mass of [compute, transient, storage!]) expect(mass).toBeLessThanOrEqual(MAXIMUM_STANDARD_TRANSACTION_MASS_PRE_TOCCATA);
}

describe('wallet keys and addresses', () => {
  it('derives the same valid keys from the same seed and distinct keys per index and per seed', () => {
    const keys = Array.from({ length: 8 }, (_, index) => bytesToHex(deriveWalletPrivateKey('seed-a', index)));
    expect(Array.from({ length: 8 }, (_, index) => bytesToHex(deriveWalletPrivateKey('seed-a', index)))).toEqual(keys);
    expect(new Set(keys).size).toBe(8);
    for (const key of keys) expect(secp256k1.utils.isValidSecretKey(Uint8Array.from(Buffer.from(key, 'hex')))).toBe(true);
    expect(bytesToHex(deriveWalletPrivateKey('seed-b', 0))).not.toBe(keys[0]);
    expect(bytesToHex(deriveWalletPrivateKey(new TextEncoder().encode('seed-a'), 3))).toBe(keys[3]);
  });

  it('gives reproducible kaspadev Schnorr addresses, distinct per index, with fresh addresses beyond them', () => {
    const first = createWalletSet({ seed: 'addresses', count: 5 });
    const second = createWalletSet({ seed: 'addresses', count: 5 });
    const other = createWalletSet({ seed: 'other', count: 5 });
    expect(second.addresses()).toEqual(first.addresses());
    expect(new Set(first.addresses()).size).toBe(5);
    expect(other.addresses().some((address) => first.addresses().includes(address))).toBe(false);
    for (const address of first.addresses()) {
      const decoded = decodeAddress(address);
      expect(decoded.prefix).toBe('kaspadev');
      expect(decoded.version).toBe(AddressVersion.PubKey);
    }
    const fresh = [first.freshAddress(), first.freshAddress()];
    expect([second.freshAddress(), second.freshAddress()]).toEqual(fresh);
    expect(new Set([...fresh, ...first.addresses()]).size).toBe(7);
    // The first fresh address is the HD wallet's receive 0 (hd-wallet.test.ts); the next continues the seed's keys.
    expect(fresh[0]).toBe(first.hd.addressAt('receive', 0));
    expect(createWalletSet({ seed: 'addresses', count: 6 }).wallets[5]!.address).toBe(fresh[1]);
  });

  it('keeps private keys out of serialized wallets', () => {
    const set = createWalletSet({ seed: 'secret', count: 1 });
    const key = bytesToHex(deriveWalletPrivateKey('secret', 0));
    expect(JSON.stringify(set.wallets[0], (_, value: unknown) => (value instanceof Uint8Array ? bytesToHex(value) : value))).not.toContain(key);
  });
});

describe('transaction building', () => {
  it('builds payments that verify, balance exactly, pay the relay fee and stay within the storage mass limit', () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: 1n * KAS, max: 5_000n * KAS }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.bigInt({ min: 1n, max: 1000n }), { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        (amounts, weights, withPayload) => {
          const set = fundedSet([amounts.map((amount) => ({ amount }))]);
          const [sender, receiver] = set.wallets as [Wallet, Wallet];
          const spendable = sender.balance().spendable;
          const weightTotal = weights.reduce((a, b) => a + b, 0n);
          const budget = spendable / 2n;
          const payments = weights.map((weight) => ({ to: receiver.address, amount: (budget * weight) / weightTotal }));
          const payload = withPayload ? new TextEncoder().encode('hello devnet') : undefined;
          let built: BuiltTransaction;
          try {
            built = sender.buildTransaction({ payments, payload });
          } catch (error) {
            expect(error).toBeInstanceOf(WalletError);
            expect((error as WalletError).code).toBe('storage_mass');
            expect(payments.some((payment) => payment.amount < storageSafeAmount(payments.length + 1))).toBe(true);
            return;
          }
          expectStandardAndValid(built);
          expect(built.transaction.outputs.slice(0, payments.length).map((output) => output.value)).toEqual(
            payments.map((payment) => payment.amount),
          );
          if (payload) expect(built.transaction.payload).toEqual(payload);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('spends exactly the inputs it is given and sends the remainder to change', () => {
    const set = fundedSet([[{ amount: 3n * KAS }, { amount: 7n * KAS }, { amount: 11n * KAS }]]);
    const [sender, receiver] = set.wallets as [Wallet, Wallet];
    const chosen = sender.spendableUtxos().filter((utxo) => utxo.entry.amount !== 7n * KAS);
    const built = sender.buildTransaction({ inputs: chosen, payments: [{ to: receiver.address, amount: 5n * KAS }] });
    expectStandardAndValid(built);
    expect(built.inputs).toEqual(chosen);
    expect(built.change?.entry.amount).toBe(14n * KAS - 5n * KAS - built.fee);
    expect(built.transaction.outputs.at(-1)?.scriptPublicKey).toEqual(sender.scriptPublicKey);
  });

  it('builds version-1 payments whose inputs carry a compute budget covering the script units they use', () => {
    const set = fundedSet([[{ amount: 3n * KAS }, { amount: 7n * KAS }]]);
    const [sender, receiver] = set.wallets as [Wallet, Wallet];
    const built = sender.buildTransaction({ version: 1, payments: [{ to: receiver.address, amount: 8n * KAS }] });
    expect(built.transaction.version).toBe(1);
    expect(built.inputs).toHaveLength(2);
    const entries = built.inputs.map((utxo) => utxo.entry);
    built.transaction.inputs.forEach((input, inputIndex) => {
      expect(input.computeBudget).toBe(P2PK_V1_COMPUTE_BUDGET);
      const { execution, usedScriptUnits } = measureInputScriptUnits({ tx: built.transaction, inputIndex, entries });
      expect(execution.status).toBe('valid');
      expect(coveringComputeBudget(usedScriptUnits)).toBe(P2PK_V1_COMPUTE_BUDGET);
    });
    const masses = { compute: computeMass(built.transaction), transient: transientMass(built.transaction), storage: built.transaction.storageMass };
    expect(built.fee).toBeGreaterThanOrEqual(relayFeeFloor(masses).minimumFee);
  });

  it('builds lane transactions that commit their lane and gas in the signed transaction, and only as version 1', () => {
    const set = fundedSet([[{ amount: 10n * KAS }]]);
    const [sender, receiver] = set.wallets as [Wallet, Wallet];
    const lane = { subnetworkId: Uint8Array.from({ length: 20 }, (_, index) => (index < 4 ? 0x61 + index : 0)), gas: 25_000n };
    const payments = [{ to: receiver.address, amount: 2n * KAS }];
    expect(() => sender.buildTransaction({ payments, lane })).toThrow(expect.objectContaining({ code: 'lane_needs_version_1' }));
    const built = sender.buildTransaction({ payments, version: 1, lane });
    expect(built.transaction.subnetworkId).toEqual(lane.subnetworkId);
    expect(built.transaction.gas).toBe(25_000n);
    const entries = built.inputs.map((utxo) => utxo.entry);
    expect(measureInputScriptUnits({ tx: built.transaction, inputIndex: 0, entries }).execution.status).toBe('valid');
    const moved = { ...built.transaction, gas: 25_001n };
    expect(measureInputScriptUnits({ tx: moved, inputIndex: 0, entries }).execution.status).not.toBe('valid');
  });

  it('turns a remainder too small for a safe change output into fee', () => {
    const set = fundedSet([[{ amount: 10n * KAS }]]);
    const [sender, receiver] = set.wallets as [Wallet, Wallet];
    const built = sender.buildTransaction({ payments: [{ to: receiver.address, amount: 10n * KAS - 1_000_000n }] });
    expectStandardAndValid(built);
    expect(built.change).toBeNull();
    expect(built.transaction.outputs).toHaveLength(1);
    expect(built.fee).toBe(1_000_000n);
  });

  it('refuses payments whose storage mass would exceed the standard limit, and payments of nothing', () => {
    const set = fundedSet([[{ amount: 100n * KAS }]]);
    const [sender, receiver] = set.wallets as [Wallet, Wallet];
    const pay = (amount: bigint) => () => sender.buildTransaction({ payments: [{ to: receiver.address, amount }] });
    // 2.0.1 has no dust rule: a 100-sompi output is refused for its storage mass (C / 100 sompi) like any small one.
    expect(pay(1_000_000n)).toThrow(expect.objectContaining({ code: 'storage_mass' }));
    expect(pay(100n)).toThrow(expect.objectContaining({ code: 'storage_mass' }));
    expect(pay(0n)).toThrow(expect.objectContaining({ code: 'non_positive_payment' }));
  });

  it('consolidates many inputs into a single change output', () => {
    const set = fundedSet([Array.from({ length: 30 }, (_, index) => ({ amount: KAS + BigInt(index) * 1000n }))]);
    const [wallet] = set.wallets as [Wallet];
    const built = wallet.buildTransaction({ inputs: wallet.spendableUtxos() });
    expectStandardAndValid(built);
    expect(built.transaction.inputs).toHaveLength(30);
    expect(built.transaction.outputs).toHaveLength(1);
    expect(built.change).not.toBeNull();
  });

  it('pays exactly the RPC relay fee floor by default, and a higher floor when configured', () => {
    const build = (feePolicy?: { minimumRelayFeeSompiPerKg: bigint }) => {
      const set = createWalletSet({ seed: 'toccata', count: 2, ...(feePolicy ? { feePolicy } : {}) });
      set.setVirtualDaaScore(10_000n);
      set.setUtxos([fundingEntry(set.wallets[0]!, { amount: 50n * KAS })]);
      return set.wallets[0]!.buildTransaction({ payments: [{ to: set.wallets[1]!.address, amount: 2n * KAS }] });
    };
    const built = build();
    expectStandardAndValid(built);
    const { compute, transient } = built.masses;
    // A 1-in 2-out P2PK payment: compute mass (about 2,000 g) sets the floor; the change absorbs the rest exactly.
    expect(compute).toBeGreaterThan(transient / 2n);
    expect(built.fee).toBe(100n * compute);
    expect(build({ minimumRelayFeeSompiPerKg: 200_000n }).fee).toBe(200n * compute);
  });

  it('honours a feerate above the minimum', () => {
    const set = fundedSet([[{ amount: 50n * KAS }]]);
    const [sender, receiver] = set.wallets as [Wallet, Wallet];
    const built = sender.buildTransaction({ payments: [{ to: receiver.address, amount: 2n * KAS }], feerate: 125.5 });
    expectStandardAndValid(built);
    const { compute, transient, storage } = built.masses;
    const largest = [compute, transient, storage].reduce((a, b) => (a > b ? a : b));
    expect(built.fee).toBe(BigInt(Math.ceil(125.5 * Number(largest))));
    expect(built.fee).toBeGreaterThan(100n * compute);
  });
});

describe('coinbase maturity', () => {
  it(`never spends coinbase outputs younger than ${COINBASE_MATURITY} DAA`, () => {
    const set = fundedSet(
      [
        [
          { amount: 2n * KAS },
          { amount: 500n * KAS, isCoinbase: true, blockDaaScore: 9_001n },
          { amount: 300n * KAS, isCoinbase: true, blockDaaScore: 9_000n },
        ],
      ],
      10_000n,
    );
    const [wallet, receiver] = set.wallets as [Wallet, Wallet];
    expect(new Set(wallet.spendableUtxos().map((utxo) => utxo.entry.amount))).toEqual(new Set([2n * KAS, 300n * KAS]));
    expect(wallet.balance()).toMatchObject({ confirmed: 802n * KAS, immature: 500n * KAS });
    expect(() => wallet.buildTransaction({ payments: [{ to: receiver.address, amount: 400n * KAS }] })).toThrow(
      expect.objectContaining({ code: 'insufficient_funds' }),
    );
    const built = wallet.buildTransaction({ payments: [{ to: receiver.address, amount: 250n * KAS }] });
    expect(built.inputs.every((utxo) => !utxo.entry.isCoinbase || utxo.entry.blockDaaScore + COINBASE_MATURITY <= 10_000n)).toBe(true);

    set.setVirtualDaaScore(10_001n);
    expect(wallet.spendableUtxos().some((utxo) => utxo.entry.amount === 500n * KAS)).toBe(true);
  });

  it('refuses explicitly chosen immature inputs', () => {
    const set = createWalletSet({ seed: 'maturity', count: 2 });
    set.setVirtualDaaScore(1_500n);
    set.setUtxos([fundingEntry(set.wallets[0]!, { amount: 50n * KAS, isCoinbase: true, blockDaaScore: 600n })]);
    const wallet = set.wallets[0]!;
    expect(wallet.spendableUtxos()).toEqual([]);
    set.setVirtualDaaScore(1_600n);
    const [utxo] = wallet.spendableUtxos();
    expect(utxo?.entry.amount).toBe(50n * KAS);
    set.setVirtualDaaScore(1_599n);
    expect(() => wallet.buildTransaction({ inputs: [utxo!] })).toThrow(expect.objectContaining({ code: 'not_spendable' }));
  });
});

describe('pending transactions', () => {
  it('hides spent inputs, chains on pending change and drops descendants with their parent', () => {
    const set = fundedSet([[{ amount: 100n * KAS }]]);
    const [wallet, receiver] = set.wallets as [Wallet, Wallet];
    const parent = wallet.buildTransaction({ payments: [{ to: receiver.address, amount: 10n * KAS }] });
    wallet.track(parent);
    expect(wallet.spendableUtxos()).toEqual([parent.change]);
    const child = wallet.buildTransaction({ payments: [{ to: receiver.address, amount: 10n * KAS }] });
    expect(child.inputs).toEqual([parent.change]);
    expectStandardAndValid(child);
    wallet.track(child);
    expect(wallet.hasPendingDescendants(parent.id)).toBe(true);
    expect(wallet.release(parent.id).sort()).toEqual([parent.id, child.id].sort());
    expect(wallet.spendableUtxos().map((utxo) => utxo.entry.amount)).toEqual([100n * KAS]);
  });

  it('releases a pending parent the node lost when a child spending its change is rejected for missing inputs', () => {
    const set = fundedSet([[{ amount: 100n * KAS }, { amount: 50n * KAS }]]);
    const [wallet, receiver] = set.wallets as [Wallet, Wallet];
    const [large, small] = wallet.spendableUtxos().sort((a, b) => Number(b.entry.amount - a.entry.amount));
    const parent = wallet.buildTransaction({ inputs: [large!], payments: [{ to: receiver.address, amount: 10n * KAS }] });
    wallet.track(parent);
    const child = wallet.buildTransaction({ inputs: [parent.change!], payments: [{ to: receiver.address, amount: 10n * KAS }] });
    const unrelated = wallet.buildTransaction({ inputs: [small!], payments: [{ to: receiver.address, amount: 10n * KAS }] });
    wallet.track(unrelated);

    expect(wallet.releaseMissingParents(unrelated)).toEqual([]);
    expect(wallet.releaseMissingParents(child)).toEqual([parent.id]);
    expect(wallet.isPending(parent.id)).toBe(false);
    expect(wallet.isPending(unrelated.id)).toBe(true);
    const spendable = wallet.spendableUtxos().map((utxo) => utxo.entry.amount);
    expect(spendable).toContain(100n * KAS);
    expect(spendable).not.toContain(parent.change!.entry.amount);
  });

  it('settles a pending transaction once the node reports its inputs spent and its outputs added', () => {
    const set = fundedSet([[{ amount: 100n * KAS }]]);
    const [wallet, receiver] = set.wallets as [Wallet, Wallet];
    const built = wallet.buildTransaction({ payments: [{ to: receiver.address, amount: 10n * KAS }] });
    wallet.track(built);
    const change = built.change!;
    const asRpc = (owner: Wallet, outpointIndex: number, amount: bigint): RpcUtxosByAddressesEntry => ({
      address: owner.address,
      outpoint: { transactionId: built.id, index: outpointIndex },
      utxoEntry: {
        amount,
        scriptPublicKey: `0000${bytesToHex(owner.scriptPublicKey.script)}`,
        blockDaaScore: 10_001n,
        isCoinbase: false,
        covenantId: null,
      },
    });
    const spentInput = built.inputs[0]!;
    set.applyUtxosChanged({
      added: [asRpc(receiver, 0, 10n * KAS), asRpc(wallet, change.outpoint.index, change.entry.amount)],
      removed: [
        {
          address: wallet.address,
          outpoint: { transactionId: bytesToHex(spentInput.outpoint.transactionId), index: spentInput.outpoint.index },
          utxoEntry: {
            amount: spentInput.entry.amount,
            scriptPublicKey: `0000${bytesToHex(wallet.scriptPublicKey.script)}`,
            blockDaaScore: 0n,
            isCoinbase: false,
            covenantId: null,
          },
        },
      ],
    });
    expect(wallet.isPending(built.id)).toBe(false);
    expect(wallet.spendableUtxos().map((utxo) => utxo.entry.amount)).toEqual([change.entry.amount]);
    expect(receiver.balance().confirmed).toBe(10n * KAS);
  });

  it('forgets pending transactions older than the TTL', () => {
    const set = createWalletSet({ seed: 'ttl', count: 2, pendingTtlDaa: 100n });
    set.setVirtualDaaScore(5_000n);
    set.setUtxos([fundingEntry(set.wallets[0]!, { amount: 20n * KAS })]);
    const wallet = set.wallets[0]!;
    const built = wallet.buildTransaction({ payments: [{ to: set.wallets[1]!.address, amount: KAS }] });
    wallet.track(built);
    set.setVirtualDaaScore(5_100n);
    expect(wallet.isPending(built.id)).toBe(true);
    set.setVirtualDaaScore(5_101n);
    expect(wallet.isPending(built.id)).toBe(false);
    expect(wallet.balance().spendable).toBe(20n * KAS);
  });

  it('replaces a pending transaction with the same inputs at a strictly higher feerate', () => {
    const set = fundedSet([[{ amount: 40n * KAS }, { amount: 60n * KAS }]]);
    const [wallet, receiver] = set.wallets as [Wallet, Wallet];
    const original = wallet.buildTransaction({
      payments: [{ to: receiver.address, amount: 45n * KAS }],
      payload: Uint8Array.of(1, 2, 3),
    });
    wallet.track(original);
    const replacement = wallet.buildReplacement(original.id);
    expectStandardAndValid(replacement);
    expect(replacement.id).not.toBe(original.id);
    expect(replacement.inputs).toEqual(original.inputs);
    expect(replacement.payments).toEqual(original.payments);
    expect(replacement.payload).toEqual(original.payload);
    expect(replacement.fee * largestMass(original.masses)).toBeGreaterThan(original.fee * largestMass(replacement.masses));
    const untouched = wallet.spendableUtxos();
    expect(untouched.map((utxo) => utxo.entry.amount)).toEqual([40n * KAS]);
    wallet.completeReplacement(original.id, replacement);
    expect(wallet.isPending(original.id)).toBe(false);
    expect(wallet.spendableUtxos()).toEqual([...untouched, replacement.change]);
  });

  it('will not replace a transaction whose change is already spent by another pending one', () => {
    const set = fundedSet([[{ amount: 100n * KAS }]]);
    const [wallet, receiver] = set.wallets as [Wallet, Wallet];
    const parent = wallet.buildTransaction({ payments: [{ to: receiver.address, amount: 10n * KAS }] });
    wallet.track(parent);
    wallet.track(wallet.buildTransaction({ payments: [{ to: receiver.address, amount: 10n * KAS }] }));
    expect(() => wallet.buildReplacement(parent.id)).toThrow(expect.objectContaining({ code: 'has_descendants' }));
    expect(() => wallet.buildReplacement('00'.repeat(32))).toThrow(expect.objectContaining({ code: 'unknown_transaction' }));
  });
});

describe('following the node', () => {
  it('applies UtxosChanged notifications for its own addresses from a subscription', async () => {
    const set = createWalletSet({ seed: 'follow', count: 2 });
    let listener: ((payload: { added: RpcUtxosByAddressesEntry[]; removed: RpcUtxosByAddressesEntry[] }) => void) | undefined;
    let subscribedAddresses: string[] = [];
    let unsubscribed = false;
    const unsubscribe = await set.followUtxosChanged({
      subscribe: async (event, params, onPayload) => {
        expect(event).toBe('UtxosChanged');
        subscribedAddresses = params.addresses;
        listener = onPayload;
        return async () => {
          unsubscribed = true;
        };
      },
    });
    expect(subscribedAddresses).toEqual(set.addresses());
    const funding = fundingEntry(set.wallets[1]!, { amount: 3n * KAS });
    listener!({ added: [funding], removed: [] });
    expect(set.wallets[1]!.balance().confirmed).toBe(3n * KAS);
    listener!({ added: [], removed: [funding] });
    expect(set.wallets[1]!.balance().confirmed).toBe(0n);
    await unsubscribe();
    expect(unsubscribed).toBe(true);
    expectTypeOf<RpcClient>().toExtend<UtxosChangedSource>();
  });

  it('reads the virtual DAA score and the UTXOs of every wallet from the node', async () => {
    const set = createWalletSet({ seed: 'refresh', count: 3 });
    const entries = [fundingEntry(set.wallets[1]!, { amount: 5n * KAS }), fundingEntry(set.wallets[2]!, { amount: 7n * KAS })];
    const calls: string[] = [];
    const rpc = {
      call: async (method: string, params: unknown) => {
        calls.push(method);
        if (method === 'getUtxosByAddresses') {
          expect(params).toEqual({ addresses: set.addresses() });
          return { entries };
        }
        return { virtualDaaScore: 4_321n };
      },
    };
    await set.refresh(rpc as never);
    expect(calls.sort()).toEqual(['getBlockDagInfo', 'getUtxosByAddresses']);
    expect(set.virtualDaaScore()).toBe(4_321n);
    expect(set.wallets.map((wallet) => wallet.balance().confirmed)).toEqual([0n, 5n * KAS, 7n * KAS]);
  });
});
