import { bytesToHex, hexToBytes } from '../kaspa/bytes';
import type { Hash } from '../kaspa/types';
import type { Queryable, QueryOptions } from './connection';
import type {
  AddressPage,
  AddressTransaction,
  CreatedOutputRecord,
  IndexedBlock,
  IndexedTransaction,
  InputRecord,
} from './records';

/*
 * The API's reads. Every statement is driven by a primary key or index (see explain.test.ts), and each has a fixed
 * text, so it is prepared once per connection.
 */

const PREPARED: QueryOptions = { prepared: true };

/** Items per page of every keyset-paged list, the API's `limit` (lib/api/http/schemas.ts) included. */
export const PAGE_LIMIT = { min: 1, max: 100, default: 20 } as const;
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
  storage_mass: string | null;
  compute_mass: string | null;
  block_time: bigint;
  accepting_block_hash: Uint8Array | null;
  accepting_block_blue_score: bigint | null;
  /** In input_index order; null without inputs. */
  inputs: InputJson[] | null;
  /** In output_index order; null without outputs. */
  outputs: OutputJson[] | null;
  /** In hash order; null when no stored block contains the transaction. */
  block_hashes: Uint8Array[] | null;
}

/**
 * A transaction_inputs row as transactionsSelect encodes it in JSON: bytea as hex, numeric(20,0) as text (a JSON number
 * would lose u64 precision); previous_index is a u32, so a JSON number holds it exactly.
 */
type InputJson = [
  previousTransactionId: string,
  previousIndex: number,
  signatureScript: string,
  sequence: string,
  sigOpCount: number,
  previousAmount: string | null,
  previousScriptVersion: number | null,
  previousScript: string | null,
  previousAddress: string | null,
  previousScriptType: string | null,
  computeBudget: number,
  previousCovenantId: string | null,
];

/** A transaction_outputs row as transactionsSelect encodes it in JSON (as for InputJson). */
type OutputJson = [
  amount: string,
  scriptVersion: number,
  script: string,
  address: string | null,
  scriptType: string,
  authorizingInput: number | null,
  covenantId: string | null,
];

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

/**
 * One row per transaction `t` satisfying `condition`, with its acceptance and its inputs, outputs and block hashes,
 * each child table read once through its index into one aggregate. Inputs and outputs come as JSON because it is far
 * cheaper for the driver to parse than a text-encoded array per column. Scalar subqueries rather than lateral joins
 * keep the join search, and so planning time, small.
 */
function transactionsSelect(condition: string, includePayload: boolean): string {
  return `SELECT t.transaction_id, t.hash, t.version, t.lock_time, t.subnetwork_id, t.gas,
            ${includePayload ? 't.payload' : 'NULL::bytea AS payload'}, t.mass, t.storage_mass::text, t.compute_mass::text,
            t.block_time, a.accepting_block_hash,
            (SELECT blue_score FROM blocks WHERE hash = a.accepting_block_hash) AS accepting_block_blue_score,
            (SELECT json_agg(
                      json_build_array(encode(previous_transaction_id, 'hex'), previous_index,
                                       encode(signature_script, 'hex'), sequence::text, sig_op_count,
                                       previous_amount::text, previous_script_version, encode(previous_script, 'hex'),
                                       previous_address, previous_script_type, compute_budget,
                                       encode(previous_covenant_id, 'hex'))
                      ORDER BY input_index)
             FROM transaction_inputs WHERE transaction_id = t.transaction_id) AS inputs,
            (SELECT json_agg(json_build_array(amount::text, script_version, encode(script, 'hex'), address, script_type,
                                              covenant_authorizing_input, encode(covenant_id, 'hex'))
                             ORDER BY output_index)
             FROM transaction_outputs WHERE transaction_id = t.transaction_id) AS outputs,
            (SELECT array_agg(block_hash ORDER BY block_hash)
             FROM block_transactions WHERE transaction_id = t.transaction_id) AS block_hashes
     FROM transactions t
     LEFT JOIN transaction_acceptances a ON a.transaction_id = t.transaction_id
     WHERE ${condition}`;
}

