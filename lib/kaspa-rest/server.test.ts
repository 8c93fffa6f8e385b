import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyVirtualChainChange, insertBlocks, insertTransactions, migrate, writeCheckpoint, type Db, type TransactionRecord } from '../db';
import { addressOf, hashOf, payToAddressOutput, syntheticBlock, syntheticTransaction } from '../db/test-support/fixtures';
import { testBackends, type TestDatabase } from '../db/test-support/test-databases';
import { KASPA_REST_ROUTE_COSTS } from '../api/keys/costs';
import { bytesToHex, compareBytes } from '../kaspa/bytes';
import { pythonIsoFormat } from './route-support';
import { harness, NOW, UTXO_SCRIPT } from './test-support/rest-harness';

const HOUR = 3_600_000;
const idHex = (transaction: { transactionId: Uint8Array }) => bytesToHex(transaction.transactionId);
const COINBASE_SUBNETWORK = Uint8Array.of(1, ...new Array<number>(19).fill(0));

describe.each(testBackends())('kaspa-rest interface on $name', (backend) => {
  let database: TestDatabase;
  let db: Db;

  const coinbase: TransactionRecord = {
    ...syntheticTransaction('coinbase', 40_000n, [], [payToAddressOutput('alice', 5000n)]),
    subnetworkId: COINBASE_SUBNETWORK,
    payload: Uint8Array.of(1, 2, 3),
  };
  const spend = syntheticTransaction(
    'spend',
    40_001n,
    [{ previousTransactionId: coinbase.transactionId, previousIndex: 0, previousOutput: coinbase.outputs[0]! }],
    [payToAddressOutput('bob', 3000n), payToAddressOutput('alice', 1900n)],
  );
  const unresolved = syntheticTransaction('unresolved', 40_002n, [{ previousTransactionId: hashOf('before history'), previousIndex: 3, previousOutput: null }], [
    payToAddressOutput('carol', 10n),
  ]);
  const PAGED = 'paged';
  const history = Array.from({ length: 25 }, (_, index) =>
    syntheticTransaction(`paged ${index}`, 50_000n + BigInt(Math.floor(index / 3)), [], [payToAddressOutput(PAGED, BigInt(index + 1))]),
  );
  const newestFirst = [...history]
    .sort((x, y) => (x.blockTime === y.blockTime ? compareBytes(y.transactionId, x.transactionId) : x.blockTime > y.blockTime ? -1 : 1))
    .map(idHex);

  const deepBlock = syntheticBlock({ label: 'deep', daaScore: 1000n, parents: [], transactionIds: [coinbase.transactionId], isChainBlock: true });
  const sideFixture = syntheticBlock({ label: 'side', daaScore: 19_980n, parents: [deepBlock.hash], transactionIds: [unresolved.transactionId], isChainBlock: false });
  // A DAA score below the blue score, as the devnet produces: blue-score lookups must still find the block.
  const sideBlock = { ...sideFixture, header: { ...sideFixture.header, daaScore: 19_975n }, difficulty: 2_500_000_000_000.5 };
  const tipBlock = syntheticBlock({
    label: 'tip',
    daaScore: 19_990n,
    parents: [deepBlock.hash, sideBlock.hash],
    transactionIds: [spend.transactionId, ...history.map((transaction) => transaction.transactionId)],
    isChainBlock: true,
  });

  beforeAll(async () => {
    database = await backend.open();
    db = database.db;
    await migrate(db);
    await db.transaction(async (tx) => {
      await insertBlocks(tx, [deepBlock, sideBlock, tipBlock]);
      await insertTransactions(tx, [coinbase, spend, unresolved, ...history]);
      await applyVirtualChainChange(tx, {
        removedChainBlockHashes: [],
        added: [
          { acceptingBlockHash: deepBlock.hash, acceptedTransactionIds: [coinbase.transactionId] },
          { acceptingBlockHash: tipBlock.hash, acceptedTransactionIds: [spend.transactionId, ...history.map((t) => t.transactionId)] },
        ],
      });
      await writeCheckpoint(tx, { name: 'virtual-chain', blockHash: tipBlock.hash, blueScore: 19_990n, daaScore: 19_990n });
    });
  }, 180_000);

  afterAll(async () => {
    await database?.dispose();
  });

  describe('info routes', () => {
    it('blockdag: string u64s, networkName kaspa-<network>', async () => {
      const { request } = await harness(db);
      const reply = await request('/info/blockdag');
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({
        networkName: 'kaspa-devnet',
        blockCount: '1234',
        headerCount: '1234',
        tipHashes: ['aa'.repeat(32)],
        difficulty: 1.25,
        pastMedianTime: '1700000000000',
        virtualParentHashes: ['aa'.repeat(32)],
        pruningPointHash: 'bb'.repeat(32),
        virtualDaaScore: '50000',
        sink: 'aa'.repeat(32),
      });
    });

    it('coinsupply as decimal strings, blockreward and halving from the subsidy schedule', async () => {
      const { request } = await harness(db);
      expect((await request('/info/coinsupply')).body).toEqual({ circulatingSupply: '123456789012345', maxSupply: '2900000000000000000' });
      const reward = (await request('/info/blockreward')).body as { blockreward: number };
      expect(typeof reward.blockreward).toBe('number');
      expect(reward.blockreward).toBeGreaterThan(0);
      const halving = (await request('/info/halving')).body as { nextHalvingTimestamp: number; nextHalvingDate: string; nextHalvingAmount: number };
      expect(Number.isInteger(halving.nextHalvingTimestamp)).toBe(true);
      expect(halving.nextHalvingTimestamp).toBeGreaterThan(NOW / 1000);
      expect(halving.nextHalvingDate).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/);
      expect(halving.nextHalvingAmount).toBeLessThan(reward.blockreward);
      const plain = await request('/info/halving?field=nextHalvingTimestamp');
      expect(plain.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(plain.text).toBe(String(halving.nextHalvingTimestamp));
    });

    it('hashrate: difficulty × 2 × blocks per second in TH/s', async () => {
      const { request } = await harness(db);
      expect((await request('/info/hashrate')).body).toEqual({ hashrate: (1.25 * 2 * 10) / 1e12 });
      expect((await request('/info/hashrate?stringOnly=true')).body).toBe('0.0');
    });

    it('hashrate/max: the hardest indexed block, its header as MaxHashrateResponse', async () => {
      const { request } = await harness(db);
      expect((await request('/info/hashrate/max')).body).toEqual({
        hashrate: (2_500_000_000_000.5 * 2 * 10) / 1e12,
        blockheader: {
          hash: bytesToHex(sideBlock.hash),
          timestamp: '2023-11-14T22:46:38',
          difficulty: 2_500_000_000_000,
          daaScore: '19975',
          blueScore: '19980',
        },
      });
      expect(pythonIsoFormat(1_700_000_000_874n)).toBe('2023-11-14T22:13:20.874000');
    });

    it('hashrate history: 503 as kaspa-rest-server without its sample table, 422 for a malformed day', async () => {
      const { request } = await harness(db);
      for (const path of ['/info/hashrate/history', '/info/hashrate/history?resolution=1d', '/info/hashrate/history/2026-11-21', '/info/hashrate/history/2026-11']) {
        const reply = await request(path);
        expect(reply.status).toBe(503);
        expect(reply.body).toEqual({ detail: 'Hashrate history is disabled' });
        expect(reply.headers.get('access-control-allow-origin')).toBe('*');
      }
      const malformed = await request('/info/hashrate/history/21-11-2026');
      expect(malformed.status).toBe(422);
      expect((malformed.body as { detail: { loc: string[] }[] }).detail[0]!.loc).toEqual(['path', 'day_or_month']);
    });

    it('fee-estimate, kaspad, virtual-chain-blue-score, health, market-data', async () => {
      const { request } = await harness(db);
      expect((await request('/info/fee-estimate')).body).toEqual({
        priorityBucket: { feerate: 1, estimatedSeconds: 0.5 },
        normalBuckets: [{ feerate: 1, estimatedSeconds: 1.5 }],
        lowBuckets: [{ feerate: 1, estimatedSeconds: 3 }],
      });
      const kaspad = (await request('/info/kaspad')).body as Record<string, unknown>;
      expect(kaspad).toMatchObject({ mempoolSize: '7', serverVersion: '2.0.1', isUtxoIndexed: true, isSynced: true });
      expect(kaspad.p2pIdHashed).toMatch(/^[0-9a-f]{64}$/);
      expect((await request('/info/virtual-chain-blue-score')).body).toEqual({ blueScore: 20_000 });
      const health = await request('/info/health');
      // The synthetic tip block is from 2023: far behind the clock, so the database is reported unsynced (503).
      expect(health.status).toBe(503);
      expect(health.body).toMatchObject({
        kaspadServers: [{ isSynced: true, serverVersion: '2.0.1', blueScore: 20_000 }],
        database: { isSynced: false, blueScore: 19_990, blueScoreDiff: 10 },
      });
      const market = (await request('/info/market-data')).body as { current_price: { usd: number }; price_change_percentage_24h: number; source: string };
      expect(market.current_price.usd).toBe(0.1);
      expect(market.price_change_percentage_24h).toBe(0);
      expect(market.source).toBe('fixed');
    });
  });

  describe('GET /blocks/{blockId}', () => {
    it('the gRPC-JSON block with parents[{parentHashes}], extra.color and the miner', async () => {
      const { request } = await harness(db);
      const reply = await request(`/blocks/${bytesToHex(tipBlock.hash)}?includeColor=true`);
      expect(reply.status).toBe(200);
      const block = reply.body as {
        header: Record<string, unknown>;
        transactions: { verboseData: Record<string, unknown>; outputs: Record<string, unknown>[]; mass: number }[];
        verboseData: Record<string, unknown>;
        extra: Record<string, unknown>;
      };
      expect(block.header).toEqual({
        version: 1,
        hashMerkleRoot: bytesToHex(tipBlock.header.hashMerkleRoot),
        acceptedIdMerkleRoot: bytesToHex(tipBlock.header.acceptedIdMerkleRoot),
        utxoCommitment: bytesToHex(tipBlock.header.utxoCommitment),
        timestamp: String(tipBlock.header.timestamp),
        bits: tipBlock.header.bits,
        nonce: String(tipBlock.header.nonce),
        daaScore: '19990',
        blueWork: tipBlock.header.blueWork.toString(16),
        parents: [{ parentHashes: [bytesToHex(deepBlock.hash), bytesToHex(sideBlock.hash)] }, { parentHashes: [bytesToHex(deepBlock.hash)] }],
        blueScore: '19990',
        pruningPoint: bytesToHex(tipBlock.header.pruningPoint),
      });
      expect(block.verboseData).toMatchObject({
        hash: bytesToHex(tipBlock.hash),
        difficulty: 1.5,
        selectedParentHash: bytesToHex(deepBlock.hash),
        blueScore: '19990',
        isChainBlock: true,
        childrenHashes: [],
      });
      expect(block.verboseData.transactionIds).toHaveLength(26);
      expect(block.extra).toEqual({ color: 'blue' });
      expect(block.transactions[0]?.verboseData).toEqual({
        transactionId: idHex(spend),
        hash: bytesToHex(spend.hash),
        computeMass: 2036,
        blockHash: bytesToHex(tipBlock.hash),
        blockTime: Number(tipBlock.header.timestamp),
      });
      expect(block.transactions[0]?.outputs[0]).toEqual({
        amount: 3000,
        scriptPublicKey: { scriptPublicKey: bytesToHex(spend.outputs[0]!.scriptPublicKey.script), version: 0 },
        verboseData: { scriptPublicKeyType: 'pubkey', scriptPublicKeyAddress: addressOf('bob') },
      });
    });

    it('a non-chain block takes the node colour; without includeColor no colour; transactions can be left out', async () => {
      const { request } = await harness(db);
      const side = (await request(`/blocks/${bytesToHex(sideBlock.hash)}?includeColor=true`)).body as { extra: unknown; verboseData: { childrenHashes: string[] } };
      expect(side.extra).toEqual({ color: 'red' });
      expect(side.verboseData.childrenHashes).toEqual([bytesToHex(tipBlock.hash)]);
      const plain = (await request(`/blocks/${bytesToHex(deepBlock.hash)}?includeTransactions=false`)).body as { extra: unknown; transactions: unknown };
      expect(plain.transactions).toBeNull();
      expect(plain.extra).toEqual({});
    });

    it('blocks-from-bluescore: the blocks at one blue score, found exactly or as the nearest stored above or below', async () => {
      const { request } = await harness(db);
      type Listed = { verboseData: { hash: string; blueScore: string }; transactions: unknown[] | null }[];
      const exact = await request('/blocks-from-bluescore?blueScore=19980');
      expect(exact.status).toBe(200);
      expect((exact.body as Listed).map((block) => [block.verboseData.hash, block.transactions])).toEqual([[bytesToHex(sideBlock.hash), null]]);
      const above = (await request('/blocks-from-bluescore?blueScoreGte=1001&includeTransactions=true')).body as Listed;
      expect(above.map((block) => block.verboseData.hash)).toEqual([bytesToHex(sideBlock.hash)]);
      expect(above[0]!.transactions).toHaveLength(1);
      const below = (await request('/blocks-from-bluescore?blueScoreLt=19980')).body as Listed;
      expect(below.map((block) => block.verboseData.hash)).toEqual([bytesToHex(deepBlock.hash)]);
      expect((await request('/blocks-from-bluescore?blueScore=19985')).body).toEqual([]);
      expect((await request('/blocks-from-bluescore?blueScore=20001')).body).toEqual([]);
      expect((await request('/blocks-from-bluescore?blueScoreGte=20001')).body).toEqual([]);
      const none = await request('/blocks-from-bluescore');
      expect(none.status).toBe(400);
      expect(none.body).toEqual({ detail: 'Exactly one of blueScore, blueScoreGte, or blueScoreLt must be provided' });
      expect((await request('/blocks-from-bluescore?blueScore=1000&blueScoreLt=5')).status).toBe(400);
      const malformed = await request('/blocks-from-bluescore?blueScore=high');
      expect(malformed.status).toBe(422);
      expect((malformed.body as { detail: { loc: string[] }[] }).detail[0]!.loc).toEqual(['query', 'blueScore']);
    });

    it('virtual-chain: what the chain blocks of a blue score window accepted, as VcBlockModel without null keys', async () => {
      const { request } = await harness(db);
      type Vc = { hash: string; blue_score: number; daa_score: number; timestamp: number; transactions: { transaction_id: string; is_accepted: boolean; inputs?: Record<string, unknown>[]; outputs: Record<string, unknown>[] }[] };
      const tip = (await request('/virtual-chain?blueScoreGte=19990')).body as Vc[];
      expect(tip.map((block) => [block.hash, block.blue_score, block.daa_score, block.timestamp])).toEqual([
        [bytesToHex(tipBlock.hash), 19_990, 19_990, Number(tipBlock.header.timestamp)],
      ]);
      expect(tip[0]!.transactions.map((transaction) => transaction.transaction_id).sort()).toEqual([spend, ...history].map(idHex).sort());
      expect(tip[0]!.transactions.every((transaction) => transaction.is_accepted)).toBe(true);
      const spent = tip[0]!.transactions.find((transaction) => transaction.transaction_id === idHex(spend))!;
      expect(Object.keys(spent.inputs![0]!).sort()).toEqual(['previous_outpoint_hash', 'previous_outpoint_index', 'signature_script']);
      expect(Object.keys(spent.outputs[0]!).sort()).toEqual(['amount', 'script_public_key', 'script_public_key_address']);
      const resolved = (await request('/virtual-chain?blueScoreGte=19990&resolveInputs=true')).body as Vc[];
      const light = (await request(`/transactions/${idHex(spend)}?resolve_previous_outpoints=light`)).body as { inputs: Record<string, unknown>[] };
      const resolvedInput = resolved[0]!.transactions.find((transaction) => transaction.transaction_id === idHex(spend))!.inputs![0]!;
      expect(resolvedInput.previous_outpoint_address).toBe(light.inputs[0]!.previous_outpoint_address);
      expect(resolvedInput.previous_outpoint_amount).toBe(light.inputs[0]!.previous_outpoint_amount);
      const deep = (await request('/virtual-chain?blueScoreGte=1000&limit=100')).body as Vc[];
      expect(deep.map((block) => block.hash)).toEqual([bytesToHex(deepBlock.hash)]);
      expect(deep[0]!.transactions[0]).not.toHaveProperty('inputs');
      expect((await request('/virtual-chain?blueScoreGte=1000&includeCoinbase=false')).body).toEqual([]);
      expect((await request('/virtual-chain?blueScoreGte=20010')).body).toEqual([]);
      const missing = await request('/virtual-chain');
      expect(missing.status).toBe(422);
      expect(missing.body).toEqual({ detail: [{ loc: ['query', 'blueScoreGte'], msg: 'field required', type: 'value_error.missing' }] });
      expect(await request('/virtual-chain?blueScoreGte=1000&limit=50')).toMatchObject({ status: 400, body: { detail: "'limit' must be in [10, 100]" } });
      expect(await request('/virtual-chain?blueScoreGte=1005')).toMatchObject({ status: 400, body: { detail: "'blueScoreGte' must be divisible by limit (10)" } });
      expect((await request('/virtual-chain?blueScoreGte=1000&page=2')).status).toBe(422);
    });

    it("blocks: the node's hashes from lowHash, with includeBlocks the ones the index holds", async () => {
      const { request } = await harness(db);
      const all = [deepBlock, sideBlock, tipBlock].map((block) => bytesToHex(block.hash));
      expect((await request(`/blocks?lowHash=${all[0]}`)).body).toEqual({ blockHashes: [...all, 'ee'.repeat(32)], blocks: [] });
      const full = (await request(`/blocks?lowHash=${all[0]}&includeBlocks=true&includeTransactions=true`)).body as {
        blocks: { verboseData: { hash: string }; transactions: unknown[] }[];
      };
      expect(full.blocks.map((block) => block.verboseData.hash)).toEqual(all);
      expect(full.blocks[0]!.transactions).toHaveLength(1);
      expect((await request(`/blocks?lowHash=${'ab'.repeat(32)}`)).body).toEqual({ blockHashes: [], blocks: [] });
      const missing = await request('/blocks');
      expect(missing.status).toBe(422);
      expect(missing.body).toEqual({ detail: [{ loc: ['query', 'lowHash'], msg: 'field required', type: 'value_error.missing' }] });
      expect(((await request('/blocks?lowHash=xyz')).body as { detail: { type: string }[] }).detail[0]!.type).toBe('value_error.str.regex');
    });

    it('404 for an unknown block (the explorer search relies on it), 422 for a malformed id', async () => {
      const { request } = await harness(db);
      const unknown = await request(`/blocks/${bytesToHex(hashOf('nowhere'))}?includeColor=true`);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ detail: 'Block not found' });
      expect(unknown.headers.get('access-control-allow-origin')).toBe('*');
      const malformed = await request('/blocks/xyz?includeColor=maybe');
      expect(malformed.status).toBe(422);
      expect(malformed.body).toEqual({
        detail: [
          { loc: ['path', 'blockId'], msg: 'string does not match regex "^[a-f0-9]{64}$"', type: 'value_error.str.regex', ctx: { pattern: '^[a-f0-9]{64}$' } },
          { loc: ['query', 'includeColor'], msg: 'value could not be parsed to a boolean', type: 'type_error.bool' },
        ],
      });
    });
  });

  describe('transactions', () => {
    it('GET /transactions/{id}: snake_case TxModel; resolve no, light, full', async () => {
      const { request } = await harness(db);
      const no = (await request(`/transactions/${idHex(spend)}`)).body as Record<string, unknown> & { inputs: Record<string, unknown>[]; outputs: unknown[] };
      expect(Object.keys(no).slice(0, 14)).toEqual([
        'subnetwork_id', 'transaction_id', 'hash', 'mass', 'payload', 'block_hash', 'block_time', 'version', 'is_accepted',
        'accepting_block_hash', 'accepting_block_blue_score', 'accepting_block_time', 'inputs', 'outputs',
      ]);
      expect(no).toMatchObject({
        subnetwork_id: '0000000000000000000000000000000000000000',
        transaction_id: idHex(spend),
        mass: '2036',
        payload: null,
        block_hash: [bytesToHex(tipBlock.hash)],
        block_time: 40_001,
        version: 0,
        is_accepted: true,
        accepting_block_hash: bytesToHex(tipBlock.hash),
        accepting_block_blue_score: 19_990,
        accepting_block_time: Number(tipBlock.header.timestamp),
      });
      expect(no.inputs[0]).toEqual({
        transaction_id: idHex(spend),
        index: 0,
        previous_outpoint_hash: idHex(coinbase),
        previous_outpoint_index: '0',
        previous_outpoint_address: null,
        previous_outpoint_amount: null,
        signature_script: bytesToHex(spend.inputs[0]!.signatureScript),
        sig_op_count: '1',
        compute_budget: 0,
      });
      expect(no.outputs[1]).toEqual({
        transaction_id: idHex(spend),
        index: 1,
        amount: 1900,
        script_public_key: bytesToHex(spend.outputs[1]!.scriptPublicKey.script),
        script_public_key_address: addressOf('alice'),
        script_public_key_type: 'pubkey',
        covenant_id: null,
      });
      const light = (await request(`/transactions/${idHex(spend)}?resolve_previous_outpoints=light`)).body as { inputs: Record<string, unknown>[] };
      expect(light.inputs[0]).toMatchObject({ previous_outpoint_address: addressOf('alice'), previous_outpoint_amount: 5000 });
      expect(light.inputs[0]).not.toHaveProperty('previous_outpoint_resolved');
      const full = (await request(`/transactions/${idHex(spend)}?resolve_previous_outpoints=full`)).body as { inputs: Record<string, unknown>[] };
      expect(full.inputs[0]?.previous_outpoint_resolved).toEqual({
        transaction_id: idHex(coinbase),
        index: 0,
        amount: 5000,
        script_public_key: bytesToHex(coinbase.outputs[0]!.scriptPublicKey.script),
        script_public_key_address: addressOf('alice'),
        script_public_key_type: 'pubkey',
      });
    });

    it('unaccepted and unresolved: nulls, not omissions; a coinbase has null inputs', async () => {
      const { request } = await harness(db);
      const pending = (await request(`/transactions/${idHex(unresolved)}?resolve_previous_outpoints=full`)).body as Record<string, unknown> & { inputs: Record<string, unknown>[] };
      expect(pending).toMatchObject({ is_accepted: false, accepting_block_hash: null, accepting_block_blue_score: null, accepting_block_time: null });
      expect(pending.inputs[0]).toMatchObject({ previous_outpoint_address: null, previous_outpoint_amount: null, previous_outpoint_resolved: null });
      const mint = (await request(`/transactions/${idHex(coinbase)}`)).body as Record<string, unknown>;
      expect(mint).toMatchObject({ inputs: null, payload: '010203', subnetwork_id: bytesToHex(COINBASE_SUBNETWORK) });
    });

    it('404 unknown, 422 bad id or mode', async () => {
      const { request } = await harness(db);
      expect(await request(`/transactions/${bytesToHex(hashOf('none'))}`)).toMatchObject({ status: 404, body: { detail: 'Transaction not found' } });
      const bad = await request(`/transactions/${idHex(spend)}?resolve_previous_outpoints=heavy`);
      expect(bad.status).toBe(422);
      expect(bad.body).toEqual({
        detail: [
          {
            loc: ['query', 'resolve_previous_outpoints'],
            msg: "value is not a valid enumeration member; permitted: 'no', 'light', 'full'",
            type: 'type_error.enum',
            ctx: { enum_values: ['no', 'light', 'full'] },
          },
        ],
      });
      expect((await request('/transactions/ABC')).status).toBe(422);
    });

    it('POST /transactions/search: newest first, fields, limits and body errors', async () => {
      const { request } = await harness(db);
      const found = await request('/transactions/search?fields=&resolve_previous_outpoints=light', {
        body: { transactionIds: [idHex(coinbase), idHex(spend), bytesToHex(hashOf('none')), 'not-an-id'] },
      });
      expect(found.status).toBe(200);
      expect((found.body as { transaction_id: string }[]).map((tx) => tx.transaction_id)).toEqual([idHex(spend), idHex(coinbase)]);
      const narrow = await request('/transactions/search?fields=transaction_id,is_accepted', { body: { transactionIds: [idHex(spend)] } });
      expect(narrow.body).toEqual([{ transaction_id: idHex(spend), is_accepted: true }]);
      expect((await request('/transactions/search', { body: {} })).body).toEqual([]);
      const byScore = await request('/transactions/search?fields=transaction_id', { body: { acceptingBlueScores: { gte: 19_990, lt: 19_991 } } });
      expect((byScore.body as unknown[]).length).toBe(26);
      expect(await request('/transactions/search', { body: { transactionIds: Array(1001).fill(idHex(spend)) } })).toMatchObject({
        status: 422,
        body: { detail: 'Too many transaction ids. Max 1000' },
      });
      expect(await request('/transactions/search', { body: { acceptingBlueScores: { gte: 0, lt: 1000 } } })).toMatchObject({ status: 400 });
      expect(await request('/transactions/search', { rawBody: '{"acceptingBlueScores": {"gte": 99999999999999999999, "lt": 1}}' })).toMatchObject({
        status: 422,
        body: { detail: [{ loc: ['body', 'acceptingBlueScores', 'gte'], type: 'value_error.number.not_le' }] },
      });
      expect(await request('/transactions/search', { rawBody: '{"transactionIds": [' })).toMatchObject({ status: 422, body: { detail: [{ loc: ['body', 0], type: 'value_error.jsondecode' }] } });
      expect(await request('/transactions/search', { body: { transactionIds: [7] } })).toMatchObject({
        status: 422,
        body: { detail: [{ loc: ['body', 'transactionIds', 0], msg: 'str type expected', type: 'type_error.str' }] },
      });
      expect(await request('/transactions/search', { body: [1] })).toMatchObject({ status: 422 });
      expect(await request('/transactions/search', { rawBody: 'x'.repeat(200_001) })).toMatchObject({ status: 413 });
    });

    it('POST /transactions/acceptance in the order asked', async () => {
      const { request } = await harness(db);
      const reply = await request('/transactions/acceptance', { body: { transactionIds: [idHex(unresolved), idHex(spend)] } });
      expect(reply.body).toEqual([
        { transactionId: idHex(unresolved), accepted: false, acceptingBlockHash: null, acceptingBlueScore: null, acceptingTimestamp: null },
        {
          transactionId: idHex(spend),
          accepted: true,
          acceptingBlockHash: bytesToHex(tipBlock.hash),
          acceptingBlueScore: 19_990,
          acceptingTimestamp: Number(tipBlock.header.timestamp),
        },
      ]);
    });

    it('transaction counts: the total and per-hour rows of a day (empty list for a day without any)', async () => {
      const { request } = await harness(db);
      const total = (await request('/transactions/count/')).body as { timestamp: number; dateTime: string; coinbase: number; regular: number };
      expect(total).toEqual({ timestamp: 0, dateTime: '1970-01-01T00:00:00Z', coinbase: 1, regular: 26 });
      expect((await request('/transactions/count/1970-01-01')).body).toEqual([{ timestamp: 0, dateTime: '1970-01-01T00:00:00Z', coinbase: 1, regular: 26 }]);
      expect((await request('/transactions/count/1970-01')).body).toHaveLength(1);
      expect((await request('/transactions/count/1970-01-02')).body).toEqual([]);
      expect((await request('/transactions/count/2026-13-01')).status).toBe(400);
      expect((await request('/transactions/count/yesterday')).status).toBe(422);
    });
  });

  describe('addresses', () => {
    it('balance, utxos (string u64s), transactions-count', async () => {
      const { request } = await harness(db);
      const alice = addressOf('alice');
      expect((await request(`/addresses/${alice}/balance`)).body).toEqual({ address: alice, balance: 1900 });
      expect((await request(`/addresses/${alice}/utxos`)).body).toEqual([
        {
          address: alice,
          outpoint: { transactionId: 'cc'.repeat(32), index: 1 },
          utxoEntry: { amount: '1900', scriptPublicKey: { scriptPublicKey: UTXO_SCRIPT }, blockDaaScore: '19990', isCoinbase: false },
        },
      ]);
      expect((await request(`/addresses/${alice}/transactions-count`)).body).toEqual({ total: 2 });
      expect((await request(`/addresses/${addressOf(PAGED)}/transactions-count`)).body).toEqual({ total: 25 });
    });

    it('a malformed address is 422, a bad checksum 400, another network 422; strict routes refuse unknown parameters', async () => {
      const { request } = await harness(db);
      expect((await request('/addresses/kaspadev:nope/balance')).status).toBe(422);
      const alice = addressOf('alice');
      const broken = `${alice.slice(0, -1)}${alice.endsWith('q') ? 'p' : 'q'}`;
      expect(await request(`/addresses/${broken}/balance`)).toMatchObject({ status: 400, body: { detail: `Invalid address: ${broken}` } });
      expect((await request(`/addresses/${alice.replace('kaspadev:', 'kaspa:')}/balance`)).status).toBe(422);
      expect(await request(`/addresses/${alice}/utxos?page=2`)).toMatchObject({
        status: 422,
        body: { detail: [{ loc: ['query', 'page'], msg: 'Unknown query parameter in request: page', type: 'value_error' }] },
      });
    });

    it('full-transactions-page: forward with X-Next-Page-Before and back with X-Next-Page-After, every item once', async () => {
      const { request } = await harness(db);
      const path = `/addresses/${addressOf(PAGED)}/full-transactions-page`;
      const page = async (query: string) => {
        const reply = await request(`${path}?limit=4&fields=&resolve_previous_outpoints=light&${query}`);
        expect(reply.status).toBe(200);
        const items = reply.body as { transaction_id: string; block_time: number }[];
        expect(reply.headers.get('x-page-count')).toBe(String(items.length));
        const times = items.map((item) => item.block_time);
        expect(times).toEqual([...times].sort((x, y) => y - x));
        return { items, before: reply.headers.get('x-next-page-before'), after: reply.headers.get('x-next-page-after') };
      };
      const forward: string[] = [];
      let current = await page('before=0&after=0');
      expect(current.after).toBeNull();
      for (;;) {
        forward.push(...current.items.map((item) => item.transaction_id));
        if (current.before === null) break;
        expect(Number(current.before)).toBe(Math.min(...current.items.map((item) => item.block_time)));
        current = await page(`before=${current.before}`);
      }
      expect(forward).toHaveLength(25);
      expect(new Set(forward)).toEqual(new Set(newestFirst));
      expect(forward.map((id) => history.find((tx) => idHex(tx) === id)!.blockTime)).toEqual(newestFirst.map((id) => history.find((tx) => idHex(tx) === id)!.blockTime));

      const backward: string[][] = [];
      current = await page('after=1');
      expect(current.before).toBeNull();
      for (;;) {
        backward.unshift(current.items.map((item) => item.transaction_id));
        if (current.after === null) break;
        current = await page(`after=${current.after}`);
      }
      expect(new Set(backward.flat())).toEqual(new Set(newestFirst));
      expect(backward.flat()).toHaveLength(25);
    });

    it('full-transactions-page errors: both cursors 400, limit out of range 422, unknown parameter 422', async () => {
      const { request } = await harness(db);
      const path = `/addresses/${addressOf(PAGED)}/full-transactions-page`;
      const both = await request(`${path}?before=5&after=5`);
      expect(both).toMatchObject({ status: 400, body: { detail: 'Only one of [before, after] can be present' } });
      expect(both.headers.get('x-page-count')).toBe('0');
      expect(await request(`${path}?limit=501`)).toMatchObject({
        status: 422,
        body: { detail: [{ loc: ['query', 'limit'], type: 'value_error.number.not_le', ctx: { limit_value: 500 } }] },
      });
      expect((await request(`${path}?limit=ten`)).status).toBe(422);
      expect((await request(`${path}?before=99999999999999999999`)).status).toBe(422);
      expect((await request(`${path}?offset=3`)).status).toBe(422);
      const empty = await request(`/addresses/${addressOf('nobody')}/full-transactions-page?limit=10&before=0&after=0`);
      expect(empty).toMatchObject({ status: 200, body: [] });
      expect(empty.headers.get('x-page-count')).toBe('0');
    });

    it('full-transactions: the legacy offset paging, newest first', async () => {
      const { request } = await harness(db);
      const path = `/addresses/${addressOf(PAGED)}/full-transactions`;
      const page = (await request(`${path}?limit=4&offset=4&fields=transaction_id`)).body as { transaction_id: string }[];
      expect(page.map((item) => item.transaction_id)).toEqual(newestFirst.slice(4, 8));
      expect((await request(`${path}?offset=-1`)).status).toBe(422);
      expect((await request(`${path}?before=1`)).status).toBe(422);
    });

    it('POST balances and utxos of several addresses; bad addresses 400, bad bodies 422', async () => {
      const { request } = await harness(db);
      const [alice, bob] = [addressOf('alice'), addressOf('bob')];
      expect((await request('/addresses/balances', { body: { addresses: [alice, bob] } })).body).toEqual([
        { address: alice, balance: 1900 },
        { address: bob, balance: 0 },
      ]);
      const utxos = (await request('/addresses/utxos', { body: { addresses: [alice, bob] } })).body as { address: string; utxoEntry: Record<string, unknown> }[];
      expect(utxos.map((utxo) => utxo.address)).toEqual([alice, bob]);
      expect(utxos[0]?.utxoEntry).toEqual({ amount: '1900', scriptPublicKey: { scriptPublicKey: UTXO_SCRIPT }, blockDaaScore: '19990', isCoinbase: false });
      expect((await request('/addresses/balances', { body: { addresses: [] } })).body).toEqual([]);
      expect(await request('/addresses/utxos', { body: { addresses: [alice, 'kaspa:nope'] } })).toMatchObject({ status: 400, body: { detail: 'Invalid address: kaspa:nope' } });
      expect((await request('/addresses/balances', { body: { addresses: alice } })).status).toBe(422);
      expect((await request('/addresses/balances', { body: { addresses: Array(1001).fill(alice) } })).status).toBe(422);
    });

    it('top, distribution (from accepted balances) and names', async () => {
      const { request } = await harness(db);
      const [top] = (await request('/addresses/top')).body as { timestamp: number; ranking: { rank: number; address: string; amount: number }[] }[];
      expect(top?.timestamp).toBe(NOW);
      // alice: 5000 received, 5000 spent, 1900 back; bob 3000; paged 1+…+25 = 325.
      expect(top?.ranking.slice(0, 3)).toEqual([
        { rank: 1, address: addressOf('bob'), amount: 3000 },
        { rank: 2, address: addressOf('alice'), amount: 1900 },
        { rank: 3, address: addressOf(PAGED), amount: 325 },
      ]);
      const [distribution] = (await request('/addresses/distribution')).body as { tiers: { tier: number; count: number; amount: number }[] }[];
      expect(distribution?.tiers).toHaveLength(11);
      // All three balances are below 10,000 sompi (0.0001 KAS), tier 0's floor.
      expect(distribution?.tiers.every((tier) => tier.count === 0)).toBe(true);
      expect((await request('/addresses/top?limit=2')).status).toBe(400);
      expect((await request(`/addresses/top?before=${NOW - HOUR}`)).body).toEqual([]);
      const names = (await request('/addresses/names')).body as unknown[];
      expect(names).toEqual([
        { address: addressOf('exchange'), name: 'Exchange' },
        { address: addressOf('alice'), name: 'Alice' },
      ]);
      expect((await request(`/addresses/${addressOf('alice')}/name`)).body).toEqual({ address: addressOf('alice'), name: 'Alice' });
      expect((await request(`/addresses/${addressOf('bob')}/name`)).status).toBe(404);
    });
    it('POST /addresses/active: active with the newest block time where the index holds history; the count and balance history answer 503 as kaspa-rest-server with them off', async () => {
      const { request } = await harness(db);
      const nobody = addressOf('nobody');
      const active = await request('/addresses/active', { body: { addresses: [addressOf('alice'), nobody, addressOf('alice')] } });
      expect(active.body).toEqual([
        { address: addressOf('alice'), active: true, lastTxBlockTime: 40_001 },
        { address: nobody, active: false },
        { address: addressOf('alice'), active: true, lastTxBlockTime: 40_001 },
      ]);
      expect(await request('/addresses/active', { body: { addresses: ['kaspadev:nope'] } })).toMatchObject({ status: 400, body: { detail: 'Invalid address: kaspadev:nope' } });
      expect(await request('/addresses/active', { body: { addresses: 'x' } })).toMatchObject({ status: 422 });
      expect((await request('/addresses/active')).status).toBe(405);
      expect(await request('/addresses/active/count/')).toMatchObject({ status: 503, body: { detail: 'Addresses active count is disabled' } });
      expect(await request('/addresses/active/count/2026-11')).toMatchObject({ status: 503 });
      expect(await request(`/addresses/${addressOf('alice')}/balance/2026-11-01`)).toMatchObject({ status: 503, body: { detail: 'Balance history is disabled' } });
    });
  });

  describe('CORS and access', () => {
    it('answers preflights; every response, errors included, carries Allow-Origin * and exposes the paging headers', async () => {
      const { request } = await harness(db);
      const preflight = await request('/info/market-data', {
        method: 'OPTIONS',
        headers: { 'access-control-request-method': 'GET', 'access-control-request-headers': 'access-control-allow-origin,cache-control' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
      expect(preflight.headers.get('access-control-allow-headers')).toBe('access-control-allow-origin,cache-control');
      expect(preflight.headers.get('access-control-allow-methods')).toContain('GET');
      for (const path of ['/info/blockdag', '/nope', `/blocks/${bytesToHex(hashOf('x'))}`]) {
        const reply = await request(path);
        expect(reply.headers.get('access-control-allow-origin')).toBe('*');
        const exposed = reply.headers.get('access-control-expose-headers') ?? '';
        for (const header of ['X-Page-Count', 'X-Next-Page-After', 'X-Next-Page-Before']) expect(exposed).toContain(header);
      }
      expect(await request('/nope')).toMatchObject({ status: 404, body: { detail: 'Not Found' } });
      expect(await request('/info/blockdag', { method: 'DELETE' })).toMatchObject({ status: 405, body: { detail: 'Method Not Allowed' } });
    });

    it('keyless: metered per client IP in RU from the cost table, 429 past the limit, other IPs unaffected', async () => {
      const { request } = await harness(db, { mode: 'keyless', ruPerSecondPerIp: 1 });
      const first = await request('/info/blockdag');
      expect(first.headers.get('x-request-cost-ru')).toBe('0.1');
      expect(first.headers.get('ratelimit-limit')).toBe('1');
      expect(first.headers.get('ratelimit-remaining')).toBe('0.9');
      const cost = KASPA_REST_ROUTE_COSTS['GET /kaspa-rest/addresses/{kaspaAddress}/full-transactions-page'];
      expect(cost).toBe(1000);
      const refused = await request(`/addresses/${addressOf(PAGED)}/full-transactions-page`);
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ detail: expect.stringContaining('Rate limit exceeded') });
      expect(refused.headers.get('retry-after')).not.toBeNull();
      expect(refused.headers.get('access-control-allow-origin')).toBe('*');
      expect((await request('/info/blockdag', { ip: '198.51.100.1' })).status).toBe(200);
    });

    it('api-key access: no key 401, a key is charged', async () => {
      const { request, key } = await harness(db, { mode: 'api-key', ruPerSecondPerIp: 1000 });
      expect(await request('/info/blockdag')).toMatchObject({ status: 401, body: { detail: expect.stringContaining('x-api-key') } });
      const charged = await request('/info/blockdag', { headers: { 'x-api-key': key } });
      expect(charged.status).toBe(200);
      expect(charged.headers.get('x-request-cost-ru')).toBe('0.1');
      expect(charged.headers.get('x-ru-remaining')).toBe('999.9');
    });
  });
});
