/**
 * The node's block flow. Every accepted block (from submitBlock or a forced reorganisation; replayed ones are in the
 * log already) is appended to the log at once; after the insertion finishes (a microtask later, once the virtual is
 * resolved) its transactions leave the mempool (kaspad's `on_new_block`), transactions the selected chain stopped
 * accepting go back to the mempool, and the queued notifications go out in the order of kaspad's virtual processor:
 * BlockAdded (with its verbose data as of that moment), then for the virtual resolution that followed it
 * NewBlockTemplate, UtxosChanged, SinkBlueScoreChanged, VirtualDaaScoreChanged and VirtualChainChanged. kaspad sends
 * all of them on every resolution, values changed or not (an unchanged UTXO set or chain gives empty lists), and so
 * does this node. It also counts what passes through, for the processing metrics and the node's stats.
 *
 * Invariants: the queue keeps consensus's order, so subscribers get each block's notifications in the order kaspad
 * sends them; a resolution's scores are read when it closes (the next block, or the queue's turn), so they are the
 * scores of that resolution; the accepted-transaction count takes back what the blocks a reorganisation removes had
 * accepted, so a transaction counts once whichever chain block accepts it.
 */
import type { AddressPrefix } from '../kaspa/address';
import { bytesToHex, hexToBytes } from '../kaspa/bytes';
import type { Hash, Transaction } from '../kaspa/types';
import type { RpcNotifications } from '../rpc/types';
import type { BlockLog } from './block-log';
import type { Block, Consensus, VirtualChainChange } from './consensus/consensus';
import type { Mempool } from './mempool/mempool';
import type { MinerSwarm } from './mining/miner';
import type { DevnetNodeEvent } from './node';
import { acceptedTransactionIdsToRpc, blockInfoToRpc, utxoChangeToRpc } from './server/rpc-converter';
import type { WrpcServer } from './server/wrpc-server';

/** What one virtual resolution changed, filled in by the consensus events it emits. */
interface VirtualResolution {
  kind: 'virtualResolved';
  chain: { change: VirtualChainChange; returned: Transaction[] } | undefined;
  utxos: RpcNotifications['UtxosChanged'] | undefined;
  /** Read once the resolution is over: when the next block arrives or the queue is processed. */
  scores: { sinkBlueScore: bigint; virtualDaaScore: bigint } | undefined;
}

type PendingWork = { kind: 'blockAdded'; block: Block; hash: Hash } | VirtualResolution;

export interface BlockFlowCounters {
  blocksAdded: number;
  transactionsAccepted: number;
  transactionsProcessed: number;
  chainBlocksProcessed: number;
}

export interface BlockFlowOptions {
  consensus: Consensus;
  mempool: Mempool;
  log: BlockLog | null;
  swarm: MinerSwarm | null;
  /** The wRPC server once the node listens; without one no notification is built. */
  server: () => WrpcServer | undefined;
  /** Marks the scripts of transactions the mempool took in as verified, so templates and blocks skip them. */
  markVerified: (transactions: readonly Transaction[]) => void;
  /** The address prefix of the notifications. */
  prefix: AddressPrefix;
  mergeDepth: number;
  report: (event: DevnetNodeEvent) => void;
}

export interface BlockFlow {
  readonly counters: Readonly<BlockFlowCounters>;
  /** Processes the queued work now rather than in its microtask (when the node stops). */
  processPending(): void;
}

/** Subscribes to consensus's events; from then on every block it accepts flows through here. */
export function startBlockFlow(options: BlockFlowOptions): BlockFlow {
  const { consensus, mempool, log, swarm, markVerified, prefix, mergeDepth, report } = options;
  let pending: PendingWork[] = [];
  let flushScheduled = false;
  const counters: BlockFlowCounters = { blocksAdded: 0, transactionsAccepted: 0, transactionsProcessed: 0, chainBlocksProcessed: 0 };
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
    const server = options.server();
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
          const server = options.server();
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
    const forgetBelow = consensus.sinkBlueScore() - BigInt(mergeDepth);
    for (const [key, { blueScore }] of countedChainBlocks) {
      if (blueScore >= forgetBelow) break;
      countedChainBlocks.delete(key);
    }
    currentResolution().chain = { change, returned: transactionsLeftBehind(change) };
  });
  consensus.events.on('utxosChanged', ({ added, removed }) => {
    // Only wRPC connections can subscribe; without a server the address encoding of every change would be wasted.
    if (options.server() === undefined) return;
    currentResolution().utxos = {
      added: added.map((change) => utxoChangeToRpc(change, prefix)),
      removed: removed.map((change) => utxoChangeToRpc(change, prefix)),
    };
  });

  return { counters, processPending };
}
