import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { createWrpcServer, type WrpcHandlers, type WrpcServer } from '../devnet/server/wrpc-server';
import { createRpcClient, type RpcClient, type RpcClientOptions, type RpcStateChange } from './client';
import { RpcError, RpcRejectedError, RpcTimeoutError, RpcUnreachableError } from './errors';
import type { RpcNotifications, RpcUtxosByAddressesEntry } from './types';

const HASH = 'cd'.repeat(32);
const ADDRESS_A = 'kaspadev:qqaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const ADDRESS_B = 'kaspadev:qqcccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc';

function utxo(address: string, amount: bigint): RpcUtxosByAddressesEntry {
  return {
    address,
    outpoint: { transactionId: HASH, index: 0 },
    utxoEntry: { amount, scriptPublicKey: `000020${'ee'.repeat(32)}ac`, blockDaaScore: 1n, isCoinbase: false, covenantId: null },
  };
}

const handlers: WrpcHandlers = {
  ping: () => ({}),
  getCoinSupply: () => ({ maxSompi: 2_900_000_000_000_000_000n, circulatingSompi: 9_007_199_254_740_993n }),
  getBlock: ({ hash }) => {
    throw new Error(`cannot find header ${hash}`);
  },
  getBlockCount: async () => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    return { headerCount: 1n, blockCount: 1n };
  },
};

const cleanups: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startServer(port = 0): Promise<WrpcServer> {
  const server = await createWrpcServer({ handlers, port });
  cleanups.push(() => server.close());
  return server;
}

function startClient(options: RpcClientOptions): RpcClient {
  const client = createRpcClient({ heartbeatIntervalMs: 0, ...options });
  cleanups.push(() => client.close());
  return client;
}

function nextState(client: RpcClient, state: RpcStateChange['state']): Promise<RpcStateChange> {
  return new Promise((resolve) => {
    const stop = client.onStateChange((change) => {
      if (change.state !== state) return;
      stop();
      resolve(change);
    });
  });
}

