/**
 * The node's verbose RPC forms, as rusty-kaspa 2.0's rpc/service/src/converter/{consensus,index}.rs build them:
 * blocks with verbose data (getBlock, getBlocks, BlockAdded), transactions with verbose data (block and mempool
 * reads), output verbose data where the script has an address, UTXO index entries, accepted-id lists, and
 * getVirtualChainFromBlockV2's optional forms at each data verbosity level (rpc/core/src/convert/verbosity.rs).
 */
import { scriptClassOf, scriptPublicKeyToAddress, type AddressPrefix, type ScriptClass } from '../../kaspa/address';
import { bytesToHex } from '../../kaspa/bytes';
import { ZERO_HASH } from '../../kaspa/hashing';
import { difficultyFromBits } from '../../kaspa/pow';
import type { SeqCommitLaneProof } from '../../kaspa/smt-proof';
import { committedComputeBudget, committedSigOpCount } from '../../kaspa/transaction';
import type { Hash, Header, ScriptPublicKey, Transaction, UtxoEntry } from '../../kaspa/types';
import type {
  GetSeqCommitLaneProofResponse,
  RpcAcceptedTransactionIds,
  RpcBlock,
  RpcMempoolEntry,
  RpcScriptClass,
  RpcTransaction,
  RpcUtxosByAddressesEntry,
} from '../../rpc/types';
import type {
  RpcCompressedParents,
  RpcDataVerbosityLevel,
  RpcOptionalHeader,
  RpcOptionalTransaction,
  RpcOptionalUtxoEntryVerboseData,
} from '../../rpc/virtual-chain-v2-types';
import type { AcceptedTransactionIds, BlockInfo, UtxoChange } from '../consensus/consensus';
import type { MempoolEntry } from '../mempool/mempool';
import { txComputeMassOf, txHashOf, txIdOf } from '../consensus/transaction-facts';
import { blueWorkToRpc, headerToRpc, scriptPublicKeyToRpcString, transactionToRpcOutput } from '../../rpc/convert-block';
import { outpointToRpc } from '../../rpc/convert-transaction';

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

/** A conversion kaspad's converter fails, with its error text. */
export class RpcConversionError extends Error {
  override name = 'RpcConversionError';
}

const VERBOSITY_RANK: Readonly<Record<RpcDataVerbosityLevel, number>> = { None: 0, Low: 1, High: 2, Full: 3 };

/** `RpcDataVerbosityLevel::is_at_least`, curried on the requested level. */
function verbosityAtLeast(level: RpcDataVerbosityLevel): (minimum: RpcDataVerbosityLevel) => boolean {
  return (minimum) => VERBOSITY_RANK[level] >= VERBOSITY_RANK[minimum];
}

/** `CompressedParents`: levels with the same parents as the level below extend that level's run. */
export function compressParents(parentsByLevel: readonly (readonly Hash[])[]): RpcCompressedParents {
  const runs: RpcCompressedParents = [];
  for (const level of parentsByLevel) {
    const hashes = level.map(bytesToHex);
    const last = runs.at(-1);
    if (last !== undefined && last[1].length === hashes.length && last[1].every((hash, index) => hash === hashes[index])) last[0]++;
    else runs.push([(last?.[0] ?? 0) + 1, hashes]);
  }
  return runs;
}

/** `adapt_header_to_header_with_verbosity`: the hash at every level, then Low, High and Full fields. */
export function optionalHeaderToRpc(header: Header, hash: Hash, level: RpcDataVerbosityLevel): RpcOptionalHeader {
  const at = verbosityAtLeast(level);
  const when = <T>(minimum: RpcDataVerbosityLevel, value: () => T): T | null => (at(minimum) ? value() : null);
  return {
    hash: bytesToHex(hash),
    version: when('Low', () => header.version),
    parentsByLevel: when('High', () => compressParents(header.parentsByLevel)),
    hashMerkleRoot: when('High', () => bytesToHex(header.hashMerkleRoot)),
    acceptedIdMerkleRoot: when('High', () => bytesToHex(header.acceptedIdMerkleRoot)),
    utxoCommitment: when('Full', () => bytesToHex(header.utxoCommitment)),
    timestamp: when('Low', () => header.timestamp),
    bits: when('Low', () => header.bits),
    nonce: when('Low', () => header.nonce),
    daaScore: when('Low', () => header.daaScore),
    blueWork: when('Low', () => blueWorkToRpc(header.blueWork)),
    blueScore: when('Low', () => header.blueScore),
    pruningPoint: when('Full', () => bytesToHex(header.pruningPoint)),
  };
}

