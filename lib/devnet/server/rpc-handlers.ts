/**
 * The devnet node's wRPC method handlers, answering as rusty-kaspa 2.0's rpc/service/src/service.rs does: the same
 * fields, values and error texts (`RpcError` display strings of rpc/core/src/error.rs, consensus `HeaderNotFound`
 * "cannot find header <hash>", mempool rejections as "Rejected transaction <id>: <rule error>").
 *
 * Node configuration as this devnet runs it (kaspad flags in brackets):
 * - the UTXO index is on [--utxoindex], so address, balance and supply queries answer;
 * - `unsafeRpc` [--unsaferpc] lets submitTransaction honour `allowOrphan` (kaspad otherwise forces it to false);
 * - `enableUnsyncedMining` [--enable-unsynced-mining] lets submitBlock accept blocks while the sink is old.
 *
 * Synced rule (protocol/mining/src/rule_engine.rs): a devnet needs no peers, so the node counts as synced while
 * `now < sink timestamp + expected difficulty window duration / 4` (661 s at 10 BPS). Our devnet's genesis carries
 * the node's start time, so a fresh node is synced from its first block; a restarted node whose sink is older than
 * that reports isSynced = false until a new block arrives, which is why the devnet mines with unsynced mining on.
 */
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { addressToScriptPublicKey, decodeAddress, scriptPublicKeyToAddress, type Address, type AddressPrefix } from '../../kaspa/address';
import { bytesToHex, concatBytes, hexToBytes } from '../../kaspa/bytes';
import type { ScriptPublicKey, Transaction } from '../../kaspa/types';
import type { DecodedRequest } from '../../rpc/request-schemas';
import type { RpcNetworkType, RpcRawBlock, RpcTransaction, RpcTransactionInputForm, SubmitBlockReport } from '../../rpc/types';
import type { Block, BlockTemplate, Consensus } from '../consensus/consensus';
import type { FeerateEstimations } from '../mempool/fee-estimator';
import { MempoolQueryError, transactionQuery, type Mempool } from '../mempool/mempool';
import { blockFromRpc, headerToRpcRaw, transactionToRpcOutput } from '../../rpc/convert-block';
import { blockInfoToRpc, mempoolEntryToRpc, utxoChangeToRpc } from './rpc-converter';
import { transactionFromRpc } from '../../rpc/convert-transaction';
import { txIdOf } from '../consensus/transaction-facts';
import { createProcessSampler } from './process-metrics';
import { createNodeHandlers, headerNotFound, type ProcessingCounters, type SeqCommitLaneProver } from './rpc-node-handlers';
import { createVirtualChainHandlers } from './rpc-virtual-chain';
import { RequestDeserializationError, type WrpcCounters, type WrpcHandlers } from './wrpc-server';

export interface RpcNetwork {
  /** `getBlockDagInfo.network` / `getServerInfo.networkId`: the network id with its suffix, if any. */
  networkId: string;
  /** `getCurrentNetwork.network`. */
  networkType: RpcNetworkType;
  prefix: AddressPrefix;
}

export const DEVNET_NETWORK: Readonly<RpcNetwork> = Object.freeze({
  networkId: 'devnet',
  networkType: 'devnet',
  prefix: 'kaspadev',
});

/** rpc/core/src/api/ops.rs RPC_API_VERSION / RPC_API_REVISION, unchanged through 2.0. */
export const RPC_API_VERSION = 1;
export const RPC_API_REVISION = 0;
/** Params `max_coinbase_payload_len`. */
export const MAX_COINBASE_PAYLOAD_LENGTH = 204;
/** mining/src/cache.rs DEFAULT_CACHE_LIFETIME. */
export const TEMPLATE_CACHE_LIFETIME_MS = 1_000;

export interface RpcHandlersOptions {
  consensus: Consensus;
  mempool: Mempool;
  /** Defaults to the mempool's own estimator. */
  feeEstimator?: () => FeerateEstimations;
  network?: RpcNetwork;
  /** kaspad's crate version, e.g. "1.0.1"; prefixes the coinbase extra data. */
  serverVersion: string;
  /** Milliseconds since the Unix epoch. */
  clock: () => number;
  /** `getInfo.p2pId`; a random UUID by default. */
  p2pId?: string;
  /** Default true. */
  unsafeRpc?: boolean;
  /** Default true. */
  enableUnsyncedMining?: boolean;
  /** Transactions that entered the mempool through submitTransaction(Replacement). */
  onTransactionsAccepted?: (transactions: readonly Transaction[]) => void;
  /** getMetrics: the wRPC server's counters and blocks processed (submitBlock calls are counted here). */
  wrpcCounters?: () => WrpcCounters | undefined;
  processingCounters?: () => Omit<ProcessingCounters, 'blocksSubmitted'>;
  /** getSeqCommitLaneProof; kaspad's pre-Toccata answer when omitted. */
  laneProver?: SeqCommitLaneProver;
}

