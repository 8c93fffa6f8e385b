/**
 * A transaction's id, hash and compute mass, computed once per object. The node never modifies a transaction it
 * holds (one decoded from the wire, a template's coinbase, a block's), so the memo keyed by identity stays true; every
 * stage of the node (mempool, block validation, acceptance, templates, RPC conversion) reads them through here
 * instead of serializing and hashing the same transaction again.
 */
import { computeMass } from '../../kaspa/mass';
import { transactionHash, transactionId } from '../../kaspa/transaction';
import type { Hash, Transaction } from '../../kaspa/types';

function memoized<T>(compute: (tx: Transaction) => T): (tx: Transaction) => T {
  const values = new WeakMap<Transaction, T>();
  return (tx) => {
    let value = values.get(tx);
    if (value === undefined) values.set(tx, (value = compute(tx)));
    return value;
  };
}

export const txIdOf: (tx: Transaction) => Hash = memoized(transactionId);

/** The merkle leaf (covers signature scripts and the mass commitment). */
export const txHashOf: (tx: Transaction) => Hash = memoized(transactionHash);

export const txComputeMassOf: (tx: Transaction) => bigint = memoized(computeMass);
