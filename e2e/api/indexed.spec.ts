import { expect, test, type APIRequestContext } from '@playwright/test';
import { DEVNET_ADDRESS, expectDecimal, expectDevnetScript, expectHashList, expectInteger, expectKeys, HASH, HEX, json, keyed, post } from './support';

type Json = Record<string, unknown>;

const TRANSACTION_FIELDS = [
  'transactionId',
  'blockTime',
  'subnetworkId',
  'hash',
  'mass',
  'blockHashes',
  'acceptingBlockHash',
  'isAccepted',
  'confirmations',
  'payload',
  'inputs',
  'outputs',
];
/** The Toccata extensions beside the spec's fields (README: the /v1 API), always present. */
const TOCCATA_TRANSACTION_FIELDS = ['version', 'storageMass', 'computeMass', 'gas'];
const OUTPUT_FIELDS = ['transactionId', 'index', 'amount', 'scriptPublicKey', 'scriptPublicKeyAddress', 'scriptPublicKeyType'];

/** §2.1 indexed view. */
function expectIndexedTransaction(tx: Json, extra: readonly string[] = []): void {
  expectKeys(tx, [...TRANSACTION_FIELDS, ...TOCCATA_TRANSACTION_FIELDS, ...extra]);
  expectInteger(tx.version);
  expectDecimal(tx.gas);
  if (tx.storageMass !== null) expectDecimal(tx.storageMass);
  if (tx.computeMass !== null) expectDecimal(tx.computeMass);
  expect(tx.transactionId).toMatch(HASH);
  expectInteger(tx.blockTime);
  expect(tx.subnetworkId).toMatch(/^[0-9a-f]{40}$/);
  expect(tx.hash).toMatch(HASH);
  expectDecimal(tx.mass);
  expectHashList(tx.blockHashes);
  expect((tx.blockHashes as unknown[]).length).toBeGreaterThan(0);
  expect(typeof tx.isAccepted).toBe('boolean');
  if (tx.isAccepted) expect(tx.acceptingBlockHash).toMatch(HASH);
  else expect(tx.acceptingBlockHash).toBeNull();
  expectInteger(tx.confirmations);
  expect(tx.payload).toMatch(/^0x([0-9a-f]{2})*$/);
  for (const [index, input] of (tx.inputs as Json[]).entries()) {
    expectKeys(input, ['transactionId', 'index', 'signatureScript', 'sigOpCount', 'computeBudget', 'previousOutput']);
    expectInteger(input.computeBudget);
    expect(input.transactionId).toBe(tx.transactionId);
    expect(input.index).toBe(index);
    expect(input.signatureScript).toMatch(HEX);
    expectInteger(input.sigOpCount);
    const previous = input.previousOutput as Json;
    expectKeys(previous, [...OUTPUT_FIELDS, 'covenantId']);
    if (previous.covenantId !== null) expect(previous.covenantId).toMatch(HASH);
    expect(previous.transactionId).toMatch(HASH);
    expectInteger(previous.index);
    if (previous.amount !== null) {
      expectDecimal(previous.amount);
      expectDevnetScript(previous.scriptPublicKey, previous.scriptPublicKeyType);
    }
  }
  for (const [index, output] of (tx.outputs as Json[]).entries()) {
    expectKeys(output, [...OUTPUT_FIELDS, 'covenant']);
    if (output.covenant !== null) expectKeys(output.covenant, ['authorizingInput', 'covenantId']);
    expect(output.transactionId).toBe(tx.transactionId);
    expect(output.index).toBe(index);
    expectDecimal(output.amount);
    expectDevnetScript(output.scriptPublicKey, output.scriptPublicKeyType);
    expect(output.scriptPublicKeyAddress).toMatch(DEVNET_ADDRESS);
  }
}

async function indexerReady(request: APIRequestContext): Promise<void> {
  await expect
    .poll(async () => ((await (await request.get('/api/status')).json()) as { indexer: { ready: boolean } | null }).indexer?.ready, {
      timeout: 90_000,
    })
    .toBe(true);
}

interface Sample {
  transactionIds: string[];
  daaScore: bigint;
  address: string;
}

const SAMPLE_ATTEMPTS = 12;
const ACCEPTANCE_WAIT_MS = 10_000;

