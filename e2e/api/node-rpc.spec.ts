import { expect, test, type APIRequestContext } from '@playwright/test';
import { headerFromRpc } from '../../lib/rpc/convert-block';
import { bytesToHex } from '../../lib/kaspa/bytes';
import { PowState } from '../../lib/kaspa/pow';
import { transactionId } from '../../lib/kaspa/transaction';
import { stringifyJson } from '../../lib/rpc/json';
import type { RpcRawHeader } from '../../lib/rpc/types';
import {
  dagInfo,
  expectDecimal,
  expectHashList,
  expectHeader,
  expectInteger,
  expectKeys,
  expectMempoolEntry,
  expectProblem,
  expectReadBlock,
  expectReadTransaction,
  HASH,
  json,
  keyed,
  post,
} from './support';
import {
  awaitMatureWalletUtxos,
  COINBASE_MATURITY,
  FEE,
  freshReceiver,
  spend,
  submissionOf,
  templateSubmission,
  walletAddress,
  walletScript,
  type Utxo,
} from '../devnet-wallet';

type Json = Record<string, unknown>;


async function postText(request: APIRequestContext, path: string, body: unknown) {
  return request.post(path, { headers: { ...keyed, 'content-type': 'application/json' }, data: stringifyJson(body) });
}

function expectCost(headers: Record<string, string>, cost: string): void {
  expect(headers['x-request-cost-ru']).toBe(cost);
  expect(headers['ratelimit-limit']).toMatch(/^\d+(\.\d+)?$/);
  expect(headers['ratelimit-remaining']).toMatch(/^\d+(\.\d+)?$/);
  expect(headers['ratelimit-reset']).toMatch(/^\d+$/);
  expect(headers['x-ru-remaining']).toMatch(/^\d+(\.\d+)?$/);
  expect(headers['x-request-id']).toBeTruthy();
}





async function utxosOf(request: APIRequestContext, address: string): Promise<Utxo[]> {
  return (await json<{ entries: Utxo[] }>(await post(request, '/v1/rpc/getUtxosByAddresses', { addresses: [address] }))).entries;
}

const walletUtxos = (request: APIRequestContext) => utxosOf(request, walletAddress);

test.describe.configure({ mode: 'serial' });

