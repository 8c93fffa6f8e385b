/**
 * Starts the embedded devnet on a worker thread inside this process. The worker loads lib/devnet from the
 * TypeScript sources through tsx, so the app needs no separate build step for it (and Next's bundler never sees
 * the node's code).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { DevnetRestoreReport } from '../devnet/node';
import type { DevnetReorgReport, DevnetWorkerData, DevnetWorkerMessage, DevnetWorkerRequest } from '../devnet/worker';

export type { DevnetReorgReport } from '../devnet/worker';

export interface EmbeddedDevnet {
  readonly url: string;
  /** What the devnet restored from its block log (null without persistence), a dropped tail included. */
  readonly restored: DevnetRestoreReport | null;
  /** The devnet thread's V8 heap as it last reported it (every 10 s). */
  heap(): DevnetHeap | null;
  /** A side branch from the chain block `depth` below the sink, mined until it overtakes the chain. */
  forceReorg(depth: number): Promise<DevnetReorgReport>;
  stop(): Promise<void>;
}

export interface DevnetHeap {
  used: number;
  total: number;
  /** In use after the thread's latest major GC; null before its first. */
  retained: number | null;
}

export interface EmbeddedDevnetOptions extends Omit<DevnetWorkerData, 'kind'> {
  projectRoot: string;
  log: (line: string) => void;
  startTimeoutMs?: number;
}

export function startEmbeddedDevnet(options: EmbeddedDevnetOptions): Promise<EmbeddedDevnet> {
  const { projectRoot, log, startTimeoutMs = 120_000, ...settings } = options;
  const entry = pathToFileURL(join(projectRoot, 'lib', 'devnet', 'worker.ts')).href;
  const source = `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}));`;
  const workerData: DevnetWorkerData = { kind: 'dagboard-devnet', ...settings };
  const worker = new Worker(source, { eval: true, workerData });

  return new Promise((resolve, reject) => {
    const timeout = setTimeout(() => {
      void worker.terminate();
      reject(new Error(`the embedded devnet did not start within ${startTimeoutMs} ms`));
    }, startTimeoutMs);
    let stopped: (() => void) | undefined;
    let heap: DevnetHeap | null = null;
    const send = (request: DevnetWorkerRequest) => worker.postMessage(request);
    let reorgIds = 0;
    const reorgs = new Map<number, { resolve: (report: DevnetReorgReport) => void; reject: (error: Error) => void }>();

    worker.on('message', (message: DevnetWorkerMessage) => {
      switch (message.type) {
        case 'ready':
          clearTimeout(timeout);
          log(`embedded devnet serving wRPC on ${message.url}`);
          resolve({
            url: message.url,
            restored: message.restored,
            heap: () => heap,
            forceReorg: (depth) =>
              new Promise<DevnetReorgReport>((resolve, reject) => {
                const id = ++reorgIds;
                reorgs.set(id, { resolve, reject });
                send({ type: 'reorg', id, depth });
              }),
            stop: () =>
              new Promise<void>((done) => {
                stopped = done;
                send({ type: 'stop' });
              }),
          });
          return;
        case 'event':
          log(message.description);
          return;
        case 'reorged': {
          const pending = reorgs.get(message.id);
          reorgs.delete(message.id);
          if (message.report !== null) pending?.resolve(message.report);
          else pending?.reject(new Error(message.error ?? 'the devnet refused the reorganisation'));
          return;
        }
        case 'heap':
          heap = { used: message.used, total: message.total, retained: message.retained };
          return;
        case 'failed':
          clearTimeout(timeout);
          void worker.terminate();
          reject(new Error(`the embedded devnet failed to start: ${message.message}`));
          return;
        case 'stopped':
          void worker.terminate().then(() => stopped?.());
          return;
      }
    });
    worker.on('error', (error) => {
      clearTimeout(timeout);
      reject(error);
    });
  });
}