/** A transaction accepted by a chain block, with the UTXO entries its inputs spent and the merged block carrying it. */
export interface PopulatedTransaction {
  tx: Transaction;
  entries: readonly UtxoEntry[];
  block: ContainingBlock;
}

/**
 * `convert_signable_transaction_with_verbosity`, the path getVirtualChainFromBlockV2 always takes (every level asks
 * for the inputs' UTXO entries): subnetwork id, gas, payload and storage mass are written at every level, the entry's
 * covenant id too. At Low and above a script without an address fails the whole call, as kaspad's does.
 */
export function optionalTransactionToRpc(
  { tx, entries, block }: PopulatedTransaction,
  prefix: AddressPrefix,
  level: RpcDataVerbosityLevel,
): RpcOptionalTransaction {
  const at = verbosityAtLeast(level);
  const when = <T>(minimum: RpcDataVerbosityLevel, value: () => T): T | null => (at(minimum) ? value() : null);
  const scriptVerboseData = (scriptPublicKey: ScriptPublicKey): RpcOptionalUtxoEntryVerboseData => ({
    scriptPublicKeyType: when('Low', () => RPC_SCRIPT_CLASS[scriptClassOf(scriptPublicKey)]),
    scriptPublicKeyAddress: when('Low', () => {
      const address = addressOf(scriptPublicKey, prefix);
      if (address === null) throw new RpcConversionError('The address is invalid');
      return address;
    }),
  });
  return {
    version: when('Full', () => tx.version),
    inputs: tx.inputs.map((input, index) => {
      const entry = entries[index]!;
      return {
        previousOutpoint: when('High', () => outpointToRpc(input.previousOutpoint)),
        signatureScript: when('Low', () => bytesToHex(input.signatureScript)),
        sequence: when('High', () => input.sequence),
        sigOpCount: when('High', () => committedSigOpCount(input)),
        computeBudget: when('High', () => committedComputeBudget(input)),
        verboseData: {
          utxoEntry: {
            amount: when('High', () => entry.amount),
            scriptPublicKey: when('High', () => scriptPublicKeyToRpcString(entry.scriptPublicKey)),
            blockDaaScore: when('Full', () => entry.blockDaaScore),
            isCoinbase: when('High', () => entry.isCoinbase),
            verboseData: scriptVerboseData(entry.scriptPublicKey),
            covenantId: entry.covenantId ? bytesToHex(entry.covenantId) : null,
          },
        },
      };
    }),
    outputs: tx.outputs.map((output) => ({
      value: when('Low', () => output.value),
      scriptPublicKey: when('Low', () => scriptPublicKeyToRpcString(output.scriptPublicKey)),
      verboseData: scriptVerboseData(output.scriptPublicKey),
      covenant:
        at('Low') && output.covenant
          ? { authorizingInput: output.covenant.authorizingInput, covenantId: bytesToHex(output.covenant.covenantId) }
          : null,
    })),
    lockTime: when('Full', () => tx.lockTime),
    subnetworkId: bytesToHex(tx.subnetworkId),
    gas: tx.gas,
    payload: bytesToHex(tx.payload),
    storageMass: tx.storageMass,
    mass: tx.storageMass,
    verboseData: {
      transactionId: when('Low', () => bytesToHex(txIdOf(tx))),
      hash: when('Low', () => bytesToHex(txHashOf(tx))),
      computeMass: when('High', () => txComputeMassOf(tx)),
      blockHash: when('Low', () => bytesToHex(block.hash)),
      blockTime: when('Low', () => block.timestamp),
    },
  };
}
