import type { BlockRecord, OutputRecord, TransactionRecord } from '../db';
import { scriptClassOf, scriptPublicKeyToAddress, type AddressPrefix } from '../kaspa/address';
import { hexToBytes } from '../kaspa/bytes';
import { transactionHash, transactionId } from '../kaspa/transaction';
import type { Hash, Transaction } from '../kaspa/types';
import type { RpcBlock, RpcNetworkId, RpcTransaction } from '../rpc';
import { headerFromRpc } from '../rpc/convert-block';
import { transactionFromRpc } from '../rpc/convert-transaction';

/** A node block turned into the records lib/db stores; inputs' spent outputs are still unresolved (null). */
export interface ConvertedBlock {
  block: BlockRecord;
  transactions: TransactionRecord[];
}

const PREFIX_BY_NETWORK: Record<string, AddressPrefix> = {
  mainnet: 'kaspa',
  testnet: 'kaspatest',
  simnet: 'kaspasim',
  devnet: 'kaspadev',
};

/** The address prefix of a network id such as `mainnet`, `testnet-10` or `devnet`. */
export function addressPrefixOf(network: RpcNetworkId): AddressPrefix {
  const prefix = PREFIX_BY_NETWORK[network.split('-')[0] ?? network];
  if (prefix === undefined) throw new Error(`unknown Kaspa network "${network}"`);
  return prefix;
}

export function outputRecord(output: Transaction['outputs'][number], prefix: AddressPrefix): OutputRecord {
  return {
    amount: output.value,
    scriptPublicKey: output.scriptPublicKey,
    address: scriptPublicKeyToAddress(output.scriptPublicKey, prefix),
    scriptType: scriptClassOf(output.scriptPublicKey),
  };
}

function transactionRecord(rpc: RpcTransaction, blockTime: bigint, prefix: AddressPrefix): TransactionRecord {
  const transaction = transactionFromRpc(rpc);
  const verbose = rpc.verboseData;
  return {
    transactionId: verbose ? hexToBytes(verbose.transactionId) : transactionId(transaction),
    hash: verbose ? hexToBytes(verbose.hash) : transactionHash(transaction),
    version: transaction.version,
    lockTime: transaction.lockTime,
    subnetworkId: transaction.subnetworkId,
    gas: transaction.gas,
    payload: transaction.payload,
    mass: verbose && verbose.computeMass > 0n ? verbose.computeMass : transaction.storageMass,
    blockTime,
    inputs: transaction.inputs.map((input) => ({
      previousOutpoint: input.previousOutpoint,
      signatureScript: input.signatureScript,
      sequence: input.sequence,
      sigOpCount: input.sigOpCount,
      previousOutput: null,
    })),
    // kaspad's output verbose data names the address; it is derived only where the node left it out.
    outputs: transaction.outputs.map((output, index) => {
      const address = rpc.outputs[index]?.verboseData?.scriptPublicKeyAddress;
      return address === undefined
        ? outputRecord(output, prefix)
        : { amount: output.value, scriptPublicKey: output.scriptPublicKey, address, scriptType: scriptClassOf(output.scriptPublicKey) };
    }),
  };
}

/**
 * Converts a block read with its verbose data and transactions. Blocks are stored off the chain: only
 * applyVirtualChainChange sets the chain flag, so the flag and the acceptances always move together.
 */
export function convertBlock(rpc: RpcBlock, prefix: AddressPrefix): ConvertedBlock {
  const verbose = rpc.verboseData;
  if (verbose === null) throw new Error(`block ${rpc.header.hash} came without verbose data`);
  const header = headerFromRpc(rpc.header);
  const transactions = rpc.transactions.map((transaction) => transactionRecord(transaction, header.timestamp, prefix));
  const hashes = (list: readonly string[]): Hash[] => list.map(hexToBytes);
  return {
    block: {
      hash: hexToBytes(rpc.header.hash),
      header,
      selectedParentHash: header.parentsByLevel.length === 0 ? null : hexToBytes(verbose.selectedParentHash),
      mergeSetBlues: hashes(verbose.mergeSetBluesHashes),
      mergeSetReds: hashes(verbose.mergeSetRedsHashes),
      difficulty: verbose.difficulty,
      isChainBlock: false,
      transactionIds: transactions.map((transaction) => transaction.transactionId),
    },
    transactions,
  };
}
