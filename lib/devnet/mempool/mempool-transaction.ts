/**
 * A transaction as the mempool holds it (kaspad's MutableTransaction and model/tx.rs MempoolTransaction), and the
 * measures every pool takes of it.
 *
 * Invariants: `fee` is set, and `tx.storageMass` is consensus's, only once the transaction passed consensus
 * validation, so a feerate exists exactly for validated transactions; `entries` holds one slot per input, filled from
 * the virtual UTXO set or, with the unaccepted DAA score, from a pool parent's output. A pool entry's `mass` is fixed
 * at the DAA score it entered at, so its frontier key never moves while it stays in the pool.
 */
import { bytesToHex } from '../../kaspa/bytes';
import { transactionEstimatedSerializedSize, transientMass } from '../../kaspa/mass';
import type { Transaction, TransactionOutput, UtxoEntry } from '../../kaspa/types';
import { feerateKey, type FeerateKey } from '../consensus/frontier';
import { txComputeMassOf, txIdOf } from '../consensus/transaction-facts';
import { UNACCEPTED_DAA_SCORE } from '../consensus/transaction-validator';
import { mempoolNormalizedMass, type MempoolConfig, type Priority } from './mempool-policy';

export interface MutableTransaction {
  tx: Transaction;
  readonly id: string;
  readonly entries: (UtxoEntry | undefined)[];
  readonly computeMass: bigint;
  readonly transientMass: bigint;
  fee?: bigint;
}

export interface PoolTransaction {
  mtx: MutableTransaction;
  readonly priority: Priority;
  readonly addedAtDaaScore: bigint;
  /** Normalized under the mempool block limits at `addedAtDaaScore`. */
  readonly mass: bigint;
}

export function newMutableTransaction(tx: Transaction): MutableTransaction {
  return {
    tx,
    id: bytesToHex(txIdOf(tx)),
    entries: tx.inputs.map(() => undefined),
    computeMass: txComputeMassOf(tx),
    transientMass: transientMass(tx),
  };
}

/** The normalized mass under the mempool block limits at `daaScore` (storage counts once consensus has set it). */
export function massAt(mtx: MutableTransaction, config: MempoolConfig, daaScore: bigint): bigint {
  return mempoolNormalizedMass(config, daaScore, { compute: mtx.computeMass, transient: mtx.transientMass, storage: mtx.tx.storageMass });
}

/** `MutableTransaction::calculated_feerate`: fee over the normalized mass at `daaScore`, once validated. */
export function feerateAt(mtx: MutableTransaction, config: MempoolConfig, daaScore: bigint): number | undefined {
  return mtx.fee === undefined ? undefined : Number(mtx.fee) / Number(massAt(mtx, config, daaScore));
}

export function isVerifiable(mtx: MutableTransaction): boolean {
  return mtx.entries.every((entry) => entry !== undefined);
}

export function frontierKeyOf(entry: PoolTransaction): FeerateKey {
  const { mtx } = entry;
  return feerateKey(mtx.id, mtx.fee ?? 0n, entry.mass, bytesToHex(mtx.tx.subnetworkId), mtx.tx.gas);
}

export function estimatedTransactionBytes(mtx: MutableTransaction): number {
  return Number(transactionEstimatedSerializedSize(mtx.tx));
}

/** utxo_set.rs: a pool output as an entry, carrying the covenant it is bound to. */
export function unacceptedEntry(output: TransactionOutput): UtxoEntry {
  return {
    amount: output.value,
    scriptPublicKey: output.scriptPublicKey,
    blockDaaScore: UNACCEPTED_DAA_SCORE,
    isCoinbase: false,
    ...(output.covenant ? { covenantId: output.covenant.covenantId } : {}),
  };
}

/** Orders transactions so that every in-set parent comes before its children. */
export function topologicalOrder<T extends { mtx: MutableTransaction }>(items: readonly T[]): T[] {
  const byId = new Map(items.map((item) => [item.mtx.id, item]));
  const visited = new Set<string>();
  const ordered: T[] = [];
  for (const root of items) {
    if (visited.has(root.mtx.id)) continue;
    visited.add(root.mtx.id);
    const stack: { item: T; nextInput: number }[] = [{ item: root, nextInput: 0 }];
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      const input = frame.item.mtx.tx.inputs[frame.nextInput++];
      if (!input) {
        ordered.push(frame.item);
        stack.pop();
        continue;
      }
      const parent = byId.get(bytesToHex(input.previousOutpoint.transactionId));
      if (parent && !visited.has(parent.mtx.id)) {
        visited.add(parent.mtx.id);
        stack.push({ item: parent, nextInput: 0 });
      }
    }
  }
  return ordered;
}
