/**
 * kaspad's utxoindex over the virtual UTXO set: the entries paying to each script public key, and the circulating
 * supply (their sum). Consensus feeds it every entry the virtual's set gains or loses.
 *
 * Invariant: it covers the virtual's set, not the sink's: the virtual's own acceptance (a diff over the sink's set)
 * is indexed as well, so the mempool and wallets see the outputs the next block would build on.
 */
import { bytesToHex } from '../../kaspa/bytes';
import type { Outpoint, ScriptPublicKey, UtxoEntry } from '../../kaspa/types';
import { outpointFromKey, outpointKey, type OutpointKey } from './utxo-diff';

export interface UtxoChange {
  outpoint: Outpoint;
  entry: UtxoEntry;
}

function scriptKey(scriptPublicKey: ScriptPublicKey): string {
  return `${scriptPublicKey.version}:${bytesToHex(scriptPublicKey.script)}`;
}

export class UtxoIndex {
  private readonly byScript = new Map<string, Map<OutpointKey, UtxoEntry>>();
  private circulatingSompi = 0n;

  get circulating(): bigint {
    return this.circulatingSompi;
  }

  update(change: UtxoChange, add: boolean): void {
    const key = scriptKey(change.entry.scriptPublicKey);
    const outpoint = outpointKey(change.outpoint);
    let entries = this.byScript.get(key);
    if (add) {
      if (entries === undefined) this.byScript.set(key, (entries = new Map()));
      entries.set(outpoint, change.entry);
      this.circulatingSompi += change.entry.amount;
      return;
    }
    entries?.delete(outpoint);
    if (entries?.size === 0) this.byScript.delete(key);
    this.circulatingSompi -= change.entry.amount;
  }

  utxosOf(scriptPublicKey: ScriptPublicKey): UtxoChange[] {
    const entries = this.byScript.get(scriptKey(scriptPublicKey));
    if (entries === undefined) return [];
    return [...entries].map(([key, entry]) => ({ outpoint: outpointFromKey(key), entry }));
  }

  balanceOf(scriptPublicKey: ScriptPublicKey): bigint {
    let balance = 0n;
    for (const entry of this.byScript.get(scriptKey(scriptPublicKey))?.values() ?? []) balance += entry.amount;
    return balance;
  }
}
