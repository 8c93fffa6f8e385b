import { once } from 'node:events';
import { createServer } from 'node:http';
import { connect as tcpConnect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { RpcUtxosByAddressesEntry } from '../../rpc/types';
import {
  createWrpcServer,
  RequestDeserializationError,
  type WrpcHandlers,
  type WrpcServer,
  type WrpcServerEvent,
} from './wrpc-server';

const HASH = 'cd'.repeat(32);
const ADDRESS_A = 'kaspadev:qqaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const ADDRESS_B = 'kaspadev:qqcccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc';
const ADDRESS_C = 'kaspadev:qqdddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd';

function utxo(address: string, amount: bigint): RpcUtxosByAddressesEntry {
  return {
    address,
    outpoint: { transactionId: HASH, index: 0 },
    utxoEntry: { amount, scriptPublicKey: `000020${'ee'.repeat(32)}ac`, blockDaaScore: 1n, isCoinbase: false, covenantId: null },
  };
}

interface RawClient {
  ws: WebSocket;
  next(): Promise<string>;
  /** Resolves when the connection ends, with the close code (1006: dropped without a close frame). */
  closed: Promise<number>;
  request(text: string): Promise<string>;
}

async function rawClient(url: string): Promise<RawClient> {
  const ws = new WebSocket(url);
  const frames: string[] = [];
  const waiters: ((frame: string) => void)[] = [];
  ws.on('message', (data) => {
    const frame = data.toString();
    const waiter = waiters.shift();
    if (waiter) waiter(frame);
    else frames.push(frame);
  });
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  await once(ws, 'open');
  const next = () => {
    const frame = frames.shift();
    return frame !== undefined ? Promise.resolve(frame) : new Promise<string>((resolve) => waiters.push(resolve));
  };
  return {
    ws,
    next,
    closed,
    request(text) {
      ws.send(text);
      return next();
    },
  };
}

const handlers: WrpcHandlers = {
  ping: () => ({}),
  getSinkBlueScore: () => ({ blueScore: 18446744073709551615n }),
  getCoinSupply: () => ({ maxSompi: 2_900_000_000_000_000_000n, circulatingSompi: 1n }),
  getBlock: ({ hash }) => {
    throw new Error(`cannot find header ${hash}`);
  },
  getBalanceByAddress: () => {
    throw new RequestDeserializationError('bad checksum');
  },
  getBlockCount: async () => {
    await new Promise((resolve) => setTimeout(resolve, 50));
    return { headerCount: 1n, blockCount: 1n };
  },
};

const servers: WrpcServer[] = [];
const sockets: WebSocket[] = [];

async function startServer(extra: Partial<Parameters<typeof createWrpcServer>[0]> = {}): Promise<WrpcServer> {
  const server = await createWrpcServer({ handlers, ...extra });
  servers.push(server);
  return server;
}

async function connectRaw(url: string): Promise<RawClient> {
  const client = await rawClient(url);
  sockets.push(client.ws);
  return client;
}

afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.terminate();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('wRPC server framing', () => {
  it('answers with id, method and params, echoing a u64 id byte for byte', async () => {
    const server = await startServer();
    const client = await connectRaw(server.url);
    expect(await client.request('{"id":18446744073709551615,"method":"getSinkBlueScore","params":{}}')).toBe(
      '{"id":18446744073709551615,"method":"getSinkBlueScore","params":{"blueScore":18446744073709551615}}',
    );
    expect(await client.request('{"id":9007199254740993,"method":"getCoinSupply","params":{}}')).toBe(
      '{"id":9007199254740993,"method":"getCoinSupply","params":{"maxSompi":2900000000000000000,"circulatingSompi":1}}',
    );
    expect(await client.request('{"method":"ping","params":{},"id":0,"jsonrpc":"2.0"}')).toBe('{"id":0,"method":"ping","params":{}}');
  });

  it('answers errors in kaspad’s shape and keeps the connection', async () => {
    const server = await startServer();
    const client = await connectRaw(server.url);
    const cases: [string, string][] = [
      ['{"id":1,"method":"getMetrics","params":{}}', '{"id":1,"method":"getMetrics","error":{"code":0,"message":"RPC method not found","data":null}}'],
      ['{"id":2,"method":"notifyBlockAdded","params":{}}', '{"id":2,"method":"notifyBlockAdded","error":{"code":0,"message":"RPC method not found","data":null}}'],
      ['{"id":3,"method":"getBlock","params":{"hash":"zz"}}', '{"id":3,"method":"getBlock","error":{"code":0,"message":"request deserialization error","data":null}}'],
      ['{"id":4,"method":"getBlock","params":null}', '{"id":4,"method":"getBlock","error":{"code":0,"message":"request deserialization error","data":null}}'],
      [
        `{"id":5,"method":"getBlock","params":{"hash":"${HASH}","includeTransactions":true}}`,
        `{"id":5,"method":"getBlock","error":{"code":0,"message":"cannot find header ${HASH}","data":null}}`,
      ],
      [
        `{"id":6,"method":"getBalanceByAddress","params":{"address":"${ADDRESS_A}"}}`,
        '{"id":6,"method":"getBalanceByAddress","error":{"code":0,"message":"request deserialization error","data":null}}',
      ],
      ['{"id":7,"method":"subscribe","params":{"Nope":{}}}', '{"id":7,"method":"subscribe","error":{"code":0,"message":"request deserialization error","data":null}}'],
    ];
    for (const [request, answer] of cases) expect(await client.request(request)).toBe(answer);
    expect(await client.request('{"id":8,"method":"ping","params":{}}')).toBe('{"id":8,"method":"ping","params":{}}');
  });

  it('drops the connection without a close frame on malformed frames, like kaspad, and keeps serving', async () => {
    const events: WrpcServerEvent[] = [];
    const server = await startServer({ onEvent: (event) => events.push(event) });
    const bystander = await connectRaw(server.url);
    const malformed = [
      'not json',
      '{"id":1,"method":"GetBlockDagInfo","params":{}}',
      '{"id":"1","method":"ping","params":{}}',
      '{"id":-1,"method":"ping","params":{}}',
      '{"id":1.5,"method":"ping","params":{}}',
      '{"id":18446744073709551616,"method":"ping","params":{}}',
      '{"id":1,"method":"ping"}',
      '[1,2,3]',
    ];
    for (const frame of malformed) {
      const client = await connectRaw(server.url);
      client.ws.send(frame);
      expect(await client.closed, frame).toBe(1006);
    }
    expect(events.filter((event) => event.type === 'malformed')).toHaveLength(malformed.length);
    expect(await bystander.request('{"id":1,"method":"ping","params":{}}')).toBe('{"id":1,"method":"ping","params":{}}');
    const fresh = await connectRaw(server.url);
    expect(await fresh.request('{"id":2,"method":"ping","params":{}}')).toBe('{"id":2,"method":"ping","params":{}}');
  });

  it('sends nothing back for requests without id, reads binary frames as text, and answers in order', async () => {
    const server = await startServer();
    const client = await connectRaw(server.url);
    client.ws.send('{"method":"ping","params":{}}');
    client.ws.send('{"id":null,"method":"getMetrics","params":{}}');
    client.ws.send('{"id":1,"method":"getBlockCount","params":{}}');
    client.ws.send(Buffer.from('{"id":2,"method":"ping","params":{}}'), { binary: true });
    expect(await client.next()).toBe('{"id":1,"method":"getBlockCount","params":{"headerCount":1,"blockCount":1}}');
    expect(await client.next()).toBe('{"id":2,"method":"ping","params":{}}');
    client.ws.send(Buffer.from([0x7b, 0xff, 0x7d]), { binary: true });
    expect(await client.closed).toBe(1006);
  });

  it('answers a long pipeline of requests completely and in order', async () => {
    const server = await startServer();
    const client = await connectRaw(server.url);
    for (let id = 0; id < 300; id++) client.ws.send(`{"id":${id},"method":"${id % 3 ? 'ping' : 'getMetrics'}","params":{}}`);
    for (let id = 0; id < 300; id++) expect((await client.next()).startsWith(`{"id":${id},`)).toBe(true);
  });

  it('attaches to an existing HTTP server on a path and leaves other requests alone', async () => {
    const http = createServer((_request, response) => response.end('page'));
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    const server = await startServer({ server: http, path: '/rpc' });
    const client = await connectRaw(server.url);
    expect(server.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/rpc$/);
    expect(await client.request('{"id":1,"method":"ping","params":{}}')).toBe('{"id":1,"method":"ping","params":{}}');
    const page = await fetch(server.url.replace('ws:', 'http:').replace('/rpc', '/'));
    expect(await page.text()).toBe('page');
    await server.close();
    http.close();
  });

  it('closes every connection on close() and frees the port', async () => {
    const server = await startServer();
    const client = await connectRaw(server.url);
    await server.close();
    expect(await client.closed).toBe(1001);
    const again = await startServer({ port: server.port });
    expect(again.port).toBe(server.port);
  });
});

describe('wRPC server notifications', () => {
  it('answers subscribe with the connection id and notifies only subscribers', async () => {
    const server = await startServer();
    const subscriber = await connectRaw(server.url);
    const other = await connectRaw(server.url);
    const answer = await subscriber.request('{"id":1,"method":"subscribe","params":{"VirtualDaaScoreChanged":{}}}');
    expect(answer).toMatch(/^\{"id":1,"method":"subscribe","params":\{"id":\d+\}\}$/);
    expect(server.notify('VirtualDaaScoreChanged', { virtualDaaScore: 18446744073709551615n })).toBe(1);
    expect(await subscriber.next()).toBe(
      '{"method":"virtualDaaScoreChangedNotification","params":{"VirtualDaaScoreChanged":{"virtualDaaScore":18446744073709551615}}}',
    );
    expect(await subscriber.request('{"id":2,"method":"unsubscribe","params":{"VirtualDaaScoreChanged":{}}}')).toBe(
      '{"id":2,"method":"unsubscribe","params":{}}',
    );
    expect(server.notify('VirtualDaaScoreChanged', { virtualDaaScore: 2n })).toBe(0);
    expect(await other.request('{"id":3,"method":"ping","params":{}}')).toBe('{"id":3,"method":"ping","params":{}}');
  });

  it('filters UtxosChanged per subscriber, following kaspad’s address-set state machine', async () => {
    const server = await startServer();
    const [onlyA, onlyB, all, onlyC, narrowed] = await Promise.all(Array.from({ length: 5 }, () => connectRaw(server.url)));
    const subscribe = (client: RawClient, addresses: string[], method = 'subscribe') =>
      client.request(`{"id":1,"method":"${method}","params":{"UtxosChanged":{"addresses":${JSON.stringify(addresses)}}}}`);
    await subscribe(onlyA!, [ADDRESS_A]);
    await subscribe(onlyB!, [ADDRESS_A]);
    await subscribe(onlyB!, [ADDRESS_B]);
    await subscribe(onlyB!, [ADDRESS_A], 'unsubscribe');
    await subscribe(all!, []);
    await subscribe(onlyC!, [ADDRESS_C]);
    await subscribe(narrowed!, []);
    await subscribe(narrowed!, [ADDRESS_B]);

    const sent = server.notify('UtxosChanged', { added: [utxo(ADDRESS_A, 1n), utxo(ADDRESS_B, 2n)], removed: [utxo(ADDRESS_B, 3n)] });
    expect(sent).toBe(4);
    const payload = async (client: RawClient) => JSON.parse(await client.next()).params.UtxosChanged;
    const amounts = (entries: { utxoEntry: { amount: number } }[]) => entries.map((entry) => entry.utxoEntry.amount);
    const a = await payload(onlyA!);
    expect([amounts(a.added), amounts(a.removed)]).toEqual([[1], []]);
    const b = await payload(onlyB!);
    expect([amounts(b.added), amounts(b.removed)]).toEqual([[2], [3]]);
    const everything = await payload(all!);
    expect([amounts(everything.added), amounts(everything.removed)]).toEqual([[1, 2], [3]]);
    const narrow = await payload(narrowed!);
    expect([amounts(narrow.added), amounts(narrow.removed)]).toEqual([[2], [3]]);
    expect(await onlyC!.request('{"id":9,"method":"ping","params":{}}')).toBe('{"id":9,"method":"ping","params":{}}');
  });

  it('strips accepted transaction ids for VirtualChainChanged subscribers that did not ask for them', async () => {
    const server = await startServer();
    const withIds = await connectRaw(server.url);
    const withoutIds = await connectRaw(server.url);
    await withIds.request('{"id":1,"method":"subscribe","params":{"VirtualChainChanged":{"include_accepted_transaction_ids":true}}}');
    await withoutIds.request('{"id":1,"method":"subscribe","params":{"VirtualChainChanged":{"include_accepted_transaction_ids":false}}}');
    const accepted = [{ acceptingBlockHash: HASH, acceptedTransactionIds: [HASH] }];
    server.notify('VirtualChainChanged', { removedChainBlockHashes: [], addedChainBlockHashes: [HASH], acceptedTransactionIds: accepted });
    expect(JSON.parse(await withIds.next()).params.VirtualChainChanged.acceptedTransactionIds).toEqual(accepted);
    expect(JSON.parse(await withoutIds.next()).params.VirtualChainChanged).toEqual({
      removedChainBlockHashes: [],
      addedChainBlockHashes: [HASH],
      acceptedTransactionIds: [],
    });
  });

  it('applies an extra filter and disconnects a consumer that stops reading', async () => {
    const events: WrpcServerEvent[] = [];
    const server = await startServer({ maxBufferedBytes: 1024 * 1024, onEvent: (event) => events.push(event) });
    const reader = await connectRaw(server.url);
    await reader.request('{"id":1,"method":"subscribe","params":{"BlockAdded":{}}}');

    const { port } = new URL(server.url);
    const stalled = tcpConnect(Number(port), '127.0.0.1');
    await once(stalled, 'connect');
    stalled.write(
      'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
    );
    await once(stalled, 'data');
    const subscribeFrame = Buffer.from('{"id":1,"method":"subscribe","params":{"BlockAdded":{}}}');
    const mask = Buffer.from([1, 2, 3, 4]);
    const masked = Buffer.from(subscribeFrame.map((byte, index) => byte ^ mask[index % 4]!));
    stalled.write(Buffer.concat([Buffer.from([0x81, 0x80 | subscribeFrame.length]), mask, masked]));
    await once(stalled, 'data');
    stalled.pause();
    const connected = events.flatMap((event) => (event.type === 'connected' ? [event.connection.id] : []));
    const stalledId = connected.find((id) => id !== 0)!;

    const block = { header: { hash: HASH, padding: 'f'.repeat(256 * 1024) } } as never;
    expect(server.notify('BlockAdded', block, (connection) => connection.id !== stalledId)).toBe(1);
    await reader.next();
    for (let round = 0; round < 400 && !events.some((event) => event.type === 'slow-consumer'); round++) {
      server.notify('BlockAdded', block, (connection) => connection.id === stalledId);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(events.some((event) => event.type === 'slow-consumer' && event.connection.id === stalledId)).toBe(true);
    stalled.destroy();
    expect(await reader.request('{"id":2,"method":"ping","params":{}}')).toBe('{"id":2,"method":"ping","params":{}}');
  });
});
