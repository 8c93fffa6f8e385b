/**
 * Runs the devnet's transaction traffic on a worker thread (traffic-worker.ts) and serves its RPC calls with the
 * node's in-process caller. Run from TypeScript sources (tsx, vitest), the worker loads through tsx's `tsImport`;
 * from compiled JavaScript it is imported directly.
 */
import { Worker } from 'node:worker_threads';
import { RpcError } from '../../rpc/errors';
import { stringifyJson } from '../../rpc/json';
import { parseWireMessage } from '../../rpc/protocol';
import type { RpcMethodName, RpcRequest } from '../../rpc/types';
import type { RpcCaller } from '../../rpc/convert-transaction';
import type { TrafficStats } from './traffic';

export interface TrafficWorkerData {
  kind: 'dagboard-traffic';
  seed: string;
  walletCount: number;
  coinbaseMaturity: bigint;
  toccataActivation: bigint;
  rate: number;
  randomSeed: number;
}

export type MainToWorker =
  | { type: 'result'; id: number; result?: string; error?: string }
  | { type: 'start' }
  | { type: 'stop' };

export type WorkerToMain =
  | { type: 'call'; id: number; method: RpcMethodName; params: string }
  | { type: 'stats'; stats: TrafficStats }
  | { type: 'error'; source: string; message: string }
  | { type: 'stopped'; stats: TrafficStats };

/** What the node needs of a traffic generator, wherever it runs. */
export interface TrafficRunner {
  readonly running: boolean;
  start(): void;
  /** Resolves once in-flight submissions settled and the worker exited. */
  stop(): Promise<void>;
  /** The latest figures the worker reported (every half second). */
  stats(): TrafficStats | undefined;
}

export interface TrafficThreadOptions extends Omit<TrafficWorkerData, 'kind'> {
  rpc: RpcCaller;
  onError?: (source: string, message: string) => void;
}

const WORKER_MODULE = new URL('./traffic-worker.ts', import.meta.url);

function bootstrapSource(): string {
  const target = JSON.stringify(WORKER_MODULE.href);
  if (!WORKER_MODULE.pathname.endsWith('.ts')) return `import(${target});`;
  return `import('tsx/esm/api').then(({ tsImport }) => tsImport(${target}, ${JSON.stringify(import.meta.url)}));`;
}

export function createTrafficThread(options: TrafficThreadOptions): TrafficRunner {
  const { rpc, onError, ...data } = options;
  let worker: Worker | undefined;
  let latest: TrafficStats | undefined;
  let running = false;
  let exited: Promise<void> | undefined;

  const spawn = (): Worker => {
    const workerData: TrafficWorkerData = { kind: 'dagboard-traffic', ...data };
    const spawned = new Worker(bootstrapSource(), { eval: true, workerData });
    const send = (message: MainToWorker) => spawned.postMessage(message);
    spawned.on('message', (message: WorkerToMain) => {
      switch (message.type) {
        case 'call':
          rpc.call(message.method, parseWireMessage(message.params) as RpcRequest<typeof message.method>).then(
            (result) => send({ type: 'result', id: message.id, result: stringifyJson(result) }),
            (error: unknown) =>
              send({
                type: 'result',
                id: message.id,
                error: error instanceof RpcError || error instanceof Error ? error.message : String(error),
              }),
          );
          return;
        case 'stats':
          latest = message.stats;
          return;
        case 'stopped':
          latest = message.stats;
          void spawned.terminate();
          return;
        case 'error':
          onError?.(message.source, message.message);
          return;
      }
    });
    spawned.on('error', (error) => onError?.('worker', error.message));
    exited = new Promise((resolve) => spawned.once('exit', () => resolve()));
    return spawned;
  };

  return {
    get running() {
      return running;
    },
    start() {
      if (running) return;
      worker ??= spawn();
      running = true;
      worker.postMessage({ type: 'start' } satisfies MainToWorker);
    },
    async stop() {
      if (worker === undefined) return;
      running = false;
      worker.postMessage({ type: 'stop' } satisfies MainToWorker);
      await exited;
      worker = undefined;
    },
    stats: () => latest,
  };
}
