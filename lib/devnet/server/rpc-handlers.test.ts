import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schnorrAddressFromPublicKey } from '../../kaspa/address';
import { bytesToHex } from '../../kaspa/bytes';
import { ZERO_HASH } from '../../kaspa/hashing';
import { headerHash } from '../../kaspa/header';
import { PowState } from '../../kaspa/pow';
import { schnorrPublicKey } from '../../kaspa/signing';
import { transactionId } from '../../kaspa/transaction';
import type { Transaction } from '../../kaspa/types';
import { RpcRejectedError } from '../../rpc/errors';
import type { RpcNotifications } from '../../rpc/types';
import type { Block, UtxoChange } from '../consensus/consensus';
import { MAX_COINBASE_PAYLOAD_LENGTH } from './rpc-handlers';
import { blockToRpcSubmission } from '../../rpc/convert-block';
import { transactionToRpc } from '../../rpc/convert-transaction';
import { idHex, spend } from '../test-support/devnet-harness';
import { MINER_KEY, settle, startWireDevnet, TEST_COINBASE_MATURITY, wireKey, type WireDevnet } from '../test-support/wire-devnet';

const HEX64 = /^[0-9a-f]{64}$/;
const RECIPIENT = wireKey(2);
const HEADER_KEYS = [
  'hash',
  'version',
  'parentsByLevel',
  'hashMerkleRoot',
  'acceptedIdMerkleRoot',
  'utxoCommitment',
  'timestamp',
  'bits',
  'nonce',
  'daaScore',
  'blueWork',
  'blueScore',
  'pruningPoint',
];
const TRANSACTION_KEYS = ['version', 'inputs', 'outputs', 'lockTime', 'subnetworkId', 'gas', 'payload', 'storageMass', 'mass', 'verboseData'];
const BLOCK_VERBOSE_KEYS = [
  'hash',
  'difficulty',
  'selectedParentHash',
  'transactionIds',
  'isHeaderOnly',
  'blueScore',
  'childrenHashes',
  'mergeSetBluesHashes',
  'mergeSetRedsHashes',
  'isChainBlock',
];

type Json = Record<string, unknown>;
const obj = (value: unknown) => value as Json;
const arr = (value: unknown) => value as unknown[];

async function params(devnet: WireDevnet, method: string, request: unknown = {}): Promise<Json> {
  const frame = await devnet.raw(method, request);
  expect(frame.error, `${method} failed: ${JSON.stringify(frame.error)}`).toBeUndefined();
  expect(frame.method).toBe(method);
  return obj(frame.params);
}

async function wireError(devnet: WireDevnet, method: string, request: unknown): Promise<Json> {
  const frame = await devnet.raw(method, request);
  expect(frame.params).toBeUndefined();
  return obj(frame.error);
}

function matureUtxos(devnet: WireDevnet): UtxoChange[] {
  const { consensus } = devnet.node;
  const virtualDaaScore = consensus.virtualDaaScore();
  return consensus
    .getUtxosByScriptPublicKey(MINER_KEY.scriptPublicKey)
    .filter((utxo) => !utxo.entry.isCoinbase || utxo.entry.blockDaaScore + BigInt(TEST_COINBASE_MATURITY) <= virtualDaaScore)
    .sort((a, b) => Number(a.entry.blockDaaScore - b.entry.blockDaaScore));
}

async function rejection(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(RpcRejectedError);
  return (error as RpcRejectedError).message;
}

function stateOf(devnet: WireDevnet) {
  const { consensus, mempool } = devnet.node;
  return {
    blocks: consensus.blockCount(),
    sink: bytesToHex(consensus.sink()),
    utxoCommitment: bytesToHex(consensus.virtualUtxoCommitment()),
    mempool: mempool.getEntries('all').map((entry) => bytesToHex(entry.transactionId)).sort(),
  };
}

