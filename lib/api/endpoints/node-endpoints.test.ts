import { describe, expect, it } from 'vitest';
import { schnorrAddressFromPublicKey } from '../../kaspa/address';
import { SECONDS_PER_MONTH } from '../../kaspa/subsidy';
import { RpcRejectedError } from '../../rpc/errors';
import { parseJson } from '../../rpc/json';
import { U64_FIELD_NAMES } from '../../rpc/protocol';
import type { RpcMethodName, RpcRequest, RpcResponse, RpcTransaction } from '../../rpc/types';
import type { RouteId } from '../keys/costs';
import { endpointDefiner } from '../wrapper/endpoint';
import { createApiKey, createMemoryKeyStore } from '../keys/keys';
import { createMemoryMeter } from '../keys/metering';
import {
  getBlockEndpoint,
  getBlocksEndpoint,
  getBlockTemplateEndpoint,
  getMempoolEntriesByAddressesEndpoint,
  getMempoolEntriesEndpoint,
  getMempoolEntryEndpoint,
  submitBlockEndpoint,
  submitTransactionEndpoint,
  usageEndpoint,
  type NodeApiContext,
} from './node-endpoints';
import { getSupplyEndpoint } from './supply-endpoint';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const H = (digit: string) => digit.repeat(64);
const ALICE = schnorrAddressFromPublicKey(new Uint8Array(32).fill(1), 'kaspadev');
const BOB = schnorrAddressFromPublicKey(new Uint8Array(32).fill(2), 'kaspadev');
const MAINNET = schnorrAddressFromPublicKey(new Uint8Array(32).fill(1), 'kaspa');

type Call = { method: RpcMethodName; params: unknown };
type Answer = (method: RpcMethodName, params: unknown) => unknown;

