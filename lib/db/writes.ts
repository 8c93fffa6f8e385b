import type { Hash, Outpoint } from '../kaspa/types';
import type { Queryable } from './connection';
import type {
  BlockRecord,
  ChainBlockAcceptance,
  Checkpoint,
  OutputRecord,
  TransactionRecord,
  VirtualChainChange,
} from './records';
import { bytesToHex, concatBytes } from '../kaspa/bytes';

/*
 * The indexer's writes. Each is idempotent (ON CONFLICT), batched (one statement per table, arrays passed through
 * unnest), and meant to run inside the indexer's batch transaction together with writeCheckpoint.
 */

const BLOCK_COLUMNS = [
  'hash',
  'version',
  'parents_by_level',
  'hash_merkle_root',
  'accepted_id_merkle_root',
  'utxo_commitment',
  'timestamp',
  'bits',
  'nonce',
  'daa_score',
  'blue_score',
  'blue_work',
  'pruning_point',
  'selected_parent_hash',
  'merge_set_blues',
  'merge_set_reds',
  'difficulty',
  'is_chain_block',
] as const;

/** Blocks carry ragged arrays, which unnest cannot take, so they go in as multi-row VALUES (pg caps parameters). */
const BLOCKS_PER_STATEMENT = Math.floor(65_535 / BLOCK_COLUMNS.length);

function blockValues(block: BlockRecord): unknown[] {
  const { header } = block;
  return [
    block.hash,
    header.version,
    header.parentsByLevel.map((level) => concatBytes(...level)),
    header.hashMerkleRoot,
    header.acceptedIdMerkleRoot,
    header.utxoCommitment,
    header.timestamp,
    header.bits,
    header.nonce.toString(),
    header.daaScore,
    header.blueScore,
    header.blueWork.toString(),
    header.pruningPoint,
    block.selectedParentHash,
    block.mergeSetBlues,
    block.mergeSetReds,
    block.difficulty,
    block.isChainBlock,
  ];
}

/**
 * Inserts blocks with their level-0 parent edges and their transaction membership. A block already stored is left
 * as it is: its chain flag changes only through applyVirtualChainChange. Invariant: a block's row, its parent edges
 * and its membership rows are written in one statement sequence of one transaction and deleted together
 * (history-retention.ts), so a block row that was already there vouches for the rest, and only the blocks inserted
 * now get their edges and membership, with plain inserts (no conflict checks on the two largest block tables).
 */
export async function insertBlocks(db: Queryable, blocks: readonly BlockRecord[]): Promise<void> {
  const inserted = new Set<string>();
  for (let start = 0; start < blocks.length; start += BLOCKS_PER_STATEMENT) {
    const chunk = blocks.slice(start, start + BLOCKS_PER_STATEMENT);
    const params = chunk.flatMap(blockValues);
    const rows = chunk.map(
      (_, row) => `(${BLOCK_COLUMNS.map((__, column) => `$${row * BLOCK_COLUMNS.length + column + 1}`).join(', ')})`,
    );
    const { rows: insertedRows } = await db.query<{ hash: Uint8Array }>(
      `INSERT INTO blocks (${BLOCK_COLUMNS.join(', ')}) VALUES ${rows.join(', ')} ON CONFLICT (hash) DO NOTHING
       RETURNING hash`,
      params,
    );
    for (const row of insertedRows) inserted.add(bytesToHex(row.hash));
  }
  const parents: Hash[] = [];
  const children: Hash[] = [];
  const memberBlocks: Hash[] = [];
  const positions: number[] = [];
  const members: Hash[] = [];
  const seen = new Set<string>();
  for (const block of blocks) {
    const hash = bytesToHex(block.hash);
    if (!inserted.has(hash) || seen.has(hash)) continue;
    seen.add(hash);
    for (const parent of block.header.parentsByLevel[0] ?? []) {
      parents.push(parent);
      children.push(block.hash);
    }
    block.transactionIds.forEach((transactionId, position) => {
      memberBlocks.push(block.hash);
      positions.push(position);
      members.push(transactionId);
    });
  }
  if (parents.length > 0) {
    await db.query('INSERT INTO block_children (parent_hash, child_hash) SELECT * FROM unnest($1::bytea[], $2::bytea[])', [
      parents,
      children,
    ]);
  }
  if (members.length > 0) {
    await db.query(
      `INSERT INTO block_transactions (block_hash, position, transaction_id)
       SELECT * FROM unnest($1::bytea[], $2::integer[], $3::bytea[])`,
      [memberBlocks, positions, members],
    );
  }
}

