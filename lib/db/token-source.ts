import { bytesToHex, hexToBytes } from '../kaspa/bytes';
import type { Hash, Transaction } from '../kaspa/types';
import type { AcceptedBlock, AcceptedTransaction } from '../tokens/engine';
import type { Queryable } from './connection';
import { groupBy } from './reads';

/*
 * What the token indexer reads from the chain index (lib/indexer's tables, never written here): the virtual chain as
 * the chain flags describe it, and each chain block's accepted transactions in consensus acceptance order.
 */

/** The parser rejects any signature script of 69 bytes or less, so shorter ones cannot carry an envelope. */
const MIN_ENVELOPE_SCRIPT = 70;

export interface ChainBlockRef {
  hash: Hash;
  daaScore: bigint;
  blueScore: bigint;
  timestamp: bigint;
  selectedParentHash: Hash | null;
  isChainBlock: boolean;
}

interface ChainBlockRow {
  hash: Uint8Array;
  daa_score: bigint;
  blue_score: bigint;
  timestamp: bigint;
  selected_parent_hash: Uint8Array | null;
  is_chain_block: boolean;
  merge_set_blues: Uint8Array[];
  merge_set_reds: Uint8Array[];
}

export interface ChainBlockWithMergeset extends ChainBlockRef {
  mergeSet: Hash[];
}

const refOf = (row: ChainBlockRow): ChainBlockWithMergeset => ({
  hash: row.hash,
  daaScore: row.daa_score,
  blueScore: row.blue_score,
  timestamp: row.timestamp,
  selectedParentHash: row.selected_parent_hash,
  isChainBlock: row.is_chain_block,
  mergeSet: [...row.merge_set_blues, ...row.merge_set_reds],
});

const CHAIN_COLUMNS = 'hash, daa_score, blue_score, timestamp, selected_parent_hash, is_chain_block, merge_set_blues, merge_set_reds';

export async function readChainBlockRef(db: Queryable, hash: Hash): Promise<ChainBlockRef | null> {
  const { rows } = await db.query<ChainBlockRow>(`SELECT ${CHAIN_COLUMNS} FROM blocks WHERE hash = $1`, [hash]);
  return rows[0] ? refOf(rows[0]) : null;
}

/**
 * The next chain blocks after `after` (all of them when null), oldest first. Chain order is (DAA score, blue score):
 * the DAA score never falls along the chain but may repeat (genesis and its chain child share one), the blue score
 * always rises.
 */
export async function readChainBlocksAfter(
  db: Queryable,
  after: Pick<ChainBlockRef, 'daaScore' | 'blueScore'> | null,
  limit: number,
): Promise<ChainBlockWithMergeset[]> {
  const { rows } = await db.query<ChainBlockRow>(
    `SELECT ${CHAIN_COLUMNS} FROM blocks
      WHERE is_chain_block AND daa_score >= $1 AND (daa_score > $1 OR blue_score > $2)
      ORDER BY daa_score, blue_score LIMIT $3`,
    [after?.daaScore ?? -1n, after?.blueScore ?? -1n, limit],
  );
  return rows.map(refOf);
}

interface TransactionRow {
  transaction_id: Uint8Array;
  version: number;
  lock_time: string;
  subnetwork_id: Uint8Array;
  gas: string;
  payload: Uint8Array;
  mass: string;
}

interface InputRow {
  transaction_id: Uint8Array;
  previous_transaction_id: Uint8Array;
  previous_index: bigint;
  signature_script: Uint8Array;
  sequence: string;
  sig_op_count: number;
  previous_amount: string | null;
  previous_script_version: number | null;
  previous_script: Uint8Array | null;
}

interface OutputRow {
  transaction_id: Uint8Array;
  amount: string;
  script_version: number;
  script: Uint8Array;
}

/** Transactions that could carry an op (a long enough signature script, or a payload), as the engine takes them. */
async function candidateTransactions(db: Queryable, ids: readonly Hash[]): Promise<Map<string, AcceptedTransaction>> {
  const result = new Map<string, AcceptedTransaction>();
  if (ids.length === 0) return result;
  const { rows } = await db.query<TransactionRow>(
    `SELECT t.transaction_id, t.version, t.lock_time, t.subnetwork_id, t.gas, t.payload, t.mass
     FROM transactions t
     WHERE t.transaction_id = ANY($1::bytea[])
       AND (octet_length(t.payload) > 0 OR EXISTS (
         SELECT 1 FROM transaction_inputs i
         WHERE i.transaction_id = t.transaction_id AND octet_length(i.signature_script) >= $2))`,
    [ids, MIN_ENVELOPE_SCRIPT],
  );
  if (rows.length === 0) return result;
  const candidates = rows.map((row) => row.transaction_id);
  const [inputs, outputs] = await Promise.all([
    db.query<InputRow>(
      `SELECT transaction_id, previous_transaction_id, previous_index, signature_script, sequence, sig_op_count,
              previous_amount, previous_script_version, previous_script
       FROM transaction_inputs WHERE transaction_id = ANY($1::bytea[]) ORDER BY transaction_id, input_index`,
      [candidates],
    ),
    db.query<OutputRow>(
      `SELECT transaction_id, amount, script_version, script
       FROM transaction_outputs WHERE transaction_id = ANY($1::bytea[]) ORDER BY transaction_id, output_index`,
      [candidates],
    ),
  ]);
  const inputsOf = groupBy(inputs.rows, (input) => input.transaction_id);
  const outputsOf = groupBy(outputs.rows, (output) => output.transaction_id);
  for (const row of rows) {
    const txId = bytesToHex(row.transaction_id);
    const inputRows = inputsOf.get(txId) ?? [];
    const transaction: Transaction = {
      version: row.version,
      inputs: inputRows.map((input) => ({
        previousOutpoint: { transactionId: input.previous_transaction_id, index: Number(input.previous_index) },
        signatureScript: input.signature_script,
        sequence: BigInt(input.sequence),
        sigOpCount: input.sig_op_count,
      })),
      outputs: (outputsOf.get(txId) ?? []).map((output) => ({
        value: BigInt(output.amount),
        scriptPublicKey: { version: output.script_version, script: output.script },
      })),
      lockTime: BigInt(row.lock_time),
      subnetworkId: row.subnetwork_id,
      gas: BigInt(row.gas),
      payload: row.payload,
      storageMass: BigInt(row.mass),
    };
    const allKnown = inputRows.every((input) => input.previous_amount !== null && input.previous_script !== null);
    result.set(txId, {
      transaction,
      txId,
      spentOutputs: allKnown
        ? inputRows.map((input) => ({
            amount: BigInt(input.previous_amount!),
            scriptPublicKey: { version: input.previous_script_version ?? 0, script: input.previous_script! },
          }))
        : undefined,
    });
  }
  return result;
}