async function setup(answer: Answer) {
  const calls: Call[] = [];
  const context: NodeApiContext = {
    keys: createMemoryKeyStore(),
    meter: createMemoryMeter(),
    clock: () => NOW,
    logger: { error: () => undefined },
    addressPrefix: async () => 'kaspadev',
    rpc: {
      async call<M extends RpcMethodName>(method: M, params: RpcRequest<M>): Promise<RpcResponse<M>> {
        calls.push({ method, params });
        return answer(method, params) as RpcResponse<M>;
      },
    },
  };
  const { key } = await createApiKey(context.keys, { name: 'test', now: new Date(NOW) });
  const define = endpointDefiner(() => context);
  const request = async (
    definition: { id: RouteId },
    init: { body?: string; query?: string } = {},
  ) => {
    const [method, path] = definition.id.split(' ') as [string, string];
    const handler = define(definition as never);
    const response = await handler(
      new Request(`http://localhost${path}${init.query ?? ''}`, {
        method,
        headers: { 'x-api-key': key, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: init.body,
      }),
      { params: Promise.resolve({}) },
    );
    return { status: response.status, headers: response.headers, body: parseJson(await response.text()) as never };
  };
  return { calls, request };
}

const TX: RpcTransaction = parseJson(
  `{"version":0,"inputs":[],"outputs":[],"lockTime":0,"subnetworkId":"${'0'.repeat(40)}","gas":0,"payload":"",
    "storageMass":0,"mass":0,"verboseData":{"transactionId":"${H('2')}","hash":"${H('3')}","computeMass":10,
    "blockHash":"${H('0')}","blockTime":0}}`,
  { bigintKeys: U64_FIELD_NAMES },
) as unknown as RpcTransaction;

const entry = (id: string, fee: bigint) => ({
  fee,
  transaction: { ...TX, verboseData: { ...TX.verboseData!, transactionId: id } },
  is_orphan: false,
});

describe('node-style endpoints', () => {
  it('getBlock: an unknown hash is a 404 block_not_found; includeTransactions defaults to false', async () => {
    const { calls, request } = await setup(() => {
      throw new RpcRejectedError('getBlock', `cannot find header ${H('f')}`);
    });
    const response = await request(getBlockEndpoint, { body: JSON.stringify({ hash: H('F') }) });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ code: 'block_not_found', status: 404 });
    expect(calls).toEqual([{ method: 'getBlock', params: { hash: H('f'), includeTransactions: false } }]);
  });

  it('getBlock: a body without hash is a 400 naming body.hash, and the node is not called', async () => {
    const { calls, request } = await setup(() => ({}));
    const response = await request(getBlockEndpoint, { body: JSON.stringify({ includeTransactions: true }) });
    expect(response.status).toBe(400);
    expect((response.body as { errors: { path: string }[] }).errors.map((error) => error.path)).toEqual(['body.hash']);
    expect(calls).toEqual([]);
  });

  it('getBlocks: includeTransactions without includeBlocks is a 400', async () => {
    const { request } = await setup(() => ({ blockHashes: [], blocks: [] }));
    const response = await request(getBlocksEndpoint, {
      body: JSON.stringify({ includeBlocks: false, includeTransactions: true }),
    });
    expect(response.status).toBe(400);
    const ok = await request(getBlocksEndpoint, { body: JSON.stringify({ includeBlocks: false, includeTransactions: false }) });
    expect(ok).toMatchObject({ status: 200, body: { blockHashes: [], blocks: [] } });
  });

  it('getMempoolEntry: a transaction not in the mempool is a 404 mempool_entry_not_found', async () => {
    const { request } = await setup(() => {
      throw new RpcRejectedError('getMempoolEntry', `Transaction ${H('2')} not found`);
    });
    const response = await request(getMempoolEntryEndpoint, { body: JSON.stringify({ transactionId: H('2') }) });
    expect(response).toMatchObject({ status: 404, body: { code: 'mempool_entry_not_found' } });
  });

  it('getMempoolEntries: the query flags reach the node, absent ones as false', async () => {
    const { calls, request } = await setup(() => ({ mempoolEntries: [entry(H('2'), 5n)] }));
    const response = await request(getMempoolEntriesEndpoint, { query: '?includeOrphanPool=true' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ mempoolEntries: [{ fee: '5', isOrphan: false }] });
    expect(calls[0]!.params).toEqual({ includeOrphanPool: true, filterTransactionPool: false });
    expect((await request(getMempoolEntriesEndpoint, { query: '?includeOrphanPool=yes' })).status).toBe(400);
  });

  it('getMempoolEntriesByAddresses: merges sending and receiving lists, each transaction once', async () => {
    const { request } = await setup(() => ({
      entries: [
        { address: ALICE, sending: [entry(H('a'), 1n)], receiving: [entry(H('b'), 2n)] },
        { address: BOB, sending: [], receiving: [entry(H('a'), 1n), entry(H('c'), 3n)] },
      ],
    }));
    const response = await request(getMempoolEntriesByAddressesEndpoint, {
      body: JSON.stringify({ addresses: [ALICE, BOB] }),
    });
    expect(response.status).toBe(200);
    const ids = (response.body as { entries: { transaction: { verboseData: { transactionId: string } } }[] }).entries.map(
      (item) => item.transaction.verboseData.transactionId,
    );
    expect(ids).toEqual([H('a'), H('b'), H('c')]);
  });

  it('address lists: another network is a 400 invalid_address at its index; an empty list is a 400', async () => {
    const { calls, request } = await setup(() => ({ entries: [] }));
    const wrong = await request(getMempoolEntriesByAddressesEndpoint, {
      body: JSON.stringify({ addresses: [ALICE, MAINNET] }),
    });
    expect(wrong).toMatchObject({ status: 400, body: { code: 'invalid_address', errors: [{ path: 'body.addresses[1]' }] } });
    const empty = await request(getMempoolEntriesByAddressesEndpoint, { body: JSON.stringify({ addresses: [] }) });
    expect(empty.status).toBe(400);
    expect(calls).toEqual([]);
  });

  it('getBlockTemplate: extraData text travels as its UTF-8 bytes', async () => {
    const { calls, request } = await setup(() => {
      throw new RpcRejectedError('getBlockTemplate', 'node is not synced');
    });
    const response = await request(getBlockTemplateEndpoint, { body: JSON.stringify({ payAddress: ALICE, extraData: 'é' }) });
    expect(response).toMatchObject({ status: 503, body: { code: 'node_not_synced' } });
    expect(calls[0]!.params).toEqual({ payAddress: ALICE, extraData: [0xc3, 0xa9] });
    const wrong = await request(getBlockTemplateEndpoint, { body: JSON.stringify({ payAddress: MAINNET }) });
    expect(wrong).toMatchObject({ status: 400, body: { code: 'invalid_address', errors: [{ path: 'body.payAddress' }] } });
  });

  it('submitTransaction: a node rejection is a 400 transaction_rejected carrying the node’s reason', async () => {
    const reason = `Rejected transaction ${H('2')}: transaction input #0 is already spent`;
    const { calls, request } = await setup(() => {
      throw new RpcRejectedError('submitTransaction', reason);
    });
    const transaction = {
      version: 0,
      inputs: [],
      outputs: [{ value: '5', scriptPublicKey: { version: 0, script: 'aa' } }],
      lockTime: 0,
      subnetworkId: '0'.repeat(40),
      gas: '0',
      payload: '',
    };
    const response = await request(submitTransactionEndpoint, { body: JSON.stringify({ transaction }) });
    expect(response).toMatchObject({ status: 400, body: { code: 'transaction_rejected', detail: reason } });
    expect(response.headers.get('x-request-cost-ru')).toBe('0.1');
    expect(calls[0]!.params).toMatchObject({ allowOrphan: false, transaction: { outputs: [{ value: 5n }], storageMass: 0n } });
  });

  it('submitBlock: a rejected block is a 200 whose report says why', async () => {
    const { request } = await setup(() => ({ report: { type: 'reject', reason: 'blockInvalid' } }));
    const header = {
      version: 1,
      parentsByLevel: [[H('1')]],
      hashMerkleRoot: H('2'),
      acceptedIdMerkleRoot: H('3'),
      utxoCommitment: H('4'),
      timestamp: '1',
      bits: 1,
      nonce: '2',
      daaScore: '3',
      blueWork: '1',
      blueScore: '4',
      pruningPoint: H('5'),
    };
    const response = await request(submitBlockEndpoint, {
      body: JSON.stringify({ block: { header, transactions: [] }, allowNonDAABlocks: false }),
    });
    expect(response).toMatchObject({ status: 200, body: { report: { type: 'reject', reason: 'blockInvalid' } } });
    const missingFlag = await request(submitBlockEndpoint, { body: JSON.stringify({ block: { header, transactions: [] } }) });
    expect(missingFlag.status).toBe(400);
  });

  it('usage: free, and reports what the key spent this month', async () => {
    const { request } = await setup(() => ({ blockHashes: [], blocks: [] }));
    await request(getBlocksEndpoint, { body: JSON.stringify({ includeBlocks: true, includeTransactions: false }) });
    const response = await request(usageEndpoint);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-cost-ru')).toBe('0');
    expect(response.body).toMatchObject({ month: { ruUsed: '0.5' }, limits: { ruPerSecond: '50' } });
  });
});

