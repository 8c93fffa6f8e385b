import { expect, test, type APIRequestContext } from '@playwright/test';
import { awaitMatureWalletUtxos, FEE, freshReceiver, spend, submissionOf } from '../devnet-wallet';
import { DEVNET_ADDRESS, json, keyed, post } from './support';

type Json = Record<string, unknown>;

async function indexerReady(request: APIRequestContext): Promise<void> {
  await expect
    .poll(async () => ((await (await request.get('/api/status')).json()) as { indexer: { ready: boolean } | null }).indexer?.ready, {
      timeout: 90_000,
    })
    .toBe(true);
}

interface Sample {
  blockHash: string;
  transactionId: string;
  address: string;
}

/** A sink block with a payment in it, once the index holds the block and has accepted the payment. */
async function sample(request: APIRequestContext): Promise<Sample> {
  await indexerReady(request);
  for (let attempt = 0; attempt < 20; attempt++) {
    const dag = await json<{ sink: string }>(await request.get('/v1/rpc/getBlockDagInfo', { headers: keyed }));
    const { block } = await json<{ block: Json }>(await post(request, '/v1/rpc/getBlock', { hash: dag.sink, includeTransactions: true }));
    const transactions = block.transactions as { inputs: unknown[]; verboseData: { transactionId: string }; outputs: { verboseData: { scriptPublicKeyAddress: string } }[] }[];
    const payment = transactions.find((transaction) => transaction.inputs.length > 0);
    if (payment !== undefined) {
      const transactionId = payment.verboseData.transactionId;
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline) {
        const response = await request.get(`/kaspa-rest/transactions/${transactionId}`);
        if (response.status() === 200 && ((await response.json()) as Json).is_accepted === true) {
          return { blockHash: dag.sink, transactionId, address: payment.outputs[0]!.verboseData.scriptPublicKeyAddress };
        }
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error('no accepted payment found in the sink blocks');
}

test.describe('/kaspa-rest: the kaspa-rest-server interface on the devnet', () => {
  let chain: Sample;

  test.beforeAll(async ({ request }) => {
    test.setTimeout(240_000);
    chain = await sample(request);
  });

  test('a transaction reads the same through /v1 and /kaspa-rest', async ({ request }) => {
    const { transaction: v1 } = await json<{ transaction: Json }>(await request.get(`/v1/transactions/${chain.transactionId}`, { headers: keyed }));
    const rest = await json<Json>(await request.get(`/kaspa-rest/transactions/${chain.transactionId}?resolve_previous_outpoints=light`));
    expect(rest).toMatchObject({
      transaction_id: v1.transactionId,
      hash: v1.hash,
      subnetwork_id: v1.subnetworkId,
      mass: v1.mass,
      block_time: v1.blockTime,
      version: v1.version,
      is_accepted: v1.isAccepted,
      accepting_block_hash: v1.acceptingBlockHash,
    });
    expect([...(rest.block_hash as string[])].sort()).toEqual([...(v1.blockHashes as string[])].sort());
    expect(typeof rest.accepting_block_blue_score).toBe('number');
    expect(typeof rest.accepting_block_time).toBe('number');
    const outputs = rest.outputs as Json[];
    expect(outputs.map((output) => [output.amount, output.script_public_key_address, output.script_public_key_type])).toEqual(
      (v1.outputs as Json[]).map((output) => [Number(output.amount), output.scriptPublicKeyAddress, output.scriptPublicKeyType]),
    );
    const inputs = rest.inputs as Json[];
    expect(inputs.map((input) => [input.previous_outpoint_hash, input.previous_outpoint_address, input.previous_outpoint_amount])).toEqual(
      (v1.inputs as { previousOutput: Json }[]).map(({ previousOutput }) => [
        previousOutput.transactionId,
        previousOutput.scriptPublicKeyAddress,
        previousOutput.amount === null ? null : Number(previousOutput.amount),
      ]),
    );
    const searched = await json<Json[]>(
      await request.post('/kaspa-rest/transactions/search?fields=&resolve_previous_outpoints=light', { data: { transactionIds: [chain.transactionId] } }),
    );
    expect(searched).toEqual([rest]);
  });

  test('a block reads the same as the node’s, gRPC-shaped, with its colour; an unknown hash is 404', async ({ request }) => {
    const { block } = await json<{ block: Json }>(await post(request, '/v1/rpc/getBlock', { hash: chain.blockHash, includeTransactions: true }));
    const rest = await json<Json>(await request.get(`/kaspa-rest/blocks/${chain.blockHash}?includeColor=true`));
    const header = block.header as Json;
    const restHeader = rest.header as Json;
    expect(restHeader).toMatchObject({
      version: header.version,
      hashMerkleRoot: header.hashMerkleRoot,
      acceptedIdMerkleRoot: header.acceptedIdMerkleRoot,
      utxoCommitment: header.utxoCommitment,
      timestamp: header.timestamp,
      bits: header.bits,
      nonce: header.nonce,
      daaScore: header.daaScore,
      blueScore: header.blueScore,
      pruningPoint: header.pruningPoint,
    });
    expect(BigInt(`0x${restHeader.blueWork as string}`)).toBe(BigInt(`0x${header.blueWork as string}`));
    expect(restHeader.parents).toEqual((header.parentsByLevel as string[][]).map((level) => ({ parentHashes: level })));
    const verbose = rest.verboseData as Json;
    expect(verbose.hash).toBe(chain.blockHash);
    expect(verbose.transactionIds).toEqual((block.verboseData as Json).transactionIds);
    expect(['blue', 'red']).toContain((rest.extra as Json).color);
    expect((rest.extra as Json).minerAddress).toMatch(DEVNET_ADDRESS);
    const restTransactions = rest.transactions as { verboseData: Json; outputs: { amount: number }[] }[];
    const nodeTransactions = block.transactions as { verboseData: Json; outputs: { value: string }[] }[];
    expect(restTransactions.map((tx) => tx.verboseData.transactionId)).toEqual(nodeTransactions.map((tx) => tx.verboseData.transactionId));
    expect(restTransactions.map((tx) => tx.outputs.map((output) => output.amount))).toEqual(
      nodeTransactions.map((tx) => tx.outputs.map((output) => Number(output.value))),
    );
    const unknown = await request.get(`/kaspa-rest/blocks/${'0'.repeat(64)}?includeColor=true`);
    expect(unknown.status()).toBe(404);
    expect(await unknown.json()).toEqual({ detail: 'Block not found' });
    expect(unknown.headers()['access-control-allow-origin']).toBe('*');
  });

  test('an address: balance as the node’s UTXOs sum, history pages as /v1 pages', async ({ request }) => {
    const address = chain.address;
    // The traffic spends all the time: read both until they agree between two spends.
    await expect
      .poll(
        async () => {
          const balance = await json<{ address: string; balance: number }>(await request.get(`/kaspa-rest/addresses/${address}/balance`));
          const utxos = await json<{ outpoint: { transactionId: string; index: number }; utxoEntry: { amount: string } }[]>(
            await request.get(`/kaspa-rest/addresses/${address}/utxos`),
          );
          const { entries } = await json<{ entries: { outpoint: { transactionId: string; index: number }; amount: string }[] }>(
            await post(request, '/v1/rpc/getUtxosByAddresses', { addresses: [address] }),
          );
          const sum = entries.reduce((total, entry) => total + BigInt(entry.amount), 0n);
          const restOutpoints = utxos.map((utxo) => `${utxo.outpoint.transactionId}:${utxo.outpoint.index}:${utxo.utxoEntry.amount}`).sort();
          const v1Outpoints = entries.map((entry) => `${entry.outpoint.transactionId}:${entry.outpoint.index}:${entry.amount}`).sort();
          return balance.address === address && BigInt(balance.balance) === sum && restOutpoints.join() === v1Outpoints.join();
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    const count = await json<{ total: number }>(await request.get(`/kaspa-rest/addresses/${address}/transactions-count`));
    expect(count.total).toBeGreaterThan(0);

    const v1 = await json<{ transactions: { transactionId: string; blockTime: number }[] }>(
      await request.get(`/v1/addresses/${address}/transactions?limit=50`, { headers: keyed }),
    );
    expect(v1.transactions.length).toBeGreaterThan(2);
    // Older than the newest item, so transactions arriving meanwhile do not move the page.
    const before = v1.transactions[0]!.blockTime;
    const page = await request.get(`/kaspa-rest/addresses/${address}/full-transactions-page?limit=2&before=${before}&fields=&resolve_previous_outpoints=light`);
    const items = await json<{ transaction_id: string; block_time: number }[]>(page);
    expect(page.headers()['x-page-count']).toBe(String(items.length));
    const expected = v1.transactions.filter((item) => item.blockTime < before).map((item) => item.transactionId);
    expect(items.map((item) => item.transaction_id)).toEqual(expected.slice(0, items.length));
    const older = page.headers()['x-next-page-before'];
    if (expected.length > items.length) {
      expect(Number(older)).toBe(items.at(-1)!.block_time);
      const next = await json<{ transaction_id: string }[]>(await request.get(`/kaspa-rest/addresses/${address}/full-transactions-page?limit=2&before=${older}`));
      expect(next.map((item) => item.transaction_id)).toEqual(expected.slice(items.length, items.length + next.length));
    }
    expect(page.headers()['x-next-page-after']).toBe(String(items[0]!.block_time));
  });

  test('every call kaspa-explorer-ng makes answers 2xx with what it reads', async ({ request }) => {
    const dag = await json<Json>(await request.get('/kaspa-rest/info/blockdag'));
    expect(dag.networkName).toBe('kaspa-devnet');
    expect(dag.virtualDaaScore).toMatch(/^\d+$/);
    const supply = await json<Json>(await request.get('/kaspa-rest/info/coinsupply'));
    expect(supply.circulatingSupply).toMatch(/^\d+$/);
    expect((await json<Json>(await request.get('/kaspa-rest/info/blockreward'))).blockreward).toBeGreaterThan(0);
    expect(typeof (await json<Json>(await request.get('/kaspa-rest/info/halving'))).nextHalvingTimestamp).toBe('number');
    expect(((await json<Json>(await request.get('/kaspa-rest/info/fee-estimate'))).normalBuckets as unknown[]).length).toBeGreaterThan(0);
    expect((await json<Json>(await request.get('/kaspa-rest/info/kaspad'))).mempoolSize).toMatch(/^\d+$/);
    expect(typeof (await json<Json>(await request.get('/kaspa-rest/info/virtual-chain-blue-score'))).blueScore).toBe('number');
    const market = await json<{ current_price: { usd: number }; price_change_percentage_24h: number; source: string }>(
      await request.get('/kaspa-rest/info/market-data', { headers: { 'cache-control': 'no-cache' } }),
    );
    expect(market.current_price.usd).toBeGreaterThan(0);
    expect(typeof market.price_change_percentage_24h).toBe('number');
    expect(market.source).toBe('simulated');
    // The trailing slash is part of kaspa-rest-server's path: no redirect.
    const total = await json<{ coinbase: number; regular: number }>(await request.get('/kaspa-rest/transactions/count/', { maxRedirects: 0 }));
    expect(total.coinbase + total.regular).toBeGreaterThan(0);
    const today = new Date().toISOString().slice(0, 10);
    const hours = await json<{ timestamp: number; dateTime: string }[]>(await request.get(`/kaspa-rest/transactions/count/${today}`));
    expect(hours.length).toBeGreaterThan(0);
    const [top] = await json<{ ranking: { rank: number; address: string; amount: number }[] }[]>(await request.get('/kaspa-rest/addresses/top'));
    expect(top!.ranking.length).toBeGreaterThan(0);
    expect(top!.ranking[0]!.address).toMatch(DEVNET_ADDRESS);
    const [distribution] = await json<{ tiers: { tier: number; count: number }[] }[]>(await request.get('/kaspa-rest/addresses/distribution'));
    expect(distribution!.tiers.some((tier) => tier.count > 0)).toBe(true);
    const names = await json<{ address: string; name: string }[]>(await request.get('/kaspa-rest/addresses/names'));
    expect(names.length).toBeGreaterThan(1);
    for (const entry of names) expect(entry.address).toMatch(DEVNET_ADDRESS);
    const health = await request.get('/kaspa-rest/info/health');
    expect(((await health.json()) as { kaspadServers: unknown[] }).kaspadServers.length).toBe(1);
  });

  test('CORS: preflights answered, Allow-Origin * on answers and errors, paging headers exposed; metered per IP', async ({ request }) => {
    const preflight = await request.fetch('/kaspa-rest/info/market-data', {
      method: 'OPTIONS',
      headers: {
        origin: 'http://explorer.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'access-control-allow-origin,cache-control',
      },
    });
    expect(preflight.status()).toBe(204);
    expect(preflight.headers()['access-control-allow-origin']).toBe('*');
    expect(preflight.headers()['access-control-allow-headers']).toBe('access-control-allow-origin,cache-control');
    const postPreflight = await request.fetch('/kaspa-rest/transactions/search', {
      method: 'OPTIONS',
      headers: { origin: 'http://explorer.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(postPreflight.status()).toBe(204);
    expect(postPreflight.headers()['access-control-allow-methods']).toContain('POST');
    const answer = await request.get(`/kaspa-rest/addresses/${chain.address}/full-transactions-page?limit=1&before=0&after=0`, {
      headers: { origin: 'http://explorer.example' },
    });
    expect(answer.status()).toBe(200);
    expect(answer.headers()['access-control-allow-origin']).toBe('*');
    expect(answer.headers()['access-control-expose-headers']).toContain('X-Next-Page-Before');
    expect(answer.headers()['x-request-cost-ru']).toBe('1');
    expect(answer.headers()['ratelimit-limit']).toBe('50');
    const invalid = await request.get('/kaspa-rest/transactions/not-a-hash');
    expect(invalid.status()).toBe(422);
    expect(invalid.headers()['access-control-allow-origin']).toBe('*');
    expect(((await invalid.json()) as { detail: { loc: string[] }[] }).detail[0]!.loc).toEqual(['path', 'transactionId']);
  });
});

test.describe('/kaspa-rest: submission, mass and the chain from a block, against the devnet node', () => {
  /** A wallet spend in kaspa-rest-server's SubmitTxModel, as its clients build it. */
  const restModel = (tx: ReturnType<typeof spend>) => {
    const submission = submissionOf(tx);
    return {
      version: submission.version,
      inputs: submission.inputs.map((input) => ({ ...input, sequence: Number(input.sequence) })),
      outputs: submission.outputs.map((output) => ({
        amount: Number(output.value),
        scriptPublicKey: { version: output.scriptPublicKey.version, scriptPublicKey: output.scriptPublicKey.script },
      })),
      lockTime: 0,
      subnetworkId: submission.subnetworkId,
    };
  };

  test('a spend built by a client: its mass from the index, submitted through POST /transactions, then accepted', async ({ request }) => {
    test.setTimeout(300_000);
    await indexerReady(request);
    // Its mass is read from the index, which holds the outputs of transactions in blocks.
    const candidates = await awaitMatureWalletUtxos(request, { moreThan: 0, timeout: 240_000, indexed: true });
    const receiver = freshReceiver('kaspa-rest').script;
    // The traffic generator spends this wallet too: an output it took first is refused with 400 {error}, and another
    // is tried.
    let submitted: string | undefined;
    const refusals: string[] = [];
    for (const utxo of candidates.slice(0, 6)) {
      const model = restModel(spend(utxo, FEE, receiver));
      const mass = await request.post('/kaspa-rest/transactions/mass', { data: model });
      expect(mass.status(), await mass.text()).toBe(200);
      const masses = (await mass.json()) as { mass: number; storage_mass: number; compute_mass: number };
      expect(masses.compute_mass).toBeGreaterThan(0);
      expect(masses.mass).toBe(Math.max(masses.storage_mass, masses.compute_mass));
      const response = await request.post('/kaspa-rest/transactions', { data: { transaction: model } });
      if (response.status() === 400) {
        refusals.push(((await response.json()) as { error: string }).error);
        continue;
      }
      expect(response.status(), await response.text()).toBe(200);
      submitted = ((await response.json()) as { transactionId: string }).transactionId;
      break;
    }
    expect(submitted, `a submission went through; refusals: ${refusals.join(' | ')}`).toBeDefined();
    await expect
      .poll(async () => {
        const response = await request.get(`/kaspa-rest/transactions/${submitted}`);
        return response.status() === 200 ? ((await response.json()) as Json).is_accepted : false;
      }, { timeout: 60_000, intervals: [1_000] })
      .toBe(true);
  });

  test("get-vscp-from-block: the node's chain from a recent sink, each added block with its accepted ids", async ({ request }) => {
    const { sink } = await json<{ sink: string }>(await request.get('/v1/rpc/getBlockDagInfo', { headers: keyed }));
    await expect
      .poll(async () => {
        const chain = await json<{ addedChainBlockHashes: string[]; acceptedTransactionIds: { acceptingBlockHash: string }[] }>(
          await request.get(`/kaspa-rest/info/get-vscp-from-block?startHash=${sink}`),
        );
        expect(chain.acceptedTransactionIds.map((accepted) => accepted.acceptingBlockHash)).toEqual(chain.addedChainBlockHashes);
        return chain.addedChainBlockHashes.length;
      }, { timeout: 30_000 })
      .toBeGreaterThan(0);
    const unknown = await request.get(`/kaspa-rest/info/get-vscp-from-block?startHash=${'0f'.repeat(32)}`);
    expect(unknown.status()).toBe(400);
    expect(typeof ((await unknown.json()) as { detail: unknown }).detail).toBe('string');
  });
});
