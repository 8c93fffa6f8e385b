import { bytesToHex } from '../kaspa/bytes';
import type { Hash } from '../kaspa/types';
import type { Queryable } from './connection';
import type {
  AddressPage,
  AddressTransaction,
  IndexedBlock,
  IndexedTransaction,
  InputRecord,
  OutputRecord,
} from './records';

/* The API's reads. Every statement is driven by a primary key or index (see explain.test.ts). */

export const ADDRESS_PAGE_LIMIT = { default: 20, max: 100 } as const;
export const MAX_DAA_SCORE_RANGE = 1000n;

export class UnknownCursorError extends Error {
  override name = 'UnknownCursorError';
}

const HASH_SIZE = 32;

const u64 = (decimal: string): bigint => BigInt(decimal);

interface TransactionRow {
  transaction_id: Uint8Array;
  hash: Uint8Array;
  version: number;
  lock_time: string;
  subnetwork_id: Uint8Array;
  gas: string;
  payload: Uint8Array | null;
  mass: string;
  block_time: bigint;
  accepting_block_hash: Uint8Array | null;
  accepting_block_blue_score: bigint | null;
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
  previous_address: string | null;
  previous_script_type: string | null;
}

interface OutputRow {
  transaction_id: Uint8Array;
  amount: string;
  script_version: number;
  script: Uint8Array;
  address: string | null;
  script_type: string;
}

/** Rows grouped by a byte key (hex), each group in row order. */
export function groupBy<T>(rows: readonly T[], key: (row: T) => Uint8Array): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const hex = bytesToHex(key(row));
    const group = groups.get(hex);
    if (group) group.push(row);
    else groups.set(hex, [row]);
  }
  return groups;
}

function inputFromRow(row: InputRow): InputRecord {
  const { previous_amount: amount, previous_script_version: scriptVersion, previous_script: script } = row;
  return {
    previousOutpoint: { transactionId: row.previous_transaction_id, index: Number(row.previous_index) },
    signatureScript: row.signature_script,
    sequence: u64(row.sequence),
    sigOpCount: row.sig_op_count,
    previousOutput:
      amount !== null && scriptVersion !== null && script !== null
        ? {
            amount: u64(amount),
            scriptPublicKey: { version: scriptVersion, script },
            address: row.previous_address,
            scriptType: row.previous_script_type ?? 'nonstandard',
          }
        : null,
  };
}

function outputFromRow(row: OutputRow): OutputRecord {
  return {
    amount: u64(row.amount),
    scriptPublicKey: { version: row.script_version, script: row.script },
    address: row.address,
    scriptType: row.script_type,
  };
}

/** The stored transactions among `transactionIds`, in the order asked (unknown ids are skipped, repeats collapse). */
export async function getTransactions(
  db: Queryable,
  transactionIds: readonly Hash[],
  options: { includePayload: boolean },
): Promise<IndexedTransaction[]> {
  const ids = [...new Map(transactionIds.map((id) => [bytesToHex(id), id])).values()];
  if (ids.length === 0) return [];
  const transactions = await db.query<TransactionRow>(
    `SELECT t.transaction_id, t.hash, t.version, t.lock_time, t.subnetwork_id, t.gas,
            CASE WHEN $2::boolean THEN t.payload END AS payload, t.mass, t.block_time,
            a.accepting_block_hash, b.blue_score AS accepting_block_blue_score
     FROM transactions t
     LEFT JOIN transaction_acceptances a ON a.transaction_id = t.transaction_id
     LEFT JOIN blocks b ON b.hash = a.accepting_block_hash
     WHERE t.transaction_id = ANY($1::bytea[])`,
    [ids, options.includePayload],
  );
  if (transactions.rows.length === 0) return [];
  const [inputs, outputs, memberships] = await Promise.all([
    db.query<InputRow>(
      `SELECT transaction_id, previous_transaction_id, previous_index, signature_script, sequence, sig_op_count,
              previous_amount, previous_script_version, previous_script, previous_address, previous_script_type
       FROM transaction_inputs WHERE transaction_id = ANY($1::bytea[]) ORDER BY transaction_id, input_index`,
      [ids],
    ),
    db.query<OutputRow>(
      `SELECT transaction_id, amount, script_version, script, address, script_type
       FROM transaction_outputs WHERE transaction_id = ANY($1::bytea[]) ORDER BY transaction_id, output_index`,
      [ids],
    ),
    db.query<{ transaction_id: Uint8Array; block_hash: Uint8Array }>(
      `SELECT transaction_id, block_hash FROM block_transactions
       WHERE transaction_id = ANY($1::bytea[]) ORDER BY transaction_id, block_hash`,
      [ids],
    ),
  ]);
  const inputsById = groupBy(inputs.rows, (row) => row.transaction_id);
  const outputsById = groupBy(outputs.rows, (row) => row.transaction_id);
  const blocksById = groupBy(memberships.rows, (row) => row.transaction_id);
  const byId = new Map<string, IndexedTransaction>();
  for (const row of transactions.rows) {
    const hex = bytesToHex(row.transaction_id);
    byId.set(hex, {
      transactionId: row.transaction_id,
      hash: row.hash,
      version: row.version,
      lockTime: u64(row.lock_time),
      subnetworkId: row.subnetwork_id,
      gas: u64(row.gas),
      payload: row.payload,
      mass: u64(row.mass),
      blockTime: row.block_time,
      inputs: (inputsById.get(hex) ?? []).map(inputFromRow),
      outputs: (outputsById.get(hex) ?? []).map(outputFromRow),
      blockHashes: (blocksById.get(hex) ?? []).map((membership) => membership.block_hash),
      acceptingBlockHash: row.accepting_block_hash,
      acceptingBlockBlueScore: row.accepting_block_blue_score,
    });
  }
  return ids.flatMap((id) => byId.get(bytesToHex(id)) ?? []);
}

