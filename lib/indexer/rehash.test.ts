/**
 * Storage keeps everything a transaction commits to: every transaction of a devnet chain that crosses the Toccata fork
 * (version 0 before it; version 0 and 1 after it, covenant genesis and continuations, payments on KIP-21 lanes with
 * gas), indexed from the node over the wire and read back from the database, re-hashes to its id and its hash.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTransactions, migrate, readStreamEvents, type Db, type IndexedTransaction } from '../db';
import { testBackends, type TestDatabase } from '../db/test-support/test-databases';
import { createTrafficGenerator, seededRandom } from '../devnet/traffic/traffic';
import { startWireDevnet, TEST_COINBASE_MATURITY, type WireDevnet } from '../devnet/test-support/wire-devnet';
import { bytesToHex, equalBytes } from '../kaspa/bytes';
import { transactionHash, transactionId } from '../kaspa/transaction';
import { SUBNETWORK_ID_COINBASE, SUBNETWORK_ID_NATIVE } from '../kaspa/types';
import { consensusTransactionOf } from './convert';
import { createIndexer } from './indexer';
import { untilIndexedToSink } from './test-support/views';

const ACTIVATION = 30n;
const MAX_BLOCKS = 600;
/** The re-hash check wants a chain with more than a handful of transactions, whichever kinds arrive first. */
const MIN_TRANSACTIONS = 150;
/** Plans the traffic submits between two blocks: more than the covenant lineages (covenant-traffic MAX_ACTIVE) that may be due. */
const PLANS_PER_BLOCK = 5;

const isLaneTransaction = (transaction: { subnetworkId: Uint8Array }) =>
  !equalBytes(transaction.subnetworkId, SUBNETWORK_ID_NATIVE) && !equalBytes(transaction.subnetworkId, SUBNETWORK_ID_COINBASE);

/** Mines until the chain holds every kind the test needs, with traffic submitted between blocks. */
async function crossingChain(devnet: WireDevnet): Promise<void> {
  const wallets = devnet.node.wallets!;
  for (let i = 0; i < TEST_COINBASE_MATURITY + 4; i++) await devnet.mine(wallets.wallets[i % 2]!.address);
  const traffic = createTrafficGenerator({
    rpc: devnet.node.rpc,
    wallets,
    rate: 40,
    // Lanes weigh more than in the default mix, so a loaded machine's fewer submissions still reach a block.
    mix: { lane: 20 },
    random: seededRandom(5),
    refreshIntervalMs: 20,
    toccataActivation: ACTIVATION,
    covenants: { seed: 'rehash', random: seededRandom(6), stepIntervalMs: 0 },
  });
  traffic.start();
  // A lane payment the mempool took may still miss a block (gas limits, eviction): only one mined counts.
  let laneMined = false;
  let transactions = 0;
  try {
    for (let block = 0; block < MAX_BLOCKS; block++) {
      const mined = await devnet.mine(wallets.wallets[block % 2]!.address);
      laneMined ||= mined.block.transactions.some((transaction) => isLaneTransaction(transaction) && transaction.gas > 0n);
      transactions += mined.block.transactions.length;
      // Between blocks the traffic gets to submit a few plans (up to 250 ms on a loaded machine), so how much a block
      // carries does not depend on how fast this loop runs. A few, not one: with steps due at once, each confirmed
      // lineage's next step comes first, and only a plan after them is drawn from the mix (a lane payment among them).
      const submitted = traffic.stats().submitted;
      for (let waited = 0; waited === 0 || (waited < 250 && traffic.stats().submitted < submitted + PLANS_PER_BLOCK); waited += 10) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const covenants = traffic.stats().covenants!.confirmed;
      const enough = transactions >= MIN_TRANSACTIONS && devnet.node.consensus.virtualDaaScore() > ACTIVATION + 10n;
      if (covenants.continuation >= 2 && laneMined && enough) {
        break;
      }
    }
  } finally {
    await traffic.stop();
  }
  if (!laneMined || traffic.stats().covenants!.confirmed.continuation < 2) {
    throw new Error(`after ${MAX_BLOCKS} blocks the chain still lacks a mined lane payment or two covenant continuations`);
  }
  // A block's transactions are accepted by the chain block after it: the last block carries only its coinbase, so the
  // node's UTXO set and the index's acceptance end at the same transactions.
  for (let i = 0; i < 20 && (await mempoolSize(devnet)) > 0; i++) await devnet.mine(wallets.wallets[0]!.address);
  await devnet.mine(wallets.wallets[0]!.address);
}

async function mempoolSize(devnet: WireDevnet): Promise<number> {
  const { mempoolEntries } = await devnet.client.call('getMempoolEntries', {
    includeOrphanPool: false,
    filterTransactionPool: false,
  });
  return mempoolEntries.length;
}

let devnet: WireDevnet;

beforeAll(async () => {
  devnet = await startWireDevnet({
    seed: 'rehash',
    params: { coinbaseMaturity: TEST_COINBASE_MATURITY, toccataActivation: ACTIVATION },
    partitions: null,
    wallets: 2,
  });
  await crossingChain(devnet);
}, 900_000);

afterAll(async () => {
  await devnet?.close();
});

