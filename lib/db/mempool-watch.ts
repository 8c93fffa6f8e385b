/**
 * The mempool's `address` events (migration 15's mempool_watch): `mempool` when a transaction is first seen in the
 * node's mempool (submitted through the API, or found by the indexing process's poll), `dropped` when it left the
 * mempool and no block holds it. Every write here takes the stream log's lock before it looks at what is stored, so
 * a transaction's `mempool` event always comes before its `included` one and `dropped` never follows `included`.
 */
import { scriptPublicKeyToAddress, type AddressPrefix } from '../kaspa/address';
import { bytesToHex, hexToBytes } from '../kaspa/bytes';
import type { Hash, Transaction } from '../kaspa/types';
import { transactionFromRpc } from '../rpc/convert-transaction';
import type { RpcTransactionInputForm } from '../rpc/types';
import type { Db, Queryable } from './connection';
import { appendStreamEvents, lockStreamEvents, storedAmong, type NewStreamEvent } from './stream-events';

export interface WatchedTransaction {
  transactionId: Hash;
  /** Distinct, sorted. */
  addresses: readonly string[];
}

type MempoolStatus = 'mempool' | 'dropped';

function statusEvents(entries: readonly WatchedTransaction[], status: MempoolStatus): NewStreamEvent[] {
  return entries.flatMap((entry) => {
    const transactionId = bytesToHex(entry.transactionId);
    return entry.addresses.map((address) => ({ topic: 'address' as const, address, data: { address, transactionId, status } }));
  });
}

/**
 * The addresses each transaction pays and spends from: outputs' from their scripts, inputs' from the stored outputs
 * they spend or, for a chain of unconfirmed transactions, from `parents` (by hex id). An input whose funding output is
 * in neither (the index lags the node, or pruned it) names no address.
 */
export async function mempoolAddresses(
  db: Queryable,
  transactions: readonly Transaction[],
  prefix: AddressPrefix,
  parents: ReadonlyMap<string, Transaction> = new Map(),
): Promise<string[][]> {
  const wanted = transactions.flatMap((transaction) =>
    transaction.inputs
      .map((input) => input.previousOutpoint)
      .filter((outpoint) => !parents.has(bytesToHex(outpoint.transactionId))),
  );
  const stored = new Map<string, string>();
  if (wanted.length > 0) {
    const { rows } = await db.query<{ transaction_id: Uint8Array; output_index: number; address: string }>(
      `SELECT o.transaction_id, o.output_index, o.address
       FROM unnest($1::bytea[], $2::int[]) AS q(transaction_id, output_index)
       JOIN transaction_outputs o ON o.transaction_id = q.transaction_id AND o.output_index = q.output_index
       WHERE o.address IS NOT NULL`,
      [wanted.map((outpoint) => outpoint.transactionId), wanted.map((outpoint) => outpoint.index)],
    );
    for (const row of rows) stored.set(`${bytesToHex(row.transaction_id)}:${row.output_index}`, row.address);
  }
  return transactions.map((transaction) => {
    const addresses = new Set<string>();
    for (const output of transaction.outputs) {
      const address = scriptPublicKeyToAddress(output.scriptPublicKey, prefix);
      if (address !== null) addresses.add(address);
    }
    for (const { previousOutpoint } of transaction.inputs) {
      const parentId = bytesToHex(previousOutpoint.transactionId);
      const parentOutput = parents.get(parentId)?.outputs[previousOutpoint.index];
      const address =
        parentOutput === undefined ? stored.get(`${parentId}:${previousOutpoint.index}`) : scriptPublicKeyToAddress(parentOutput.scriptPublicKey, prefix);
      if (address !== undefined && address !== null) addresses.add(address);
    }
    return [...addresses].sort();
  });
}

/** Inside a transaction holding the stream lock: watches and announces those not watched yet nor stored in a block. */
async function watchLocked(tx: Queryable, entries: readonly WatchedTransaction[], now: number): Promise<WatchedTransaction[]> {
  const stored = await storedAmong(
    tx,
    'transactions',
    entries.map((entry) => entry.transactionId),
  );
  const candidates = entries.filter((entry) => !stored.has(bytesToHex(entry.transactionId)));
  if (candidates.length === 0) return [];
  const { rows } = await tx.query<{ transaction_id: Uint8Array }>(
    `INSERT INTO mempool_watch (transaction_id, addresses, entered_at)
     SELECT e.transaction_id, ARRAY(SELECT json_array_elements_text(e.addresses::json)), $3
     FROM unnest($1::bytea[], $2::text[]) AS e(transaction_id, addresses)
     ON CONFLICT (transaction_id) DO NOTHING
     RETURNING transaction_id`,
    [candidates.map((entry) => entry.transactionId), candidates.map((entry) => JSON.stringify(entry.addresses)), now],
  );
  const inserted = new Set(rows.map((row) => bytesToHex(row.transaction_id)));
  const announced = candidates.filter((entry) => inserted.has(bytesToHex(entry.transactionId)));
  await appendStreamEvents(tx, statusEvents(announced, 'mempool'), now);
  return announced;
}

