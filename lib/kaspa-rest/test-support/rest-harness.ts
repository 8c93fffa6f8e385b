/** The /kaspa-rest contract tests' handler, over a test database and a node faked at the RPC boundary. */
import type { Db } from '../../db';
import { addressOf, hashOf } from '../../db/test-support/fixtures';
import { createApiKey, createMemoryKeyStore } from '../../api/keys/keys';
import { createMemoryMeter } from '../../api/keys/metering';
import { bytesToHex } from '../../kaspa/bytes';
import { parseJson } from '../../rpc/json';
import type { RpcMethodName, RpcResponse } from '../../rpc/types';
import { createIndexStats } from '../stats';
import { createKaspaRestHandler, type KaspaRestAccess, type KaspaRestContext } from '../server';

/** The handler's clock: an injected instant, never compared with the real one. */
export const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
export const UTXO_SCRIPT = `20${bytesToHex(hashOf('address alice'))}ac`;

export type NodeAnswers = Partial<{ [M in RpcMethodName]: (request: unknown) => RpcResponse<M> }>;

/** A node that answers the calls the routes make, from fixed values; `extra` adds or replaces answers. */
export function fakeNode(sinkBlueScore: bigint, extra: NodeAnswers = {}) {
  const answers: NodeAnswers = {
    getBlockDagInfo: () => ({
      network: 'devnet',
      blockCount: 1234n,
      headerCount: 1234n,
      tipHashes: ['aa'.repeat(32)],
      difficulty: 1.25,
      pastMedianTime: 1_700_000_000_000n,
      virtualParentHashes: ['aa'.repeat(32)],
      pruningPointHash: 'bb'.repeat(32),
      virtualDaaScore: 50_000n,
      sink: 'aa'.repeat(32),
    }),
    getCoinSupply: () => ({ maxSompi: 2_900_000_000_000_000_000n, circulatingSompi: 123_456_789_012_345n }),
    getFeeEstimate: () => ({
      estimate: {
        priorityBucket: { feerate: 1.6, estimatedSeconds: 0.5 },
        normalBuckets: [{ feerate: 1, estimatedSeconds: 1.5 }],
        lowBuckets: [{ feerate: 1, estimatedSeconds: 3 }],
      },
    }),
    getInfo: () => ({
      p2pId: 'peer-1',
      mempoolSize: 7n,
      serverVersion: '2.0.1',
      isUtxoIndexed: true,
      isSynced: true,
      hasNotifyCommand: true,
      hasMessageId: true,
    }),
    getSinkBlueScore: () => ({ blueScore: sinkBlueScore }),
    getCurrentNetwork: () => ({ network: 'devnet' }),
    getBalanceByAddress: () => ({ balance: 1900n }),
    getBalancesByAddresses: (request) => ({
      entries: (request as { addresses: string[] }).addresses.map((address, index) => ({ address, balance: index === 0 ? 1900n : null })),
    }),
    getUtxosByAddresses: (request) => ({
      entries: (request as { addresses: string[] }).addresses.map((address) => ({
        address,
        outpoint: { transactionId: 'cc'.repeat(32), index: 1 },
        utxoEntry: { amount: 1900n, scriptPublicKey: `0000${UTXO_SCRIPT}`, blockDaaScore: 19_990n, isCoinbase: false, covenantId: null },
      })),
    }),
    getCurrentBlockColor: () => ({ blue: false }),
    getBlocks: (request) => {
      const { lowHash } = request as { lowHash: string };
      if (lowHash !== bytesToHex(hashOf('block deep'))) throw new Error('block not found');
      return { blockHashes: [lowHash, bytesToHex(hashOf('block side')), bytesToHex(hashOf('block tip')), 'ee'.repeat(32)], blocks: [] };
    },
    ...extra,
  };
  return {
    async call<M extends RpcMethodName>(method: M, request: unknown): Promise<RpcResponse<M>> {
      const answer = answers[method];
      if (answer === undefined) throw new Error(`unexpected node call ${method}`);
      return (answer as (request: unknown) => RpcResponse<M>)(request);
    },
  };
}

export interface Reply {
  status: number;
  headers: Headers;
  body: never;
  text: string;
}

/** The /kaspa-rest handler over `db` and a fake node, at a fixed clock, and a request helper answering parsed JSON. */
export async function harness(
  db: Db,
  access: KaspaRestAccess = { mode: 'keyless', ruPerSecondPerIp: 1000 },
  nodeAnswers: NodeAnswers = {},
) {
  const rpc = fakeNode(20_000n, nodeAnswers);
  const clock = () => NOW;
  const keys = createMemoryKeyStore();
  const context: KaspaRestContext = {
    data: {
      db,
      rpc,
      addressPrefix: async () => 'kaspadev',
      virtualBlueScore: async () => 20_000n,
      indexedTip: async () => ({ name: 'virtual-chain', blockHash: hashOf('block tip'), blueScore: 19_990n, daaScore: 19_990n }),
      stats: createIndexStats(db, clock),
      names: async () => [
        { address: addressOf('exchange'), name: 'Exchange' },
        { address: addressOf('alice'), name: 'Alice' },
      ],
      kasUsd: { kind: 'fixed', label: 'fixed', rateAt: () => 0.1, close: () => undefined },
      healthMaxLagSeconds: 30,
    },
    keys,
    meter: createMemoryMeter(),
    clock,
    logger: { error: () => undefined },
    access,
  };
  const { key } = await createApiKey(keys, { name: 'client', limits: { milliRuPerSecond: 5000, milliRuPerMonth: 1_000_000 }, now: new Date(NOW) });
  const handler = createKaspaRestHandler(() => context);
  const request = async (
    path: string,
    init: { method?: string; body?: unknown; rawBody?: string; headers?: Record<string, string>; ip?: string } = {},
  ): Promise<Reply> => {
    const body = init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
    const response = await handler(
      new Request(`http://localhost/kaspa-rest${path}`, {
        method: init.method ?? (body === undefined ? 'GET' : 'POST'),
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
        body,
      }),
      init.ip ?? '203.0.113.7',
    );
    const text = await response.text();
    const json = response.headers.get('content-type') === 'application/json' && text !== '' ? parseJson(text) : null;
    return { status: response.status, headers: response.headers, body: json as never, text };
  };
  return { request, key };
}

