/**
 * getVirtualChainFromBlock and getVirtualChainFromBlockV2 as rusty-kaspa 2.0.1's rpc/service answers them: the chain
 * path from the start block to the sink (removed chain blocks, then at most `mergeset_size_limit × 10` added ones),
 * added blocks without `minConfirmationCount` confirmations stripped from the head (blue-score distance to the sink
 * must exceed it), then, when acceptance data is read, cut after the chain block whose mergesets take the merged-block
 * total past the same batch size (consensus `get_blocks_acceptance_data`).
 *
 * V2 always reads acceptance data (every verbosity level asks for the accepting header), defaults to Full, and gives
 * each added chain block's header and accepted transactions at the level asked (rpc-converter.ts); transactions come
 * with the UTXO entries they spent, from the chain block's UTXO diff or, for outputs created and spent within the
 * same acceptance, from the accepted transaction that created them (utxo_inquirer.rs).
 */
import { bytesToHex, hexToBytes } from '../../kaspa/bytes';
import { isCoinbase } from '../../kaspa/transaction';
import type { Hash, Transaction, UtxoEntry } from '../../kaspa/types';
import type { AddressPrefix } from '../../kaspa/address';
import type { RpcChainBlockAcceptedTransactions, RpcDataVerbosityLevel } from '../../rpc/virtual-chain-v2-types';
import type { Consensus } from '../consensus/consensus';
import { acceptedTransactionIdsToRpc, optionalHeaderToRpc, optionalTransactionToRpc, type PopulatedTransaction } from './rpc-converter';
import { headerNotFound, RpcNodeError } from './rpc-node-handlers';
import { txIdOf } from '../consensus/transaction-facts';
import { outpointKey } from '../consensus/utxo-diff';
import type { WrpcHandlers } from './wrpc-server';

type VirtualChainHandlers = Required<Pick<WrpcHandlers, 'getVirtualChainFromBlock' | 'getVirtualChainFromBlockV2'>>;

export function createVirtualChainHandlers(consensus: Consensus, prefix: AddressPrefix): VirtualChainHandlers {
  const batchSize = consensus.params.mergesetSizeLimit * 10;

  const blockOf = (hash: Hash) => {
    const info = consensus.getBlock(hash);
    if (info === undefined) throw headerNotFound(bytesToHex(hash));
    return info;
  };

  const chainPath = (startHash: string, includeAcceptedTransactionIds: boolean, minConfirmationCount: bigint | null) => {
    if (!consensus.hasBlock(hexToBytes(startHash))) throw headerNotFound(startHash);
    const change = consensus.getVirtualChainFromBlock(hexToBytes(startHash), includeAcceptedTransactionIds);
    let added = change.addedChainBlockHashes.slice(0, batchSize);
    if (minConfirmationCount !== null && minConfirmationCount > 0n) {
      const sinkBlueScore = consensus.sinkBlueScore();
      while (added.length > 0 && sinkBlueScore - blockOf(added.at(-1)!).ghostdag.blueScore <= minConfirmationCount) {
        added = added.slice(0, -1);
      }
    }
    return { change, added };
  };

  /** Whole chain blocks while the merged blocks so far stay within the batch size. */
  const withinMergedBlockLimit = (added: Hash[]): Hash[] => {
    let mergedBlocks = 0;
    const covered = added.findIndex((hash) => {
      mergedBlocks += consensus.getAcceptanceData(hash)?.length ?? 0;
      return mergedBlocks > batchSize;
    });
    return covered >= 0 ? added.slice(0, covered) : added;
  };

  /** `get_populated_transactions_by_block_acceptance_data` for every merged block of one chain block, in order. */
  const populatedAcceptance = (chainBlock: Hash): PopulatedTransaction[] => {
    const acceptingDaaScore = blockOf(chainBlock).header.daaScore;
    const spent = consensus.getAcceptanceSpentEntries(chainBlock)!;
    const accepted = consensus.getAcceptanceData(chainBlock)!.flatMap(({ blockHash, acceptedTransactionIds }) => {
      const merged = blockOf(hexToBytes(blockHash));
      const indexById = new Map(merged.transactionIds.map((id, index) => [bytesToHex(id), index]));
      const block = { hash: merged.hash, timestamp: merged.header.timestamp };
      return acceptedTransactionIds.map((id) => ({ tx: merged.transactions[indexById.get(bytesToHex(id))!]!, block }));
    });
    let createdHere: Map<string, Transaction> | undefined;
    const createdEntry = (transactionId: Hash, index: number): UtxoEntry | undefined => {
      createdHere ??= new Map(accepted.map(({ tx }) => [bytesToHex(txIdOf(tx)), tx]));
      const creator = createdHere.get(bytesToHex(transactionId));
      const output = creator?.outputs[index];
      if (creator === undefined || output === undefined) return undefined;
      return {
        amount: output.value,
        scriptPublicKey: output.scriptPublicKey,
        blockDaaScore: acceptingDaaScore,
        isCoinbase: isCoinbase(creator),
        covenantId: output.covenant?.covenantId ?? null,
      };
    };
    return accepted.map(({ tx, block }) => ({
      tx,
      block,
      entries: tx.inputs.map(({ previousOutpoint }) => {
        const entry =
          spent.get(outpointKey(previousOutpoint)) ?? createdEntry(previousOutpoint.transactionId, previousOutpoint.index);
        if (entry === undefined) {
          throw new RpcNodeError(
            `missing UTXO entry for outpoint ${bytesToHex(previousOutpoint.transactionId)}:${previousOutpoint.index}`,
          );
        }
        return entry;
      }),
    }));
  };

  const chainBlockAcceptance = (chainBlock: Hash, level: RpcDataVerbosityLevel): RpcChainBlockAcceptedTransactions => ({
    chainBlockHeader: optionalHeaderToRpc(blockOf(chainBlock).header, chainBlock, level),
    acceptedTransactions: populatedAcceptance(chainBlock).map((populated) => optionalTransactionToRpc(populated, prefix, level)),
  });

  return {
    getVirtualChainFromBlock: ({ startHash, includeAcceptedTransactionIds, minConfirmationCount }) => {
      const { change, added: chain } = chainPath(startHash, includeAcceptedTransactionIds, minConfirmationCount);
      const added = includeAcceptedTransactionIds ? withinMergedBlockLimit(chain) : chain;
      return {
        removedChainBlockHashes: change.removedChainBlockHashes.map(bytesToHex),
        addedChainBlockHashes: added.map(bytesToHex),
        acceptedTransactionIds: change.acceptedTransactionIds.slice(0, added.length).map(acceptedTransactionIdsToRpc),
      };
    },

    getVirtualChainFromBlockV2: ({ startHash, dataVerbosityLevel, minConfirmationCount }) => {
      const { change, added: chain } = chainPath(startHash, false, minConfirmationCount);
      const added = withinMergedBlockLimit(chain);
      const level = dataVerbosityLevel ?? 'Full';
      return {
        removedChainBlockHashes: change.removedChainBlockHashes.map(bytesToHex),
        addedChainBlockHashes: added.map(bytesToHex),
        chainBlockAcceptedTransactions: added.map((hash) => chainBlockAcceptance(hash, level)),
      };
    },
  };
}