/**
 * Inserts transactions with their inputs and outputs and their address-history rows (per address: the sum of its
 * spent outputs and of its new outputs). A transaction's block time is the earliest timestamp among the containing
 * blocks written so far, so it depends only on the chain, not on the order blocks were written in (a crash and
 * resume, or a reindex, gives the same rows); when a later block lowers it, the transaction's address rows move to the
 * new key. An input whose spent output was unknown takes it when a later write brings it; since resolution only ever
 * adds known spent outputs, an address row keeps the larger of its stored and new sums.
 */
export async function insertTransactions(db: Queryable, batch: readonly TransactionRecord[]): Promise<void> {
  const transactions = earliestOfEachId(batch);
  if (transactions.length === 0) return;
  const ids = transactions.map((transaction) => transaction.transactionId);
  // Every part of one statement sees the same snapshot: `previous` holds the block times from before the upsert.
  const previous = await db.query<{ transaction_id: Uint8Array; block_time: bigint }>(
    `WITH incoming AS (
       SELECT * FROM unnest($1::bytea[], $2::bytea[], $3::integer[], $4::numeric[], $5::bytea[], $6::numeric[],
                            $7::bytea[], $8::numeric[], $9::bigint[], $10::numeric[], $11::numeric[])
         AS i(transaction_id, hash, version, lock_time, subnetwork_id, gas, payload, mass, block_time, storage_mass,
              compute_mass)
     ), upsert AS (
       INSERT INTO transactions (transaction_id, hash, version, lock_time, subnetwork_id, gas, payload, mass, block_time,
                                 storage_mass, compute_mass)
       SELECT * FROM incoming
       ON CONFLICT (transaction_id) DO UPDATE SET block_time = EXCLUDED.block_time
       WHERE EXCLUDED.block_time < transactions.block_time
     )
     SELECT t.transaction_id, t.block_time FROM transactions t JOIN incoming USING (transaction_id)`,
    [
      ids,
      transactions.map((transaction) => transaction.hash),
      transactions.map((transaction) => transaction.version),
      transactions.map((transaction) => transaction.lockTime.toString()),
      transactions.map((transaction) => transaction.subnetworkId),
      transactions.map((transaction) => transaction.gas.toString()),
      transactions.map((transaction) => transaction.payload),
      transactions.map((transaction) => transaction.mass.toString()),
      transactions.map((transaction) => transaction.blockTime),
      transactions.map((transaction) => transaction.storageMass?.toString() ?? null),
      transactions.map((transaction) => transaction.computeMass?.toString() ?? null),
    ],
  );
  const blockTimes = new Map<string, bigint>();
  const moved: MovedTransaction[] = [];
  const stored = new Map(previous.rows.map((row) => [bytesToHex(row.transaction_id), row]));
  const fresh: TransactionRecord[] = [];
  const again: TransactionRecord[] = [];
  for (const transaction of transactions) {
    const id = bytesToHex(transaction.transactionId);
    const before = stored.get(id)?.block_time;
    if (before === undefined) fresh.push(transaction);
    else again.push(transaction);
    if (before !== undefined && before > transaction.blockTime) {
      moved.push({ transactionId: transaction.transactionId, from: before, to: transaction.blockTime });
    }
    blockTimes.set(id, before !== undefined && before < transaction.blockTime ? before : transaction.blockTime);
  }
  await removeAddressRows(db, moved);
  await moveCovenantRows(db, moved);
  await insertOutputs(db, fresh);
  await insertInputs(db, fresh, 'fresh');
  await insertInputs(db, again, 'stored');
  await insertAddressRows(db, fresh, blockTimes, 'fresh');
  await insertAddressRows(db, again, blockTimes, 'stored');
  await completeStoredSpenders(db, ids);
}

/**
 * Rows of a transaction that was not stored before its upsert (`fresh`) cannot conflict: its inputs and address rows
 * are written and deleted with it, and two batches carrying one transaction never commit at once (block-writer.ts).
 * Those of a transaction stored before (`stored`, met again in another block) complete what resolution has learnt
 * since. Outputs keep their conflict check either way: history retention keeps the outputs of an accepted
 * transaction it prunes, for the spenders that come later.
 */
type TransactionRows = 'fresh' | 'stored';

interface MovedTransaction {
  transactionId: Hash;
  from: bigint;
  to: bigint;
}