async function until(condition: () => boolean, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A port nothing listens on: bound once, then released. */
async function deadPort(): Promise<number> {
  const server = await createWrpcServer({ handlers: {} });
  await server.close();
  return server.port;
}

describe('createRpcClient calls', () => {
  it('calls methods and gets u64 fields back exactly, as bigint', async () => {
    const server = await startServer();
    const client = startClient({ url: server.url });
    expect(await client.call('ping', {})).toEqual({});
    expect(await client.call('getCoinSupply', {})).toEqual({
      maxSompi: 2_900_000_000_000_000_000n,
      circulatingSompi: 9_007_199_254_740_993n,
    });
    expect(client.state).toBe('open');
  });

  it('sends distinct u64 ids past 2^53 and matches the echo of the raw id token', async () => {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    cleanups.push(() => new Promise((resolve) => wss.close(resolve)));
    await once(wss, 'listening');
    const frames: string[] = [];
    wss.on('connection', (socket) =>
      socket.on('message', (data) => {
        const frame = data.toString();
        frames.push(frame);
        const id = /^\{"id":(\d+),/.exec(frame)![1]!;
        socket.send(`{"id":${id},"method":"getSink","params":{"sink":"${HASH}"}}`);
      }),
    );
    const { port } = wss.address() as { port: number };
    const client = startClient({ url: `ws://127.0.0.1:${port}` });
    const answers = await Promise.all(Array.from({ length: 20 }, () => client.call('getSink', {})));
    expect(answers).toEqual(Array.from({ length: 20 }, () => ({ sink: HASH })));
    const ids = frames.map((frame) => BigInt(/^\{"id":(\d+),"method":"getSink","params":\{\}\}$/.exec(frame)![1]!));
    expect(new Set(ids).size).toBe(20);
    expect(ids.every((id) => id >= 0n && id < 1n << 64n)).toBe(true);
    expect(ids.every((id) => id > BigInt(Number.MAX_SAFE_INTEGER))).toBe(true);
  });

  it('fails with typed errors: rejected carries the node’s message, timeout, unreachable', async () => {
    const server = await startServer();
    const client = startClient({ url: server.url, requestTimeoutMs: 100 });
    const rejected = await client.call('getBlock', { hash: HASH, includeTransactions: false }).catch((error) => error);
    expect(rejected).toBeInstanceOf(RpcRejectedError);
    expect(rejected).toMatchObject({ kind: 'rejected', message: `cannot find header ${HASH}`, code: 0, data: null, method: 'getBlock' });
    const timedOut = await client.call('getBlockCount', {}).catch((error) => error);
    expect(timedOut).toBeInstanceOf(RpcTimeoutError);
    expect(timedOut).toMatchObject({ kind: 'timeout', timeoutMs: 100 });
    expect(await client.call('ping', {}, { timeoutMs: 2_000 })).toEqual({});

    const offline = startClient({ url: `ws://127.0.0.1:${await deadPort()}`, reconnect: { initialDelayMs: 5_000 } });
    const unreachable = await offline.call('ping', {}).catch((error) => error);
    expect(unreachable).toBeInstanceOf(RpcUnreachableError);
    expect(unreachable).toBeInstanceOf(RpcError);
    expect(unreachable.kind).toBe('unreachable');
    expect(offline.state).toBe('disconnected');
    await expect(offline.call('ping', {})).rejects.toBeInstanceOf(RpcUnreachableError);
  });

  it('backs off exponentially with jitter between failed attempts', async () => {
    const changes: RpcStateChange[] = [];
    const client = startClient({
      url: `ws://127.0.0.1:${await deadPort()}`,
      reconnect: { initialDelayMs: 40, factor: 2, maxDelayMs: 200, jitter: 0.5 },
      onStateChange: (change) => changes.push(change),
    });
    await until(() => changes.filter((change) => change.state === 'disconnected').length >= 5);
    const delays = changes.filter((change) => change.state === 'disconnected').map((change) => change.retryInMs!);
    const ceilings = [40, 80, 160, 200, 200];
    delays.slice(0, 5).forEach((delay, attempt) => {
      expect(delay).toBeGreaterThanOrEqual(ceilings[attempt]! / 2);
      expect(delay).toBeLessThanOrEqual(ceilings[attempt]!);
    });
    expect(changes.every((change) => change.state !== 'disconnected' || change.error instanceof Error)).toBe(true);
    await client.close();
    expect(client.state).toBe('closed');
    await expect(client.call('ping', {})).rejects.toBeInstanceOf(RpcUnreachableError);
  });

  it('drops a connection that stops answering pings and reconnects', async () => {
    const silent = new WebSocketServer({ host: '127.0.0.1', port: 0, autoPong: false });
    cleanups.push(() => new Promise((resolve) => silent.close(resolve)));
    await once(silent, 'listening');
    const { port } = silent.address() as { port: number };
    const client = startClient({ url: `ws://127.0.0.1:${port}`, heartbeatIntervalMs: 40, reconnect: { initialDelayMs: 5_000 } });
    await nextState(client, 'open');
    const change = await nextState(client, 'disconnected');
    expect(change.error?.message).toContain('no pong');
    for (const socket of silent.clients) socket.terminate();
  });

  it('rejects calls in flight when the client closes', async () => {
    const server = await startServer();
    const client = startClient({ url: server.url });
    await client.call('ping', {});
    const pending = client.call('getBlockCount', {}).catch((error: unknown) => error);
    await client.close();
    expect(await pending).toBeInstanceOf(RpcUnreachableError);
  });
});

describe('createRpcClient subscriptions', () => {
  it('reconnects after a server restart, resubscribes, and receives notifications again', async () => {
    let server = await startServer();
    const port = server.port;
    const client = startClient({ url: server.url, reconnect: { initialDelayMs: 20, maxDelayMs: 100 } });
    const scores: bigint[] = [];
    await client.subscribe('VirtualDaaScoreChanged', {}, ({ virtualDaaScore }) => scores.push(virtualDaaScore));
    expect(server.notify('VirtualDaaScoreChanged', { virtualDaaScore: 1n })).toBe(1);
    await until(() => scores.length === 1);

    const inFlight = client.call('getBlockCount', {}).catch((error: unknown) => error);
    const disconnected = nextState(client, 'disconnected');
    await server.close();
    expect(await inFlight).toBeInstanceOf(RpcUnreachableError);
    expect((await disconnected).error?.message).toContain('1001');

    server = await startServer(port);
    await until(() => server.notify('VirtualDaaScoreChanged', { virtualDaaScore: 18446744073709551615n }) === 1);
    await until(() => scores.length >= 2);
    expect(scores.at(-1)).toBe(18446744073709551615n);
    expect(await client.call('ping', {})).toEqual({});
  });

  it('shares one server subscription between listeners and filters UtxosChanged per listener', async () => {
    const server = await startServer();
    const client = startClient({ url: server.url });
    const seen = { a: [] as bigint[], b: [] as bigint[], all: [] as bigint[] };
    const amounts = (payload: RpcNotifications['UtxosChanged']) => payload.added.map((entry) => entry.utxoEntry.amount);
    const stopA = await client.subscribe('UtxosChanged', { addresses: [ADDRESS_A] }, (payload) => seen.a.push(...amounts(payload)));
    await client.subscribe('UtxosChanged', { addresses: [ADDRESS_B] }, (payload) => seen.b.push(...amounts(payload)));
    const payload = { added: [utxo(ADDRESS_A, 1n), utxo(ADDRESS_B, 2n)], removed: [] };

    expect(server.notify('UtxosChanged', payload)).toBe(1);
    await until(() => seen.a.length + seen.b.length === 2);
    expect(seen).toEqual({ a: [1n], b: [2n], all: [] });

    const stopAll = await client.subscribe('UtxosChanged', { addresses: [] }, (payload) => seen.all.push(...amounts(payload)));
    server.notify('UtxosChanged', { added: [utxo('kaspadev:qqzzzzzzzz', 3n)], removed: [] });
    await until(() => seen.all.length === 1);
    await stopAll();
    await stopA();
    expect(server.notify('UtxosChanged', { added: [utxo(ADDRESS_A, 4n)], removed: [] })).toBe(0);
    server.notify('UtxosChanged', { added: [utxo(ADDRESS_A, 5n), utxo(ADDRESS_B, 6n)], removed: [] });
    await until(() => seen.b.length === 2);
    expect(seen).toEqual({ a: [1n], b: [2n, 6n], all: [3n] });
  });

  it('unsubscribes from the node when the last listener leaves, and rejects scopes the node refuses', async () => {
    const server = await startServer();
    const client = startClient({ url: server.url });
    const blocks: string[] = [];
    const stop = await client.subscribe('BlockAdded', {}, ({ block }) => blocks.push(block.header.hash));
    const stopAgain = await client.subscribe('BlockAdded', {}, ({ block }) => blocks.push(block.header.hash));
    const block = { header: { hash: HASH }, transactions: [], verboseData: null } as unknown as RpcNotifications['BlockAdded']['block'];
    expect(server.notify('BlockAdded', { block })).toBe(1);
    await until(() => blocks.length === 2);
    await stop();
    expect(server.notify('BlockAdded', { block })).toBe(1);
    await stopAgain();
    expect(server.notify('BlockAdded', { block })).toBe(0);

    const refused = client.subscribe('UtxosChanged', { addresses: ['not-an-address'] }, () => {});
    await expect(refused).rejects.toMatchObject({ kind: 'rejected', message: 'request deserialization error' });
    expect(server.notify('UtxosChanged', { added: [utxo(ADDRESS_A, 1n)], removed: [] })).toBe(0);
  });

  it('keeps a subscription made while disconnected and sends it once connected', async () => {
    const port = await deadPort();
    const client = startClient({ url: `ws://127.0.0.1:${port}`, reconnect: { initialDelayMs: 20, maxDelayMs: 50 } });
    await nextState(client, 'disconnected');
    const scores: bigint[] = [];
    await client.subscribe('SinkBlueScoreChanged', {}, ({ sinkBlueScore }) => scores.push(sinkBlueScore));
    const server = await startServer(port);
    await until(() => server.notify('SinkBlueScoreChanged', { sinkBlueScore: 7n }) === 1);
    await until(() => scores.length === 1);
    expect(scores).toEqual([7n]);
  });
});
