/**
 * The node's verbose RPC forms, as rusty-kaspa 2.0's rpc/service/src/converter/{consensus,index}.rs build them:
 * blocks with verbose data (getBlock, getBlocks, BlockAdded), transactions with verbose data (block and mempool
 * reads), output verbose data where the script has an address, UTXO index entries, and accepted-id lists.
 */
import { scriptClassOf, scriptPublicKeyToAddress, type AddressPrefix, type ScriptClass } from '../kaspa/address';
import { bytesToHex } from '../kaspa/bytes';
import { ZERO_HASH } from '../kaspa/hashing';
import { difficultyFromBits } from '../kaspa/pow';
import type { SeqCommitLaneProof } from '../kaspa/smt-proof';
import type { Hash, ScriptPublicKey, Transaction } from '../kaspa/types';
import type {
  GetSeqCommitLaneProofResponse,
  RpcAcceptedTransactionIds,
  RpcBlock,
  RpcMempoolEntry,
  RpcScriptClass,
  RpcTransaction,
  RpcUtxosByAddressesEntry,
} from '../rpc/types';
import type { AcceptedTransactionIds, BlockInfo, UtxoChange } from './consensus';
import type { MempoolEntry } from './mempool';
import { txComputeMassOf, txHashOf, txIdOf } from './transaction-facts';
import { headerToRpc, scriptPublicKeyToRpcString, transactionToRpcOutput } from '../rpc/convert-block';
import { outpointToRpc } from '../rpc/convert-transaction';

/** `ScriptClass` serializes with its Rust variant names. */
const RPC_SCRIPT_CLASS: Readonly<Record<ScriptClass, RpcScriptClass>> = {
  nonstandard: 'NonStandard',
  pubkey: 'PubKey',
  pubkeyecdsa: 'PubKeyECDSA',
  scripthash: 'ScriptHash',
};

export interface ContainingBlock {
  hash: Hash;
  /** Milliseconds. */
  timestamp: bigint;
}

/** Scripts repeat (wallets, miners): their addresses are kept, the whole table dropped when it fills. */
const ADDRESS_CACHE_LIMIT = 20_000;
const addressCache = new Map<string, string | null>();

function addressOf(scriptPublicKey: ScriptPublicKey, prefix: AddressPrefix): string | null {
  const key = `${prefix}:${scriptPublicKey.version}:${bytesToHex(scriptPublicKey.script)}`;
  const cached = addressCache.get(key);
  if (cached !== undefined) return cached;
  if (addressCache.size >= ADDRESS_CACHE_LIMIT) addressCache.clear();
  const address = scriptPublicKeyToAddress(scriptPublicKey, prefix);
  addressCache.set(key, address);
  return address;
}

/**
 * `get_transaction(…, include_verbose_data = true)`: transaction verbose data (all-zero block hash and time 0 outside a
 * block) and output verbose data for outputs whose script has an address.
 */
export function transactionToRpcVerbose(
  tx: Transaction,
  prefix: AddressPrefix,
  block: ContainingBlock | null,
): RpcTransaction {
  const rpc = transactionToRpcOutput(tx, {
    transactionId: bytesToHex(txIdOf(tx)),
    hash: bytesToHex(txHashOf(tx)),
    computeMass: txComputeMassOf(tx),
    blockHash: bytesToHex(block?.hash ?? ZERO_HASH),
    blockTime: block?.timestamp ?? 0n,
  });
  rpc.outputs.forEach((output, index) => {
    const scriptPublicKey = tx.outputs[index]!.scriptPublicKey;
    const address = addressOf(scriptPublicKey, prefix);
    if (address !== null) {
      output.verboseData = {
        scriptPublicKeyType: RPC_SCRIPT_CLASS[scriptClassOf(scriptPublicKey)],
        scriptPublicKeyAddress: address,
      };
    }
  });
  return rpc;
}

/** `ConsensusConverter::get_block`: verbose data always, transactions (with their verbose data) on request. */
export function blockInfoToRpc(info: BlockInfo, prefix: AddressPrefix, includeTransactions: boolean): RpcBlock {
  const containing = { hash: info.hash, timestamp: info.header.timestamp };
  return {
    header: headerToRpc(info.header, info.hash),
    transactions: includeTransactions ? info.transactions.map((tx) => transactionToRpcVerbose(tx, prefix, containing)) : [],
    verboseData: {
      hash: bytesToHex(info.hash),
      difficulty: difficultyFromBits(info.header.bits),
      selectedParentHash: info.ghostdag.selectedParent,
      transactionIds: info.transactionIds.map(bytesToHex),
      isHeaderOnly: false,
      blueScore: info.ghostdag.blueScore,
      childrenHashes: info.children.map(bytesToHex),
      mergeSetBluesHashes: [...info.ghostdag.mergesetBlues],
      mergeSetRedsHashes: [...info.ghostdag.mergesetReds],
      isChainBlock: info.isChainBlock,
    },
  };
}

/** `get_mempool_entry`: the fee (0 for orphans), the verbose transaction and the snake_case orphan flag. */
export function mempoolEntryToRpc(entry: MempoolEntry, prefix: AddressPrefix): RpcMempoolEntry {
  return { fee: entry.fee, transaction: transactionToRpcVerbose(entry.transaction, prefix, null), is_orphan: entry.isOrphan };
}

/** The UTXO index form; the address is re-derived with the node's prefix (null for scripts without one). */
export function utxoChangeToRpc(change: UtxoChange, prefix: AddressPrefix): RpcUtxosByAddressesEntry {
  const { entry } = change;
  return {
    address: scriptPublicKeyToAddress(entry.scriptPublicKey, prefix),
    outpoint: outpointToRpc(change.outpoint),
    utxoEntry: {
      amount: entry.amount,
      scriptPublicKey: scriptPublicKeyToRpcString(entry.scriptPublicKey),
      blockDaaScore: entry.blockDaaScore,
      isCoinbase: entry.isCoinbase,
      covenantId: entry.covenantId ? bytesToHex(entry.covenantId) : null,
    },
  };
}

export function acceptedTransactionIdsToRpc(accepted: AcceptedTransactionIds): RpcAcceptedTransactionIds {
  return {
    acceptingBlockHash: bytesToHex(accepted.acceptingBlockHash),
    acceptedTransactionIds: accepted.acceptedTransactionIds.map(bytesToHex),
  };
}

/** A consensus lane proof in getSeqCommitLaneProof's wire form (the SMT proof as a plain byte array, as serde writes `Vec<u8>`). */
export function laneProofToRpc(proof: SeqCommitLaneProof): GetSeqCommitLaneProofResponse {
  return {
    smtProof: [...proof.smtProof],
    lane: proof.lane === null ? null : { tip: bytesToHex(proof.lane.tip), blueScore: proof.lane.blueScore },
    payloadAndCtxDigest: bytesToHex(proof.payloadAndContextDigest),
    parentSeqCommit: bytesToHex(proof.parentSeqCommit),
    inactivityShortcut: bytesToHex(proof.inactivityShortcut),
  };
}
