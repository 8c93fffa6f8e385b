/**
 * Test wallets, coins and an in-memory virtual state for the mempool tests. Transactions are signed for real
 * (lib/kaspa/signing.ts); funding outpoints have made-up transaction ids.
 */
import { payToPublicKeyEcdsaScript, payToPublicKeyScript } from '../../kaspa/address';
import { blake2b256 } from '../../kaspa/hashing';
import { ecdsaPublicKey, schnorrPublicKey, signTransaction } from '../../kaspa/signing';
import { transactionId } from '../../kaspa/transaction';
import { SUBNETWORK_ID_NATIVE, type Outpoint, type ScriptPublicKey, type Transaction, type TransactionOutput, type UtxoEntry } from '../../kaspa/types';
import { createMempool, type Mempool, type VirtualUtxoView } from '../mempool/mempool';
import { MempoolRuleError } from '../mempool/mempool-errors';
import type { RandomSource } from '../consensus/frontier';
import type { MempoolConfig } from '../mempool/mempool-policy';
import { CRESCENDO_PARAMS, FORK_ALWAYS } from '../consensus/params';
import { outpointKey, UNACCEPTED_DAA_SCORE } from '../consensus/transaction-validator';

export const KAS = 100_000_000n;

export interface Wallet {
  privateKey: Uint8Array;
  scriptPublicKey: ScriptPublicKey;
}

export function wallet(label: string, scheme: 'schnorr' | 'ecdsa' = 'schnorr'): Wallet {
  const privateKey = blake2b256(new TextEncoder().encode(`mempool-test-key:${label}`));
  const scriptPublicKey =
    scheme === 'schnorr' ? payToPublicKeyScript(schnorrPublicKey(privateKey)) : payToPublicKeyEcdsaScript(ecdsaPublicKey(privateKey));
  return { privateKey, scriptPublicKey };
}

export interface Coin {
  outpoint: Outpoint;
  entry: UtxoEntry;
  owner: Wallet;
}

export class FakeVirtualState implements VirtualUtxoView {
  daaScore = 50_000n;
  pastMedianTime = 1_700_000_000_000n;
  private readonly utxos = new Map<string, UtxoEntry>();
  private fundings = 0;

  getUtxo(outpoint: Outpoint): UtxoEntry | undefined {
    return this.utxos.get(outpointKey(outpoint));
  }

  virtualDaaScore(): bigint {
    return this.daaScore;
  }

  virtualPastMedianTime(): bigint {
    return this.pastMedianTime;
  }

  /**
   * A fresh UTXO in the virtual set, created by a made-up transaction, paying to `owner` (or to `scriptPublicKey`
   * while still naming `owner` as the signer).
   */
  fund(
    owner: Wallet,
    amount: bigint,
    options: { isCoinbase?: boolean; blockDaaScore?: bigint; scriptPublicKey?: ScriptPublicKey } = {},
  ): Coin {
    this.fundings += 1;
    const outpoint = { transactionId: blake2b256(new TextEncoder().encode(`funding:${this.fundings}`)), index: 0 };
    const entry: UtxoEntry = {
      amount,
      scriptPublicKey: options.scriptPublicKey ?? owner.scriptPublicKey,
      blockDaaScore: options.blockDaaScore ?? this.daaScore - 2000n,
      isCoinbase: options.isCoinbase ?? false,
    };
    const coin = { outpoint, entry, owner };
    this.restore(coin);
    return coin;
  }

  restore(coin: Coin): void {
    this.utxos.set(outpointKey(coin.outpoint), coin.entry);
  }

  remove(outpoint: Outpoint): void {
    this.utxos.delete(outpointKey(outpoint));
  }

