/**
 * Writes KRC-20 test transactions into a real chain index (lib/db tables, through lib/db's own writes), laid out as
 * the chain indexer stores them: chain block C(n) has selected parent C(n−1) and merges a carrier block X(n) holding
 * the transactions, so C(n) accepts them.
 */
import {
  applyVirtualChainChange,
  insertBlocks,
  insertTransactions,
  type BlockRecord,
  type CreatedOutputRecord,
  type Queryable,
  type TransactionRecord,
} from '../../db';
import { hashOf } from '../../db/test-support/fixtures';
import { scriptClassOf, scriptPublicKeyToAddress } from '../../kaspa/address';
import { transactionHash, transactionId } from '../../kaspa/transaction';
import type { Hash, ScriptPublicKey } from '../../kaspa/types';
import type { AcceptedTransaction } from '../../tokens/engine';
import { PREFIX } from '../../tokens/test-support/transactions';

function outputRecord(amount: bigint, scriptPublicKey: ScriptPublicKey): CreatedOutputRecord {
  return {
    amount,
    scriptPublicKey,
    address: scriptPublicKeyToAddress(scriptPublicKey, PREFIX),
    scriptType: scriptClassOf(scriptPublicKey),
    covenantId: null,
    authorizingInput: null,
  };
}

export function transactionRecord(accepted: AcceptedTransaction, blockTime: bigint): TransactionRecord {
  const tx = accepted.transaction;
  return {
    transactionId: transactionId(tx),
    hash: transactionHash(tx),
    version: tx.version,
    lockTime: tx.lockTime,
    subnetworkId: tx.subnetworkId,
    gas: tx.gas,
    payload: tx.payload,
    mass: tx.storageMass,
    storageMass: tx.storageMass,
    computeMass: null,
    blockTime,
    inputs: tx.inputs.map((input, index) => {
      const spent = accepted.spentOutputs?.[index];
      return {
        previousOutpoint: input.previousOutpoint,
        signatureScript: input.signatureScript,
        sequence: input.sequence,
        sigOpCount: input.sigOpCount,
        computeBudget: input.computeBudget ?? 0,
        previousOutput: spent ? outputRecord(spent.amount, spent.scriptPublicKey) : null,
      };
    }),
    outputs: tx.outputs.map((output) => outputRecord(output.value, output.scriptPublicKey)),
  };
}

function block(
  label: string,
  daaScore: bigint,
  selectedParent: Hash | null,
  mergeSet: Hash[],
  txIds: Hash[],
  blueScore = daaScore,
): BlockRecord {
  return {
    hash: hashOf(`token block ${label}`),
    header: {
      version: 1,
      parentsByLevel: selectedParent ? [[selectedParent, ...mergeSet.filter((member) => member !== selectedParent)]] : [],
      hashMerkleRoot: hashOf(`merkle ${label}`),
      acceptedIdMerkleRoot: hashOf(`accepted ${label}`),
      utxoCommitment: hashOf(`utxo ${label}`),
      timestamp: 1_700_000_000_000n + daaScore * 1000n,
      bits: 0x1e7fffff,
      nonce: 0n,
      daaScore,
      blueScore,
      blueWork: daaScore * 1000n,
      pruningPoint: hashOf('pruning point'),
    },
    selectedParentHash: selectedParent,
    mergeSetBlues: mergeSet,
    mergeSetReds: [],
    difficulty: 1,
    isChainBlock: false,
    transactionIds: txIds,
  };
}

export interface StoredChainBlock {
  hash: Hash;
  daaScore: bigint;
  acceptedIds: Hash[];
}

/**
 * Stores the carrier X(label) with `transactions` and the block C(label) above `parent` merging it, without making C
 * a chain block (see `makeChain`).
 */
export async function storeChainCandidate(
  db: Queryable,
  options: {
    label: string;
    daaScore: bigint;
    /** The chain block's blue score; its DAA score unless given (genesis and its chain child share a DAA score). */
    blueScore?: bigint;
    parent: Hash | null;
    transactions: readonly AcceptedTransaction[];
  },
): Promise<StoredChainBlock> {
  const { label, daaScore, parent } = options;
  const blueScore = options.blueScore ?? daaScore;
  const timestamp = 1_700_000_000_000n + daaScore * 1000n;
  const records = options.transactions.map((accepted) => transactionRecord(accepted, timestamp));
  const ids = records.map((record) => record.transactionId);
  const carrier = block(`${label} carrier`, daaScore - 1n, parent, parent ? [parent] : [], ids, blueScore - 1n);
  const chain = block(label, daaScore, parent ?? carrier.hash, parent ? [parent, carrier.hash] : [carrier.hash], [], blueScore);
  await insertBlocks(db, [carrier, chain]);
  await insertTransactions(db, records);
  return { hash: chain.hash, daaScore, acceptedIds: ids };
}

/** One virtual-chain change: `removed` leave the chain (and lose their acceptances), `added` join it in order. */
export async function makeChain(db: Queryable, removed: readonly StoredChainBlock[], added: readonly StoredChainBlock[]) {
  await applyVirtualChainChange(db, {
    removedChainBlockHashes: removed.map((entry) => entry.hash),
    added: added.map((entry) => ({ acceptingBlockHash: entry.hash, acceptedTransactionIds: entry.acceptedIds })),
  });
}