export class RpcHandlerError extends Error {
  override name = 'RpcHandlerError';
}


function decodeRpcAddress(text: string): Address {
  try {
    return decodeAddress(text);
  } catch {
    throw new RequestDeserializationError();
  }
}

/** `TryFrom<RpcTransaction> for Transaction`: version 0 inputs commit a sig-op count, version 1 a compute budget. */
function transactionFromRequest(rpc: DecodedRequest<'submitTransaction'>['transaction']): Transaction {
  for (const input of rpc.inputs) {
    if (rpc.version >= 1 && input.sigOpCount !== 0) {
      throw new RpcHandlerError(`RpcTransactionInput.sig_op_count is inconsistent with transaction version ${rpc.version}`);
    }
    if (rpc.version === 0 && input.computeBudget !== 0) {
      throw new RpcHandlerError(`RpcTransactionInput.compute_budget is inconsistent with transaction version ${rpc.version}`);
    }
  }
  return transactionFromRpc(rpc as RpcTransactionInputForm);
}

function scriptKey(scriptPublicKey: ScriptPublicKey): string {
  return `${scriptPublicKey.version}:${bytesToHex(scriptPublicKey.script)}`;
}

/** Request addresses → distinct script public keys (kaspad collects them into a set). */
function distinctScripts(addresses: readonly string[]): ScriptPublicKey[] {
  const scripts = new Map<string, ScriptPublicKey>();
  for (const address of addresses) {
    const scriptPublicKey = addressToScriptPublicKey(decodeRpcAddress(address));
    scripts.set(scriptKey(scriptPublicKey), scriptPublicKey);
  }
  return [...scripts.values()];
}