  /** What accepting `txs` in a chain block does to the virtual UTXO set. */
  accept(txs: readonly Transaction[], daaScore = this.daaScore): void {
    for (const tx of txs) {
      for (const input of tx.inputs) this.remove(input.previousOutpoint);
      const id = transactionId(tx);
      tx.outputs.forEach((output, index) => {
        this.utxos.set(outpointKey({ transactionId: id, index }), {
          amount: output.value,
          scriptPublicKey: output.scriptPublicKey,
          blockDaaScore: daaScore,
          isCoinbase: false,
        });
      });
    }
  }
}

export interface SpendOptions {
  lockTime?: bigint;
  gas?: bigint;
  sequence?: bigint;
  sigOpCount?: number;
  payload?: Uint8Array;
  version?: number;
  /** Version 1 and later: each input's compute budget (its sig-op count is then 0). */
  computeBudget?: number;
  /** Leave the signature scripts empty. */
  unsigned?: boolean;
}

export function spend(coins: readonly Coin[], outputs: readonly TransactionOutput[], options: SpendOptions = {}): Transaction {
  const tx: Transaction = {
    version: options.version ?? 0,
    inputs: coins.map((coin) => ({
      previousOutpoint: coin.outpoint,
      signatureScript: new Uint8Array(0),
      sequence: options.sequence ?? 0n,
      ...(options.computeBudget === undefined
        ? { sigOpCount: options.sigOpCount ?? 1 }
        : { sigOpCount: 0, computeBudget: options.computeBudget }),
    })),
    outputs: [...outputs],
    lockTime: options.lockTime ?? 0n,
    subnetworkId: SUBNETWORK_ID_NATIVE,
    gas: options.gas ?? 0n,
    payload: options.payload ?? new Uint8Array(0),
    storageMass: 0n,
  };
  if (options.unsigned) return tx;
  return signTransaction(
    tx,
    coins.map((coin) => coin.owner.privateKey),
    coins.map((coin) => coin.entry),
  );
}

export function pay(to: Wallet, value: bigint): TransactionOutput {
  return { value, scriptPublicKey: to.scriptPublicKey };
}

/** Spends `coins` to one output owned by `to`, leaving `fee`. */
export function transfer(coins: readonly Coin[], to: Wallet, fee: bigint, options: SpendOptions = {}): Transaction {
  const total = coins.reduce((sum, coin) => sum + coin.entry.amount, 0n);
  return spend(coins, [pay(to, total - fee)], options);
}

/** Output `index` of a mempool transaction as a coin (its entry as the mempool sees it). */
export function outputCoin(tx: Transaction, index: number, owner: Wallet): Coin {
  const output = tx.outputs[index]!;
  return {
    outpoint: { transactionId: transactionId(tx), index },
    entry: { amount: output.value, scriptPublicKey: output.scriptPublicKey, blockDaaScore: UNACCEPTED_DAA_SCORE, isCoinbase: false },
    owner,
  };
}

export interface TestMempoolOptions {
  config?: Partial<MempoolConfig>;
  /** Toccata from genesis unless given, as the devnet runs by default. */
  toccataActivation?: bigint;
  /** A mutable wall clock, milliseconds. */
  clock?: { value: number };
  random?: RandomSource;
}

export function newMempool(state: FakeVirtualState, options: TestMempoolOptions = {}): Mempool {
  const clock = options.clock ?? { value: 1_700_000_000_000 };
  return createMempool({
    params: { ...CRESCENDO_PARAMS, toccataActivation: options.toccataActivation ?? FORK_ALWAYS },
    utxoView: state,
    clock: { now: () => clock.value },
    config: options.config ?? {},
    ...(options.random ? { random: options.random } : {}),
  });
}

/** A deterministic uniform source (mulberry32). */
export function seededRandom(seed: number): RandomSource {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The MempoolRuleError `action` throws (any other outcome fails the test). */
export function rejection(action: () => unknown): MempoolRuleError {
  try {
    action();
  } catch (error) {
    if (error instanceof MempoolRuleError) return error;
    throw error;
  }
  throw new Error('expected a MempoolRuleError');
}
