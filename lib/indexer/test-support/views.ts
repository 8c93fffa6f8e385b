/** What the indexer tests compare: the node's view of the DAG and chain against the index's. */
import type { Queryable } from '../../db';
import { readCheckpoint } from '../../db';
import type { WireDevnet } from '../../devnet/test-support/wire-devnet';
import { bytesToHex } from '../../kaspa/bytes';

export const INDEX_TABLES = [
  'blocks',
  'block_children',
  'block_transactions',
  'transactions',
  'transaction_inputs',
  'transaction_outputs',
  'transaction_acceptances',
  'address_transactions',
  'indexer_checkpoints',
  'index_gaps',
  'stream_events',
  'stream_event_retention',
];

export async function emptyIndex(db: Queryable): Promise<void> {
  await db.exec(`TRUNCATE ${INDEX_TABLES.join(', ')}`);
}

/** Mines `count` blocks; the first coinbase outputs mature after TEST_COINBASE_MATURITY blocks. */
export async function mine(node: WireDevnet, count: number, payAddress?: string): Promise<string[]> {
  const hashes: string[] = [];
  for (let i = 0; i < count; i++) hashes.push((await node.mine(payAddress)).hash);
  return hashes;
}

export async function untilIndexedToSink(node: WireDevnet, db: Queryable, attempts = 400): Promise<void> {
  const { sink } = await node.client.call('getSink', {});
  for (let attempt = 0; attempt < attempts; attempt++) {
    const checkpoint = await readCheckpoint(db, 'virtual-chain');
    if (checkpoint && bytesToHex(checkpoint.blockHash) === sink) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`the index did not reach the sink ${sink}`);
}

export interface View {
  blocks: string[];
  chainBlocks: string[];
  transactionIds: string[];
  acceptances: Record<string, string>;
}

/** The node's view: every block (getBlocks from genesis), its chain from genesis and each chain block's accepted ids. */
export async function nodeView(node: WireDevnet): Promise<View> {
  const genesis = bytesToHex(node.node.genesisHash);
  const { blocks } = await node.client.call('getBlocks', { lowHash: genesis, includeBlocks: true, includeTransactions: false });
  const chain = await node.client.call('getVirtualChainFromBlock', { startHash: genesis, includeAcceptedTransactionIds: true });
  const acceptances: Record<string, string> = {};
  for (const entry of chain.acceptedTransactionIds) {
    for (const id of entry.acceptedTransactionIds) acceptances[id] = entry.acceptingBlockHash;
  }
  return {
    blocks: [...new Set(blocks.map((block) => block.header.hash))].sort(),
    chainBlocks: [genesis, ...chain.addedChainBlockHashes].sort(),
    transactionIds: [...new Set(blocks.flatMap((block) => block.verboseData!.transactionIds))].sort(),
    acceptances,
  };
}

export async function indexView(db: Queryable): Promise<View> {
  const hex = (rows: { value: Uint8Array }[]) => rows.map((row) => bytesToHex(row.value)).sort();
  const blocks = await db.query<{ value: Uint8Array }>('SELECT hash AS value FROM blocks');
  const chain = await db.query<{ value: Uint8Array }>('SELECT hash AS value FROM blocks WHERE is_chain_block');
  const transactions = await db.query<{ value: Uint8Array }>('SELECT transaction_id AS value FROM transactions');
  const accepted = await db.query<{ transaction_id: Uint8Array; accepting_block_hash: Uint8Array }>(
    'SELECT transaction_id, accepting_block_hash FROM transaction_acceptances',
  );
  return {
    blocks: hex(blocks.rows),
    chainBlocks: hex(chain.rows),
    transactionIds: hex(transactions.rows),
    acceptances: Object.fromEntries(
      accepted.rows.map((row) => [bytesToHex(row.transaction_id), bytesToHex(row.accepting_block_hash)]),
    ),
  };
}