/**
 * Lineage rows follow their transaction's block time (an accepted transaction found in a block with an earlier
 * timestamp), and the covenants they belong to get their summaries again.
 */
async function moveCovenantRows(db: Queryable, moved: readonly MovedTransaction[]): Promise<void> {
  if (moved.length === 0) return;
  const { rows } = await db.query<{ covenant_id: Uint8Array }>(
    `UPDATE covenant_transactions c SET block_time = m.block_time_to
     FROM unnest($1::bytea[], $2::bigint[], $3::bigint[]) AS m(transaction_id, block_time_from, block_time_to)
     WHERE c.transaction_id = m.transaction_id AND c.block_time = m.block_time_from
       AND c.covenant_id IN (
         SELECT covenant_id FROM transaction_outputs WHERE transaction_id = m.transaction_id AND covenant_id IS NOT NULL
         UNION
         SELECT previous_covenant_id FROM transaction_inputs
         WHERE transaction_id = m.transaction_id AND previous_covenant_id IS NOT NULL)
     RETURNING c.covenant_id`,
    [moved.map((item) => item.transactionId), moved.map((item) => item.from), moved.map((item) => item.to)],
  );
  await refreshCovenantSummaries(db, rows.map((row) => row.covenant_id));
}

/**
 * Stored inputs spending outputs of `creators` that were not stored when their spender was (a spender in a parallel
 * block written first) get those outputs now, and their spenders' address rows the amounts sent. Each input is
 * completed once (only a null spent output is filled), so the sums stay exact; this holds across restarts, unlike
 * the indexer's in-memory list of waiting spenders.
 */
async function completeStoredSpenders(db: Queryable, creators: readonly Hash[]): Promise<void> {
  await db.query(
    `WITH completed AS (
       UPDATE transaction_inputs i
       SET previous_amount = o.amount, previous_script_version = o.script_version, previous_script = o.script,
           previous_address = o.address, previous_script_type = o.script_type, previous_covenant_id = o.covenant_id
       FROM transaction_outputs o
       WHERE i.previous_amount IS NULL AND i.previous_transaction_id = ANY($1::bytea[])
         AND o.transaction_id = i.previous_transaction_id AND o.output_index = i.previous_index
       RETURNING i.transaction_id, o.address, o.amount
     )
     INSERT INTO address_transactions (address, block_time, transaction_id, amount_sent, amount_received)
     SELECT c.address, t.block_time, c.transaction_id, sum(c.amount), 0
     FROM completed c JOIN transactions t USING (transaction_id)
     WHERE c.address IS NOT NULL
     GROUP BY c.address, t.block_time, c.transaction_id
     ON CONFLICT (address, block_time, transaction_id) DO UPDATE SET
       amount_sent = address_transactions.amount_sent + EXCLUDED.amount_sent`,
    [creators],
  );
}

/** A batch may carry a transaction twice (contained in two of its blocks); an upsert may touch a row only once. */
function earliestOfEachId(transactions: readonly TransactionRecord[]): TransactionRecord[] {
  const byId = new Map<string, TransactionRecord>();
  for (const transaction of transactions) {
    const id = bytesToHex(transaction.transactionId);
    const kept = byId.get(id);
    if (kept === undefined || transaction.blockTime < kept.blockTime) byId.set(id, transaction);
  }
  return [...byId.values()];
}

/**
 * Deletes the address rows stored under a transaction's former block time. Its addresses are those of its stored
 * outputs and resolved inputs, which are all the addresses its rows were written for.
 */
async function removeAddressRows(db: Queryable, moved: readonly MovedTransaction[]): Promise<void> {
  if (moved.length === 0) return;
  await db.query(
    `DELETE FROM address_transactions a
     USING (
       SELECT m.transaction_id, m.block_time, o.address FROM unnest($1::bytea[], $2::bigint[]) AS m(transaction_id, block_time)
       JOIN transaction_outputs o ON o.transaction_id = m.transaction_id
       UNION
       SELECT m.transaction_id, m.block_time, i.previous_address FROM unnest($1::bytea[], $2::bigint[]) AS m(transaction_id, block_time)
       JOIN transaction_inputs i ON i.transaction_id = m.transaction_id
     ) old
     WHERE a.address = old.address AND a.block_time = old.block_time AND a.transaction_id = old.transaction_id`,
    [moved.map((item) => item.transactionId), moved.map((item) => item.from)],
  );
}

