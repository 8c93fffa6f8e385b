import type { BlockRecord, CreatedOutputRecord, IndexedTransaction, TransactionRecord } from '../db';
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

/**
 * lib/rpc's JSON parser returns strings sliced out of the message text, and V8 keeps the whole text alive for as long
 * as any slice lives. Output records outlive their message (the resolver keeps recent outputs), so each address is
 * replaced by a flat copy, made once per distinct address; the table is dropped when it fills.
 */
const FLAT_ADDRESS_LIMIT = 50_000;
const flatAddresses = new Map<string, string>();

export function flatAddress(address: string): string {
  const flat = flatAddresses.get(address);
  if (flat !== undefined) return flat;
  if (flatAddresses.size >= FLAT_ADDRESS_LIMIT) flatAddresses.clear();
  const copy = Buffer.from(address, 'latin1').toString('latin1');
  flatAddresses.set(copy, copy);
  return copy;
}

/** kaspad's output verbose data names the address; it is derived only where the node left it out. */
export function outputRecord(
  output: Transaction['outputs'][number],
  prefix: AddressPrefix,
  nodeAddress?: string,
): CreatedOutputRecord {
  return {
    amount: output.value,
    scriptPublicKey: output.scriptPublicKey,
    address: nodeAddress === undefined ? scriptPublicKeyToAddress(output.scriptPublicKey, prefix) : flatAddress(nodeAddress),
    scriptType: scriptClassOf(output.scriptPublicKey),
    covenantId: output.covenant?.covenantId ?? null,
    authorizingInput: output.covenant?.authorizingInput ?? null,
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
    storageMass: transaction.storageMass,
    computeMass: verbose ? verbose.computeMass : null,
    blockTime,
    inputs: transaction.inputs.map((input) => ({
      previousOutpoint: input.previousOutpoint,
      signatureScript: input.signatureScript,
      sequence: input.sequence,
      sigOpCount: input.sigOpCount,
      computeBudget: input.computeBudget ?? 0,
      previousOutput: null,
    })),
    outputs: transaction.outputs.map((output, index) =>
      outputRecord(output, prefix, rpc.outputs[index]?.verboseData?.scriptPublicKeyAddress),
    ),
  };
}

/**
 * The consensus transaction a stored one was, as far as its id and hash commit to it: version 1 inputs carry their
 * compute budget, version 0 inputs their sig-op count. Null for a row indexed before migration 6 (no storage mass).
 */
export function consensusTransactionOf(record: TransactionRecord | IndexedTransaction): Transaction | null {
  if (record.storageMass === null || record.payload === null) return null;
  return {
    version: record.version,
    inputs: record.inputs.map((input) => ({
      previousOutpoint: input.previousOutpoint,
      signatureScript: input.signatureScript,
      sequence: input.sequence,
      sigOpCount: input.sigOpCount,
      ...(record.version >= 1 ? { computeBudget: input.computeBudget } : {}),
    })),
    outputs: record.outputs.map((output) => ({
      value: output.amount,
      scriptPublicKey: output.scriptPublicKey,
      ...(output.covenantId === null || output.authorizingInput === null
        ? {}
        : { covenant: { authorizingInput: output.authorizingInput, covenantId: output.covenantId } }),
    })),
    lockTime: record.lockTime,
    subnetworkId: record.subnetworkId,
    gas: record.gas,
    payload: record.payload,
    storageMass: record.storageMass,
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