describe('GET /v1/supply', () => {
  const answer = (network: string, virtualDaaScore: bigint) => (method: RpcMethodName) =>
    method === 'getCoinSupply'
      ? { circulatingSompi: 123_456_789_012_345_678n, maxSompi: 2_900_000_000_000_000_000n }
      : { network, virtualDaaScore };

  it("adds the network's block reward and its next reduction to kaspad's supply", async () => {
    const { request } = await setup(answer('devnet', 5_000n));
    const { status, body } = await request(getSupplyEndpoint);
    expect(status).toBe(200);
    expect(body).toEqual({
      network: 'devnet',
      virtualDaaScore: '5000',
      circulatingSompi: '123456789012345678',
      maxSompi: '2900000000000000000',
      blockRewardSompi: '4400000000',
      nextReduction: {
        daaScore: String(SECONDS_PER_MONTH * 10n),
        blockRewardSompi: '4153046976',
        estimatedSeconds: Number((SECONDS_PER_MONTH * 10n - 5_000n) / 10n),
      },
    });
  });

  it('answers the supply alone for a network whose schedule it does not know', async () => {
    const { request } = await setup(answer('kaspa-simnet', 5_000n));
    const { body } = await request(getSupplyEndpoint);
    expect(body).toMatchObject({ network: 'kaspa-simnet', blockRewardSompi: null, nextReduction: null, circulatingSompi: '123456789012345678' });
  });
});