async function insertAddressRows(
  db: Queryable,
  transactions: readonly TransactionRecord[],
  blockTimeOf: ReadonlyMap<string, bigint>,
  rows: TransactionRows,
): Promise<void> {
  const addresses: string[] = [];
  const blockTimes: bigint[] = [];
  const ids: Hash[] = [];
  const sent: string[] = [];
  const received: string[] = [];
  for (const transaction of transactions) {
    const flows = new Map<string, { sent: bigint; received: bigint }>();
    const flowOf = (address: string) => {
      let flow = flows.get(address);
      if (!flow) flows.set(address, (flow = { sent: 0n, received: 0n }));
      return flow;
    };
    for (const input of transaction.inputs) {
      const spent = input.previousOutput;
      if (spent?.address) flowOf(spent.address).sent += spent.amount;
    }
    for (const output of transaction.outputs) {
      if (output.address) flowOf(output.address).received += output.amount;
    }
    const blockTime = blockTimeOf.get(bytesToHex(transaction.transactionId)) ?? transaction.blockTime;
    for (const [address, flow] of flows) {
      addresses.push(address);
      blockTimes.push(blockTime);
      ids.push(transaction.transactionId);
      sent.push(flow.sent.toString());
      received.push(flow.received.toString());
    }
  }
  if (addresses.length === 0) return;
  const insert = `INSERT INTO address_transactions (address, block_time, transaction_id, amount_sent, amount_received)
     SELECT * FROM unnest($1::text[], $2::bigint[], $3::bytea[], $4::numeric[], $5::numeric[])`;
  if (rows === 'fresh') {
    await db.query(insert, [addresses, blockTimes, ids, sent, received]);
    return;
  }
  await db.query(
    `${insert}
     ON CONFLICT (address, block_time, transaction_id) DO UPDATE SET
       amount_sent = GREATEST(address_transactions.amount_sent, EXCLUDED.amount_sent),
       amount_received = GREATEST(address_transactions.amount_received, EXCLUDED.amount_received)
     WHERE address_transactions.amount_sent < EXCLUDED.amount_sent
        OR address_transactions.amount_received < EXCLUDED.amount_received`,
    [addresses, blockTimes, ids, sent, received],
  );
}

async function insertOutputs(db: Queryable, transactions: readonly TransactionRecord[]): Promise<void> {
  if (transactions.length === 0) return;
  const ids: Hash[] = [];
  const indices: number[] = [];
  const amounts: string[] = [];
  const scriptVersions: number[] = [];
  const scripts: Uint8Array[] = [];
  const addresses: (string | null)[] = [];
  const types: string[] = [];
  const authorizingInputs: (number | null)[] = [];
  const covenantIds: (Hash | null)[] = [];
  for (const transaction of transactions) {
    transaction.outputs.forEach((output, index) => {
      ids.push(transaction.transactionId);
      indices.push(index);
      amounts.push(output.amount.toString());
      scriptVersions.push(output.scriptPublicKey.version);
      scripts.push(output.scriptPublicKey.script);
      addresses.push(output.address);
      types.push(output.scriptType);
      authorizingInputs.push(output.authorizingInput);
      covenantIds.push(output.covenantId);
    });
  }
  await db.query(
    `INSERT INTO transaction_outputs
       (transaction_id, output_index, amount, script_version, script, address, script_type, covenant_authorizing_input,
        covenant_id)
     SELECT * FROM unnest($1::bytea[], $2::integer[], $3::numeric[], $4::integer[], $5::bytea[], $6::text[], $7::text[],
                          $8::integer[], $9::bytea[])
     ON CONFLICT (transaction_id, output_index) DO NOTHING`,
    [ids, indices, amounts, scriptVersions, scripts, addresses, types, authorizingInputs, covenantIds],
  );
}

