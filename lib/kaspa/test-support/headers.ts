/** Header vectors in the research vectors' format (hex hashes, u64 and blue work as decimal strings). */
import { hexToBytes } from '../bytes';
import type { Header } from '../types';

export interface HeaderVector {
  version: number;
  parentsByLevel: string[][];
  hashMerkleRoot: string;
  acceptedIdMerkleRoot: string;
  utxoCommitment: string;
  timestamp: string;
  bits: number;
  nonce: string;
  daaScore: string;
  blueScore: string;
  blueWork: string;
  pruningPoint: string;
}

export function headerFromVector(vector: HeaderVector): Header {
  return {
    version: vector.version,
    parentsByLevel: vector.parentsByLevel.map((level) => level.map(hexToBytes)),
    hashMerkleRoot: hexToBytes(vector.hashMerkleRoot),
    acceptedIdMerkleRoot: hexToBytes(vector.acceptedIdMerkleRoot),
    utxoCommitment: hexToBytes(vector.utxoCommitment),
    timestamp: BigInt(vector.timestamp),
    bits: vector.bits,
    nonce: BigInt(vector.nonce),
    daaScore: BigInt(vector.daaScore),
    blueScore: BigInt(vector.blueScore),
    blueWork: BigInt(vector.blueWork),
    pruningPoint: hexToBytes(vector.pruningPoint),
  };
}
