/**
 * Worker-thread entry of the embedded devnet (started by lib/runtime): runs the node on its own event loop so mining
 * and validation never stall the app's request handling, and serves it over wRPC on a loopback port. The app then
 * talks to it through lib/rpc exactly as it would to a real kaspad.
 */
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { bytesToHex } from '../kaspa/bytes';
import { watchHeapAfterMajorGc } from './heap-after-gc';
import { createDevnetNode, type DevnetRestoreReport } from './node';
import { describeNodeEvent } from './node-event-text';

export interface DevnetWorkerData {
  kind: 'dagboard-devnet';
  seed: string;
  blocksPerSecond: number;
  txPerSecond: number;
  miners: number;
  /** Consensus coinbase maturity in DAA scores. */
  coinbaseMaturity: number;
  /** Whether a new chain's genesis commits the devnet bootstrap outputs. */
  bootstrap: boolean;
  /** Blue score (params.ts devnetPruningParams). */
  pruningDepth: number;
  /** DAA score from which Toccata applies (params.ts `FORK_NEVER` for never). */
  toccataActivation: bigint;
  persistenceDir: string | null;
  port: number;
}

/** What the app asks of the devnet thread. */
export type DevnetWorkerRequest = { type: 'stop' } | { type: 'reorg'; id: number; depth: number };

/** A forced reorganisation's outcome, hashes as hex. */
export interface DevnetReorgReport {
  base: string;
  blocks: string[];
  removedChainBlocks: string[];
  addedChainBlocks: string[];
}

export type DevnetWorkerMessage =
  | { type: 'ready'; url: string; restored: DevnetRestoreReport | null }
  | { type: 'reorged'; id: number; report: DevnetReorgReport | null; error: string | null }
  | { type: 'event'; description: string }
  /** This thread's V8 heap, in bytes (retained: after its latest major GC): /metrics cannot read another thread's. */
  | { type: 'heap'; used: number; total: number; retained: number | null }
  | { type: 'failed'; message: string }
  | { type: 'stopped' };

const HEAP_REPORT_INTERVAL_MS = 10_000;

async function run(port: NonNullable<typeof parentPort>, data: DevnetWorkerData): Promise<void> {
  const post = (message: DevnetWorkerMessage) => port.postMessage(message);
  const node = createDevnetNode({
    seed: data.seed,
    blocksPerSecond: data.blocksPerSecond,
    txPerSecond: data.txPerSecond,
    miners: data.miners,
    pruningDepth: data.pruningDepth,
    bootstrap: data.bootstrap,
    params: { coinbaseMaturity: data.coinbaseMaturity, toccataActivation: data.toccataActivation },
    persistence: data.persistenceDir === null ? null : { dir: data.persistenceDir },
    onEvent: (event) => post({ type: 'event', description: describeNodeEvent(event) }),
  });
  const heapAfterGc = watchHeapAfterMajorGc();
  const reportHeap = () => {
    const heap = getHeapStatistics();
    post({ type: 'heap', used: heap.used_heap_size, total: heap.total_heap_size, retained: heapAfterGc.current() });
  };
  const heapReports = setInterval(reportHeap, HEAP_REPORT_INTERVAL_MS);
  heapReports.unref();
  port.on('message', (message: DevnetWorkerRequest) => {
    if (message.type === 'reorg') {
      try {
        const reorg = node.forceReorg({ depth: message.depth });
        const report: DevnetReorgReport = {
          base: bytesToHex(reorg.base),
          blocks: reorg.blocks.map(bytesToHex),
          removedChainBlocks: reorg.change.removedChainBlockHashes.map(bytesToHex),
          addedChainBlocks: reorg.change.addedChainBlockHashes.map(bytesToHex),
        };
        post({ type: 'reorged', id: message.id, report, error: null });
      } catch (error) {
        post({ type: 'reorged', id: message.id, report: null, error: error instanceof Error ? error.message : String(error) });
      }
      return;
    }
    clearInterval(heapReports);
    heapAfterGc.stop();
    void node.stop().then(() => post({ type: 'stopped' }));
  });
  await node.start();
  reportHeap();
  post({ type: 'ready', url: await node.listen(data.port), restored: node.restored });
}

const data = workerData as DevnetWorkerData | undefined;
if (parentPort && data?.kind === 'dagboard-devnet') {
  const port = parentPort;
  run(port, data).catch((error: unknown) =>
    port.postMessage({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
  );
}