async function insertInputs(db: Queryable, transactions: readonly TransactionRecord[], rows: TransactionRows): Promise<void> {
  const ids: Hash[] = [];
  const indices: number[] = [];
  const previousIds: Hash[] = [];
  const previousIndices: number[] = [];
  const signatureScripts: Uint8Array[] = [];
  const sequences: string[] = [];
  const sigOpCounts: number[] = [];
  const amounts: (string | null)[] = [];
  const scriptVersions: (number | null)[] = [];
  const scripts: (Uint8Array | null)[] = [];
  const addresses: (string | null)[] = [];
  const types: (string | null)[] = [];
  const computeBudgets: number[] = [];
  const covenantIds: (Hash | null)[] = [];
  for (const transaction of transactions) {
    transaction.inputs.forEach((input, index) => {
      const spent = input.previousOutput;
      ids.push(transaction.transactionId);
      indices.push(index);
      previousIds.push(input.previousOutpoint.transactionId);
      previousIndices.push(input.previousOutpoint.index);
      signatureScripts.push(input.signatureScript);
      sequences.push(input.sequence.toString());
      sigOpCounts.push(input.sigOpCount);
      amounts.push(spent ? spent.amount.toString() : null);
      scriptVersions.push(spent ? spent.scriptPublicKey.version : null);
      scripts.push(spent ? spent.scriptPublicKey.script : null);
      addresses.push(spent ? spent.address : null);
      types.push(spent ? spent.scriptType : null);
      computeBudgets.push(input.computeBudget);
      covenantIds.push(spent ? spent.covenantId : null);
    });
  }
  if (ids.length === 0) return;
  const params = [ids, indices, previousIds, previousIndices, signatureScripts, sequences, sigOpCounts, amounts,
    scriptVersions, scripts, addresses, types, computeBudgets, covenantIds];
  const insert = `INSERT INTO transaction_inputs (transaction_id, input_index, previous_transaction_id, previous_index,
       signature_script, sequence, sig_op_count, previous_amount, previous_script_version, previous_script,
       previous_address, previous_script_type, compute_budget, previous_covenant_id)
     SELECT * FROM unnest($1::bytea[], $2::integer[], $3::bytea[], $4::bigint[], $5::bytea[], $6::numeric[],
                          $7::smallint[], $8::numeric[], $9::integer[], $10::bytea[], $11::text[], $12::text[],
                          $13::integer[], $14::bytea[])`;
  if (rows === 'fresh') {
    await db.query(insert, params);
    return;
  }
  await db.query(
    `${insert}
     ON CONFLICT (transaction_id, input_index) DO UPDATE SET
       previous_amount = EXCLUDED.previous_amount,
       previous_script_version = EXCLUDED.previous_script_version,
       previous_script = EXCLUDED.previous_script,
       previous_address = EXCLUDED.previous_address,
       previous_script_type = EXCLUDED.previous_script_type,
       previous_covenant_id = EXCLUDED.previous_covenant_id
     WHERE transaction_inputs.previous_amount IS NULL AND EXCLUDED.previous_amount IS NOT NULL`,
    params,
  );
}

interface StoredOutputRow {
  position: number;
  amount: string;
  script_version: number;
  script: Uint8Array;
  address: string | null;
  script_type: string;
  covenant_id: Uint8Array | null;
}

/** The stored outputs the outpoints name, aligned with `outpoints` (null where the output is not stored). */
export async function resolvePreviousOutputs(
  db: Queryable,
  outpoints: readonly Outpoint[],
): Promise<(OutputRecord | null)[]> {
  const resolved: (OutputRecord | null)[] = outpoints.map(() => null);
  if (outpoints.length === 0) return resolved;
  const { rows } = await db.query<StoredOutputRow>(
    `SELECT wanted.position::integer AS position, o.amount, o.script_version, o.script, o.address, o.script_type,
            o.covenant_id
     FROM unnest($1::bytea[], $2::bigint[]) WITH ORDINALITY AS wanted(transaction_id, output_index, position)
     JOIN transaction_outputs o ON o.transaction_id = wanted.transaction_id AND o.output_index = wanted.output_index`,
    [outpoints.map((outpoint) => outpoint.transactionId), outpoints.map((outpoint) => outpoint.index)],
  );
  for (const row of rows) {
    resolved[row.position - 1] = {
      amount: BigInt(row.amount),
      scriptPublicKey: { version: row.script_version, script: row.script },
      address: row.address,
      scriptType: row.script_type,
      covenantId: row.covenant_id,
    };
  }
  return resolved;
}

export async function setChainBlockFlags(
  db: Queryable,
  blockHashes: readonly Hash[],
  isChainBlock: boolean,
): Promise<void> {
  if (blockHashes.length === 0) return;
  await db.query('UPDATE blocks SET is_chain_block = $2 WHERE hash = ANY($1::bytea[]) AND is_chain_block <> $2', [
    blockHashes,
    isChainBlock,
  ]);
}

/** A transaction that lost its acceptance, with the chain block that had accepted it. */
export interface LostAcceptance {
  transactionId: Hash;
  acceptingBlockHash: Hash;
}

