/**
 * Conversions between lib/kaspa headers and blocks and their wRPC JSON forms (rusty-kaspa rpc/core/src/model/
 * header.rs, block.rs, tx.rs): the raw header of getBlockTemplate and submitBlock (no hash), the header of block reads
 * (hash first), and blue work as serde writes a Uint192 (48 big-endian hex digits; shorter strings are read
 * left-padded, as `Uint192::from_hex` does).
 */
import { bytesToHex, hexToBytes } from '../kaspa/bytes';
import { HASH_SIZE } from '../kaspa/hashing';
import { headerHash } from '../kaspa/header';
import type { Hash, Header, ScriptPublicKey, Transaction } from '../kaspa/types';
import type {
  RpcBlock,
  RpcBlockVerboseData,
  RpcBlueWork,
  RpcHash,
  RpcHeader,
  RpcRawBlock,
  RpcRawBlockInputForm,
  RpcRawHeader,
  RpcScriptPublicKey,
  RpcTransaction,
  RpcTransactionInputForm,
  RpcTransactionVerboseData,
} from './types';
import type { Block } from '../kaspa/types';
import { outpointToRpc, transactionFromRpc, transactionToRpc, u64FromRpc } from './convert-transaction';

const BLUE_WORK_HEX_DIGITS = 48;
const BLUE_WORK_PATTERN = /^[0-9a-fA-F]{0,48}$/;

function hashFromRpc(hex: RpcHash, field: string): Hash {
  const hash = hexToBytes(hex);
  if (hash.length !== HASH_SIZE) throw new RangeError(`${field} must be ${HASH_SIZE} bytes, got ${hash.length}`);
  return hash;
}

export function blueWorkToRpc(blueWork: bigint): RpcBlueWork {
  if (blueWork < 0n || blueWork >= 1n << 192n) throw new RangeError(`blue work is not a u192: ${blueWork}`);
  return blueWork.toString(16).padStart(BLUE_WORK_HEX_DIGITS, '0');
}

export function blueWorkFromRpc(hex: RpcBlueWork): bigint {
  if (!BLUE_WORK_PATTERN.test(hex)) throw new RangeError(`blue work must be at most 48 hex digits, got "${hex}"`);
  return hex === '' ? 0n : BigInt(`0x${hex}`);
}

/** Reads a raw header or a read header; a `hash` field is ignored (it is recomputed where it matters). */
export function headerFromRpc(rpc: RpcRawHeader | RpcHeader): Header {
  return {
    version: rpc.version,
    parentsByLevel: rpc.parentsByLevel.map((level) => level.map((parent) => hashFromRpc(parent, 'parent'))),
    hashMerkleRoot: hashFromRpc(rpc.hashMerkleRoot, 'hashMerkleRoot'),
    acceptedIdMerkleRoot: hashFromRpc(rpc.acceptedIdMerkleRoot, 'acceptedIdMerkleRoot'),
    utxoCommitment: hashFromRpc(rpc.utxoCommitment, 'utxoCommitment'),
    timestamp: u64FromRpc(rpc.timestamp),
    bits: rpc.bits,
    nonce: u64FromRpc(rpc.nonce),
    daaScore: u64FromRpc(rpc.daaScore),
    blueScore: u64FromRpc(rpc.blueScore),
    blueWork: blueWorkFromRpc(rpc.blueWork),
    pruningPoint: hashFromRpc(rpc.pruningPoint, 'pruningPoint'),
  };
}

/** The template / submission form: field order as serde writes `RpcRawHeader`. */
export function headerToRpcRaw(header: Header): RpcRawHeader {
  return {
    version: header.version,
    parentsByLevel: header.parentsByLevel.map((level) => level.map(bytesToHex)),
    hashMerkleRoot: bytesToHex(header.hashMerkleRoot),
    acceptedIdMerkleRoot: bytesToHex(header.acceptedIdMerkleRoot),
    utxoCommitment: bytesToHex(header.utxoCommitment),
    timestamp: header.timestamp,
    bits: header.bits,
    nonce: header.nonce,
    daaScore: header.daaScore,
    blueWork: blueWorkToRpc(header.blueWork),
    blueScore: header.blueScore,
    pruningPoint: bytesToHex(header.pruningPoint),
  };
}

