/**
 * A transaction's id and hash, computed once per object. The node never modifies a transaction it holds (one decoded
 * from the wire, a template's coinbase, a block's), so the memo keyed by identity stays true; every stage of the node
 * (mempool, block validation, acceptance, templates, RPC conversion) reads the digests through here instead of
 * hashing the same transaction again.
 */
import { transactionHash, transactionId } from '../kaspa/transaction';
import type { Hash, Transaction } from '../kaspa/types';

const ids = new WeakMap<Transaction, Hash>();
const hashes = new WeakMap<Transaction, Hash>();

export function txIdOf(tx: Transaction): Hash {
  let id = ids.get(tx);
  if (id === undefined) ids.set(tx, (id = transactionId(tx)));
  return id;
}

/** The merkle leaf (covers signature scripts and the mass commitment). */
export function txHashOf(tx: Transaction): Hash {
  let hash = hashes.get(tx);
  if (hash === undefined) hashes.set(tx, (hash = transactionHash(tx)));
  return hash;
}
