/**
 * Starts the embedded devnet on a worker thread inside this process. The worker loads lib/devnet from the
 * TypeScript sources through tsx, so the app needs no separate build step for it (and Next's bundler never sees
 * the node's code).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { DevnetWorkerData, DevnetWorkerMessage } from '../devnet/worker';

export interface EmbeddedDevnet {
  readonly url: string;
  stop(): Promise<void>;
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

    worker.on('message', (message: DevnetWorkerMessage) => {
      switch (message.type) {
        case 'ready':
          clearTimeout(timeout);
          log(`embedded devnet serving wRPC on ${message.url}`);
          resolve({
            url: message.url,
            stop: () =>
              new Promise<void>((done) => {
                stopped = done;
                worker.postMessage({ type: 'stop' });
              }),
          });
          return;
        case 'event':
          log(message.description);
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