function inputFromJson([
  previousTransactionId,
  previousIndex,
  signatureScript,
  sequence,
  sigOpCount,
  amount,
  scriptVersion,
  script,
  address,
  scriptType,
  computeBudget,
  previousCovenantId,
]: InputJson): InputRecord {
  return {
    previousOutpoint: { transactionId: hexToBytes(previousTransactionId), index: previousIndex },
    signatureScript: hexToBytes(signatureScript),
    sequence: u64(sequence),
    sigOpCount,
    computeBudget,
    previousOutput:
      amount !== null && scriptVersion !== null && script !== null
        ? {
            amount: u64(amount),
            scriptPublicKey: { version: scriptVersion, script: hexToBytes(script) },
            address,
            scriptType: scriptType ?? 'nonstandard',
            covenantId: previousCovenantId === null ? null : hexToBytes(previousCovenantId),
          }
        : null,
  };
}

function outputFromJson([
  amount,
  scriptVersion,
  script,
  address,
  scriptType,
  authorizingInput,
  covenantId,
]: OutputJson): CreatedOutputRecord {
  return {
    amount: u64(amount),
    scriptPublicKey: { version: scriptVersion, script: hexToBytes(script) },
    address,
    scriptType,
    covenantId: covenantId === null ? null : hexToBytes(covenantId),
    authorizingInput,
  };
}