export function createRpcHandlers(options: RpcHandlersOptions): WrpcHandlers {
  const { consensus, mempool, serverVersion, clock } = options;
  const network = options.network ?? DEVNET_NETWORK;
  const prefix = network.prefix;
  const feeEstimate = options.feeEstimator ?? (() => mempool.feeEstimate());
  const p2pId = options.p2pId ?? crypto.randomUUID();
  const unsafeRpc = options.unsafeRpc ?? true;
  const enableUnsyncedMining = options.enableUnsyncedMining ?? true;
  const params = consensus.params;
  const syncedThresholdMs =
    BigInt(params.difficultyWindowSize * params.difficultySampleRate * params.targetTimePerBlock) / 4n;

  const isNearlySynced = () => BigInt(clock()) < consensus.sinkTimestamp() + syncedThresholdMs;

  const blockInfo = (hash: string) => {
    const info = consensus.getBlock(hexToBytes(hash));
    if (info === undefined) throw headerNotFound(hash);
    return info;
  };

  const mempoolQuery = (filterTransactionPool: boolean, includeOrphanPool: boolean) => {
    try {
      return transactionQuery(filterTransactionPool, includeOrphanPool);
    } catch (error) {
      if (error instanceof MempoolQueryError) throw new RpcHandlerError(error.message);
      throw error;
    }
  };

  const submitToMempool = <T extends { accepted: Transaction[] }>(tx: Transaction, submit: () => T): T => {
    let result: T;
    try {
      result = submit();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new RpcHandlerError(`Rejected transaction ${bytesToHex(txIdOf(tx))}: ${reason}`);
    }
    options.onTransactionsAccepted?.(result.accepted);
    return result;
  };

  const insertBlock = (block: Block, allowNonDaaBlocks: boolean): SubmitBlockReport => {
    const result = consensus.validateAndInsertBlock(block, { allowNonDaaBlocks });
    return result.type === 'success' ? { type: 'success' } : { type: 'reject', reason: 'blockInvalid' };
  };

  /**
   * kaspad's block template cache (mining/src/cache.rs): one template per virtual state, at most a second old, shared
   * by every miner; another miner's request only swaps the coinbase (modify_block_template). Transactions entering the
   * mempool meanwhile wait for the next virtual change or the cache's expiry, as on kaspad.
   */
  let templateCache: { template: BlockTemplate; builtAt: number; rpcTransactions: RpcTransaction[] } | undefined;
  let blocksSubmitted = 0;

  return {
    ...createNodeHandlers({
      consensus,
      mempool,
      clock,
      isSynced: isNearlySynced,
      processSampler: createProcessSampler(() => performance.now()),
      wrpcCounters: options.wrpcCounters,
      processingCounters: () => ({
        blocksProcessed: 0,
        transactionsProcessed: 0,
        chainBlocksProcessed: 0,
        ...options.processingCounters?.(),
        blocksSubmitted,
      }),
      laneProver: options.laneProver,
      unsafeRpc,
      serverVersion,
    }),

    ping: () => ({}),

    getInfo: () => ({
      p2pId,
      mempoolSize: BigInt(mempool.transactionCount('transactions')),
      serverVersion,
      isUtxoIndexed: true,
      isSynced: isNearlySynced(),
      hasNotifyCommand: true,
      hasMessageId: true,
    }),

    getServerInfo: () => ({
      rpcApiVersion: RPC_API_VERSION,
      rpcApiRevision: RPC_API_REVISION,
      serverVersion,
      networkId: network.networkId,
      hasUtxoIndex: true,
      isSynced: isNearlySynced(),
      virtualDaaScore: consensus.virtualDaaScore(),
    }),

    getCurrentNetwork: () => ({ network: network.networkType }),

    getBlockDagInfo: () => {
      const count = BigInt(consensus.blockCount());
      return {
        network: network.networkId,
        blockCount: count,
        headerCount: count,
        tipHashes: consensus.getTips().map(bytesToHex),
        difficulty: consensus.difficulty(),
        pastMedianTime: consensus.pastMedianTime(),
        virtualParentHashes: consensus.virtualParents().map(bytesToHex),
        pruningPointHash: bytesToHex(consensus.pruningPoint()),
        virtualDaaScore: consensus.virtualDaaScore(),
        sink: bytesToHex(consensus.sink()),
      };
    },

    getBlock: ({ hash, includeTransactions }) => ({
      block: blockInfoToRpc(blockInfo(hash), prefix, includeTransactions),
    }),

    getBlocks: ({ lowHash, includeBlocks, includeTransactions }) => {
      if (includeTransactions && !includeBlocks) {
        throw new RpcHandlerError('If includeTransactions is set, then includeBlockVerboseData must be set as well.');
      }
      // kaspad lists from genesis when no low hash is given; a pruned node lists from its pruning point for genesis too.
      if (lowHash !== null && !consensus.hasBlock(hexToBytes(lowHash)) && lowHash !== bytesToHex(consensus.genesisHash())) {
        throw headerNotFound(lowHash);
      }
      const hashes = consensus.getBlocks(lowHash === null ? undefined : hexToBytes(lowHash)).map(bytesToHex);
      return {
        blockHashes: hashes,
        blocks: includeBlocks ? hashes.map((hash) => blockInfoToRpc(blockInfo(hash), prefix, includeTransactions)) : [],
      };
    },

    getBlockCount: () => {
      const count = BigInt(consensus.blockCount());
      return { headerCount: count, blockCount: count };
    },

    getSink: () => ({ sink: bytesToHex(consensus.sink()) }),

    getSinkBlueScore: () => ({ blueScore: consensus.sinkBlueScore() }),

    ...createVirtualChainHandlers(consensus, prefix),

    getMempoolEntry: ({ transactionId: id, includeOrphanPool, filterTransactionPool }) => {
      const entry = mempool.getEntry(id, mempoolQuery(filterTransactionPool, includeOrphanPool));
      if (entry === undefined) throw new RpcHandlerError(`Transaction ${id} not found`);
      return { mempoolEntry: mempoolEntryToRpc(entry, prefix) };
    },

    getMempoolEntries: ({ includeOrphanPool, filterTransactionPool }) => ({
      mempoolEntries: mempool
        .getEntries(mempoolQuery(filterTransactionPool, includeOrphanPool))
        .map((entry) => mempoolEntryToRpc(entry, prefix)),
    }),

    getMempoolEntriesByAddresses: ({ addresses, includeOrphanPool, filterTransactionPool }) => {
      const query = mempoolQuery(filterTransactionPool, includeOrphanPool);
      const scripts = distinctScripts(addresses);
      return {
        entries: mempool.getEntriesByScriptPublicKeys(scripts, query).map((owner) => ({
          address: scriptPublicKeyToAddress(owner.scriptPublicKey, prefix)!,
          sending: owner.sending.map((entry) => mempoolEntryToRpc(entry, prefix)),
          receiving: owner.receiving.map((entry) => mempoolEntryToRpc(entry, prefix)),
        })),
      };
    },

    getUtxosByAddresses: ({ addresses }) => ({
      entries: distinctScripts(addresses).flatMap((scriptPublicKey) =>
        consensus.getUtxosByScriptPublicKey(scriptPublicKey).map((change) => utxoChangeToRpc(change, prefix)),
      ),
    }),

    getBalanceByAddress: ({ address }) => ({
      balance: consensus.getBalanceByScriptPublicKey(addressToScriptPublicKey(decodeRpcAddress(address))),
    }),

    getBalancesByAddresses: ({ addresses }) => {
      const scripts = addresses.map((address) => addressToScriptPublicKey(decodeRpcAddress(address)));
      return {
        entries: addresses.map((address, index) => ({
          address,
          balance: consensus.getBalanceByScriptPublicKey(scripts[index]!),
        })),
      };
    },

    getCoinSupply: () => consensus.coinSupply(),

    getFeeEstimate: () => {
      const { priorityBucket, normalBuckets, lowBuckets } = feeEstimate();
      return { estimate: { priorityBucket, normalBuckets: [...normalBuckets], lowBuckets: [...lowBuckets] } };
    },

    submitTransaction: ({ transaction, allowOrphan }) => {
      const tx = transactionFromRequest(transaction);
      const result = submitToMempool(tx, () =>
        mempool.submitTransaction(tx, { allowOrphan: unsafeRpc && allowOrphan, rbfPolicy: 'forbidden', priority: 'high' }),
      );
      return { transactionId: bytesToHex(result.transactionId) };
    },

    submitTransactionReplacement: ({ transaction }) => {
      const tx = transactionFromRequest(transaction);
      const result = submitToMempool(tx, () => mempool.submitTransactionReplacement(tx));
      return {
        transactionId: bytesToHex(result.transactionId),
        replacedTransaction: transactionToRpcOutput(result.replacedTransaction),
      };
    },

    getBlockTemplate: ({ payAddress, extraData }) => {
      const address = decodeRpcAddress(payAddress);
      if (address.prefix !== prefix) throw new RpcHandlerError(`The address has an invalid prefix ${address.prefix}`);
      const miner = {
        payScriptPublicKey: addressToScriptPublicKey(address),
        extraData: concatBytes(utf8ToBytes(`${serverVersion}/`), Uint8Array.from(extraData)),
      };
      const now = clock();
      let template: BlockTemplate;
      if (
        templateCache !== undefined &&
        now - templateCache.builtAt < TEMPLATE_CACHE_LIFETIME_MS &&
        consensus.isTemplateCurrent(templateCache.template)
      ) {
        template = consensus.modifyBlockTemplate(templateCache.template, miner);
      } else {
        const candidates = mempool.selectTransactionsForTemplate().map((entry) => entry.transaction);
        template = consensus.buildBlockTemplate({ ...miner, transactions: candidates });
        // kaspad's template builder drops transactions consensus finds invalid, with their descendants.
        for (const rejected of template.rejectedTransactions) mempool.removeTransaction(bytesToHex(rejected.transactionId), true);
        templateCache = {
          template,
          builtAt: now,
          rpcTransactions: template.block.transactions.slice(1).map((tx) => transactionToRpcOutput(tx)),
        };
      }
      const [coinbase] = template.block.transactions;
      if (coinbase!.payload.length > MAX_COINBASE_PAYLOAD_LENGTH) {
        throw new RpcHandlerError(
          `Coinbase payload is above max length (${MAX_COINBASE_PAYLOAD_LENGTH}). Try to shorten the extra data.`,
        );
      }
      const block: RpcRawBlock = {
        header: headerToRpcRaw(template.block.header),
        transactions: [transactionToRpcOutput(coinbase!), ...templateCache.rpcTransactions],
      };
      return { block, isSynced: isNearlySynced() };
    },

    submitBlock: ({ block: rpcBlock, allowNonDaaBlocks }) => {
      blocksSubmitted++;
      if (!enableUnsyncedMining && !isNearlySynced()) return { report: { type: 'reject', reason: 'isInIBD' } };
      let block: Block;
      try {
        for (const tx of rpcBlock.transactions) transactionFromRequest(tx);
        block = blockFromRpc(rpcBlock as Parameters<typeof blockFromRpc>[0]);
      } catch {
        return { report: { type: 'reject', reason: 'blockInvalid' } };
      }
      return { report: insertBlock(block, allowNonDaaBlocks) };
    },
  };
}