const compareBytes = (a: Uint8Array, b: Uint8Array): number => {
  const hexA = bytesToHex(a);
  const hexB = bytesToHex(b);
  return hexA < hexB ? -1 : hexA > hexB ? 1 : 0;
};

/**
 * Each chain block with the transactions it accepted that could carry an op, in acceptance order: merged blocks with
 * the selected parent first and the rest by ascending (blue work, hash), each block's transactions in block order, a
 * transaction counted at its first place in that order.
 */
export async function readAcceptedBlocks(
  db: Queryable,
  chainBlocks: readonly ChainBlockWithMergeset[],
): Promise<AcceptedBlock[]> {
  if (chainBlocks.length === 0) return [];
  const acceptances = await db.query<{ accepting_block_hash: Uint8Array; transaction_id: Uint8Array }>(
    `SELECT accepting_block_hash, transaction_id FROM transaction_acceptances
     WHERE accepting_block_hash = ANY($1::bytea[])`,
    [chainBlocks.map((block) => block.hash)],
  );
  const acceptedIds = acceptances.rows.map((row) => row.transaction_id);
  const candidates = await candidateTransactions(db, acceptedIds);
  const candidateIds = [...candidates.keys()];
  const byChainBlock = new Map<string, string[]>();
  for (const row of acceptances.rows) {
    const txId = bytesToHex(row.transaction_id);
    if (!candidates.has(txId)) continue;
    const key = bytesToHex(row.accepting_block_hash);
    const list = byChainBlock.get(key);
    if (list) list.push(txId);
    else byChainBlock.set(key, [txId]);
  }
  const placesOf = new Map<string, { block: string; position: number }[]>();
  const mergeWork = new Map<string, bigint>();
  if (candidateIds.length > 0) {
    const memberships = await db.query<{ transaction_id: Uint8Array; block_hash: Uint8Array; position: number }>(
      `SELECT transaction_id, block_hash, position FROM block_transactions WHERE transaction_id = ANY($1::bytea[])`,
      [candidateIds.map(hexToBytes)],
    );
    for (const row of memberships.rows) {
      const txId = bytesToHex(row.transaction_id);
      const places = placesOf.get(txId) ?? [];
      places.push({ block: bytesToHex(row.block_hash), position: row.position });
      placesOf.set(txId, places);
    }
    const members = chainBlocks
      .filter((block) => byChainBlock.has(bytesToHex(block.hash)))
      .flatMap((block) => block.mergeSet);
    const works = await db.query<{ hash: Uint8Array; blue_work: string }>(
      'SELECT hash, blue_work FROM blocks WHERE hash = ANY($1::bytea[])',
      [members],
    );
    for (const row of works.rows) mergeWork.set(bytesToHex(row.hash), BigInt(row.blue_work));
  }
  return chainBlocks.map((block): AcceptedBlock => {
    const hash = bytesToHex(block.hash);
    const txIds = byChainBlock.get(hash) ?? [];
    const selectedParent = block.selectedParentHash ? bytesToHex(block.selectedParentHash) : null;
    const others = block.mergeSet
      .filter((member) => bytesToHex(member) !== selectedParent)
      .sort((a, b) => {
        const workA = mergeWork.get(bytesToHex(a)) ?? 0n;
        const workB = mergeWork.get(bytesToHex(b)) ?? 0n;
        return workA < workB ? -1 : workA > workB ? 1 : compareBytes(a, b);
      })
      .map(bytesToHex);
    const rank = new Map((selectedParent ? [selectedParent, ...others] : others).map((member, index) => [member, index]));
    const placeOf = (txId: string): [number, number] => {
      let best: [number, number] = [Number.MAX_SAFE_INTEGER, 0];
      for (const place of placesOf.get(txId) ?? []) {
        const blockRank = rank.get(place.block);
        if (blockRank === undefined) continue;
        if (blockRank < best[0] || (blockRank === best[0] && place.position < best[1])) best = [blockRank, place.position];
      }
      return best;
    };
    const ordered = txIds
      .map((txId) => ({ txId, place: placeOf(txId) }))
      .sort((a, b) => a.place[0] - b.place[0] || a.place[1] - b.place[1] || (a.txId < b.txId ? -1 : 1));
    return {
      hash,
      daaScore: block.daaScore,
      timestamp: Number(block.timestamp),
      transactions: ordered.map(({ txId }) => candidates.get(txId)!),
    };
  });
}