async function isAcceptedWithin(request: APIRequestContext, transactionId: string, milliseconds: number): Promise<boolean> {
  const deadline = Date.now() + milliseconds;
  while (Date.now() < deadline) {
    const response = await request.get(`/v1/transactions/${transactionId}`, { headers: keyed });
    if (response.status() === 200 && ((await response.json()) as { transaction: Json }).transaction.isAccepted) return true;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return false;
}

async function sinkSample(request: APIRequestContext): Promise<Sample> {
  const dag = await json<{ sink: string }>(await request.get('/v1/rpc/getBlockDagInfo', { headers: keyed }));
  const { block } = await json<{ block: Json }>(await post(request, '/v1/rpc/getBlock', { hash: dag.sink, includeTransactions: true }));
  const transactionIds = (block.verboseData as { transactionIds: string[] }).transactionIds;
  const outputs = (block.transactions as { outputs: { verboseData?: { scriptPublicKeyAddress: string } }[] }[]).flatMap(
    (tx) => tx.outputs,
  );
  const address = outputs.find((output) => output.verboseData !== undefined)?.verboseData?.scriptPublicKeyAddress;
  expect(address).toMatch(DEVNET_ADDRESS);
  return { transactionIds, daaScore: BigInt((block.header as { daaScore: string }).daaScore), address: address! };
}

/**
 * A recent sink's transactions, once the index holds them and its coinbase is accepted. A sink can leave the selected
 * chain before any chain block accepts it (the devnet has parallel blocks and reorganisations), so a sample whose
 * coinbase stays unaccepted is replaced by the newer sink.
 */
async function sample(request: APIRequestContext): Promise<Sample> {
  await indexerReady(request);
  for (let attempt = 0; attempt < SAMPLE_ATTEMPTS; attempt++) {
    const candidate = await sinkSample(request);
    if (await isAcceptedWithin(request, candidate.transactionIds[0]!, ACCEPTANCE_WAIT_MS)) return candidate;
  }
  throw new Error(`no sink's coinbase was accepted in ${SAMPLE_ATTEMPTS} attempts`);
}

test.describe('indexed /v1 endpoints on the devnet', () => {
  let chain: Sample;

  test.beforeAll(async ({ request }) => {
    test.setTimeout(240_000);
    chain = await sample(request);
  });

  test('GET /v1/transactions/{id}: the §2.1 view of an indexed coinbase', async ({ request }) => {
    const id = chain.transactionIds[0]!;
    const response = await request.get(`/v1/transactions/${id}`, { headers: keyed });
    const { transaction } = await json<{ transaction: Json }>(response);
    expectIndexedTransaction(transaction);
    expect(transaction.transactionId).toBe(id);
    expect(transaction.inputs).toEqual([]);
    expect(transaction.payload).toBe('0x');
    expect(response.headers()['etag']).toBeTruthy();
    expect(response.headers()['x-request-cost-ru']).toBe('0.1');
    const withPayload = await json<{ transaction: Json }>(
      await request.get(`/v1/transactions/${id}?include_payload=true`, { headers: keyed }),
    );
    expect((withPayload.transaction.payload as string).length).toBeGreaterThan(2);
    const unknown = await request.get(`/v1/transactions/${'0'.repeat(64)}`, { headers: keyed });
    expect(unknown.status()).toBe(404);
    expect(((await unknown.json()) as Json).code).toBe('transaction_not_found');
  });

  test('POST /v1/transactions: the block’s transactions in the order asked', async ({ request }) => {
    const response = await post(request, '/v1/transactions', { transactionIds: chain.transactionIds });
    const { transactions } = await json<{ transactions: Json[] }>(response);
    expect(transactions.map((tx) => tx.transactionId)).toEqual(chain.transactionIds);
    for (const tx of transactions) expectIndexedTransaction(tx);
    expect(response.headers()['x-request-cost-ru']).toBe('0.5');
    const tooMany = await post(request, '/v1/transactions', { transactionIds: Array.from({ length: 501 }, () => '0'.repeat(64)) });
    expect(tooMany.status()).toBe(400);
  });

  test('GET /v1/addresses/{address}/transactions: a miner’s history pages both ways', async ({ request }) => {
    const base = `/v1/addresses/${chain.address}/transactions`;
    const first = await json<{ transactions: Json[]; metadata: { hasMore: boolean; count: number } }>(
      await request.get(`${base}?limit=3`, { headers: keyed }),
    );
    expect(first.metadata.count).toBe(first.transactions.length);
    expect(first.transactions.length).toBeGreaterThan(0);
    for (const item of first.transactions) {
      expectIndexedTransaction(item, ['amountSent', 'amountReceived', 'balanceChange', 'fee']);
      expectDecimal(item.amountSent);
      expectDecimal(item.amountReceived);
      expect(item.balanceChange).toMatch(/^-?(0|[1-9]\d*)$/);
      expect(BigInt(item.balanceChange as string)).toBe(BigInt(item.amountReceived as string) - BigInt(item.amountSent as string));
    }
    const times = first.transactions.map((item) => item.blockTime as number);
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    // A miner is paid in most blocks, so its history runs to many pages.
    expect(first.metadata.hasMore).toBe(true);
    const last = first.transactions.at(-1)!.transactionId as string;
    const second = await json<{ transactions: Json[] }>(await request.get(`${base}?limit=3&starting_after=${last}`, { headers: keyed }));
    const head = second.transactions[0]!.transactionId as string;
    expect(first.transactions.map((item) => item.transactionId)).not.toContain(head);
    // The items just newer than the second page's head are the first page, whatever arrived since.
    const back = await json<{ transactions: Json[] }>(await request.get(`${base}?limit=3&ending_before=${head}`, { headers: keyed }));
    expect(back.transactions.map((item) => item.transactionId)).toEqual(first.transactions.map((item) => item.transactionId));
    const mainnet = chain.address.replace(/^kaspadev:/, 'kaspa:');
    const wrong = await request.get(`/v1/addresses/${mainnet}/transactions`, { headers: keyed });
    expect(wrong.status()).toBe(400);
    expect(((await wrong.json()) as Json).code).toBe('invalid_address');
    const both = await request.get(`${base}?starting_after=${'0'.repeat(64)}&ending_before=${'0'.repeat(64)}`, { headers: keyed });
    expect(both.status()).toBe(400);
    expect((await request.get(`${base}?limit=101`, { headers: keyed })).status()).toBe(400);
  });

  test('GET /v1/blocks/daa-score/{start}/{end}: §2.4 blocks and their transactions', async ({ request }) => {
    const end = chain.daaScore;
    const start = end > 20n ? end - 20n : 0n;
    const response = await request.get(`/v1/blocks/daa-score/${start}/${end}?include_transactions=true`, { headers: keyed });
    const body = await json<{ blocks: Json[]; transactions: Json[] }>(response);
    expect(response.headers()['x-request-cost-ru']).toBe('1');
    expect(body.blocks.length).toBeGreaterThan(0);
    for (const block of body.blocks) {
      expectKeys(block, [
        'hash',
        'acceptedIdMerkleRoot',
        'difficulty',
        'isChainBlock',
        'mergeSetBluesHashes',
        'mergeSetRedsHashes',
        'selectedParentHash',
        'bits',
        'blueScore',
        'blueWork',
        'daaScore',
        'hashMerkleRoot',
        'nonce',
        'parents',
        'pruningPoint',
        'timestamp',
        'utxoCommitment',
        'version',
        'transactionIds',
      ]);
      expect(typeof block.difficulty).toBe('number');
      expect(typeof block.isChainBlock).toBe('boolean');
      expectInteger(block.bits);
      expectInteger(block.blueScore);
      expectInteger(block.daaScore);
      expect(BigInt(block.daaScore as number)).toBeGreaterThanOrEqual(start);
      expect(BigInt(block.daaScore as number)).toBeLessThanOrEqual(end);
      expectDecimal(block.nonce);
      expect(block.blueWork).toMatch(/^[0-9a-f]{48}$/);
      expectHashList(block.parents);
      expectHashList(block.transactionIds);
      expect(new Date(block.timestamp as string).toISOString()).toBe(block.timestamp);
    }
    const ids = new Set(body.blocks.flatMap((block) => block.transactionIds as string[]));
    expect(body.transactions.map((tx) => tx.transactionId).sort()).toEqual([...ids].sort());
    for (const tx of body.transactions) expectIndexedTransaction(tx);
    const wide = await request.get(`/v1/blocks/daa-score/0/1001`, { headers: keyed });
    expect(wide.status()).toBe(400);
    expect(JSON.stringify(await wide.json())).toContain('1000');
  });
});
