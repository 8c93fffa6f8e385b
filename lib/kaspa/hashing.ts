/**
 * Kaspa's hash domains. Every consensus hash is a keyed or customised function of a named domain;
 * see crypto/hashes/src/hashers.rs and pow_hashers.rs in rusty-kaspa.
 */
import { blake2b } from '@noble/hashes/blake2.js';
import { blake3 } from '@noble/hashes/blake3.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { cshake256 } from '@noble/hashes/sha3-addons.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { concatBytes } from './bytes';

export const HASH_SIZE = 32;
export const ZERO_HASH = new Uint8Array(HASH_SIZE);

export type Blake2bDomain =
  | 'TransactionHash'
  | 'TransactionID'
  | 'TransactionSigningHash'
  | 'BlockHash'
  | 'ProofOfWorkHash'
  | 'MerkleBranchHash'
  | 'MuHashElement'
  | 'MuHashFinalize'
  | 'PersonalMessageSigningHash'
  | 'CovenantID';

export type Blake3Domain =
  | 'TransactionV1Id'
  | 'TransactionRest'
  | 'PayloadDigest'
  | 'SeqCommitmentMerkleBranchHash'
  | 'SeqCommitLaneKey'
  | 'SeqCommitLaneTip'
  | 'SeqCommitActivityLeaf'
  | 'SeqCommitMergesetContext'
  | 'SeqCommitMinerPayloadLeaf'
  | 'SeqCommitActivityRoot'
  | 'SeqCommitActiveLeaf'
  | 'SeqCommitActiveNode'
  | 'SeqCommitActiveCollapsedNode';

const blake2bKeys = new Map<string, Uint8Array>();
const blake3Keys = new Map<string, Uint8Array>();

function blake2bKey(domain: Blake2bDomain): Uint8Array {
  let key = blake2bKeys.get(domain);
  if (!key) blake2bKeys.set(domain, (key = utf8ToBytes(domain)));
  return key;
}

/** BLAKE3 keys are the domain name zero-padded to 32 bytes. */
function blake3Key(domain: Blake3Domain): Uint8Array {
  let key = blake3Keys.get(domain);
  if (!key) {
    key = new Uint8Array(32);
    key.set(utf8ToBytes(domain));
    blake3Keys.set(domain, key);
  }
  return key;
}

export function blake2bKeyed(domain: Blake2bDomain, data: Uint8Array): Uint8Array {
  return blake2b(data, { key: blake2bKey(domain), dkLen: HASH_SIZE });
}

export function blake3Keyed(domain: Blake3Domain, data: Uint8Array): Uint8Array {
  return blake3(data, { key: blake3Key(domain) });
}

/** Unkeyed BLAKE2b-256, as OP_BLAKE2B and the P2SH script hash use it. */
export function blake2b256(data: Uint8Array): Uint8Array {
  return blake2b(data, { dkLen: HASH_SIZE });
}

const ECDSA_SIGNING_PREFIX = sha256(utf8ToBytes('TransactionSigningHashECDSA'));

/** SHA256(SHA256("TransactionSigningHashECDSA") || data): one copy of the tag hash, unlike BIP340. */
export function ecdsaSigningHash(data: Uint8Array): Uint8Array {
  return sha256(concatBytes(ECDSA_SIGNING_PREFIX, data));
}

const POW_CUSTOMIZATION = utf8ToBytes('ProofOfWorkHash');
const HEAVY_CUSTOMIZATION = utf8ToBytes('HeavyHash');

/** cSHAKE256 with N = "" and S = "ProofOfWorkHash": the first PoW hash. */
export function powHash(data: Uint8Array): Uint8Array {
  return cshake256(data, { personalization: POW_CUSTOMIZATION, dkLen: HASH_SIZE });
}

/** cSHAKE256 with N = "" and S = "HeavyHash": the final kHeavyHash step. */
export function kHeavyHashFinal(data: Uint8Array): Uint8Array {
  return cshake256(data, { personalization: HEAVY_CUSTOMIZATION, dkLen: HASH_SIZE });
}

export { sha256 };
