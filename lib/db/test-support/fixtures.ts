import { encodeAddress } from '../../kaspa/address';
import { blake2b256 } from '../../kaspa/hashing';
import type { Hash } from '../../kaspa/types';
import { SUBNETWORK_ID_NATIVE } from '../../kaspa/types';
import type { BlockRecord, CreatedOutputRecord, OutputRecord, TransactionRecord } from '../records';

/** Deterministic synthetic chain data for the db tests (no consensus validity implied). */

export function hashOf(label: string): Hash {
  return blake2b256(new TextEncoder().encode(label));
}

export function addressOf(label: string): string {
  return encodeAddress({ prefix: 'kaspadev', version: 0, payload: hashOf(`address ${label}`) });
}

/** A pay-to-public-key output script (OP_DATA_32 key OP_CHECKSIG) for a labelled key. */
export function payToAddressOutput(label: string, amount: bigint): CreatedOutputRecord {
  const script = new Uint8Array(34);
  script[0] = 0x20;
  script.set(hashOf(`address ${label}`), 1);
  script[33] = 0xac;
  return {
    amount,
    scriptPublicKey: { version: 0, script },
    address: addressOf(label),
    scriptType: 'pubkey',
    covenantId: null,
    authorizingInput: null,
  };
}

/** A pay-to-public-key output bound to a covenant (KIP-20). */
export function covenantOutput(label: string, amount: bigint, covenantId: Hash, authorizingInput: number): CreatedOutputRecord {
  return { ...payToAddressOutput(label, amount), covenantId, authorizingInput };
}

/** An output as an input that spends it records it (without its binding's authorizing input). */
export function asSpent(output: OutputRecord): OutputRecord {
  const { amount, scriptPublicKey, address, scriptType, covenantId } = output;
  return { amount, scriptPublicKey, address, scriptType, covenantId };
}

export interface SyntheticBlockOptions {
  label: string;
  daaScore: bigint;
  parents: Hash[];
  transactionIds: Hash[];
  isChainBlock: boolean;
}

export function syntheticBlock(options: SyntheticBlockOptions): BlockRecord {
  const { label, daaScore, parents, transactionIds, isChainBlock } = options;
  const hash = hashOf(`block ${label}`);
  return {
    hash,
    header: {
      version: 1,
      parentsByLevel: [parents, parents.slice(0, 1)],
      hashMerkleRoot: hashOf(`hash merkle ${label}`),
      acceptedIdMerkleRoot: hashOf(`accepted merkle ${label}`),
      utxoCommitment: hashOf(`utxo ${label}`),
      timestamp: 1_700_000_000_000n + daaScore * 100n,
      bits: 0x1e7fffff,
      nonce: daaScore * 7919n,
      daaScore,
      blueScore: daaScore,
      blueWork: daaScore * 1_000_003n,
      pruningPoint: hashOf('pruning point'),
    },
    selectedParentHash: parents[0] ?? null,
    mergeSetBlues: parents,
    mergeSetReds: [],
    difficulty: 1.5,
    isChainBlock,
    transactionIds,
  };
}

export interface SyntheticSpend {
  previousTransactionId: Hash;
  previousIndex: number;
  previousOutput: OutputRecord | null;
}

export function syntheticTransaction(
  label: string,
  blockTime: bigint,
  spends: SyntheticSpend[],
  outputs: CreatedOutputRecord[],
): TransactionRecord {
  return {
    transactionId: hashOf(`transaction ${label}`),
    hash: hashOf(`transaction hash ${label}`),
    version: 0,
    lockTime: 0n,
    subnetworkId: SUBNETWORK_ID_NATIVE,
    gas: 0n,
    payload: new Uint8Array(0),
    mass: 2036n,
    storageMass: 2036n,
    computeMass: 2036n,
    blockTime,
    inputs: spends.map((spend) => ({
      previousOutpoint: { transactionId: spend.previousTransactionId, index: spend.previousIndex },
      signatureScript: hashOf(`signature ${label}`),
      sequence: 0n,
      sigOpCount: 1,
      computeBudget: 0,
      previousOutput: spend.previousOutput && asSpent(spend.previousOutput),
    })),
    outputs,
  };
}