/** The read form, hash first; pass the hash when it is already known to skip rehashing. */
export function headerToRpc(header: Header, hash: Hash = headerHash(header)): RpcHeader {
  return { hash: bytesToHex(hash), ...headerToRpcRaw(header) };
}

/** serde's string form of a script public key: the version as 4 big-endian hex digits, then the script. */
export function scriptPublicKeyToRpcString(scriptPublicKey: ScriptPublicKey): RpcScriptPublicKey {
  return scriptPublicKey.version.toString(16).padStart(4, '0') + bytesToHex(scriptPublicKey.script);
}

/**
 * The node's output form of a transaction (templates, block reads): script public keys as strings, every input with
 * its `computeBudget` (0 for version 0), `storageMass` with its alias `mass`, and null where there is no data.
 */
export function transactionToRpcOutput(
  tx: Transaction,
  verboseData: RpcTransactionVerboseData | null = null,
): RpcTransaction {
  return {
    version: tx.version,
    inputs: tx.inputs.map((input) => ({
      previousOutpoint: outpointToRpc(input.previousOutpoint),
      signatureScript: bytesToHex(input.signatureScript),
      sequence: input.sequence,
      sigOpCount: input.sigOpCount,
      computeBudget: input.computeBudget ?? 0,
      verboseData: null,
    })),
    outputs: tx.outputs.map((output) => ({
      value: output.value,
      scriptPublicKey: scriptPublicKeyToRpcString(output.scriptPublicKey),
      verboseData: null,
      covenant: output.covenant
        ? { authorizingInput: output.covenant.authorizingInput, covenantId: bytesToHex(output.covenant.covenantId) }
        : null,
    })),
    lockTime: tx.lockTime,
    subnetworkId: bytesToHex(tx.subnetworkId),
    gas: tx.gas,
    payload: bytesToHex(tx.payload),
    storageMass: tx.storageMass,
    mass: tx.storageMass,
    verboseData,
  };
}

export function blockFromRpc(rpc: RpcRawBlock | RpcBlock | RpcRawBlockInputForm): Block {
  const transactions: readonly (RpcTransaction | RpcTransactionInputForm)[] = rpc.transactions;
  return { header: headerFromRpc(rpc.header), transactions: transactions.map(transactionFromRpc) };
}

/** The getBlockTemplate form. */
export function blockToRpcRaw(block: Block): RpcRawBlock {
  return {
    header: headerToRpcRaw(block.header),
    transactions: block.transactions.map((tx) => transactionToRpcOutput(tx)),
  };
}

/** The submitBlock form: the raw header and transactions in kaspad's input form. */
export function blockToRpcSubmission(block: Block): RpcRawBlockInputForm {
  return { header: headerToRpcRaw(block.header), transactions: block.transactions.map(transactionToRpc) };
}

export interface RpcBlockExtras {
  /** The block hash when already known. */
  hash?: Hash;
  verboseData?: RpcBlockVerboseData | null;
  /** Per-transaction verbose data, index-aligned with the block's transactions. */
  transactionVerboseData?: readonly (RpcTransactionVerboseData | null)[];
}

/** The getBlock / BlockAdded form. */
export function blockToRpc(block: Block, extras: RpcBlockExtras = {}): RpcBlock {
  return {
    header: headerToRpc(block.header, extras.hash),
    transactions: block.transactions.map((tx, index) =>
      transactionToRpcOutput(tx, extras.transactionVerboseData?.[index] ?? null),
    ),
    verboseData: extras.verboseData ?? null,
  };
}