/** Drops every acceptance made by the given chain blocks; returns the acceptances dropped. */
export async function removeAcceptances(db: Queryable, chainBlockHashes: readonly Hash[]): Promise<LostAcceptance[]> {
  if (chainBlockHashes.length === 0) return [];
  const { rows } = await db.query<{ transaction_id: Uint8Array; accepting_block_hash: Uint8Array }>(
    `DELETE FROM transaction_acceptances WHERE accepting_block_hash = ANY($1::bytea[])
     RETURNING transaction_id, accepting_block_hash`,
    [chainBlockHashes],
  );
  return rows.map((row) => ({ transactionId: row.transaction_id, acceptingBlockHash: row.accepting_block_hash }));
}

/**
 * Records each chain block's accepted transactions; a transaction accepted elsewhere before moves to the new block
 * (and within one call, to the last block listing it).
 */
export async function addAcceptances(db: Queryable, acceptances: readonly ChainBlockAcceptance[]): Promise<void> {
  const latest = new Map<string, [Hash, Hash]>();
  for (const acceptance of acceptances) {
    for (const transactionId of acceptance.acceptedTransactionIds) {
      latest.set(bytesToHex(transactionId), [transactionId, acceptance.acceptingBlockHash]);
    }
  }
  if (latest.size === 0) return;
  const transactionIds = [...latest.values()].map(([transactionId]) => transactionId);
  const acceptingBlocks = [...latest.values()].map(([, acceptingBlock]) => acceptingBlock);
  await db.query(
    `INSERT INTO transaction_acceptances (transaction_id, accepting_block_hash)
     SELECT * FROM unnest($1::bytea[], $2::bytea[])
     ON CONFLICT (transaction_id) DO UPDATE SET accepting_block_hash = EXCLUDED.accepting_block_hash
     WHERE transaction_acceptances.accepting_block_hash <> EXCLUDED.accepting_block_hash`,
    [transactionIds, acceptingBlocks],
  );
}

/**
 * Applies a virtual-chain change: removed chain blocks lose their flag and acceptances, then added ones gain them;
 * the covenant lineages, UTXO sets and summaries follow the transactions whose acceptance changed. Returns the
 * acceptances the removed blocks had made (some may be made again by the added ones).
 */
export async function applyVirtualChainChange(db: Queryable, change: VirtualChainChange): Promise<LostAcceptance[]> {
  await setChainBlockFlags(db, change.removedChainBlockHashes, false);
  const lost = await removeAcceptances(db, change.removedChainBlockHashes);
  const unaccepted = lost.map((entry) => entry.transactionId);
  await setChainBlockFlags(
    db,
    change.added.map((acceptance) => acceptance.acceptingBlockHash),
    true,
  );
  await addAcceptances(db, change.added);
  await refreshCovenants(db, [...unaccepted, ...change.added.flatMap((acceptance) => acceptance.acceptedTransactionIds)]);
  return lost;
}

/** A covenant output a transaction creates or spends. */
interface CovenantTouch {
  transaction_id: Uint8Array;
  covenant_id: Uint8Array;
  outpoint_transaction_id: Uint8Array;
  outpoint_index: number;
  /** A created output whose binding's authorizing input did not spend an output of the same covenant. */
  is_genesis: boolean;
}

/**
 * Brings the covenant tables in line with acceptance for the transactions whose acceptance changed. Each touched
 * outpoint is recomputed from scratch (unspent = created by an accepted transaction and spent by none), and so is
 * each touched lineage row (present = its transaction is accepted), so applying and undoing chain blocks in any order
 * lands on the same rows as indexing the final chain once.
 */
async function refreshCovenants(db: Queryable, transactionIds: readonly Hash[]): Promise<void> {
  if (transactionIds.length === 0) return;
  const { rows } = await db.query<CovenantTouch>(
    `SELECT o.transaction_id, o.covenant_id, o.transaction_id AS outpoint_transaction_id,
            o.output_index AS outpoint_index, i.previous_covenant_id IS DISTINCT FROM o.covenant_id AS is_genesis
     FROM transaction_outputs o
     LEFT JOIN transaction_inputs i ON i.transaction_id = o.transaction_id AND i.input_index = o.covenant_authorizing_input
     WHERE o.transaction_id = ANY($1::bytea[]) AND o.covenant_id IS NOT NULL
     UNION ALL
     SELECT transaction_id, previous_covenant_id, previous_transaction_id, previous_index::integer, false
     FROM transaction_inputs
     WHERE transaction_id = ANY($1::bytea[]) AND previous_covenant_id IS NOT NULL`,
    [transactionIds],
  );
  if (rows.length === 0) return;
  await refreshCovenantUtxos(db, rows);
  await refreshLineages(db, rows);
  await refreshCovenantSummaries(db, rows.map((row) => row.covenant_id));
}

