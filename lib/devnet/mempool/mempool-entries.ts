/**
 * What RPC sees of the mempool: the entry the getMempoolEntr* calls answer with, how their flags combine into a
 * query, and entries grouped by the scripts they spend from and pay to (getMempoolEntriesByAddresses).
 *
 * Invariant: an entry is a copy taken when asked (its spent entries included), so an orphan completed later never
 * changes an answer already given; an orphan reports a fee of 0, as kaspad's do, since it has not been validated.
 */
import { equalBytes, hexToBytes } from '../../kaspa/bytes';
import type { Hash, ScriptPublicKey, Transaction, UtxoEntry } from '../../kaspa/types';
import type { Priority } from './mempool-policy';
import type { PoolTransaction } from './mempool-transaction';

export type TransactionQuery = 'transactions' | 'orphans' | 'all';

export class MempoolQueryError extends Error {
  override name = 'MempoolQueryError';
}

/** rpc/service/src/service.rs `extract_tx_query`: how the RPC flags of the getMempoolEntr* calls combine. */
export function transactionQuery(filterTransactionPool: boolean, includeOrphanPool: boolean): TransactionQuery {
  if (filterTransactionPool && includeOrphanPool) return 'orphans';
  if (filterTransactionPool) throw new MempoolQueryError('transaction query must either not filter transactions or include orphans');
  return includeOrphanPool ? 'all' : 'transactions';
}

export interface MempoolEntry {
  transactionId: Hash;
  /** For pool transactions, `storageMass` holds the storage mass consensus computed. */
  transaction: Transaction;
  /** 0 for orphans, as kaspad reports them. */
  fee: bigint;
  isOrphan: boolean;
  computeMass: bigint;
  transientMass: bigint;
  storageMass: bigint;
  /**
   * The normalized mass under the mempool block limits of the DAA score the transaction entered at: the mass its
   * frontier key, the fee estimate and templates use.
   */
  mass: bigint;
  priority: Priority;
  addedAtDaaScore: bigint;
  /** The spent entries by input; an orphan lacks some. Entries from pool parents carry the unaccepted DAA score. */
  spentEntries: readonly (UtxoEntry | undefined)[];
}

export interface MempoolEntriesByScriptPublicKey {
  scriptPublicKey: ScriptPublicKey;
  /** Transactions spending an output paying to the script. */
  sending: MempoolEntry[];
  /** Transactions with an output paying to the script. */
  receiving: MempoolEntry[];
}

function sameScript(a: ScriptPublicKey, b: ScriptPublicKey): boolean {
  return a.version === b.version && equalBytes(a.script, b.script);
}

export function mempoolEntryOf(entry: PoolTransaction, isOrphan: boolean): MempoolEntry {
  const { mtx } = entry;
  return {
    transactionId: hexToBytes(mtx.id),
    transaction: mtx.tx,
    fee: mtx.fee ?? 0n,
    isOrphan,
    computeMass: mtx.computeMass,
    transientMass: mtx.transientMass,
    storageMass: mtx.tx.storageMass,
    mass: entry.mass,
    priority: entry.priority,
    addedAtDaaScore: entry.addedAtDaaScore,
    spentEntries: [...mtx.entries],
  };
}

/** `entries` under each distinct script, first occurrences in the order given: those spending from it, those paying to it. */
export function entriesByScriptPublicKeys(entries: readonly MempoolEntry[], scriptPublicKeys: readonly ScriptPublicKey[]): MempoolEntriesByScriptPublicKey[] {
  const distinct = scriptPublicKeys.filter(
    (spk, index) => scriptPublicKeys.findIndex((other) => sameScript(other, spk)) === index,
  );
  return distinct.map((scriptPublicKey) => ({
    scriptPublicKey,
    sending: entries.filter((entry) => entry.spentEntries.some((spent) => spent && sameScript(spent.scriptPublicKey, scriptPublicKey))),
    receiving: entries.filter((entry) => entry.transaction.outputs.some((output) => sameScript(output.scriptPublicKey, scriptPublicKey))),
  }));
}
