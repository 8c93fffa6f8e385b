/**
 * The devnet node: consensus, mempool and fee estimator behind kaspad's wRPC methods, a bridge turning consensus
 * events into wRPC notifications, simulated miners and transaction traffic that call the node through the same
 * handlers in-process, and optional persistence (block-log.ts).
 *
 * Block flow: every accepted block (from submitBlock, a forced reorganisation or the log replay) is appended to the
 * log at once; after the insertion finishes (a microtask later, once the virtual is resolved) its transactions leave
 * the mempool (kaspad's `on_new_block`), transactions the selected chain stopped accepting go back to the mempool,
 * and the queued notifications go out in the order of kaspad's virtual processor: BlockAdded (with its verbose data as of
 * that moment), then for the virtual resolution that followed it NewBlockTemplate, UtxosChanged, SinkBlueScoreChanged,
 * VirtualDaaScoreChanged and VirtualChainChanged. kaspad sends all of them on every resolution, values changed or not
 * (an unchanged UTXO set or chain gives empty lists), and so does this node.
 *
 * Block rate: the consensus targets `blocksPerSecond` (targetTimePerBlock = 1000 / blocksPerSecond in whole ms; 10 blocks/s is
 * Crescendo exactly) and the genesis bits are set so the swarm's total hash rate meets that rate from the start.
 *
 * CPU: signatures go through libsecp256k1 compiled to WebAssembly (secp256k1-wasm.ts; under a millisecond per
 * signature or verification, against a few for lib/kaspa's pure-JavaScript reference). The traffic generator (which
 * signs) still runs on a worker thread by default; the node's thread verifies each input once in the mempool and
 * marks it verified, so templates and blocks carrying the transaction skip the check.
 *
 * Restart cost: the log replay re-validates every block (the virtual update, and the PoW matrix, which the replay
 * cannot take from the miners' cache) plus one signature verification (under a millisecond) per transaction input,
 * so an hour of 10 blocks/s history (36,000 blocks) takes minutes to come back.
 */
import { join } from 'node:path';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { bytesToHex, hexToBytes } from '../kaspa/bytes';
import { headerHash } from '../kaspa/header';
import { PowMatrixCache, PowState } from '../kaspa/pow';
import type { Hash, Transaction } from '../kaspa/types';
import { RpcRejectedError } from '../rpc/errors';
import { WRPC_ERROR_MESSAGES } from '../rpc/protocol';
import { requestSchemas, type HandledMethodName } from '../rpc/request-schemas';
import type { RpcMethodName, RpcNotifications, RpcRequest, RpcResponse } from '../rpc/types';
import { openBlockLog, SNAPSHOTS_DIR, type BlockLog, type BlockLogRecovery } from './block-log';
import { createConsensus, type Block, type Consensus, type VirtualChainChange } from './consensus/consensus';
import { openSnapshotStore, type ConsensusSnapshot } from './consensus/consensus-snapshot';
import { bootstrapOutputsFor, createDevnetBootstrap, type DevnetBootstrap } from './mining/bootstrap';
import { createDevnetGenesis } from './consensus/genesis';
import { wireCopy } from './json-copy';
import { createMempool, type Mempool } from './mempool/mempool';
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
import { CRESCENDO_PARAMS, devnetPruningParams, targetTimePerBlockFor, type ConsensusParams } from './consensus/params';
import { createRpcHandlers, DEVNET_NETWORK } from './server/rpc-handlers';
import { acceptedTransactionIdsToRpc, blockInfoToRpc, laneProofToRpc, utxoChangeToRpc } from './server/rpc-converter';
import type { RpcCaller } from '../rpc/convert-transaction';
import { wasmSecp256k1 } from './consensus/secp256k1-wasm';
import { createTrafficGenerator, seededRandom } from './traffic/traffic';
import { createTrafficThread, type TrafficRunner } from './traffic/traffic-thread';
import { createWalletSet, type WalletSet } from './traffic/wallet';
import { createWrpcServer, RequestDeserializationError, type WrpcHandlers, type WrpcServer } from './server/wrpc-server';

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