function transactionFromRow(row: TransactionRow): IndexedTransaction {
  return {
    transactionId: row.transaction_id,
    hash: row.hash,
    version: row.version,
    lockTime: u64(row.lock_time),
    subnetworkId: row.subnetwork_id,
    gas: u64(row.gas),
    payload: row.payload,
    mass: u64(row.mass),
    storageMass: row.storage_mass === null ? null : u64(row.storage_mass),
    computeMass: row.compute_mass === null ? null : u64(row.compute_mass),
    blockTime: row.block_time,
    inputs: (row.inputs ?? []).map(inputFromJson),
    outputs: (row.outputs ?? []).map(outputFromJson),
    blockHashes: row.block_hashes ?? [],
    acceptingBlockHash: row.accepting_block_hash,
    acceptingBlockBlueScore: row.accepting_block_blue_score,
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
  const { rows } = await db.query<TransactionRow>(
    transactionsSelect('t.transaction_id = ANY($1::bytea[])', options.includePayload),
    [ids],
    PREPARED,
  );
  const byId = new Map(rows.map((row) => [bytesToHex(row.transaction_id), transactionFromRow(row)]));
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

/** Keyset paging over a history table: newest first by (block time, transaction id), the cursor a transaction id. */
export interface HistoryPageQuery {
  /** PAGE_LIMIT.min … PAGE_LIMIT.max. */
  limit: number;
  /** Forward (older) paging: the last transaction id of the previous page. */
  startingAfter?: Hash;
  /** Backward (newer) paging: the first transaction id of the current page. */
  endingBefore?: Hash;
  /** Only items with a block time below it (epoch ms): a walk that starts at a date (with or without a cursor). */
  beforeTime?: bigint;
  includePayload: boolean;
}

export interface AddressPageQuery extends HistoryPageQuery {
  address: string;
  acceptedOnly: boolean;
}

/**
 * A keyset page's checked limit and direction: its cursor (absent on the first page), whether it walks backward
 * (toward newer items, read in ascending order and reversed), and the SQL order of the read.
 */
export function pageDirection(query: { limit: number; startingAfter?: Hash; endingBefore?: Hash }): {
  cursorId: Hash | undefined;
  backward: boolean;
  order: 'ASC' | 'DESC';
} {
  const { limit, startingAfter, endingBefore } = query;
  if (!Number.isInteger(limit) || limit < PAGE_LIMIT.min || limit > PAGE_LIMIT.max) {
    throw new RangeError(`limit must be an integer from ${PAGE_LIMIT.min} to ${PAGE_LIMIT.max}`);
  }
  if (startingAfter && endingBefore) throw new RangeError('starting_after and ending_before are exclusive');
  const backward = endingBefore !== undefined;
  return { cursorId: startingAfter ?? endingBefore, backward, order: backward ? 'ASC' : 'DESC' };
}

/** A table of (key, block_time, transaction_id) rows with that primary key, which the paging walks. */
interface HistorySource {
  table: 'address_transactions' | 'covenant_transactions';
  keyColumn: 'address' | 'covenant_id';
  /** Further columns of the history row the page returns beside the transaction. */
  itemColumns: readonly string[];
  acceptedOnly: boolean;
}

/** A page item with its transaction, or no transaction: the item looked ahead for hasMore, or no item at all. */
type HistoryPageRow<Item> = (TransactionRow & Item) | { transaction_id: null };

/**
 * One page of a history table's rows under `key`, with their transactions, in display order (newest first), and
 * whether more lie beyond it in the direction of travel. Throws UnknownCursorError for a cursor that is not a stored
 * transaction.
 */
async function historyPage<Item>(
  db: Queryable,
  source: HistorySource,
  key: string | Hash,
  query: HistoryPageQuery,
): Promise<{ rows: (TransactionRow & Item)[]; hasMore: boolean }> {
  const { limit } = query;
  const { cursorId, backward, order } = pageDirection(query);
  const parameters: unknown[] = cursorId ? [key, limit, cursorId] : [key, limit];
  const cursorCondition = cursorId ? `AND (h.block_time, h.transaction_id) ${backward ? '>' : '<'} (c.block_time, $3)` : '';
  const timeCondition = query.beforeTime === undefined ? '' : `AND h.block_time < $${parameters.push(query.beforeTime)}`;
  const acceptedCondition = source.acceptedOnly
    ? 'AND EXISTS (SELECT 1 FROM transaction_acceptances a WHERE a.transaction_id = h.transaction_id)'
    : '';
  const itemColumns = source.itemColumns.map((column) => `h.${column}, `).join('');
  // One item beyond the limit tells whether there are more; its transaction is not read (matched with a NULL id below).
  const items = `SELECT ${itemColumns}h.transaction_id,
                        row_number() OVER (ORDER BY h.block_time ${order}, h.transaction_id ${order}) AS position
                 FROM ${source.table} h
                 WHERE h.${source.keyColumn} = $1 ${cursorCondition} ${timeCondition} ${acceptedCondition}
                 ORDER BY h.block_time ${order}, h.transaction_id ${order}
                 LIMIT $2 + 1`;
  // With a cursor the items hang off the cursor's row (one round trip, as for the first page): no row at all means
  // an unknown cursor, one row of nulls a known cursor with nothing beyond it.
  const page = cursorId
    ? `(SELECT block_time FROM transactions WHERE transaction_id = $3) c LEFT JOIN LATERAL (${items}) page ON true`
    : `(${items}) page`;
  const { rows } = await db.query<HistoryPageRow<Item>>(
    `SELECT ${source.itemColumns.map((column) => `page.${column}, `).join('')}d.*
     FROM ${page}
     LEFT JOIN LATERAL (
       ${transactionsSelect(
         't.transaction_id = CASE WHEN page.position <= $2 THEN page.transaction_id END',
         query.includePayload,
       )}
     ) d ON true
     ORDER BY page.position`,
    parameters,
    PREPARED,
  );
  if (cursorId && rows.length === 0) throw new UnknownCursorError(`unknown cursor transaction ${bytesToHex(cursorId)}`);
  const found = rows.filter((row): row is TransactionRow & Item => row.transaction_id !== null);
  if (backward) found.reverse();
  // k items are k rows (k = 0 may be one row of nulls, and limit ≥ 1).
  return { rows: found, hasMore: rows.length > limit };
}

const ADDRESS_HISTORY: HistorySource = {
  table: 'address_transactions',
  keyColumn: 'address',
  itemColumns: ['amount_sent', 'amount_received'],
  acceptedOnly: false,
};

/** One page of an address's history, newest first by (block time, transaction id). */
export async function getAddressTransactions(db: Queryable, query: AddressPageQuery): Promise<AddressPage> {
  const { rows, hasMore } = await historyPage<{ amount_sent: string; amount_received: string }>(
    db,
    { ...ADDRESS_HISTORY, acceptedOnly: query.acceptedOnly },
    query.address,
    query,
  );
  const transactions = rows.map((row): AddressTransaction => {
    const transaction = transactionFromRow(row);
    const amountSent = u64(row.amount_sent);
    const amountReceived = u64(row.amount_received);
    const balanceChange = amountReceived - amountSent;
    return { ...transaction, amountSent, amountReceived, balanceChange, fee: transactionFee(transaction) };
  });
  return { transactions, hasMore };
}

const COVENANT_LINEAGE: HistorySource = {
  table: 'covenant_transactions',
  keyColumn: 'covenant_id',
  itemColumns: [],
  acceptedOnly: false,
};

/** One page of a covenant's lineage (its accepted transactions), newest first, paged as an address history is. */
export async function getCovenantTransactions(
  db: Queryable,
  covenantId: Hash,
  query: HistoryPageQuery,
): Promise<{ transactions: IndexedTransaction[]; hasMore: boolean }> {
  const { rows, hasMore } = await historyPage<object>(db, COVENANT_LINEAGE, covenantId, query);
  return { transactions: rows.map(transactionFromRow), hasMore };
}

/** Inputs minus outputs; zero without inputs (coinbase); null while a spent output is unknown. */
export function transactionFee(transaction: IndexedTransaction): bigint | null {
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

const BLOCK_COLUMNS = `hash, version, parents_by_level, hash_merkle_root, accepted_id_merkle_root, utxo_commitment,
  timestamp, bits, nonce, daa_score, blue_score, blue_work, pruning_point, selected_parent_hash, merge_set_blues,
  merge_set_reds, difficulty, is_chain_block`;

/** The blocks of `rows` with their transaction ids (block order) and children. */
async function blocksOf(db: Queryable, rows: readonly BlockRow[]): Promise<IndexedBlock[]> {
  const hashes = rows.map((row) => row.hash);
  const [memberships, children] = await Promise.all([
    db.query<{ block_hash: Uint8Array; transaction_id: Uint8Array }>(
      `SELECT block_hash, transaction_id FROM block_transactions
       WHERE block_hash = ANY($1::bytea[]) ORDER BY block_hash, position`,
      [hashes],
      PREPARED,
    ),
    db.query<{ parent_hash: Uint8Array; child_hash: Uint8Array }>(
      `SELECT parent_hash, child_hash FROM block_children
       WHERE parent_hash = ANY($1::bytea[]) ORDER BY parent_hash, child_hash`,
      [hashes],
      PREPARED,
    ),
  ]);
  const membersByBlock = groupBy(memberships.rows, (row) => row.block_hash);
  const childrenByBlock = groupBy(children.rows, (row) => row.parent_hash);
  return rows.map((row): IndexedBlock => {
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
}

/** A stored block by hash, or null. */
export async function getBlock(db: Queryable, hash: Hash): Promise<IndexedBlock | null> {
  const { rows } = await db.query<BlockRow>(`SELECT ${BLOCK_COLUMNS} FROM blocks WHERE hash = $1`, [hash], PREPARED);
  if (rows.length === 0) return null;
  const [block] = await blocksOf(db, rows);
  return block ?? null;
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
    `SELECT ${BLOCK_COLUMNS}
     FROM blocks
     WHERE daa_score BETWEEN $1 AND $2 ${query.chainBlocksOnly ? 'AND is_chain_block' : ''}
     ORDER BY daa_score, hash`,
    [start, end],
    PREPARED,
  );
  if (rows.length === 0) return { blocks: [], transactions: [] };
  const blocks = await blocksOf(db, rows);
  const transactions = query.includeTransactions
    ? await getTransactions(
        db,
        blocks.flatMap((block) => block.transactionIds),
        { includePayload: query.includePayload },
      )
    : [];
  return { blocks, transactions };
}