describe.each(testBackends())('re-hashing the stored chain on $name', (backend) => {
  let database: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    database = await backend.open();
    db = database.db;
    await migrate(db);
    // The devnet's clock, so the whole chain is recent enough to be announced in the stream event log.
    const indexer = createIndexer({ rpc: devnet.client, db, clock: () => devnet.now(), nodePollIntervalMs: 50, retryDelayMs: 50 });
    await indexer.start();
    try {
      await untilIndexedToSink(devnet, db, 12_000);
    } finally {
      await indexer.stop();
    }
  }, 600_000);

  afterAll(async () => {
    await database?.dispose();
  });

  it('holds both eras: header versions 1 and 2 after the version 0 genesis, transaction versions 0 and 1, covenant bindings and lanes', async () => {
    const { rows } = await db.query<{ version: number; count: bigint }>(
      'SELECT version, count(*) AS count FROM blocks GROUP BY version ORDER BY version',
    );
    // The genesis header is version 0, as kaspad's genesis headers are.
    expect(rows.map((row) => row.version)).toEqual([0, 1, 2]);
    const stored = await everyTransaction(db);
    expect(new Set(stored.map((transaction) => transaction.version))).toEqual(new Set([0, 1]));
    expect(stored.some((transaction) => transaction.outputs.some((output) => output.covenantId !== null))).toBe(true);
    expect(stored.some((transaction) => transaction.inputs.some((input) => input.previousOutput?.covenantId))).toBe(true);
    expect(stored.filter(isLaneTransaction).some((transaction) => transaction.gas > 0n)).toBe(true);
    expect(stored.some((transaction) => transaction.inputs.some((input) => input.computeBudget > 0))).toBe(true);
  });

  it('every stored transaction re-hashes to its id and its hash', async () => {
    const stored = await everyTransaction(db);
    expect(stored.length).toBeGreaterThan(100);
    for (const record of stored) {
      const transaction = consensusTransactionOf(record);
      expect(transaction, bytesToHex(record.transactionId)).not.toBeNull();
      expect(bytesToHex(transactionId(transaction!))).toBe(bytesToHex(record.transactionId));
      expect(bytesToHex(transactionHash(transaction!))).toBe(bytesToHex(record.hash));
    }
  });

  it('the covenants the chain carries are indexed with their lineages and current UTXOs', async () => {
    const { rows } = await db.query<{ covenants: bigint; with_genesis: bigint; lineage: bigint }>(
      `SELECT count(*) AS covenants, count(genesis_transaction_id) AS with_genesis,
              (SELECT count(*) FROM covenant_transactions) AS lineage FROM covenants`,
    );
    expect(rows[0]!.covenants).toBeGreaterThan(0n);
    expect(rows[0]!.with_genesis).toBe(rows[0]!.covenants);
    expect(rows[0]!.lineage).toBeGreaterThan(rows[0]!.covenants);
    const live = new Map<string, number>();
    for (const [, entry] of devnet.node.consensus.utxoSetSnapshot()) {
      if (entry.covenantId) live.set(bytesToHex(entry.covenantId), (live.get(bytesToHex(entry.covenantId)) ?? 0) + 1);
    }
    const indexed = await db.query<{ covenant_id: Uint8Array; utxo_count: number }>(
      'SELECT covenant_id, utxo_count FROM covenants WHERE utxo_count > 0',
    );
    expect(new Map(indexed.rows.map((row) => [bytesToHex(row.covenant_id), row.utxo_count]))).toEqual(live);
  });

  it('announces each lineage step as a covenant event, with its kind, accepted by its chain block', async () => {
    const lineage = await db.query<{ covenant_id: Uint8Array; transaction_id: Uint8Array; is_genesis: boolean; accepting: Uint8Array }>(
      `SELECT c.covenant_id, c.transaction_id, c.is_genesis, a.accepting_block_hash AS accepting
       FROM covenant_transactions c JOIN transaction_acceptances a USING (transaction_id)`,
    );
    const events = await readStreamEvents(db, { after: 0n, topics: ['covenant'], limit: 100_000 });
    const standing = new Map<string, { kind: string; blockHash: string }>();
    for (const event of events) {
      const data = JSON.parse(event.data) as { covenantId: string; transactionId: string; kind: string; status: string; blockHash: string };
      const key = `${data.covenantId}:${data.transactionId}`;
      if (data.status === 'accepted') standing.set(key, { kind: data.kind, blockHash: data.blockHash });
      else standing.delete(key);
    }
    expect(standing).toEqual(
      new Map(
        lineage.rows.map((row) => [
          `${bytesToHex(row.covenant_id)}:${bytesToHex(row.transaction_id)}`,
          expect.objectContaining({ blockHash: bytesToHex(row.accepting) }),
        ]),
      ),
    );
    const kinds = new Set([...standing.values()].map((step) => step.kind));
    expect(kinds.has('genesis') && kinds.has('continuation')).toBe(true);
    for (const row of lineage.rows) {
      if (row.is_genesis) expect(standing.get(`${bytesToHex(row.covenant_id)}:${bytesToHex(row.transaction_id)}`)!.kind).toBe('genesis');
    }
  });
});

async function everyTransaction(db: Db): Promise<IndexedTransaction[]> {
  const { rows } = await db.query<{ transaction_id: Uint8Array }>('SELECT transaction_id FROM transactions');
  return getTransactions(
    db,
    rows.map((row) => row.transaction_id),
    { includePayload: true },
  );
}
