/**
 * A devnet node without simulated miners, listening on a loopback port, driven through lib/rpc's client and through
 * raw WebSocket frames: tests mine with getBlockTemplate → solve → submitBlock exactly as an external miner does.
 * The clock is fake (one block interval per mined block) and the target the easiest (two hashes per block).
 */
import { once } from 'node:events';
import { WebSocket } from 'ws';
import { schnorrAddressFromPublicKey } from '../../kaspa/address';
import { bytesToHex } from '../../kaspa/bytes';
import { headerHash } from '../../kaspa/header';
import { schnorrPublicKey } from '../../kaspa/signing';
import { createRpcClient, type RpcClient } from '../../rpc/client';
import { RpcRejectedError } from '../../rpc/errors';
import type { Block } from '../consensus/consensus';
import { createDevnetNode, type DevnetNode, type DevnetNodeOptions } from '../node';
import { blockFromRpc, blockToRpcSubmission } from '../../rpc/convert-block';
import { GENESIS_TIMESTAMP, solve, testKey, type TestKey } from './devnet-harness';

export interface WireKey extends TestKey {
  address: string;
}

export function wireKey(seed: number): WireKey {
  const key = testKey(seed);
  return { ...key, address: schnorrAddressFromPublicKey(schnorrPublicKey(key.privateKey), 'kaspadev') };
}

export const MINER_KEY = wireKey(1);
export const TEST_COINBASE_MATURITY = 10;

export interface WireDevnet {
  node: DevnetNode;
  client: RpcClient;
  url: string;
  now(): number;
  advance(ms: number): void;
  /** A solved block on the current template (not submitted). */
  template(payAddress?: string): Promise<Block>;
  /** Submits a block over the wire; resolves with the report once the node finished processing it. */
  submit(block: Block, allowNonDaaBlocks?: boolean): Promise<{ type: string; reason?: string }>;
  /** Template → solve → submit; throws unless accepted. */
  mine(payAddress?: string): Promise<{ hash: string; block: Block }>;
  /** Sends one raw frame and returns the next frame from the node, parsed with JSON.parse. */
  raw(method: string, params: unknown): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** The node's error text for a call it must refuse; throws when the call succeeds or fails otherwise. */
export async function rejection(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => new Error('the node accepted the call'),
    (caught: unknown) => caught,
  );
  if (!(error instanceof RpcRejectedError)) throw error;
  return error.message;
}

/** Lets queued microtasks and the node's post-insertion work run. */
export const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function startWireDevnet(overrides: Partial<DevnetNodeOptions> = {}): Promise<WireDevnet> {
  let now = Number(GENESIS_TIMESTAMP);
  const node = createDevnetNode({
    seed: 'wire-test',
    miners: 0,
    hashesPerSecond: 20,
    persistence: null,
    clock: () => now,
    params: { coinbaseMaturity: TEST_COINBASE_MATURITY },
    ...overrides,
  });
  const url = await node.listen(0);
  // The node shares the test's thread with its traffic: on a loaded machine one submitBlock can wait more than 10 s.
  const client = createRpcClient({ url, reconnect: false, requestTimeoutMs: 60_000 });
  const socket = new WebSocket(url);
  await once(socket, 'open');
  const frames: string[] = [];
  const waiters: ((frame: string) => void)[] = [];
  socket.on('message', (data) => {
    const text = String(data);
    const waiter = waiters.shift();
    if (waiter) waiter(text);
    else frames.push(text);
  });
  let nextId = 1;

  const template = async (payAddress = MINER_KEY.address) => {
    const response = await client.call('getBlockTemplate', { payAddress, extraData: [] });
    return solve(blockFromRpc(response.block));
  };
  const submit = async (block: Block, allowNonDaaBlocks = false) => {
    const { report } = await client.call('submitBlock', { block: blockToRpcSubmission(block), allowNonDaaBlocks });
    await settle();
    return report;
  };

  return {
    node,
    client,
    url,
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
    template,
    submit,
    async mine(payAddress) {
      const block = await template(payAddress);
      const report = await submit(block);
      if (report.type !== 'success') throw new Error(`mined block rejected: ${JSON.stringify(report)}`);
      now += 100;
      return { hash: bytesToHex(headerHash(block.header)), block };
    },
    raw(method, params) {
      const frame = new Promise<string>((resolve) => {
        const queued = frames.shift();
        if (queued !== undefined) resolve(queued);
        else waiters.push(resolve);
      });
      socket.send(JSON.stringify({ id: nextId++, method, params }));
      return frame.then((text) => JSON.parse(text) as Record<string, unknown>);
    },
    async close() {
      socket.close();
      await client.close();
      await node.stop();
    },
  };
}
