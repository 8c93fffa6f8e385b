/**
 * The devnet node: consensus, mempool and fee estimator behind kaspad's wRPC methods, a bridge turning consensus
 * events into wRPC notifications, simulated miners and transaction traffic that call the node through the same
 * handlers in-process, and optional persistence (block-log.ts).
 *
 * The parts are their own units: node-persistence.ts (the block log, snapshots and the replay on restart),
 * node-block-flow.ts (what follows every accepted block: the log, the mempool, the notifications in kaspad's order),
 * in-process-rpc.ts (the handlers as the miners and the traffic call them) and forced-reorg.ts. This function wires
 * them in the order their dependencies need: consensus is restored before anything reads it, and the block flow
 * subscribes only after the replay, so replayed blocks are neither logged again nor announced.
 *
 * Block rate: the consensus targets `blocksPerSecond` (targetTimePerBlock = 1000 / blocksPerSecond in whole ms; 10 blocks/s is
 * Crescendo exactly) and the genesis bits are set so the swarm's total hash rate meets that rate from the start.
 *
 * CPU: signatures go through libsecp256k1 compiled to WebAssembly (secp256k1-wasm.ts; under a millisecond per
 * signature or verification, against a few for lib/kaspa's pure-JavaScript reference). The traffic generator (which
 * signs) still runs on a worker thread by default; the node's thread verifies each input once in the mempool and
 * marks it verified, so templates and blocks carrying the transaction skip the check.
 */
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { PowMatrixCache } from '../kaspa/pow';
import type { Hash, Transaction } from '../kaspa/types';
import type { RpcCaller } from '../rpc/convert-transaction';
import type { BlockLogRecovery } from './block-log';
import type { Consensus } from './consensus/consensus';
import { CRESCENDO_PARAMS, devnetPruningParams, targetTimePerBlockFor, type ConsensusParams } from './consensus/params';
import { wasmSecp256k1 } from './consensus/secp256k1-wasm';
import { forceReorg, type ForcedReorg } from './forced-reorg';
import { createInProcessRpcCaller } from './in-process-rpc';
import { createMempool, type Mempool } from './mempool/mempool';
import { bootstrapOutputsFor, type DevnetBootstrap } from './mining/bootstrap';
import {
  bitsForExpectedHashes,
  createMinerSwarm,
  DEFAULT_PARTITION_DURATION_MS,
  DEFAULT_PARTITION_GAP_MS,
  DEFAULT_PARTITION_MAX_HELD_BLOCKS,
  expectedHashesPerBlock,
  type MinerSwarm,
  type MinerTimers,
  type NetworkDelay,
  type PartitionSchedule,
} from './mining/miner';
import { startBlockFlow } from './node-block-flow';
import { openNodeChain, type DevnetRestoreReport } from './node-persistence';
import { laneProofToRpc } from './server/rpc-converter';
import { createRpcHandlers, DEVNET_NETWORK } from './server/rpc-handlers';
import { createWrpcServer, type WrpcHandlers, type WrpcServer } from './server/wrpc-server';
import { createTrafficGenerator, seededRandom } from './traffic/traffic';
import { createTrafficThread, type TrafficRunner } from './traffic/traffic-thread';
import { createWalletSet, type WalletSet } from './traffic/wallet';

export type { ForcedReorg } from './forced-reorg';
export { createInProcessRpcCaller } from './in-process-rpc';
export type { DevnetRestoreReport } from './node-persistence';

/** The kaspad version whose wire shapes the node emits; it also prefixes every coinbase's extra data. */
export const DEVNET_SERVER_VERSION = '2.0.1';
/** Total simulated hash rate: at about 15 µs per kHeavyHash this costs a few percent of one core. */
export const DEFAULT_TOTAL_HASHES_PER_SECOND = 2_000;
const MAINTENANCE_INTERVAL_MS = 1_000;
const REVALIDATION_INTERVAL_MS = 10_000;