describe('devnet node over wRPC: reads', () => {
  let devnet: WireDevnet;
  const mined: string[] = [];

  beforeAll(async () => {
    devnet = await startWireDevnet();
    for (let i = 0; i < 6; i++) mined.push((await devnet.mine()).hash);
  });
  afterAll(() => devnet.close());

  it('ping answers an empty object in the request envelope', async () => {
    const frame = await devnet.raw('ping', {});
    expect(Object.keys(frame)).toEqual(['id', 'method', 'params']);
    expect(frame.params).toEqual({});
  });

  it('getInfo, getServerInfo and getCurrentNetwork describe a synced devnet with a UTXO index', async () => {
    const info = await params(devnet, 'getInfo');
    expect(Object.keys(info)).toEqual(['p2pId', 'mempoolSize', 'serverVersion', 'isUtxoIndexed', 'isSynced', 'hasNotifyCommand', 'hasMessageId']);
    expect(info.p2pId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(info).toMatchObject({ mempoolSize: 0, serverVersion: '2.0.1', isUtxoIndexed: true, isSynced: true, hasNotifyCommand: true, hasMessageId: true });

    const server = await params(devnet, 'getServerInfo');
    expect(server).toEqual({
      rpcApiVersion: 1,
      rpcApiRevision: 0,
      serverVersion: '2.0.1',
      networkId: 'devnet',
      hasUtxoIndex: true,
      isSynced: true,
      virtualDaaScore: Number(devnet.node.consensus.virtualDaaScore()),
    });
    expect(await params(devnet, 'getCurrentNetwork')).toEqual({ network: 'devnet' });
  });

  it('getBlockDagInfo, getBlockCount, getSink and getSinkBlueScore agree with the mined chain', async () => {
    const dag = await params(devnet, 'getBlockDagInfo');
    expect(Object.keys(dag)).toEqual([
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
    expect(dag).toMatchObject({
      network: 'devnet',
      blockCount: 7,
      headerCount: 7,
      tipHashes: [mined[5]],
      virtualParentHashes: [mined[5]],
      pruningPointHash: bytesToHex(devnet.node.genesisHash),
      virtualDaaScore: Number(devnet.node.consensus.virtualDaaScore()),
      sink: mined[5],
    });
    expect(typeof dag.difficulty).toBe('number');
    expect(typeof dag.pastMedianTime).toBe('number');
    expect(await params(devnet, 'getBlockCount')).toEqual({ headerCount: 7, blockCount: 7 });
    expect(await params(devnet, 'getSink')).toEqual({ sink: mined[5] });
    expect(await params(devnet, 'getSinkBlueScore')).toEqual({ blueScore: 6 });
  });

  it('getBlock returns the header, verbose transactions with output addresses, and block verbose data', async () => {
    const { block } = await params(devnet, 'getBlock', { hash: mined[4], includeTransactions: true });
    const header = obj(obj(block).header);
    expect(Object.keys(obj(block))).toEqual(['header', 'transactions', 'verboseData']);
    expect(Object.keys(header)).toEqual(HEADER_KEYS);
    expect(header.hash).toBe(mined[4]);
    expect(header.parentsByLevel).toEqual(expect.arrayContaining([[mined[3]]]));
    expect(header.blueWork).toMatch(/^[0-9a-f]{48}$/);
    for (const key of ['timestamp', 'nonce', 'daaScore', 'blueScore', 'bits', 'version']) expect(typeof header[key]).toBe('number');

    const verbose = obj(obj(block).verboseData);
    expect(Object.keys(verbose)).toEqual(BLOCK_VERBOSE_KEYS);
    expect(verbose).toMatchObject({
      hash: mined[4],
      selectedParentHash: mined[3],
      isHeaderOnly: false,
      blueScore: 5,
      childrenHashes: [mined[5]],
      mergeSetBluesHashes: [mined[3]],
      mergeSetRedsHashes: [],
      isChainBlock: true,
    });
    expect(verbose.difficulty).toBe(devnet.node.consensus.difficulty());

    const [coinbase] = arr(obj(block).transactions).map(obj);
    expect(Object.keys(coinbase!)).toEqual(TRANSACTION_KEYS);
    expect(coinbase!.subnetworkId).toBe(`01${'00'.repeat(19)}`);
    expect(coinbase!.mass).toBe(coinbase!.storageMass);
    const txVerbose = obj(coinbase!.verboseData);
    expect(Object.keys(txVerbose)).toEqual(['transactionId', 'hash', 'computeMass', 'blockHash', 'blockTime']);
    expect(txVerbose).toMatchObject({ transactionId: arr(verbose.transactionIds)[0], computeMass: 0, blockHash: mined[4], blockTime: header.timestamp });
    expect(txVerbose.hash).toMatch(HEX64);
    const output = obj(arr(coinbase!.outputs)[0]);
    expect(Object.keys(output)).toEqual(['value', 'scriptPublicKey', 'verboseData', 'covenant']);
    expect(output.scriptPublicKey).toBe(`0000${bytesToHex(MINER_KEY.scriptPublicKey.script)}`);
    expect(output.verboseData).toEqual({ scriptPublicKeyType: 'PubKey', scriptPublicKeyAddress: MINER_KEY.address });
    expect(output.covenant).toBeNull();

    const bare = await params(devnet, 'getBlock', { hash: mined[4], includeTransactions: false });
    expect(obj(bare.block).transactions).toEqual([]);
    expect(obj(obj(bare.block).verboseData).transactionIds).toEqual(verbose.transactionIds);
  });

  it('getBlock of an unknown hash fails with consensus HeaderNotFound text', async () => {
    const unknown = 'ab'.repeat(32);
    expect(await wireError(devnet, 'getBlock', { hash: unknown, includeTransactions: false })).toEqual({
      code: 0,
      message: `cannot find header ${unknown}`,
      data: null,
    });
  });

  it('getBlocks lists genesis onwards in consensus order and rejects transactions without blocks', async () => {
    const all = await params(devnet, 'getBlocks', { lowHash: null, includeBlocks: false, includeTransactions: false });
    expect(all).toEqual({ blockHashes: [bytesToHex(devnet.node.genesisHash), ...mined], blocks: [] });
    const fromThird = await params(devnet, 'getBlocks', { lowHash: mined[2], includeBlocks: true, includeTransactions: false });
    expect(fromThird.blockHashes).toEqual(mined.slice(2));
    expect(arr(fromThird.blocks).map((block) => obj(obj(block).verboseData).hash)).toEqual(mined.slice(2));
    expect(arr(fromThird.blocks).every((block) => arr(obj(block).transactions).length === 0)).toBe(true);
    expect((await wireError(devnet, 'getBlocks', { includeBlocks: false, includeTransactions: true })).message).toBe(
      'If includeTransactions is set, then includeBlockVerboseData must be set as well.',
    );
  });

  it('getVirtualChainFromBlock walks the chain with accepted ids, honouring minConfirmationCount', async () => {
    const genesis = bytesToHex(devnet.node.genesisHash);
    const chain = await params(devnet, 'getVirtualChainFromBlock', { startHash: genesis, includeAcceptedTransactionIds: true });
    expect(Object.keys(chain)).toEqual(['removedChainBlockHashes', 'addedChainBlockHashes', 'acceptedTransactionIds']);
    expect(chain.removedChainBlockHashes).toEqual([]);
    expect(chain.addedChainBlockHashes).toEqual(mined);
    const accepted = arr(chain.acceptedTransactionIds).map(obj);
    expect(accepted.map((entry) => entry.acceptingBlockHash)).toEqual(mined);
    const { block: firstBlock } = await params(devnet, 'getBlock', { hash: mined[0], includeTransactions: false });
    expect(obj(accepted[1]).acceptedTransactionIds).toEqual([arr(obj(obj(firstBlock).verboseData).transactionIds)[0]]);

    const confirmed = await params(devnet, 'getVirtualChainFromBlock', {
      startHash: genesis,
      includeAcceptedTransactionIds: false,
      minConfirmationCount: 2,
    });
    expect(confirmed).toEqual({ removedChainBlockHashes: [], addedChainBlockHashes: mined.slice(0, 3), acceptedTransactionIds: [] });
  });

  it('getUtxosByAddresses, balances and coin supply read the UTXO index', async () => {
    const { entries } = await params(devnet, 'getUtxosByAddresses', { addresses: [MINER_KEY.address, MINER_KEY.address] });
    const utxos = arr(entries).map(obj);
    expect(utxos.length).toBe(devnet.node.consensus.getUtxosByScriptPublicKey(MINER_KEY.scriptPublicKey).length);
    expect(utxos.length).toBeGreaterThan(0);
    const first = utxos[0]!;
    expect(Object.keys(first)).toEqual(['address', 'outpoint', 'utxoEntry']);
    expect(first.address).toBe(MINER_KEY.address);
    expect(Object.keys(obj(first.outpoint))).toEqual(['transactionId', 'index']);
    const entry = obj(first.utxoEntry);
    expect(Object.keys(entry)).toEqual(['amount', 'scriptPublicKey', 'blockDaaScore', 'isCoinbase', 'covenantId']);
    expect(entry).toMatchObject({ scriptPublicKey: `0000${bytesToHex(MINER_KEY.scriptPublicKey.script)}`, isCoinbase: true, covenantId: null });

    const total = utxos.reduce((sum, utxo) => sum + BigInt(obj(utxo.utxoEntry).amount as number), 0n);
    expect(await params(devnet, 'getBalanceByAddress', { address: MINER_KEY.address })).toEqual({ balance: Number(total) });
    expect(await params(devnet, 'getBalancesByAddresses', { addresses: [RECIPIENT.address, MINER_KEY.address] })).toEqual({
      entries: [
        { address: RECIPIENT.address, balance: 0 },
        { address: MINER_KEY.address, balance: Number(total) },
      ],
    });
    const supply = await devnet.client.call('getCoinSupply', {});
    // The miner's rewards plus the devnet bootstrap the genesis committed (nothing else was spent or created).
    expect(devnet.node.bootstrap.totalSompi).toBeGreaterThan(0n);
    expect(supply).toEqual({ maxSompi: 2_900_000_000_000_000_000n, circulatingSompi: total + devnet.node.bootstrap.totalSompi });
  });

  it('getFeeEstimate of an empty mempool puts every bucket at the minimum feerate (100 sompi per gram)', async () => {
    const { estimate } = await params(devnet, 'getFeeEstimate');
    expect(Object.keys(obj(estimate))).toEqual(['priorityBucket', 'normalBuckets', 'lowBuckets']);
    const buckets = [obj(estimate).priorityBucket, ...arr(obj(estimate).normalBuckets), ...arr(obj(estimate).lowBuckets)].map(obj);
    expect(buckets).toHaveLength(4);
    for (const bucket of buckets) {
      expect(Object.keys(bucket)).toEqual(['feerate', 'estimatedSeconds']);
      expect(bucket.feerate).toBe(100);
    }
  });

  it('rejects addresses of another network, bad checksums and oversized extra data like kaspad', async () => {
    const mainnet = schnorrAddressFromPublicKey(schnorrPublicKey(MINER_KEY.privateKey), 'kaspa');
    expect((await wireError(devnet, 'getBlockTemplate', { payAddress: mainnet, extraData: [] })).message).toBe(
      'The address has an invalid prefix kaspa',
    );
    const corrupted = `${MINER_KEY.address.slice(0, -1)}${MINER_KEY.address.endsWith('q') ? 'p' : 'q'}`;
    expect((await wireError(devnet, 'getBalanceByAddress', { address: corrupted })).message).toBe('request deserialization error');
    expect(
      (await wireError(devnet, 'getBlockTemplate', { payAddress: MINER_KEY.address, extraData: new Array(MAX_COINBASE_PAYLOAD_LENGTH).fill(7) }))
        .message,
    ).toBe(`Coinbase payload is above max length (${MAX_COINBASE_PAYLOAD_LENGTH}). Try to shorten the extra data.`);
  });

  it('subscribe answers the connection id and unsubscribe an empty object', async () => {
    const subscribed = await params(devnet, 'subscribe', { VirtualDaaScoreChanged: {} });
    expect(Object.keys(subscribed)).toEqual(['id']);
    expect(typeof subscribed.id).toBe('number');
    expect(await params(devnet, 'unsubscribe', { VirtualDaaScoreChanged: {} })).toEqual({});
  });

  it('getBlockTemplate returns a raw block whose coinbase carries "<version>/" + extraData', async () => {
    const template = await params(devnet, 'getBlockTemplate', { payAddress: MINER_KEY.address, extraData: [104, 105] });
    expect(Object.keys(template)).toEqual(['block', 'isSynced']);
    expect(template.isSynced).toBe(true);
    const header = obj(obj(template.block).header);
    expect(Object.keys(header)).toEqual(HEADER_KEYS.slice(1));
    expect(arr(header.parentsByLevel)[0]).toEqual([mined[5]]);
    const coinbase = obj(arr(obj(template.block).transactions)[0]);
    expect(coinbase.verboseData).toBeNull();
    expect((coinbase.payload as string).endsWith(Buffer.from('2.0.1/hi').toString('hex'))).toBe(true);
  });
});

describe('devnet node over wRPC: mining', () => {
  let devnet: WireDevnet;
  beforeAll(async () => {
    devnet = await startWireDevnet();
  });
  afterAll(() => devnet.close());

  it('a solved template is accepted, shows up in getBlock, and its coinbase reward reaches payAddress once merged', async () => {
    const block = await devnet.template(RECIPIENT.address);
    expect(await devnet.submit(block)).toEqual({ type: 'success' });
    const hash = bytesToHex(headerHash(block.header));
    const { block: read } = await devnet.client.call('getBlock', { hash, includeTransactions: true });
    expect(read.verboseData?.isChainBlock).toBe(true);
    expect(await devnet.client.call('getSink', {})).toEqual({ sink: hash });
    expect((await devnet.client.call('submitBlock', { block: blockToRpcSubmission(block), allowNonDaaBlocks: false })).report).toEqual({
      type: 'success',
    });

    expect((await devnet.client.call('getBalanceByAddress', { address: RECIPIENT.address })).balance).toBe(0n);
    const { hash: merging } = await devnet.mine();
    await devnet.mine();
    const { block: mergingBlock } = await devnet.client.call('getBlock', { hash: merging, includeTransactions: true });
    const reward = mergingBlock.transactions[0]!.outputs.find((output) => output.verboseData?.scriptPublicKeyAddress === RECIPIENT.address);
    expect(reward).toBeDefined();
    const { entries } = await devnet.client.call('getUtxosByAddresses', { addresses: [RECIPIENT.address] });
    expect(entries).toHaveLength(1);
    expect(entries[0]!.utxoEntry).toMatchObject({ amount: reward!.value, isCoinbase: true });
    expect(entries[0]!.outpoint.transactionId).toBe(mergingBlock.verboseData!.transactionIds[0]);
  });

  it('rejects a block with bad proof of work and one with an unknown parent, leaving the DAG unchanged', async () => {
    const solved = await devnet.template();
    const pow = PowState.fromHeader(solved.header);
    let nonce = solved.header.nonce + 1n;
    while (pow.checkPow(nonce)) nonce++;
    const before = stateOf(devnet);
    expect(await devnet.submit({ ...solved, header: { ...solved.header, nonce } })).toEqual({ type: 'reject', reason: 'blockInvalid' });

    const orphanHeader = { ...solved.header, parentsByLevel: [[new Uint8Array(32).fill(9)], ...solved.header.parentsByLevel.slice(1)] };
    const orphan: Block = { ...solved, header: orphanHeader };
    const solvedOrphan = { ...orphan, header: { ...orphanHeader, nonce: findNonce(orphan) } };
    expect(await devnet.submit(solvedOrphan)).toEqual({ type: 'reject', reason: 'blockInvalid' });
    expect(stateOf(devnet)).toEqual(before);
  });
});

function findNonce(block: Block): bigint {
  const pow = PowState.fromHeader(block.header);
  let nonce = 0n;
  while (!pow.checkPow(nonce)) nonce++;
  return nonce;
}

describe('devnet node over wRPC: stale templates', () => {
  it('rejects a block far below the virtual DAA score unless allowNonDaaBlocks is set', async () => {
    const devnet = await startWireDevnet({ params: { coinbaseMaturity: TEST_COINBASE_MATURITY, difficultyWindowSize: 2, difficultySampleRate: 1 } });
    try {
      const stale = await devnet.template(RECIPIENT.address);
      for (let i = 0; i < 5; i++) await devnet.mine();
      const sink = bytesToHex(devnet.node.consensus.sink());
      expect(await devnet.submit(stale, false)).toEqual({ type: 'reject', reason: 'blockInvalid' });
      expect(devnet.node.consensus.hasBlock(headerHash(stale.header))).toBe(false);
      const aliased = await devnet.raw('submitBlock', {
        block: JSON.parse(stringify(blockToRpcSubmission(stale))),
        allowNonDAABlocks: true,
      });
      await settle();
      expect(aliased.params).toEqual({ report: { type: 'success' } });
      expect(devnet.node.consensus.hasBlock(headerHash(stale.header))).toBe(true);
      expect(bytesToHex(devnet.node.consensus.sink())).toBe(sink);
    } finally {
      await devnet.close();
    }
  });
});

describe('devnet node over wRPC: transactions', () => {
  let devnet: WireDevnet;
  beforeAll(async () => {
    devnet = await startWireDevnet();
    for (let i = 0; i < TEST_COINBASE_MATURITY + 6; i++) await devnet.mine();
  });
  afterAll(() => devnet.close());

  const submit = (tx: Transaction, allowOrphan = false) =>
    devnet.client.call('submitTransaction', { transaction: transactionToRpc(tx), allowOrphan });

  it('accepts a payment, lists it in the mempool queries, and mines it', async () => {
    const [utxo] = matureUtxos(devnet);
    const tx = spend(utxo!, MINER_KEY, RECIPIENT.scriptPublicKey);
    expect(await submit(tx)).toEqual({ transactionId: idHex(tx) });

    const entry = await params(devnet, 'getMempoolEntry', { transactionId: idHex(tx), includeOrphanPool: false, filterTransactionPool: false });
    const mempoolEntry = obj(entry.mempoolEntry);
    expect(Object.keys(mempoolEntry)).toEqual(['fee', 'transaction', 'is_orphan']);
    expect(mempoolEntry).toMatchObject({ fee: 1_000_000, is_orphan: false });
    expect(obj(obj(mempoolEntry.transaction).verboseData)).toMatchObject({ transactionId: idHex(tx), blockHash: bytesToHex(ZERO_HASH), blockTime: 0 });
    expect(obj(arr(obj(mempoolEntry.transaction).outputs)[0]).verboseData).toEqual({
      scriptPublicKeyType: 'PubKey',
      scriptPublicKeyAddress: RECIPIENT.address,
    });
    expect((await devnet.client.call('getInfo', {})).mempoolSize).toBe(1n);
    const { mempoolEntries } = await devnet.client.call('getMempoolEntries', { includeOrphanPool: true, filterTransactionPool: false });
    expect(mempoolEntries.map((e) => e.transaction.verboseData?.transactionId)).toEqual([idHex(tx)]);
    const { entries } = await devnet.client.call('getMempoolEntriesByAddresses', {
      addresses: [MINER_KEY.address, RECIPIENT.address, wireKey(9).address],
      includeOrphanPool: false,
      filterTransactionPool: false,
    });
    expect(entries.map((e) => [e.address, e.sending.length, e.receiving.length])).toEqual([
      [MINER_KEY.address, 1, 0],
      [RECIPIENT.address, 0, 1],
      [wireKey(9).address, 0, 0],
    ]);

    await devnet.mine();
    await devnet.mine();
    expect(devnet.node.mempool.transactionCount('all')).toBe(0);
    expect((await devnet.client.call('getBalanceByAddress', { address: RECIPIENT.address })).balance).toBe(utxo!.entry.amount - 1_000_000n);
    expect(await rejection(devnet.client.call('getMempoolEntry', { transactionId: idHex(tx), includeOrphanPool: true, filterTransactionPool: false }))).toBe(
      `Transaction ${idHex(tx)} not found`,
    );
  });

  it('rejects a double spend, a bad signature, an immature coinbase spend and a low fee with kaspad texts, changing nothing', async () => {
    const [utxo, other] = matureUtxos(devnet);
    const first = spend(utxo!, MINER_KEY, RECIPIENT.scriptPublicKey);
    await submit(first);
    const before = stateOf(devnet);

    const doubleSpend = spend(utxo!, MINER_KEY, wireKey(3).scriptPublicKey, 2_000_000n);
    expect(await rejection(submit(doubleSpend))).toBe(
      `Rejected transaction ${idHex(doubleSpend)}: output (${bytesToHex(utxo!.outpoint.transactionId)}, ${utxo!.outpoint.index}) already spent by transaction ${idHex(first)} in the mempool`,
    );

    const signed = spend(other!, MINER_KEY, RECIPIENT.scriptPublicKey);
    const script = Uint8Array.from(signed.inputs[0]!.signatureScript);
    script[10] = script[10]! ^ 0xff;
    const forged: Transaction = { ...signed, inputs: [{ ...signed.inputs[0]!, signatureScript: script }] };
    expect(await rejection(submit(forged))).toMatch(new RegExp(`^Rejected transaction ${idHex(forged)}: failed to verify the signature script`));

    const newest = devnet.node.consensus
      .getUtxosByScriptPublicKey(MINER_KEY.scriptPublicKey)
      .reduce((a, b) => (a.entry.blockDaaScore > b.entry.blockDaaScore ? a : b));
    const immature = spend(newest, MINER_KEY, RECIPIENT.scriptPublicKey);
    expect(await rejection(submit(immature))).toMatch(
      new RegExp(`^Rejected transaction ${idHex(immature)}: one of the transaction inputs spends an immature UTXO: `),
    );

    const cheap = spend(other!, MINER_KEY, RECIPIENT.scriptPublicKey, 100n);
    expect(await rejection(submit(cheap))).toMatch(
      new RegExp(`^Rejected transaction ${idHex(cheap)}: transaction ${idHex(cheap)} is not standard: transaction has 100 fees which is under the required amount of \\d+`),
    );
    expect(await rejection(submit(first))).toBe(`Rejected transaction ${idHex(first)}: transaction ${idHex(first)} is already in the mempool`);
    expect(stateOf(devnet)).toEqual(before);
  });

  it('replaces a mempool transaction by fee and returns the replaced one in its plain form', async () => {
    const utxo = matureUtxos(devnet).at(-1)!;
    const original = spend(utxo, MINER_KEY, RECIPIENT.scriptPublicKey, 1_000_000n);
    await submit(original);
    const replacement = spend(utxo, MINER_KEY, RECIPIENT.scriptPublicKey, 5_000_000n);
    const result = await params(devnet, 'submitTransactionReplacement', { transaction: JSON.parse(stringify(transactionToRpc(replacement))) });
    expect(Object.keys(result)).toEqual(['transactionId', 'replacedTransaction']);
    expect(result.transactionId).toBe(idHex(replacement));
    const replaced = obj(result.replacedTransaction);
    expect(Object.keys(replaced)).toEqual(TRANSACTION_KEYS);
    expect(replaced.verboseData).toBeNull();
    expect(obj(arr(replaced.outputs)[0]).verboseData).toBeNull();
    expect(devnet.node.mempool.has(idHex(original))).toBe(false);
    expect(devnet.node.mempool.has(idHex(replacement))).toBe(true);

    const unrelated = spend(matureUtxos(devnet).at(-2)!, MINER_KEY, RECIPIENT.scriptPublicKey);
    expect(await rejection(devnet.client.call('submitTransactionReplacement', { transaction: transactionToRpc(unrelated) }))).toBe(
      `Rejected transaction ${idHex(unrelated)}: replace by fee found no double spending transaction in the mempool`,
    );
  });

  it('keeps an orphan until its parent arrives, and refuses orphans when not allowed', async () => {
    const utxo = matureUtxos(devnet).at(-3)!;
    const parent = spend(utxo, MINER_KEY, MINER_KEY.scriptPublicKey);
    const child = spend(
      { outpoint: { transactionId: transactionId(parent), index: 0 }, entry: { ...utxo.entry, amount: parent.outputs[0]!.value, isCoinbase: false } },
      MINER_KEY,
      RECIPIENT.scriptPublicKey,
    );
    expect(await rejection(submit(child, false))).toBe(
      `Rejected transaction ${idHex(child)}: transaction ${idHex(child)} is an orphan where orphan is disallowed`,
    );
    expect(await submit(child, true)).toEqual({ transactionId: idHex(child) });
    const orphanOnly = await devnet.client.call('getMempoolEntry', { transactionId: idHex(child), includeOrphanPool: true, filterTransactionPool: true });
    expect(orphanOnly.mempoolEntry).toMatchObject({ fee: 0n, is_orphan: true });
    expect(
      await rejection(devnet.client.call('getMempoolEntries', { includeOrphanPool: false, filterTransactionPool: true })),
    ).toBe('transaction query must either not filter transactions or include orphans');

    await submit(parent);
    const unorphaned = await devnet.client.call('getMempoolEntry', { transactionId: idHex(child), includeOrphanPool: false, filterTransactionPool: false });
    expect(unorphaned.mempoolEntry).toMatchObject({ fee: 1_000_000n, is_orphan: false });
  });
});

function stringify(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? Number(item) : item));
}

describe('devnet node over wRPC: notifications', () => {
  let devnet: WireDevnet;
  beforeAll(async () => {
    devnet = await startWireDevnet();
  });
  afterAll(() => devnet.close());

  it('sends BlockAdded, VirtualChainChanged, UtxosChanged (filtered by address) and score changes for a mined block', async () => {
    const received: { [E in keyof RpcNotifications]?: RpcNotifications[E][] } = {};
    const collect =
      <E extends keyof RpcNotifications>(event: E) =>
      (payload: RpcNotifications[E]) => {
        (received[event] ??= [] as never[]).push(payload as never);
      };
    await devnet.client.subscribe('BlockAdded', {}, collect('BlockAdded'));
    await devnet.client.subscribe('VirtualChainChanged', { include_accepted_transaction_ids: true }, collect('VirtualChainChanged'));
    await devnet.client.subscribe('UtxosChanged', { addresses: [RECIPIENT.address] }, collect('UtxosChanged'));
    await devnet.client.subscribe('VirtualDaaScoreChanged', {}, collect('VirtualDaaScoreChanged'));
    await devnet.client.subscribe('SinkBlueScoreChanged', {}, collect('SinkBlueScoreChanged'));

    const first = await devnet.mine(RECIPIENT.address);
    const second = await devnet.mine();
    const third = await devnet.mine();
    await waitUntil(() => (received.VirtualDaaScoreChanged?.length ?? 0) >= 3 && (received.UtxosChanged?.length ?? 0) >= 1);

    const added = received.BlockAdded!.map((payload) => payload.block);
    expect(added.map((block) => block.verboseData?.hash)).toEqual([first.hash, second.hash, third.hash]);
    expect(added[0]!.transactions[0]!.verboseData?.blockHash).toBe(first.hash);
    expect(added[0]!.verboseData?.isChainBlock).toBe(true);
    expect(received.VirtualChainChanged!.map((change) => change.addedChainBlockHashes)).toEqual([[first.hash], [second.hash], [third.hash]]);
    expect(received.VirtualChainChanged![0]!.acceptedTransactionIds[0]!.acceptingBlockHash).toBe(first.hash);
    const finalDaaScore = devnet.node.consensus.virtualDaaScore();
    expect(received.VirtualDaaScoreChanged!.map((payload) => payload.virtualDaaScore)).toEqual([finalDaaScore - 2n, finalDaaScore - 1n, finalDaaScore]);
    expect(received.SinkBlueScoreChanged!.map((payload) => payload.sinkBlueScore)).toEqual([1n, 2n, 3n]);
    const utxoChanges = received.UtxosChanged!;
    expect(utxoChanges).toHaveLength(1);
    expect(utxoChanges[0]!.removed).toEqual([]);
    expect(utxoChanges[0]!.added.map((entry) => entry.address)).toEqual([RECIPIENT.address]);
  });
});

async function waitUntil(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 200 && !condition(); attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
  await settle();
}