export async function getTransaction(
  db: Queryable,
  transactionId: Hash,
  options: { includePayload: boolean },
): Promise<IndexedTransaction | null> {
  const [transaction] = await getTransactions(db, [transactionId], options);
  return transaction ?? null;
}

export interface AddressPageQuery {
  address: string;
  /** 1 … ADDRESS_PAGE_LIMIT.max. */
  limit: number;
  /** Forward (older) paging: the last transaction id of the previous page. */
  startingAfter?: Hash;
  /** Backward (newer) paging: the first transaction id of the current page. */
  endingBefore?: Hash;
  acceptedOnly: boolean;
  includePayload: boolean;
}

/** One page of an address's history, newest first by (block time, transaction id). */
export async function getAddressTransactions(db: Queryable, query: AddressPageQuery): Promise<AddressPage> {
  const { address, limit, startingAfter, endingBefore } = query;
  if (!Number.isInteger(limit) || limit < 1 || limit > ADDRESS_PAGE_LIMIT.max) {
    throw new RangeError(`limit must be an integer from 1 to ${ADDRESS_PAGE_LIMIT.max}`);
  }
  if (startingAfter && endingBefore) throw new RangeError('starting_after and ending_before are exclusive');
  const cursorId = startingAfter ?? endingBefore;
  const backward = endingBefore !== undefined;
  const acceptedCondition = query.acceptedOnly
    ? 'AND EXISTS (SELECT 1 FROM transaction_acceptances a WHERE a.transaction_id = h.transaction_id)'
    : '';
  const order = backward ? 'ASC' : 'DESC';
  type PageRow = { transaction_id: Uint8Array; amount_sent: string; amount_received: string };
  let rows: PageRow[];
  if (cursorId) {
    // The cursor's block time is looked up in the same statement (one round trip, as for the first page): no row at
    // all means an unknown cursor, one row of nulls a known cursor with nothing beyond it.
    const result = await db.query<{ block_time: bigint | null } & { [K in keyof PageRow]: PageRow[K] | null }>(
      `SELECT page.block_time, page.transaction_id, page.amount_sent, page.amount_received
       FROM (SELECT block_time FROM transactions WHERE transaction_id = $3) c
       LEFT JOIN LATERAL (
         SELECT h.block_time, h.transaction_id, h.amount_sent, h.amount_received
         FROM address_transactions h
         WHERE h.address = $1 AND (h.block_time, h.transaction_id) ${backward ? '>' : '<'} (c.block_time, $3)
           ${acceptedCondition}
         ORDER BY h.block_time ${order}, h.transaction_id ${order}
         LIMIT $2
       ) page ON true
       ORDER BY page.block_time ${order}, page.transaction_id ${order}`,
      [address, limit + 1, cursorId],
    );
    if (result.rows.length === 0) throw new UnknownCursorError(`unknown cursor transaction ${bytesToHex(cursorId)}`);
    rows = result.rows.flatMap((row) =>
      row.transaction_id === null || row.amount_sent === null || row.amount_received === null
        ? []
        : [{ transaction_id: row.transaction_id, amount_sent: row.amount_sent, amount_received: row.amount_received }],
    );
  } else {
    const result = await db.query<PageRow>(
      `SELECT h.transaction_id, h.amount_sent, h.amount_received
       FROM address_transactions h
       WHERE h.address = $1 ${acceptedCondition}
       ORDER BY h.block_time ${order}, h.transaction_id ${order}
       LIMIT $2`,
      [address, limit + 1],
    );
    rows = result.rows;
  }
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit);
  if (backward) page.reverse();
  const details = await getTransactions(
    db,
    page.map((row) => row.transaction_id),
    { includePayload: query.includePayload },
  );
  const detailsById = new Map(details.map((transaction) => [bytesToHex(transaction.transactionId), transaction]));
  const transactions: AddressTransaction[] = [];
  for (const row of page) {
    const transaction = detailsById.get(bytesToHex(row.transaction_id));
    if (!transaction) continue;
    const amountSent = u64(row.amount_sent);
    const amountReceived = u64(row.amount_received);
    transactions.push({
      ...transaction,
      amountSent,
      amountReceived,
      balanceChange: amountReceived - amountSent,
      fee: feeOf(transaction),
    });
  }
  return { transactions, hasMore };
}

