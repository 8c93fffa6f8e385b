/**
 * UTXO views and diffs, shaped like rusty-kaspa's consensus/core/src/utxo (UtxoView, UtxoDiff::with_diff_in_place,
 * UtxoDiff::as_reversed). A diff is relative to some base view: `removed` holds base entries it deletes, `added` the
 * entries it creates. An outpoint may sit in both when a base entry is replaced by a different entry for the same
 * outpoint (a transaction re-accepted at another DAA score after a reorganisation).
 */
import { equalBytes, hexToBytes } from '../../kaspa/bytes';
import type { Outpoint, UtxoEntry } from '../../kaspa/types';

export { outpointKey } from './transaction-validator';

/** `outpointKey`'s "<txid hex>:<index>". */
export type OutpointKey = string;

export function outpointFromKey(key: OutpointKey): Outpoint {
  const separator = key.indexOf(':');
  return { transactionId: hexToBytes(key.slice(0, separator)), index: Number(key.slice(separator + 1)) };
}

const EMPTY = new Uint8Array(0);

export function entriesEqual(a: UtxoEntry, b: UtxoEntry): boolean {
  return (
    a === b ||
    (a.amount === b.amount &&
      a.blockDaaScore === b.blockDaaScore &&
      a.isCoinbase === b.isCoinbase &&
      a.scriptPublicKey.version === b.scriptPublicKey.version &&
      equalBytes(a.scriptPublicKey.script, b.scriptPublicKey.script) &&
      equalBytes(a.covenantId ?? EMPTY, b.covenantId ?? EMPTY))
  );
}

export interface UtxoView {
  get(key: OutpointKey): UtxoEntry | undefined;
}

export class UtxoDiff {
  readonly added = new Map<OutpointKey, UtxoEntry>();
  readonly removed = new Map<OutpointKey, UtxoEntry>();

  get size(): number {
    return this.added.size + this.removed.size;
  }

  add(key: OutpointKey, entry: UtxoEntry): void {
    const removed = this.removed.get(key);
    if (removed !== undefined && entriesEqual(removed, entry)) {
      this.removed.delete(key);
      return;
    }
    this.added.set(key, entry);
  }

  remove(key: OutpointKey, entry: UtxoEntry): void {
    if (this.added.delete(key)) return;
    this.removed.set(key, entry);
  }

  /** Folds `other` (a diff relative to this diff's result) into this one. */
  applyDiff(other: UtxoDiff): void {
    for (const [key, entry] of other.removed) this.remove(key, entry);
    for (const [key, entry] of other.added) this.add(key, entry);
  }

  /** Folds the reverse of `other`, undoing it when this diff's result is the state `other` led to. */
  applyReversed(other: UtxoDiff): void {
    for (const [key, entry] of other.added) this.remove(key, entry);
    for (const [key, entry] of other.removed) this.add(key, entry);
  }

  getFrom(base: UtxoView, key: OutpointKey): UtxoEntry | undefined {
    const added = this.added.get(key);
    if (added !== undefined) return added;
    return this.removed.has(key) ? undefined : base.get(key);
  }

  /** The base view with this diff applied (live: later changes to the diff show through). */
  over(base: UtxoView): UtxoView {
    return { get: (key) => this.getFrom(base, key) };
  }

  /** Writes this diff into a mutable UTXO set. */
  commitTo(set: Map<OutpointKey, UtxoEntry>): void {
    for (const key of this.removed.keys()) set.delete(key);
    for (const [key, entry] of this.added) set.set(key, entry);
  }

  keys(): Set<OutpointKey> {
    return new Set([...this.added.keys(), ...this.removed.keys()]);
  }
}