/** Announces `mempool` for the transactions never announced and not in a block yet; returns how many it announced. */
export async function announceMempoolEntries(db: Db, entries: readonly WatchedTransaction[], now: number): Promise<number> {
  if (entries.length === 0) return 0;
  return db.transaction(async (tx) => {
    await lockStreamEvents(tx);
    return (await watchLocked(tx, entries, now)).length;
  });
}

type Settled<T> = { value: T } | { error: unknown };

/**
 * Runs a submission to the node while holding the stream lock, then announces its transaction (`watched` of the
 * node's answer). No block event of the transaction can be written in between, so its
 * `mempool` event is first. The announcement is secondary: a database failure before the node was asked still
 * submits, one after it keeps the node's answer (and is reported to `onError`).
 */
async function submitAnnounced<T>(
  db: Db,
  submit: () => Promise<T>,
  watched: (answer: T) => WatchedTransaction,
  options: { clock: () => number; onError: (error: unknown) => void },
): Promise<T> {
  const settle = (call: () => Promise<T>): Promise<Settled<T>> =>
    call().then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
  let outcome: Settled<T> | undefined;
  try {
    await db.transaction(async (tx) => {
      await lockStreamEvents(tx);
      outcome = await settle(submit);
      if (!('value' in outcome)) return;
      await watchLocked(tx, [watched(outcome.value)], options.clock());
    });
  } catch (error) {
    if (outcome === undefined) outcome = await settle(submit);
    else options.onError(error);
  }
  if ('error' in outcome!) throw outcome.error;
  return (outcome as { value: T }).value;
}

/**
 * Records which watched transactions the node's mempool held at a poll taken at `polledAt`: those missing (and
 * watched since before the poll) are marked as having left, with the node's virtual DAA score; those back (a
 * reorganisation returned them) are unmarked.
 */
export async function markMempoolPresence(db: Queryable, present: readonly Hash[], polledAt: number, virtualDaaScore: bigint): Promise<void> {
  await db.query('UPDATE mempool_watch SET left_at = NULL, left_daa_score = NULL WHERE left_at IS NOT NULL AND transaction_id = ANY($1::bytea[])', [
    present,
  ]);
  await db.query(
    `UPDATE mempool_watch SET left_at = $2, left_daa_score = $3
     WHERE left_at IS NULL AND entered_at < $2 AND NOT (transaction_id = ANY($1::bytea[]))`,
    [present, polledAt, virtualDaaScore],
  );
}

export interface MempoolSettlement {
  /** Left the mempool into a stored block: nothing announced. */
  mined: number;
  /** Announced `dropped`. */
  dropped: number;
}

/**
 * Settles the transactions that left the mempool: one a block holds is forgotten; one that left at or before
 * `dropBefore` (ms) while the node's virtual DAA score was at most `indexedDaaScore` (the index has every block that
 * could hold it) is announced `dropped`.
 */
export async function settleMempoolWatch(
  db: Db,
  settings: { now: number; dropBefore: number; indexedDaaScore: bigint },
): Promise<MempoolSettlement> {
  return db.transaction(async (tx) => {
    await lockStreamEvents(tx);
    const mined = await tx.query(
      `DELETE FROM mempool_watch w WHERE left_at IS NOT NULL
       AND EXISTS (SELECT 1 FROM transactions t WHERE t.transaction_id = w.transaction_id)`,
    );
    const { rows } = await tx.query<{ transaction_id: Uint8Array; addresses: string[] }>(
      `DELETE FROM mempool_watch WHERE left_at IS NOT NULL AND left_at <= $1 AND left_daa_score <= $2
       RETURNING transaction_id, addresses`,
      [settings.dropBefore, settings.indexedDaaScore],
    );
    const dropped = rows
      .map((row) => ({ transactionId: row.transaction_id, addresses: row.addresses }))
      .sort((a, b) => bytesToHex(a.transactionId).localeCompare(bytesToHex(b.transactionId)));
    await appendStreamEvents(tx, statusEvents(dropped, 'dropped'), settings.now);
    return { mined: mined.rowCount, dropped: dropped.length };
  });
}

/** A submission to the node whose transaction, once the node accepted it, is announced as having entered the mempool. */
export type AnnouncedSubmit = <T extends { transactionId: string }>(transaction: RpcTransactionInputForm, submit: () => Promise<T>) => Promise<T>;

/** Submits through `announce` when the caller has one, else straight to the node. */
export function submitThrough<T extends { transactionId: string }>(
  announce: AnnouncedSubmit | undefined,
  transaction: RpcTransactionInputForm,
  submit: () => Promise<T>,
): Promise<T> {
  return announce === undefined ? submit() : announce(transaction, submit);
}

export function createSubmissionAnnouncer(options: {
  db: Db;
  addressPrefix: () => Promise<AddressPrefix>;
  clock: () => number;
  /** After an announcement was written. */
  onAnnounced: () => void;
  onError: (error: unknown) => void;
}): AnnouncedSubmit {
  const { db } = options;
  return async (rpcTransaction, submit) => {
    let addresses: string[];
    try {
      [addresses = []] = await mempoolAddresses(db, [transactionFromRpc(rpcTransaction)], await options.addressPrefix());
    } catch (error) {
      options.onError(error);
      return submit();
    }
    const answer = await submitAnnounced(db, submit, (value) => ({ transactionId: hexToBytes(value.transactionId), addresses }), options);
    options.onAnnounced();
    return answer;
  };
}
