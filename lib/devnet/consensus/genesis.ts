/**
 * The devnet genesis block, assembled the way rusty-kaspa assembles every network's genesis
 * (consensus/core/src/config/genesis.rs): header version 0, no parents, one coinbase-subnetwork transaction that carries
 * the genesis payload, hashMerkleRoot over that transaction, utxoCommitment of the empty multiset (or of the devnet
 * bootstrap's UTXO set, see bootstrap.ts), zero acceptedIdMerkleRoot, blue work, blue score and pruning point.
 *
 * How it differs from rusty-kaspa's DEVNET_GENESIS: the payload is the same ("kaspa-devnet", OP_FALSE script, 1 KAS
 * subsidy field), but `bits` and `timestamp` are inputs. kaspad's devnet genesis carries 0x1e21bc1c (a testnet-like
 * difficulty meant for real CPU miners) and a 2019 timestamp; our simulated miners hash in TypeScript at a configured
 * total rate, so the genesis bits encode the target that rate meets ten times a second, and the timestamp is the
 * devnet's start so that the first blocks are "synced" (kaspad's mining rule treats an old sink as not synced).
 * With DEVNET_GENESIS's own bits, timestamp and nonce the builder reproduces its hash (see genesis.test.ts).
 */
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { ByteWriter } from '../../kaspa/bytes';
import { ZERO_HASH } from '../../kaspa/hashing';
import { headerHash } from '../../kaspa/header';
import { hashMerkleRoot } from '../../kaspa/merkle';
import { EMPTY_MUHASH } from '../../kaspa/muhash';
import { targetToCompact } from '../../kaspa/pow';
import { SUBNETWORK_ID_COINBASE, type Block, type Hash, type Header, type Transaction } from '../../kaspa/types';

export type { Block } from '../../kaspa/types';

/** Genesis headers are version 0; every other block of the Crescendo era is version 1. */
export const GENESIS_HEADER_VERSION = 0;

/** Subsidy field of the devnet genesis payload: 0x05F5E100 sompi (1 KAS), as in DEVNET_GENESIS. */
const GENESIS_PAYLOAD_SUBSIDY = 100_000_000n;
/** OP_FALSE: the genesis reward is unspendable. */
const GENESIS_PAYLOAD_SCRIPT = Uint8Array.of(0x00);
const GENESIS_PAYLOAD_EXTRA = utf8ToBytes('kaspa-devnet');

/** DEVNET_GENESIS.coinbase_payload: blue score 0, subsidy, script version 0, script length 1, OP_FALSE, "kaspa-devnet". */
export function devnetGenesisPayload(): Uint8Array {
  return new ByteWriter()
    .u64(0n)
    .u64(GENESIS_PAYLOAD_SUBSIDY)
    .u16(0)
    .u8(GENESIS_PAYLOAD_SCRIPT.length)
    .bytes(GENESIS_PAYLOAD_SCRIPT)
    .bytes(GENESIS_PAYLOAD_EXTRA)
    .finish();
}

/** The compact bits whose target a miner doing `expectedHashesPerBlock` hashes per block meets once per block on average. */
export function bitsForExpectedHashesPerBlock(expectedHashesPerBlock: bigint): number {
  if (expectedHashesPerBlock < 1n) throw new RangeError(`expected hashes per block must be at least 1, got ${expectedHashesPerBlock}`);
  const maxTarget = (1n << 255n) - 1n;
  const target = (1n << 256n) / expectedHashesPerBlock - 1n;
  return targetToCompact(target < maxTarget ? target : maxTarget);
}

export interface DevnetGenesisOptions {
  /** Milliseconds since the Unix epoch. */
  timestamp: bigint;
  bits: number;
  /** Genesis PoW is never checked; DEVNET_GENESIS happens to carry 0x48e5e. */
  nonce?: bigint;
  /** MuHash of the UTXO set the genesis starts with (bootstrap.ts); the empty set's, as every kaspad genesis, when omitted. */
  utxoCommitment?: Hash;
}

export function genesisTransaction(): Transaction {
  return {
    version: 0,
    inputs: [],
    outputs: [],
    lockTime: 0n,
    subnetworkId: SUBNETWORK_ID_COINBASE,
    gas: 0n,
    payload: devnetGenesisPayload(),
    storageMass: 0n,
  };
}

export function createDevnetGenesis(options: DevnetGenesisOptions): Block & { hash: Hash } {
  const transactions = [genesisTransaction()];
  const header: Header = {
    version: GENESIS_HEADER_VERSION,
    parentsByLevel: [],
    hashMerkleRoot: hashMerkleRoot(transactions),
    acceptedIdMerkleRoot: ZERO_HASH,
    utxoCommitment: options.utxoCommitment ?? EMPTY_MUHASH,
    timestamp: options.timestamp,
    bits: options.bits,
    nonce: options.nonce ?? 0n,
    daaScore: 0n,
    blueScore: 0n,
    blueWork: 0n,
    pruningPoint: ZERO_HASH,
  };
  return { header, transactions, hash: headerHash(header) };
}