async function refreshCovenantUtxos(db: Queryable, touches: readonly CovenantTouch[]): Promise<void> {
  const params = [
    touches.map((touch) => touch.covenant_id),
    touches.map((touch) => touch.outpoint_transaction_id),
    touches.map((touch) => touch.outpoint_index),
  ];
  await db.query(
    `DELETE FROM covenant_utxos u
     USING unnest($1::bytea[], $2::bytea[], $3::integer[]) AS t(covenant_id, transaction_id, output_index)
     WHERE u.covenant_id = t.covenant_id AND u.transaction_id = t.transaction_id AND u.output_index = t.output_index`,
    params,
  );
  await db.query(
    `INSERT INTO covenant_utxos (covenant_id, transaction_id, output_index, block_daa_score)
     SELECT DISTINCT t.covenant_id, t.transaction_id, t.output_index, b.daa_score
     FROM unnest($1::bytea[], $2::bytea[], $3::integer[]) AS t(covenant_id, transaction_id, output_index)
     JOIN transaction_acceptances a ON a.transaction_id = t.transaction_id
     JOIN blocks b ON b.hash = a.accepting_block_hash
     WHERE NOT EXISTS (
       SELECT 1 FROM transaction_inputs s JOIN transaction_acceptances sa ON sa.transaction_id = s.transaction_id
       WHERE s.previous_transaction_id = t.transaction_id AND s.previous_index = t.output_index
         AND s.previous_covenant_id IS NOT NULL)`,
    params,
  );
}

async function refreshLineages(db: Queryable, touches: readonly CovenantTouch[]): Promise<void> {
  const lineage = new Map<string, { covenantId: Hash; transactionId: Hash; isGenesis: boolean }>();
  for (const touch of touches) {
    const key = `${bytesToHex(touch.covenant_id)}:${bytesToHex(touch.transaction_id)}`;
    const entry = lineage.get(key);
    if (entry) entry.isGenesis ||= touch.is_genesis;
    else lineage.set(key, { covenantId: touch.covenant_id, transactionId: touch.transaction_id, isGenesis: touch.is_genesis });
  }
  const entries = [...lineage.values()];
  const params = [
    entries.map((entry) => entry.covenantId),
    entries.map((entry) => entry.transactionId),
    entries.map((entry) => entry.isGenesis),
  ];
  await db.query(
    `DELETE FROM covenant_transactions c
     USING unnest($1::bytea[], $2::bytea[]) AS l(covenant_id, transaction_id)
     JOIN transactions t ON t.transaction_id = l.transaction_id
     WHERE c.covenant_id = l.covenant_id AND c.block_time = t.block_time AND c.transaction_id = l.transaction_id
       AND NOT EXISTS (SELECT 1 FROM transaction_acceptances a WHERE a.transaction_id = l.transaction_id)`,
    params.slice(0, 2),
  );
  await db.query(
    `INSERT INTO covenant_transactions (covenant_id, block_time, transaction_id, is_genesis)
     SELECT l.covenant_id, t.block_time, l.transaction_id, l.is_genesis
     FROM unnest($1::bytea[], $2::bytea[], $3::boolean[]) AS l(covenant_id, transaction_id, is_genesis)
     JOIN transactions t ON t.transaction_id = l.transaction_id
     WHERE EXISTS (SELECT 1 FROM transaction_acceptances a WHERE a.transaction_id = l.transaction_id)
     ON CONFLICT (covenant_id, block_time, transaction_id) DO NOTHING`,
    params,
  );
}

/**
 * Recomputes the summary row of each covenant from its lineage and UTXO set; a covenant left without lineage loses
 * its row. createdAt is the genesis transaction's block time, or the earliest lineage time when the genesis lies
 * before the indexed history.
 */