export interface ForcedReorg {
  /** The chain block the side branch grew from (`depth` selected parents below the sink). */
  base: Hash;
  /** The side branch, oldest first; its last block is the new sink. */
  blocks: Hash[];
  /** The chain change the last side block caused. */
  change: VirtualChainChange;
}

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

export interface DevnetRestoreReport {
  replayedBlocks: number;
  milliseconds: number;
  /** Set when a torn, corrupt or rejected tail of the block log was dropped. */
  recovery: BlockLogRecovery | null;
}

/** What one virtual resolution changed, filled in by the consensus events it emits. */
interface VirtualResolution {
  kind: 'virtualResolved';
  chain: { change: VirtualChainChange; returned: Transaction[] } | undefined;
  utxos: RpcNotifications['UtxosChanged'] | undefined;
  /** Read once the resolution is over: when the next block arrives or the queue is processed. */
  scores: { sinkBlueScore: bigint; virtualDaaScore: bigint } | undefined;
}

type PendingWork = { kind: 'blockAdded'; block: Block; hash: Hash } | VirtualResolution;

/** A numeric seed for the PRNGs, from the node's text seed (FNV-1a). */
function numericSeed(seed: string): number {
  let hash = 0x811c9dc5;
  for (const byte of utf8ToBytes(seed)) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash;
}

/**
 * The handlers called directly: params and results are copied as the JSON codec would carry them over a socket
 * (json-copy.ts), without writing and parsing the text.
 */
export function createInProcessRpcCaller(handlers: WrpcHandlers): RpcCaller {
  const context = { connection: { id: -1, remoteAddress: undefined }, signal: new AbortController().signal };
  return {
    async call<M extends RpcMethodName>(method: M, params: RpcRequest<M>): Promise<RpcResponse<M>> {
      await Promise.resolve();
      const handler = (handlers as Record<string, ((params: unknown, ctx: typeof context) => unknown) | undefined>)[method];
      if (method === 'subscribe' || method === 'unsubscribe' || handler === undefined) {
        throw new RpcRejectedError(method, WRPC_ERROR_MESSAGES.methodNotFound);
      }
      const decoded = requestSchemas[method as HandledMethodName].safeParse(wireCopy(params));
      if (!decoded.success) throw new RpcRejectedError(method, WRPC_ERROR_MESSAGES.requestDeserialization);
      let result: unknown;
      try {
        result = await handler(decoded.data, context);
      } catch (error) {
        if (error instanceof RequestDeserializationError) {
          throw new RpcRejectedError(method, WRPC_ERROR_MESSAGES.requestDeserialization);
        }
        throw new RpcRejectedError(method, error instanceof Error ? error.message : String(error));
      }
      return wireCopy(result) as unknown as RpcResponse<M>;
    },
  };
}

