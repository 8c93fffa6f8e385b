/**
 * Worker-thread entry of the devnet's transaction traffic (started by traffic-thread.ts). Signing is the traffic's
 * main cost (libsecp256k1 in WebAssembly, as on the node's thread; under a millisecond per input), so it runs on its
 * own thread and the node's thread keeps mining and validating. The worker owns a WalletSet built from the same seed as the node's (hence the
 * same addresses) and reaches the node's handlers by messages: each RPC call is one `call` message answered by one
 * `result` message, with params and results as wRPC JSON text.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { RpcRejectedError } from '../../rpc/errors';
import { stringifyJson } from '../../rpc/json';
import { parseWireMessage } from '../../rpc/protocol';
import type { RpcMethodName, RpcRequest, RpcResponse } from '../../rpc/types';
import type { RpcCaller } from '../../rpc/convert-transaction';
import { wasmSecp256k1 } from '../consensus/secp256k1-wasm';
import { createTrafficGenerator, seededRandom } from './traffic';
import type { MainToWorker, TrafficWorkerData, WorkerToMain } from './traffic-thread';
import { createWalletSet } from './wallet';

const STATS_INTERVAL_MS = 500;
/** Gives the token scenario its own PRNG stream, deterministic per seed ("tokn"). */
const COVENANT_SEED_SALT = 0x6c0e7a17;
const TOKEN_SEED_SALT = 0x746f6b6e;

function runTrafficWorker(port: NonNullable<typeof parentPort>, data: TrafficWorkerData): void {
  const post = (message: WorkerToMain) => port.postMessage(message);
  const pending = new Map<number, { method: string; resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  const rpc: RpcCaller = {
    call<M extends RpcMethodName>(method: M, params: RpcRequest<M>): Promise<RpcResponse<M>> {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { method, resolve: resolve as (value: unknown) => void, reject });
        post({ type: 'call', id, method, params: stringifyJson(params) });
      });
    },
  };

  const wallets = createWalletSet({
    seed: data.seed,
    count: data.walletCount,
    prefix: 'kaspadev',
    coinbaseMaturity: data.coinbaseMaturity,
    secp256k1: wasmSecp256k1,
  });
  const traffic = createTrafficGenerator({
    rpc,
    wallets,
    rate: data.rate,
    toccataActivation: data.toccataActivation,
    random: seededRandom(data.randomSeed),
    tokens: { seed: data.seed, random: seededRandom(data.randomSeed ^ TOKEN_SEED_SALT) },
    covenants: { seed: data.seed, random: seededRandom(data.randomSeed ^ COVENANT_SEED_SALT) },
    onError: (error, source) => post({ type: 'error', source, message: error instanceof Error ? error.message : String(error) }),
  });
  const timer = setInterval(() => post({ type: 'stats', stats: traffic.stats() }), STATS_INTERVAL_MS);

  port.on('message', (message: MainToWorker) => {
    switch (message.type) {
      case 'result': {
        const call = pending.get(message.id);
        if (call === undefined) return;
        pending.delete(message.id);
        if (message.error !== undefined) call.reject(new RpcRejectedError(call.method, message.error));
        else call.resolve(parseWireMessage(message.result ?? '{}'));
        return;
      }
      case 'start':
        traffic.start();
        return;
      case 'stop':
        void traffic.stop().then(() => {
          clearInterval(timer);
          post({ type: 'stopped', stats: traffic.stats() });
          port.close();
        });
        return;
    }
  });
}

if (parentPort !== null && (workerData as TrafficWorkerData | undefined)?.kind === 'dagboard-traffic') {
  runTrafficWorker(parentPort, workerData as TrafficWorkerData);
}