function feeOf(transaction: IndexedTransaction): bigint | null {
  let spent = 0n;
  for (const input of transaction.inputs) {
    if (!input.previousOutput) return null;
    spent += input.previousOutput.amount;
  }
  if (transaction.inputs.length === 0) return 0n;
  const created = transaction.outputs.reduce((total, output) => total + output.amount, 0n);
  return spent - created;
}

interface BlockRow {
  hash: Uint8Array;
  version: number;
  parents_by_level: Uint8Array[];
  hash_merkle_root: Uint8Array;
  accepted_id_merkle_root: Uint8Array;
  utxo_commitment: Uint8Array;
  timestamp: bigint;
  bits: bigint;
  nonce: string;
  daa_score: bigint;
  blue_score: bigint;
  blue_work: string;
  pruning_point: Uint8Array;
  selected_parent_hash: Uint8Array | null;
  merge_set_blues: Uint8Array[];
  merge_set_reds: Uint8Array[];
  difficulty: number;
  is_chain_block: boolean;
}

function splitHashes(concatenated: Uint8Array): Hash[] {
  const hashes: Hash[] = [];
  for (let offset = 0; offset < concatenated.length; offset += HASH_SIZE) {
    hashes.push(concatenated.slice(offset, offset + HASH_SIZE));
  }
  return hashes;
}

export interface DaaScoreRangeQuery {
  /** Inclusive bounds; end − start ≤ MAX_DAA_SCORE_RANGE. */
  start: bigint;
  end: bigint;
  chainBlocksOnly: boolean;
  includeTransactions: boolean;
  includePayload: boolean;
}

/** Blocks with start ≤ DAA score ≤ end ordered by (DAA score, hash), and optionally their transactions (first
 * appearance order, each once). */
export async function getBlocksByDaaScore(
  db: Queryable,
  query: DaaScoreRangeQuery,
): Promise<{ blocks: IndexedBlock[]; transactions: IndexedTransaction[] }> {
  const { start, end } = query;
  if (start < 0n || end < start || end - start > MAX_DAA_SCORE_RANGE) {
    throw new RangeError(`DAA score range must satisfy 0 ≤ start ≤ end ≤ start + ${MAX_DAA_SCORE_RANGE}`);
  }
  const { rows } = await db.query<BlockRow>(
    `SELECT hash, version, parents_by_level, hash_merkle_root, accepted_id_merkle_root, utxo_commitment, timestamp,
            bits, nonce, daa_score, blue_score, blue_work, pruning_point, selected_parent_hash, merge_set_blues,
            merge_set_reds, difficulty, is_chain_block
     FROM blocks
     WHERE daa_score BETWEEN $1 AND $2 ${query.chainBlocksOnly ? 'AND is_chain_block' : ''}
     ORDER BY daa_score, hash`,
    [start, end],
  );
  if (rows.length === 0) return { blocks: [], transactions: [] };
  const hashes = rows.map((row) => row.hash);
  const [memberships, children] = await Promise.all([
    db.query<{ block_hash: Uint8Array; transaction_id: Uint8Array }>(
      `SELECT block_hash, transaction_id FROM block_transactions
       WHERE block_hash = ANY($1::bytea[]) ORDER BY block_hash, position`,
      [hashes],
    ),
    db.query<{ parent_hash: Uint8Array; child_hash: Uint8Array }>(
      `SELECT parent_hash, child_hash FROM block_children
       WHERE parent_hash = ANY($1::bytea[]) ORDER BY parent_hash, child_hash`,
      [hashes],
    ),
  ]);
  const membersByBlock = groupBy(memberships.rows, (row) => row.block_hash);
  const childrenByBlock = groupBy(children.rows, (row) => row.parent_hash);
  const blocks = rows.map((row): IndexedBlock => {
    const hex = bytesToHex(row.hash);
    return {
      hash: row.hash,
      header: {
        version: row.version,
        parentsByLevel: row.parents_by_level.map(splitHashes),
        hashMerkleRoot: row.hash_merkle_root,
        acceptedIdMerkleRoot: row.accepted_id_merkle_root,
        utxoCommitment: row.utxo_commitment,
        timestamp: row.timestamp,
        bits: Number(row.bits),
        nonce: u64(row.nonce),
        daaScore: row.daa_score,
        blueScore: row.blue_score,
        blueWork: BigInt(row.blue_work),
        pruningPoint: row.pruning_point,
      },
      selectedParentHash: row.selected_parent_hash,
      mergeSetBlues: row.merge_set_blues,
      mergeSetReds: row.merge_set_reds,
      difficulty: row.difficulty,
      isChainBlock: row.is_chain_block,
      transactionIds: (membersByBlock.get(hex) ?? []).map((member) => member.transaction_id),
      childrenHashes: (childrenByBlock.get(hex) ?? []).map((edge) => edge.child_hash),
    };
  });
  const transactions = query.includeTransactions
    ? await getTransactions(
        db,
        blocks.flatMap((block) => block.transactionIds),
        { includePayload: query.includePayload },
      )
    : [];
  return { blocks, transactions };
}