export interface DevnetNodeOptions {
  seed: string;
  blocksPerSecond?: number;
  /** 0 disables the traffic generator. */
  txPerSecond?: number;
  /** Simulated miners; 0 runs none (blocks then come only from submitBlock). */
  miners?: number;
  /** Summed over all miners. */
  hashesPerSecond?: number;
  /** null: memory only. */
  persistence: { dir: string } | null;
  /** Milliseconds since the Unix epoch. */
  clock?: () => number;
  /** When given, `start()` also listens on this port. */
  rpcPort?: number;
  /**
   * Where the traffic generator (and its signing) runs: a worker thread (default; keeps the node's thread free for
   * mining and validation) or the node's own thread.
   */
  trafficThread?: 'worker' | 'main';
  /** Funded wallets the traffic spends from; the miners' templates pay them in turn. Default max(8, miners). */
  wallets?: number;
  /**
   * A new chain's genesis commits the devnet bootstrap (bootstrap.ts): spendable outputs to every wallet, so traffic
   * starts with the first block. Default true. A recorded chain keeps the bootstrap its genesis record lists.
   */
  bootstrap?: boolean;
  serverVersion?: string;
  /**
   * The devnet's pruning depth in blue score (params.ts devnetPruningParams derives finality and merge depth from it);
   * undefined keeps kaspad's mainnet depths. `params` overrides win over the derived values.
   */
  pruningDepth?: number;
  /** Overrides of the Crescendo parameters (e.g. a short coinbase maturity in tests). */
  params?: Partial<ConsensusParams>;
  networkDelayMs?: NetworkDelay;
  /** The simulated miners' timers (a manual clock in tests; pass a matching `clock`). Default: wall-clock timers. */
  minerTimers?: MinerTimers;
  /**
   * Now and then one simulated miner is cut off for a while and delivers its withheld blocks when it reconnects, so the
   * DAG gets red blocks (miner.ts, "Partitions"). Default: every 30–90 s, 15–25 s dark (long enough for reds at
   * k = 124 and 10 blocks/s) and in any case until k + 25 blocks went by, delivering at most 12 held blocks; seeded
   * from `seed`. null: never.
   */
  partitions?: Omit<PartitionSchedule, 'random'> | null;
  /** Diagnostics (replay, rejected blocks, background failures); never called with secrets. */
  onEvent?: (event: DevnetNodeEvent) => void;
}

export type DevnetNodeEvent =
  | {
      type: 'replayed';
      blocks: number;
      milliseconds: number;
      /** The pruning point blue score of the snapshot the replay started from; null: from genesis. */
      snapshotBlueScore: bigint | null;
    }
  | { type: 'logRecovered'; recovery: BlockLogRecovery }
  | { type: 'chainSuperseded'; recordedActivation: bigint; activation: bigint; archivedTo: string }
  | { type: 'listening'; url: string }
  | { type: 'error'; source: string; error: unknown };


export interface DevnetNodeStats {
  blocks: number;
  /** Blocks accepted since this node object was created (replayed ones excluded). */
  blocksAdded: number;
  /**
   * Distinct non-coinbase transactions accepted by the current selected chain's blocks that joined it since creation: a
   * transaction a reorganisation moves to another chain block counts once, one it drops no longer counts.
   */
  transactionsAccepted: number;
  virtualDaaScore: bigint;
  sinkBlueScore: bigint;
  mempoolSize: number;
}

export interface DevnetNode {
  readonly consensus: Consensus;
  readonly mempool: Mempool;
  readonly wallets: WalletSet;
  readonly swarm: MinerSwarm | null;
  readonly traffic: TrafficRunner | null;
  readonly handlers: WrpcHandlers;
  /** The handlers in-process: JSON-shaped values in and out, errors as RpcRejectedError. */
  readonly rpc: RpcCaller;
  readonly genesisHash: Hash;
  /** The bootstrap outputs its genesis commits (bootstrap.ts); none on a chain started without them. */
  readonly bootstrap: DevnetBootstrap;
  /** What the node restored from its block log at creation; null without persistence. */
  readonly restored: DevnetRestoreReport | null;
  /** The ws:// URL once listening. */
  readonly url: string | undefined;
  start(): Promise<void>;
  stop(): Promise<void>;
  listen(port?: number): Promise<string>;
  forceReorg(options: { depth: number }): ForcedReorg;
  stats(): DevnetNodeStats;
}


/** A numeric seed for the PRNGs, from the node's text seed (FNV-1a). */
function numericSeed(seed: string): number {
  let hash = 0x811c9dc5;
  for (const byte of utf8ToBytes(seed)) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash;
}