function solveBlock(block: Block, random: () => number): Block {
  const pow = PowState.fromHeader(block.header);
  let low = Math.floor(random() * 0x1_0000_0000);
  const high = Math.floor(random() * 0x1_0000_0000);
  while (!pow.checkPowWords(low, high)) low = (low + 1) >>> 0;
  return { ...block, header: { ...block.header, nonce: (BigInt(high) << 32n) | BigInt(low) } };
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

  const log: BlockLog | null = options.persistence
    ? openBlockLog({ dir: options.persistence.dir, toccataActivation: params.toccataActivation })
    : null;
  if (log?.superseded) {
    const { recordedActivation, archivedTo } = log.superseded;
    report({ type: 'chainSuperseded', recordedActivation, activation: params.toccataActivation, archivedTo });
  }
  const wallets = createWalletSet({
    seed: options.seed,
    count: options.wallets ?? Math.max(8, minerCount),
    prefix,
    coinbaseMaturity: BigInt(params.coinbaseMaturity),
    secp256k1: wasmSecp256k1,
  });
  const genesisRecord = log?.genesis ?? {
    networkId: DEVNET_NETWORK.networkId,
    timestamp: BigInt(clock()),
    bits: bitsForExpectedHashes(expectedHashesPerBlock(totalHashesPerSecond, blocksPerSecond)),
    toccataActivation: params.toccataActivation,
    bootstrap: options.bootstrap === false ? [] : bootstrapOutputsFor(wallets.wallets.map((wallet) => wallet.scriptPublicKey)),
  };
  if (log && log.genesis === undefined) log.writeGenesis(genesisRecord);
  const bootstrap = createDevnetBootstrap(genesisRecord.bootstrap ?? []);
  const genesis = createDevnetGenesis({
    timestamp: genesisRecord.timestamp,
    bits: genesisRecord.bits,
    utxoCommitment: bootstrap.utxoCommitment,
  });

  let replaying = false;
  const powMatrixCache = new PowMatrixCache();
  const snapshots = log ? openSnapshotStore(join(log.dir, SNAPSHOTS_DIR)) : null;
  const consensusFrom = (snapshot?: ConsensusSnapshot) =>
    createConsensus({
      params,
      genesis,
      // Replayed blocks were validated against the clock when first accepted; the future-timestamp bound is not re-applied.
      clock: () => (replaying ? Number.MAX_SAFE_INTEGER : clock()),
      random,
      secp256k1: wasmSecp256k1,
      powMatrixCache,
      genesisUtxoSet: bootstrap.utxos,
      ...(snapshot === undefined ? {} : { snapshot }),
    });
  const restoreStarted = performance.now();
  /** The newest snapshot that loads; a torn or altered one is reported and the next older one tried. */
  const fromSnapshot = ((): { consensus: Consensus; blueScore: bigint } | undefined => {
    for (const file of snapshots?.list() ?? []) {
      try {
        return { consensus: consensusFrom(snapshots!.read(file)), blueScore: file.blueScore };
      } catch (error) {
        report({ type: 'error', source: `snapshot:${file.path}`, error });
      }
    }
    return undefined;
  })();
  const consensus = fromSnapshot?.consensus ?? consensusFrom();
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

  let restored: DevnetRestoreReport | null = null;
  let replayedBlocks = 0;
  if (log) {
    replaying = true;
    try {
      const blocks = log.readBlocks();
      for (const [index, block] of blocks.entries()) {
        // Blocks at or below the snapshot's pruning point are in it (or pruned); its strict future has higher blue scores.
        if (fromSnapshot !== undefined && block.header.blueScore <= fromSnapshot.blueScore) continue;
        const result = consensus.validateAndInsertBlock(block, { allowNonDaaBlocks: true, trusted: true, deferVirtual: true });
        if (result.type !== 'success') {
          log.dropFrom(index, `block ${bytesToHex(headerHash(block.header))} was rejected on replay: ${result.message}`);
          break;
        }
        replayedBlocks++;
      }
      consensus.resolveVirtualNow();
    } finally {
      replaying = false;
    }
    restored = { replayedBlocks, milliseconds: performance.now() - restoreStarted, recovery: log.recovery ?? null };
    if (log.recovery) report({ type: 'logRecovered', recovery: log.recovery });
    report({
      type: 'replayed',
      blocks: restored.replayedBlocks,
      milliseconds: restored.milliseconds,
      snapshotBlueScore: fromSnapshot?.blueScore ?? null,
    });
  }

  /** Snapshot at the new pruning point, then compact the log below the oldest snapshot kept. */
  const persistSnapshot = () => {
    if (log === null || snapshots === null) return;
    try {
      log.flush();
      const pruningPoint = consensus.getBlock(consensus.pruningPoint())!;
      log.dropThrough(snapshots.write(consensus.snapshot(), pruningPoint.ghostdag.blueScore));
    } catch (error) {
      report({ type: 'error', source: 'snapshot', error });
    }
  };
  // The replay moved the pruning point past the snapshot it started from (or from genesis): snapshot it now, which also
  // replaces a newer file that failed to load.
  if (consensus.getBlock(consensus.pruningPoint())!.ghostdag.blueScore !== (fromSnapshot?.blueScore ?? 0n)) persistSnapshot();
  consensus.events.on('pruningPointMoved', persistSnapshot);

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
      blocksProcessed: counters.blocksAdded,
      transactionsProcessed: counters.transactionsProcessed,
      chainBlocksProcessed: counters.chainBlocksProcessed,
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
  let pending: PendingWork[] = [];
  let flushScheduled = false;
  const counters = { blocksAdded: 0, transactionsAccepted: 0, transactionsProcessed: 0, chainBlocksProcessed: 0 };
  /**
   * Transactions counted per chain block, by hash, so a reorganisation takes back what its removed blocks accepted
   * (their transactions count again where the new chain accepts them). Blocks more than the merge depth (an hour at 10
   * blocks/s) below the sink are forgotten: no reorganisation the devnet sees goes that deep, and the map stays small.
   */
  const countedChainBlocks = new Map<string, { accepted: number; blueScore: bigint }>();

  /** The resolution following the latest block; consensus resolves the virtual right after announcing a block. */
  let resolution: VirtualResolution | undefined;
  const closeResolution = () => {
    if (resolution !== undefined && resolution.scores === undefined) {
      resolution.scores = { sinkBlueScore: consensus.sinkBlueScore(), virtualDaaScore: consensus.virtualDaaScore() };
    }
  };
  const openResolution = (): VirtualResolution => {
    closeResolution();
    resolution = { kind: 'virtualResolved', chain: undefined, utxos: undefined, scores: undefined };
    enqueue(resolution);
    return resolution;
  };
  const currentResolution = () => (resolution !== undefined && resolution.scores === undefined ? resolution : openResolution());

  const notifyResolution = (item: VirtualResolution) => {
    if (item.chain !== undefined && item.chain.returned.length > 0) markVerified(mempool.returnTransactions(item.chain.returned));
    if (server === undefined) return;
    server.notify('NewBlockTemplate', {});
    // Empty when nothing changed: kaspad still sends it, and every-address subscribers receive it as it is.
    server.notify('UtxosChanged', item.utxos ?? { added: [], removed: [] });
    const scores = item.scores!;
    server.notify('SinkBlueScoreChanged', { sinkBlueScore: scores.sinkBlueScore });
    server.notify('VirtualDaaScoreChanged', { virtualDaaScore: scores.virtualDaaScore });
    const change = item.chain?.change;
    server.notify('VirtualChainChanged', {
      removedChainBlockHashes: change?.removedChainBlockHashes.map(bytesToHex) ?? [],
      addedChainBlockHashes: change?.addedChainBlockHashes.map(bytesToHex) ?? [],
      acceptedTransactionIds: change?.acceptedTransactionIds.map(acceptedTransactionIdsToRpc) ?? [],
    });
  };

  const processPending = () => {
    flushScheduled = false;
    closeResolution();
    const work = pending;
    pending = [];
    for (const item of work) {
      try {
        if (item.kind === 'blockAdded') {
          markVerified(mempool.handleNewBlockTransactions(item.block.header.daaScore, item.block.transactions));
          const info = consensus.getBlock(item.hash);
          if (server && info) server.notify('BlockAdded', { block: blockInfoToRpc(info, prefix, true) });
        } else {
          notifyResolution(item);
        }
      } catch (error) {
        report({ type: 'error', source: `bridge:${item.kind}`, error });
      }
    }
  };
  const enqueue = (item: PendingWork) => {
    pending.push(item);
    if (!flushScheduled) {
      flushScheduled = true;
      queueMicrotask(processPending);
    }
  };

  /** Non-coinbase transactions accepted by the removed chain blocks and not by the added ones. */
  const transactionsLeftBehind = (change: VirtualChainChange): Transaction[] => {
    const stillAccepted = new Set(change.acceptedTransactionIds.flatMap((accepted) => accepted.acceptedTransactionIds.map(bytesToHex)));
    const returned: Transaction[] = [];
    for (const removed of change.removedChainBlockHashes) {
      for (const merged of consensus.getAcceptanceData(removed) ?? []) {
        const wanted = new Set(merged.acceptedTransactionIds.map(bytesToHex).filter((id) => !stillAccepted.has(id)));
        if (wanted.size === 0) continue;
        const block = consensus.getBlock(hexToBytes(merged.blockHash));
        block?.transactions.forEach((tx, index) => {
          if (index > 0 && wanted.has(bytesToHex(block.transactionIds[index]!))) returned.push(tx);
        });
      }
    }
    return returned;
  };

  consensus.events.on('blockAdded', ({ block, hash }) => {
    counters.blocksAdded++;
    counters.transactionsProcessed += block.transactions.length;
    log?.append(block);
    swarm?.notifyBlockAdded();
    closeResolution();
    enqueue({ kind: 'blockAdded', block, hash });
    openResolution();
  });
  consensus.events.on('virtualChainChanged', (change) => {
    counters.chainBlocksProcessed += change.addedChainBlockHashes.length;
    for (const removed of change.removedChainBlockHashes) {
      const key = bytesToHex(removed);
      const counted = countedChainBlocks.get(key);
      if (counted === undefined) continue;
      counters.transactionsAccepted -= counted.accepted;
      countedChainBlocks.delete(key);
    }
    for (const { acceptingBlockHash, acceptedTransactionIds } of change.acceptedTransactionIds) {
      const accepted = Math.max(0, acceptedTransactionIds.length - 1);
      const blueScore = consensus.getBlock(acceptingBlockHash)?.ghostdag.blueScore ?? 0n;
      counters.transactionsAccepted += accepted;
      countedChainBlocks.set(bytesToHex(acceptingBlockHash), { accepted, blueScore });
    }
    const forgetBelow = consensus.sinkBlueScore() - BigInt(params.mergeDepth);
    for (const [key, { blueScore }] of countedChainBlocks) {
      if (blueScore >= forgetBelow) break;
      countedChainBlocks.delete(key);
    }
    currentResolution().chain = { change, returned: transactionsLeftBehind(change) };
  });
  consensus.events.on('utxosChanged', ({ added, removed }) => {
    // Only wRPC connections can subscribe; without a server the address encoding of every change would be wasted.
    if (server === undefined) return;
    currentResolution().utxos = {
      added: added.map((change) => utxoChangeToRpc(change, prefix)),
      removed: removed.map((change) => utxoChangeToRpc(change, prefix)),
    };
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

  const forceReorg = ({ depth }: { depth: number }): ForcedReorg => {
    if (!Number.isInteger(depth) || depth < 1) throw new RangeError(`depth must be a positive integer, got ${depth}`);
    let base = consensus.sink();
    for (let step = 0; step < depth; step++) {
      const info = consensus.getBlock(base)!;
      if (info.header.parentsByLevel.length === 0) throw new RangeError(`the selected chain is shorter than ${depth} blocks`);
      base = hexToBytes(info.ghostdag.selectedParent);
    }
    let change: VirtualChainChange | undefined;
    const stopWatching = consensus.events.on('virtualChainChanged', (observed) => {
      if (observed.removedChainBlockHashes.length > 0) change = observed;
    });
    const blocks: Hash[] = [];
    const payScriptPublicKey = wallets.wallets[0]!.scriptPublicKey;
    const extraData = utf8ToBytes(`${serverVersion}/dagboard-reorg`);
    const maxBlocks = 20 * depth + 100;
    try {
      let tip = base;
      while (change === undefined || bytesToHex(consensus.sink()) !== bytesToHex(tip)) {
        if (blocks.length >= maxBlocks) throw new Error(`the side branch did not overtake the chain within ${maxBlocks} blocks`);
        const template = consensus.buildBlockTemplate({ payScriptPublicKey, extraData, parents: [tip] }).block;
        const block = solveBlock(template, random);
        const result = consensus.validateAndInsertBlock(block, { allowNonDaaBlocks: true });
        if (result.type !== 'success') throw new Error(`side-branch block rejected: ${result.message}`);
        tip = headerHash(block.header);
        blocks.push(tip);
      }
    } finally {
      stopWatching();
    }
    return { base, blocks, change };
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
      processPending();
      log?.close();
      await server?.close();
    },
    listen,
    forceReorg,
    stats: () => ({
      blocks: consensus.blockCount(),
      blocksAdded: counters.blocksAdded,
      transactionsAccepted: counters.transactionsAccepted,
      virtualDaaScore: consensus.virtualDaaScore(),
      sinkBlueScore: consensus.sinkBlueScore(),
      mempoolSize: mempool.transactionCount('transactions'),
    }),
  };
}