async function refreshCovenantSummaries(db: Queryable, covenantIds: readonly Hash[]): Promise<void> {
  const ids = [...new Map(covenantIds.map((id) => [bytesToHex(id), id])).values()];
  if (ids.length === 0) return;
  await db.query(
    `WITH summary AS (
       SELECT c.covenant_id, genesis.transaction_id AS genesis_transaction_id,
              coalesce(genesis.block_time, first.block_time) AS created_at,
              last.transaction_id AS last_transaction_id, last.block_time AS last_activity_at,
              (SELECT count(*) FROM covenant_utxos u WHERE u.covenant_id = c.covenant_id)::integer AS utxo_count
       FROM unnest($1::bytea[]) AS c(covenant_id)
       LEFT JOIN LATERAL (
         SELECT transaction_id, block_time FROM covenant_transactions
         WHERE covenant_id = c.covenant_id AND is_genesis ORDER BY block_time, transaction_id LIMIT 1
       ) genesis ON true
       LEFT JOIN LATERAL (
         SELECT block_time FROM covenant_transactions
         WHERE covenant_id = c.covenant_id ORDER BY block_time, transaction_id LIMIT 1
       ) first ON true
       LEFT JOIN LATERAL (
         SELECT transaction_id, block_time FROM covenant_transactions
         WHERE covenant_id = c.covenant_id ORDER BY block_time DESC, transaction_id DESC LIMIT 1
       ) last ON true
     ), emptied AS (
       DELETE FROM covenants v USING summary s WHERE v.covenant_id = s.covenant_id AND s.last_transaction_id IS NULL
     )
     INSERT INTO covenants (covenant_id, genesis_transaction_id, created_at, last_transaction_id, last_activity_at,
                            utxo_count)
     SELECT * FROM summary WHERE last_transaction_id IS NOT NULL
     ON CONFLICT (covenant_id) DO UPDATE SET
       genesis_transaction_id = EXCLUDED.genesis_transaction_id, created_at = EXCLUDED.created_at,
       last_transaction_id = EXCLUDED.last_transaction_id, last_activity_at = EXCLUDED.last_activity_at,
       utxo_count = EXCLUDED.utxo_count`,
    [ids],
  );
}

export async function readCheckpoint(db: Queryable, name: string): Promise<Checkpoint | null> {
  const { rows } = await db.query<{ block_hash: Uint8Array; blue_score: bigint; daa_score: bigint }>(
    'SELECT block_hash, blue_score, daa_score FROM indexer_checkpoints WHERE name = $1',
    [name],
  );
  const row = rows[0];
  return row ? { name, blockHash: row.block_hash, blueScore: row.blue_score, daaScore: row.daa_score } : null;
}

export async function writeCheckpoint(db: Queryable, checkpoint: Checkpoint): Promise<void> {
  await db.query(
    `INSERT INTO indexer_checkpoints (name, block_hash, blue_score, daa_score) VALUES ($1, $2, $3, $4)
     ON CONFLICT (name) DO UPDATE SET block_hash = EXCLUDED.block_hash, blue_score = EXCLUDED.blue_score,
       daa_score = EXCLUDED.daa_score, updated_at = now()`,
    [checkpoint.name, checkpoint.blockHash, checkpoint.blueScore, checkpoint.daaScore],
  );
}

/** What the indexer needs of a stored block to follow the chain through it. */
export interface StoredBlockLinks {
  hash: Hash;
  selectedParentHash: Hash | null;
  blueScore: bigint;
  daaScore: bigint;
  timestamp: bigint;
  mergeSetBlues: Hash[];
  mergeSetReds: Hash[];
}

/** The stored blocks among `hashes` (absent ones are simply missing from the result). */
export async function getStoredBlockLinks(db: Queryable, hashes: readonly Hash[]): Promise<StoredBlockLinks[]> {
  if (hashes.length === 0) return [];
  const { rows } = await db.query<{
    hash: Uint8Array;
    selected_parent_hash: Uint8Array | null;
    blue_score: bigint;
    daa_score: bigint;
    timestamp: bigint;
    merge_set_blues: Uint8Array[];
    merge_set_reds: Uint8Array[];
  }>(
    `SELECT hash, selected_parent_hash, blue_score, daa_score, timestamp, merge_set_blues, merge_set_reds
     FROM blocks WHERE hash = ANY($1::bytea[])`,
    [hashes],
  );
  return rows.map((row) => ({
    hash: row.hash,
    selectedParentHash: row.selected_parent_hash,
    blueScore: row.blue_score,
    daaScore: row.daa_score,
    timestamp: row.timestamp,
    mergeSetBlues: row.merge_set_blues,
    mergeSetReds: row.merge_set_reds,
  }));
}

/**
 * PostgreSQL only: the current transaction commits without waiting for its WAL flush. Safe for the index, whose
 * batches commit with their checkpoint: a crash loses at most the last batches, which the next start fetches again.
 */
export async function commitAsynchronously(db: Queryable): Promise<void> {
  await db.query('SET LOCAL synchronous_commit = off');
}