test.describe('/v1 node-style endpoints', () => {
  test.beforeAll(async ({ request }) => {
    await expect
      .poll(async () => (await request.get('/v1/rpc/getBlockDagInfo', { headers: keyed })).status(), { timeout: 90_000 })
      .toBe(200);
  });

  test('GET /v1/rpc/getBlockDagInfo: every §2.8 field at the top level', async ({ request }) => {
    const response = await request.get('/v1/rpc/getBlockDagInfo', { headers: keyed });
    expectCost(response.headers(), '0.1');
    expect(response.headers()['cache-control']).toBe('no-store');
    const body = await json(response);
    expectKeys(body, [
      'network',
      'blockCount',
      'headerCount',
      'tipHashes',
      'difficulty',
      'pastMedianTime',
      'virtualParentHashes',
      'pruningPointHash',
      'virtualDaaScore',
      'sink',
    ]);
    expect(body.network).toBe('devnet');
    for (const field of ['blockCount', 'headerCount', 'pastMedianTime', 'virtualDaaScore']) expectDecimal(body[field]);
    expectHashList(body.tipHashes);
    expectHashList(body.virtualParentHashes);
    expect(typeof body.difficulty).toBe('number');
    expect(body.pruningPointHash).toMatch(HASH);
    expect(body.sink).toMatch(HASH);
  });

  test('POST /v1/rpc/getBlock: §2.3 block with and without transactions', async ({ request }) => {
    const { sink } = await dagInfo(request);
    const full = await post(request, '/v1/rpc/getBlock', { hash: sink, includeTransactions: true });
    expectCost(full.headers(), '0.1');
    const { block } = await json<{ block: Json }>(full);
    expectReadBlock(block, { transactions: true });
    expect((block.header as Json).hash).toBe(sink);
    const coinbase = (block.transactions as Json[])[0]!;
    expect(coinbase.subnetworkId).toBe('0100000000000000000000000000000000000000');
    expect((coinbase.verboseData as Json).blockHash).toBe(sink);
    expect((block.verboseData as Json).transactionIds).toEqual(
      (block.transactions as Json[]).map((tx) => (tx.verboseData as Json).transactionId),
    );

    const bare = await json<{ block: Json }>(await post(request, '/v1/rpc/getBlock', { hash: sink }));
    expectReadBlock(bare.block, { transactions: false });
  });

  test('POST /v1/rpc/getBlocks: hashes and blocks from a low hash', async ({ request }) => {
    const { sink } = await dagInfo(request);
    const { block } = await json<{ block: Json }>(await post(request, '/v1/rpc/getBlock', { hash: sink }));
    const lowHash = (block.verboseData as Json).selectedParentHash as string;
    const response = await post(request, '/v1/rpc/getBlocks', { lowHash, includeBlocks: true, includeTransactions: true });
    expectCost(response.headers(), '0.5');
    const body = await json<{ blockHashes: string[]; blocks: Json[] }>(response);
    expectKeys(body, ['blockHashes', 'blocks']);
    expectHashList(body.blockHashes);
    expect(body.blockHashes).toContain(lowHash);
    expect(body.blocks.map((item) => (item.header as Json).hash)).toEqual(body.blockHashes);
    for (const item of body.blocks) expectReadBlock(item, { transactions: true });

    const hashesOnly = await json<{ blockHashes: string[]; blocks: Json[] }>(
      await post(request, '/v1/rpc/getBlocks', { lowHash, includeBlocks: false, includeTransactions: false }),
    );
    expect(hashesOnly.blocks).toEqual([]);
    expect(hashesOnly.blockHashes.length).toBeGreaterThan(0);
  });

  test('GET /v1/rpc/getFeeEstimate: §2.7 buckets', async ({ request }) => {
    const response = await request.get('/v1/rpc/getFeeEstimate', { headers: keyed });
    expectCost(response.headers(), '0.1');
    const { estimate } = await json<{ estimate: Json }>(response);
    expectKeys(estimate, ['priorityBucket', 'normalBuckets', 'lowBuckets']);
    const buckets = [estimate.priorityBucket as Json, ...(estimate.normalBuckets as Json[]), ...(estimate.lowBuckets as Json[])];
    for (const bucket of buckets) {
      expectKeys(bucket, ['feerate', 'estimatedSeconds']);
      expect(typeof bucket.feerate).toBe('number');
      expect(typeof bucket.estimatedSeconds).toBe('number');
    }
  });

  test('POST /v1/rpc/getUtxosByAddresses: §2.6 entries of a funded devnet wallet', async ({ request }) => {
    await expect.poll(async () => (await walletUtxos(request)).length, { timeout: 30_000 }).toBeGreaterThan(0);
    const response = await post(request, '/v1/rpc/getUtxosByAddresses', { addresses: [walletAddress] });
    expectCost(response.headers(), '0.5');
    const { entries } = await json<{ entries: Json[] }>(response);
    for (const entry of entries) {
      expectKeys(entry, ['address', 'outpoint', 'amount', 'scriptPublicKey', 'blockDaaScore', 'isCoinbase']);
      expect(entry.address).toBe(walletAddress);
      expectKeys(entry.outpoint, ['transactionId', 'index']);
      expect((entry.outpoint as Json).transactionId).toMatch(HASH);
      expectInteger((entry.outpoint as Json).index);
      expectDecimal(entry.amount);
      expect(entry.scriptPublicKey).toEqual({ version: 0, script: bytesToHex(walletScript.script) });
      expectDecimal(entry.blockDaaScore);
      expect(typeof entry.isCoinbase).toBe('boolean');
    }
  });

  test('GET /v1/rpc/getMempoolEntries and POST getMempoolEntriesByAddresses answer lists of §2.5 entries', async ({ request }) => {
    const all = await request.get('/v1/rpc/getMempoolEntries?includeOrphanPool=false&filterTransactionPool=false', {
      headers: keyed,
    });
    expectCost(all.headers(), '0.1');
    const { mempoolEntries } = await json<{ mempoolEntries: Json[] }>(all);
    for (const entry of mempoolEntries) expectMempoolEntry(entry);
    const byAddress = await post(request, '/v1/rpc/getMempoolEntriesByAddresses', { addresses: [walletAddress] });
    expectCost(byAddress.headers(), '0.1');
    const { entries } = await json<{ entries: Json[] }>(byAddress);
    for (const entry of entries) expectMempoolEntry(entry);
  });

  test('POST /v1/rpc/getBlockTemplate: header without hash, read-form transactions, extraData in the coinbase', async ({
    request,
  }) => {
    const response = await post(request, '/v1/rpc/getBlockTemplate', { payAddress: walletAddress, extraData: 'e2e-miner' });
    expectCost(response.headers(), '0.1');
    const body = await json<{ block: Json }>(response);
    expectKeys(body, ['block']);
    expectKeys(body.block, ['header', 'transactions']);
    expectHeader(body.block.header as Json, { withHash: false });
    const transactions = body.block.transactions as Json[];
    for (const tx of transactions) expectReadTransaction(tx, { verbose: false });
    expect(transactions[0]!.payload).toContain(Buffer.from('e2e-miner').toString('hex'));
  });

  test('POST /v1/rpc/submitBlock: a solved template is accepted, an unsolved one is reported rejected', async ({ request }) => {
    const { block } = await json<{ block: Json }>(await post(request, '/v1/rpc/getBlockTemplate', { payAddress: walletAddress }));
    const header = block.header as Record<string, string | number | string[][]>;
    const kaspaHeader = headerFromRpc(header as unknown as RpcRawHeader);
    const pow = PowState.fromHeader(kaspaHeader);
    let nonce = 0n;
    while (!pow.checkPow(nonce)) nonce++;
    let unsolved = nonce + 1n;
    while (pow.checkPow(unsolved)) unsolved++;
    const transactions = (block.transactions as Json[]).map(templateSubmission);

    const rejected = await postText(request, '/v1/rpc/submitBlock', {
      block: { header: { ...header, nonce: unsolved.toString() }, transactions },
      allowNonDAABlocks: false,
    });
    expectCost(rejected.headers(), '0.1');
    expect(await json(rejected)).toEqual({ report: { type: 'reject', reason: 'blockInvalid' } });

    const accepted = await postText(request, '/v1/rpc/submitBlock', {
      block: { header: { ...header, nonce: nonce.toString() }, transactions },
      allowNonDAABlocks: false,
    });
    expect(await json(accepted)).toEqual({ report: { type: 'success', reason: 'none' } });
  });

  test('POST /v1/rpc/submitTransaction: an orphan is kept in the orphan pool and read back as a §2.5 entry', async ({
    request,
  }) => {
    const orphan = spend(
      { outpoint: { transactionId: 'ee'.repeat(32), index: 0 }, amount: '500000000', blockDaaScore: '0', isCoinbase: false },
      FEE,
    );
    const id = bytesToHex(transactionId(orphan));
    const response = await postText(request, '/v1/rpc/submitTransaction', { transaction: submissionOf(orphan), allowOrphan: true });
    expectCost(response.headers(), '0.1');
    expect(await json(response)).toEqual({ transactionId: id });

    const entryResponse = await post(request, '/v1/rpc/getMempoolEntry', {
      transactionId: id,
      includeOrphanPool: true,
      filterTransactionPool: false,
    });
    expectCost(entryResponse.headers(), '0.1');
    const { mempoolEntry } = await json<{ mempoolEntry: Json }>(entryResponse);
    expectMempoolEntry(mempoolEntry);
    expect(mempoolEntry.isOrphan).toBe(true);
    const tx = mempoolEntry.transaction as Json;
    expect((tx.verboseData as Json).transactionId).toBe(id);
    expect(tx.payload).toBe('0x');
    expect((tx.inputs as Json[])[0]).toEqual({
      previousOutpoint: { transactionId: 'ee'.repeat(32), index: 0 },
      signatureScript: bytesToHex(orphan.inputs[0]!.signatureScript),
      sequence: '0',
      sigOpCount: 1,
    });
    expect((tx.outputs as Json[])[0]).toEqual({
      value: (500000000n - FEE).toString(),
      scriptPublicKey: `0000${bytesToHex(walletScript.script)}`,
      verboseData: { scriptPublicKeyType: 'pubkey', scriptPublicKeyAddress: walletAddress },
    });

    const withOrphans = await json<{ mempoolEntries: Json[] }>(
      await request.get('/v1/rpc/getMempoolEntries?includeOrphanPool=true', { headers: keyed }),
    );
    expect(withOrphans.mempoolEntries.map((entry) => ((entry.transaction as Json).verboseData as Json).transactionId)).toContain(id);
    const byAddress = await json<{ entries: Json[] }>(
      await post(request, '/v1/rpc/getMempoolEntriesByAddresses', { addresses: [walletAddress], includeOrphanPool: true }),
    );
    expect(byAddress.entries.map((entry) => ((entry.transaction as Json).verboseData as Json).transactionId)).toContain(id);
  });

  test('POST /v1/rpc/submitTransaction: spending an immature coinbase is a 400 transaction_rejected', async ({ request }) => {
    const { virtualDaaScore } = await dagInfo(request);
    const immature = (await walletUtxos(request)).find(
      (utxo) => utxo.isCoinbase && BigInt(utxo.blockDaaScore) + COINBASE_MATURITY > BigInt(virtualDaaScore) + 50n,
    );
    expect(immature, 'the miners keep paying wallet 0, so a fresh coinbase output exists').toBeDefined();
    const response = await postText(request, '/v1/rpc/submitTransaction', { transaction: submissionOf(spend(immature!, FEE)) });
    const body = await expectProblem(response, 400, 'transaction_rejected');
    expect(body.detail).toMatch(/^Rejected transaction [0-9a-f]{64}: /);
  });

  test('a signed devnet-wallet transaction submits, shows in the mempool or the UTXO set, and can be replaced', async ({
    request,
  }) => {
    test.setTimeout(240_000);
    const candidates = await awaitMatureWalletUtxos(request, { moreThan: 3, timeout: 200_000 });
    // Paid to an address nobody else spends from, so the output stays in the UTXO set once mined.
    const { script: receiverScript, address: receiver } = freshReceiver('api-test');
    // The traffic generator spends this wallet too, and a miner may take the original before the replacement arrives;
    // either makes the node refuse a step, so a few UTXOs are tried until one goes through end to end.
    let submitted: string[] | undefined;
    for (const utxo of candidates.slice(0, 4)) {
      const tx = spend(utxo, FEE, receiverScript);
      const id = bytesToHex(transactionId(tx));
      const response = await postText(request, '/v1/rpc/submitTransaction', { transaction: submissionOf(tx), allowOrphan: false });
      expectCost(response.headers(), '0.1');
      if (response.status() !== 200) {
        await expectProblem(response, 400, 'transaction_rejected');
        continue;
      }
      expect(await json(response)).toEqual({ transactionId: id });

      const replacement = spend(utxo, FEE * 3n, receiverScript);
      const replaced = await postText(request, '/v1/rpc/submitTransactionReplacement', { transaction: submissionOf(replacement) });
      expectCost(replaced.headers(), '0.1');
      if (replaced.status() !== 200) {
        await expectProblem(replaced, 400, 'transaction_rejected');
        continue;
      }
      const body = await json<{ transactionId: string; replacedTransaction: Json }>(replaced);
      expectKeys(body, ['transactionId', 'replacedTransaction']);
      expect(body.transactionId).toBe(bytesToHex(transactionId(replacement)));
      expect(body.replacedTransaction).toEqual(JSON.parse(stringifyJson(submissionOf(tx))));
      // A block mined from an older template may still carry the original; one of the two must land.
      submitted = [id, body.transactionId];
      break;
    }
    expect(submitted, 'a submission and its replacement went through').toBeDefined();
    await expect
      .poll(
        async () => {
          const pool = await json<{ mempoolEntries: Json[] }>(await request.get('/v1/rpc/getMempoolEntries', { headers: keyed }));
          const inPool = pool.mempoolEntries.some((entry) =>
            submitted!.includes(((entry.transaction as Json).verboseData as Json).transactionId as string),
          );
          const mined = (await utxosOf(request, receiver)).some((entry) => submitted!.includes(entry.outpoint.transactionId));
          return inPool || mined;
        },
        { timeout: 20_000 },
      )
      .toBe(true);
  });
});