export function createDevnetNode(options: DevnetNodeOptions): DevnetNode {
  const clock = options.clock ?? Date.now;
  const blocksPerSecond = options.blocksPerSecond ?? 10;
  const minerCount = options.miners ?? 4;
  const totalHashesPerSecond = options.hashesPerSecond ?? DEFAULT_TOTAL_HASHES_PER_SECOND;
  const serverVersion = options.serverVersion ?? DEVNET_SERVER_VERSION;
  const report = (event: DevnetNodeEvent) => {
    try {
      options.onEvent?.(event);
    } catch {
      // A failing observer must not take the node down.
    }
  };
  const random = seededRandom(numericSeed(options.seed));
  const params: ConsensusParams = {
    ...CRESCENDO_PARAMS,
    targetTimePerBlock: targetTimePerBlockFor(blocksPerSecond),
    ...(options.pruningDepth === undefined ? {} : devnetPruningParams(options.pruningDepth)),
    ...options.params,
  };
  const prefix = DEVNET_NETWORK.prefix;

  const wallets = createWalletSet({
    seed: options.seed,
    count: options.wallets ?? Math.max(8, minerCount),
    prefix,
    coinbaseMaturity: BigInt(params.coinbaseMaturity),
    secp256k1: wasmSecp256k1,
  });
  const powMatrixCache = new PowMatrixCache();
  const chain = openNodeChain({
    persistence: options.persistence,
    params,
    clock,
    random,
    powMatrixCache,
    newGenesisRecord: () => ({
      networkId: DEVNET_NETWORK.networkId,
      timestamp: BigInt(clock()),
      bits: bitsForExpectedHashes(expectedHashesPerBlock(totalHashesPerSecond, blocksPerSecond)),
      toccataActivation: params.toccataActivation,
      bootstrap: options.bootstrap === false ? [] : bootstrapOutputsFor(wallets.wallets.map((wallet) => wallet.scriptPublicKey)),
    }),
    report,
  });
  const { consensus, bootstrap, log } = chain;
  const mempool = createMempool({
    params: {
      coinbaseMaturity: params.coinbaseMaturity,
      targetTimePerBlock: params.targetTimePerBlock,
      toccataActivation: params.toccataActivation,
    },
    utxoView: {
      getUtxo: (outpoint) => consensus.getUtxo(outpoint),
      virtualDaaScore: () => consensus.virtualDaaScore(),
      virtualPastMedianTime: () => consensus.pastMedianTime(),
    },
    clock: { now: clock },
    random,
    secp256k1: wasmSecp256k1,
  });
  const restored = chain.replay();

  const markVerified = (transactions: readonly Transaction[]) => {
    for (const tx of transactions) consensus.markScriptsVerified(tx);
  };
  const handlers = createRpcHandlers({
    consensus,
    mempool,
    network: DEVNET_NETWORK,
    serverVersion,
    clock,
    onTransactionsAccepted: markVerified,
    laneProver: { laneProof: (blockHash, laneKey) => laneProofToRpc(consensus.seqCommitLaneProof(blockHash, laneKey)) },
    wrpcCounters: () => server?.counters(),
    processingCounters: () => ({
      blocksProcessed: flow.counters.blocksAdded,
      transactionsProcessed: flow.counters.transactionsProcessed,
      chainBlocksProcessed: flow.counters.chainBlocksProcessed,
    }),
  });
  const rpc = createInProcessRpcCaller(handlers);

  // Every template pays the next wallet, so all wallets are funded from the start, not only one per miner.
  let payRotation = 0;
  const nextPayAddress = () => wallets.wallets[payRotation++ % wallets.wallets.length]!.address;
  const partitions =
    options.partitions === undefined
      ? {
          gapMs: DEFAULT_PARTITION_GAP_MS,
          durationMs: DEFAULT_PARTITION_DURATION_MS,
          minBlocksMissed: params.ghostdagK + 25,
          maxHeldBlocks: DEFAULT_PARTITION_MAX_HELD_BLOCKS,
        }
      : options.partitions;
  const swarm: MinerSwarm | null =
    minerCount > 0
      ? createMinerSwarm({
          rpc,
          miners: Array.from({ length: minerCount }, (_, index) => ({
            name: `miner-${index}`,
            payAddress: nextPayAddress,
            hashesPerSecond: totalHashesPerSecond / minerCount,
          })),
          random,
          networkDelayMs: options.networkDelayMs,
          ...(options.minerTimers === undefined ? {} : { timers: options.minerTimers }),
          ...(partitions === null
            ? {}
            : { partitions: { ...partitions, random: seededRandom(numericSeed(`${options.seed}/partitions`)) } }),
          extraData: 'dagboard-miner',
          powMatrixCache,
        })
      : null;
  const txPerSecond = options.txPerSecond ?? 0;
  const createTraffic = (): TrafficRunner => {
    if (options.trafficThread === 'main') {
      return createTrafficGenerator({
        rpc,
        wallets,
        rate: txPerSecond,
        toccataActivation: params.toccataActivation,
        random,
        tokens: { seed: options.seed, random: seededRandom(numericSeed(`${options.seed}/tokens`)) },
        covenants: { seed: options.seed, random: seededRandom(numericSeed(`${options.seed}/covenants`)) },
        onError: (error, source) => report({ type: 'error', source: `traffic:${source}`, error }),
      });
    }
    return createTrafficThread({
      rpc,
      seed: options.seed,
      walletCount: wallets.wallets.length,
      coinbaseMaturity: BigInt(params.coinbaseMaturity),
      toccataActivation: params.toccataActivation,
      rate: txPerSecond,
      randomSeed: numericSeed(`${options.seed}/traffic`),
      onError: (source, message) => report({ type: 'error', source: `traffic:${source}`, error: new Error(message) }),
    });
  };
  const traffic = txPerSecond > 0 ? createTraffic() : null;

  let server: WrpcServer | undefined;
  const flow = startBlockFlow({
    consensus,
    mempool,
    log,
    swarm,
    server: () => server,
    markVerified,
    prefix,
    mergeDepth: params.mergeDepth,
    report,
  });

  let maintenance: NodeJS.Timeout | undefined;
  let lastRevalidation = 0;
  const maintain = () => {
    try {
      mempool.expireLowPriorityTransactions();
      const now = clock();
      if (now - lastRevalidation >= REVALIDATION_INTERVAL_MS) {
        lastRevalidation = now;
        mempool.revalidateHighPriorityTransactions();
      }
    } catch (error) {
      report({ type: 'error', source: 'maintenance', error });
    }
  };

  const listen = async (port = 0): Promise<string> => {
    if (server) return server.url;
    server = await createWrpcServer({
      handlers,
      port,
      onEvent: (event) => {
        if (event.type === 'handler-error' || event.type === 'server-error') report({ type: 'error', source: `wrpc:${event.type}`, error: event });
      },
    });
    report({ type: 'listening', url: server.url });
    return server.url;
  };

  let stopped = false;
  return {
    consensus,
    mempool,
    wallets,
    swarm,
    traffic,
    handlers,
    rpc,
    genesisHash: consensus.genesisHash(),
    bootstrap,
    restored,
    get url() {
      return server?.url;
    },
    async start() {
      if (stopped) throw new Error('a stopped devnet node cannot be restarted; create a new one');
      if (options.rpcPort !== undefined) await listen(options.rpcPort);
      maintenance ??= setInterval(maintain, MAINTENANCE_INTERVAL_MS).unref();
      swarm?.start();
      if (traffic && !traffic.running) traffic.start();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      if (maintenance !== undefined) clearInterval(maintenance);
      await Promise.all([swarm?.stop(), traffic?.stop()]);
      flow.processPending();
      log?.close();
      await server?.close();
    },
    listen,
    forceReorg: ({ depth }) =>
      forceReorg(consensus, { depth, payScriptPublicKey: wallets.wallets[0]!.scriptPublicKey, serverVersion, random }),
    stats: () => ({
      blocks: consensus.blockCount(),
      blocksAdded: flow.counters.blocksAdded,
      transactionsAccepted: flow.counters.transactionsAccepted,
      virtualDaaScore: consensus.virtualDaaScore(),
      sinkBlueScore: consensus.sinkBlueScore(),
      mempoolSize: mempool.transactionCount('transactions'),
    }),
  };
}
