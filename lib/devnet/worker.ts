/**
 * Worker-thread entry of the embedded devnet (started by lib/runtime): runs the node on its own event loop so mining
 * and validation never stall the app's request handling, and serves it over wRPC on a loopback port. The app then
 * talks to it through lib/rpc exactly as it would to a real kaspad.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createDevnetNode } from './node';
import { describeNodeEvent } from './node-event-text';

export interface DevnetWorkerData {
  kind: 'dagboard-devnet';
  seed: string;
  blocksPerSecond: number;
  txPerSecond: number;
  miners: number;
  /** Consensus coinbase maturity in DAA scores. */
  coinbaseMaturity: number;
  /** DAA score from which Toccata applies (params.ts `FORK_NEVER` for never). */
  toccataActivation: bigint;
  persistenceDir: string | null;
  port: number;
}

export type DevnetWorkerMessage =
  | { type: 'ready'; url: string }
  | { type: 'event'; description: string }
  | { type: 'failed'; message: string }
  | { type: 'stopped' };


async function run(port: NonNullable<typeof parentPort>, data: DevnetWorkerData): Promise<void> {
  const post = (message: DevnetWorkerMessage) => port.postMessage(message);
  const node = createDevnetNode({
    seed: data.seed,
    blocksPerSecond: data.blocksPerSecond,
    txPerSecond: data.txPerSecond,
    miners: data.miners,
    params: { coinbaseMaturity: data.coinbaseMaturity, toccataActivation: data.toccataActivation },
    persistence: data.persistenceDir === null ? null : { dir: data.persistenceDir },
    onEvent: (event) => post({ type: 'event', description: describeNodeEvent(event) }),
  });
  port.on('message', (message: { type: 'stop' }) => {
    if (message.type === 'stop') void node.stop().then(() => post({ type: 'stopped' }));
  });
  await node.start();
  post({ type: 'ready', url: await node.listen(data.port) });
}

const data = workerData as DevnetWorkerData | undefined;
if (parentPort && data?.kind === 'dagboard-devnet') {
  const port = parentPort;
  run(port, data).catch((error: unknown) =>
    port.postMessage({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
  );
}
