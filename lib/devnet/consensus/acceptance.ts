/**
 * A chain block's (or the virtual's) acceptance of its mergeset, rusty-kaspa v1.0.1
 * consensus/src/pipeline/virtual_processor/utxo_validation.rs (`calculate_utxo_state`) and
 * consensus/src/processes/coinbase.rs (`expected_coinbase_transaction`):
 *
 * - the selected parent's coinbase outputs enter the UTXO set (other merged coinbases never do: their rewards are paid
 *   again by this block's coinbase), and its id is the first accepted id;
 * - then each merged block, selected parent first and the rest in ascending (blue work, hash), has its non-coinbase
 *   transactions validated against the selected parent's state plus what was accepted so far; valid ones are accepted
 *   (new entries carry the accepting block's DAA score), the others are ignored;
 * - every merged block earns its payload subsidy plus the fees of its accepted transactions; blues are paid to their own
 *   payload script, reds (fees only for non-DAA reds) to the accepting block's miner in one output.
 *
 * Under Toccata (rusty-kaspa v2.0.1) the accepted-id merkle root becomes the KIP-21 sequencing commitment over the same
 * accepted transactions and the mergeset (lib/kaspa/seq-commit-block.ts), and the acceptance carries the active lanes
 * after it; before activation the lanes stay empty.
 */
import { decodeCoinbasePayload, encodeCoinbasePayload } from '../../kaspa/coinbase';
import { acceptedIdMerkleRoot } from '../../kaspa/merkle';
import { LanesTree } from '../../kaspa/lanes-tree';
import { MuHash } from '../../kaspa/muhash';
import type { MergesetContext } from '../../kaspa/seq-commit';
import { computeSeqCommitBlock, type AcceptedTransaction, type MergedBlock } from '../../kaspa/seq-commit-block';
import type { Secp256k1Backend } from '../../kaspa/signing';
import {
  SUBNETWORK_ID_COINBASE,
  type Hash,
  type Outpoint,
  type ScriptPublicKey,
  type Transaction,
  type TransactionOutput,
  type UtxoEntry,
} from '../../kaspa/types';
import type { BlockId, GhostdagData } from './ghostdag';
import { TX_VERSION } from './transaction-validator';
import { TX_VERSION_TOCCATA } from '../../kaspa/transaction';
import { validateTransactionInUtxoContext, type ScriptVerificationCache } from './tx-validation';
import { outpointKey, UtxoDiff, type OutpointKey, type UtxoView } from './utxo-diff';

export interface MergesetBlockAcceptance {
  blockHash: BlockId;
  acceptedTransactionIds: Hash[];
}

export interface BlockRewardData {
  subsidy: bigint;
  totalFees: bigint;
  scriptPublicKey: ScriptPublicKey;
}

export interface AcceptanceState {
  /** The change from the selected parent's UTXO state. */
  diff: UtxoDiff;
  /** The selected parent's multiset with this acceptance applied. */
  multiset: MuHash;
  /** In consensus order: the selected parent's coinbase, then each merged block's accepted transactions in block order. */
  acceptedTransactionIds: Hash[];
  mergesetAcceptance: MergesetBlockAcceptance[];
  rewards: Map<BlockId, BlockRewardData>;
  acceptedIdMerkleRoot: Hash;
  /** The active KIP-21 lanes after this acceptance (empty before Toccata); shares structure with the parent's. */
  lanes: LanesTree;
  /** Under Toccata, the commitment's other inputs a lane proof carries. */
  seqCommitParts?: { parentSeqCommit: Hash; payloadAndContextDigest: Hash; inactivityShortcut: Hash };
}

/** What the sequencing commitment needs beyond the acceptance itself (SeqCommitBlockInput). */
export interface SeqCommitContext {
  /** The selected parent's lanes (empty for a pre-Toccata parent). */
  lanes: LanesTree;
  context: MergesetContext;
  /** Every mergeset block, in `orderedMergeset` order. */
  mergeset: readonly MergedBlock[];
  inactivityShortcut: Hash;
  finalityDepth: bigint;
}

export interface AcceptanceInput {
  /** The selected parent first, then the rest of the mergeset in ascending (blue work, hash). */
  orderedMergeset: readonly BlockId[];
  transactionsOf: (block: BlockId) => readonly Transaction[];
  /** The ids of `transactionsOf(block)`, in the same order. */
  transactionIdsOf: (block: BlockId) => readonly Hash[];
  selectedParentMultiset: MuHash;
  selectedParentAcceptedIdMerkleRoot: Hash;
  /** The selected parent's UTXO state. */
  selectedParentView: UtxoView;
  povDaaScore: bigint;
  coinbaseMaturity: bigint;
  scriptCache: ScriptVerificationCache;
  secp256k1?: Secp256k1Backend;
  /** Shared across acceptances, so re-accepting the same outputs and spends skips hashing their MuHash elements. */
  multisetCache?: MultisetElementCache;
  /** Whether Toccata is active at a merged block's DAA score (its transactions' covenant and script rules). */
  toccataActiveFor: (block: BlockId) => boolean;
  /** Present when Toccata is active at `povDaaScore`: the root is then the sequencing commitment. */
  seqCommit?: SeqCommitContext;
}

/**
 * MuHash contributions of single UTXO entries, adding or removing, keyed by outpoint and the entry's DAA score (an
 * outpoint's amount, script and coinbase flag are fixed by the transaction id; only the accepting DAA score varies
 * between chains). An element costs a keyed BLAKE2b, a ChaCha20 expansion and a 3072-bit parse; combining a cached one
 * costs one modular multiplication. The same transactions are accepted many times over (by the virtual after every
 * block, by each parallel block merging them, again after a reorganisation), so most elements come from here.
 */
export class MultisetElementCache {
  private readonly elements = new Map<string, MuHash>();

  constructor(private readonly capacity = 50_000) {}

  private element(key: string, build: () => MuHash): MuHash {
    let element = this.elements.get(key);
    if (element === undefined) {
      if (this.elements.size >= this.capacity) this.elements.delete(this.elements.keys().next().value!);
      element = build();
      this.elements.set(key, element);
    }
    return element;
  }

  added(key: OutpointKey, outpoint: Outpoint, entry: UtxoEntry): MuHash {
    return this.element(`+${key}@${entry.blockDaaScore}`, () => new MuHash().addUtxo(outpoint, entry));
  }

  removed(key: OutpointKey, outpoint: Outpoint, entry: UtxoEntry): MuHash {
    return this.element(`-${key}@${entry.blockDaaScore}`, () => new MuHash().removeUtxo(outpoint, entry));
  }
}

/** `MuHash.addTransaction` with the transaction id already known and elements taken from `cache` when given. */
function addTransactionToMultiset(
  multiset: MuHash,
  tx: Transaction,
  id: Hash,
  spent: readonly UtxoEntry[],
  daaScore: bigint,
  coinbase: boolean,
  cache: MultisetElementCache | undefined,
): void {
  if (cache === undefined) {
    multiset.addTransaction(tx, spent, daaScore);
    return;
  }
  tx.inputs.forEach((input, index) =>
    multiset.combine(cache.removed(outpointKey(input.previousOutpoint), input.previousOutpoint, spent[index]!)),
  );
  tx.outputs.forEach((output, index) => {
    const outpoint = { transactionId: id, index };
    multiset.combine(cache.added(outpointKey(outpoint), outpoint, outputEntry(output, daaScore, coinbase)));
  });
}

function outputEntry(output: TransactionOutput, daaScore: bigint, coinbase: boolean): UtxoEntry {
  return {
    amount: output.value,
    scriptPublicKey: output.scriptPublicKey,
    blockDaaScore: daaScore,
    isCoinbase: coinbase,
    covenantId: output.covenant?.covenantId ?? null,
  };
}

function acceptIntoDiff(diff: UtxoDiff, tx: Transaction, id: Hash, spent: readonly UtxoEntry[], daaScore: bigint, coinbase: boolean): void {
  tx.inputs.forEach((input, index) => diff.remove(outpointKey(input.previousOutpoint), spent[index]!));
  tx.outputs.forEach((output, index) => diff.add(outpointKey({ transactionId: id, index }), outputEntry(output, daaScore, coinbase)));
}

export function calculateAcceptance(input: AcceptanceInput): AcceptanceState {
  const { povDaaScore } = input;
  const diff = new UtxoDiff();
  const multiset = input.selectedParentMultiset.clone();
  const view = diff.over(input.selectedParentView);
  const selectedParent = input.orderedMergeset[0];
  if (selectedParent === undefined) throw new Error('a mergeset always holds the selected parent');

  const selectedParentCoinbase = input.transactionsOf(selectedParent)[0]!;
  const coinbaseId = input.transactionIdsOf(selectedParent)[0]!;
  acceptIntoDiff(diff, selectedParentCoinbase, coinbaseId, [], povDaaScore, true);
  addTransactionToMultiset(multiset, selectedParentCoinbase, coinbaseId, [], povDaaScore, true, input.multisetCache);
  const acceptedTransactionIds: Hash[] = [coinbaseId];
  const acceptedTransactions: AcceptedTransaction[] = [
    { id: coinbaseId, version: selectedParentCoinbase.version, subnetworkId: selectedParentCoinbase.subnetworkId },
  ];
  const mergesetAcceptance: MergesetBlockAcceptance[] = [];
  const rewards = new Map<BlockId, BlockRewardData>();

  input.orderedMergeset.forEach((block, position) => {
    const transactions = input.transactionsOf(block);
    const ids = input.transactionIdsOf(block);
    const isSelectedParent = position === 0;
    const toccata = input.toccataActiveFor(block);
    const accepted: { tx: Transaction; id: Hash; entries: UtxoEntry[] }[] = [];
    let fees = 0n;
    for (const [index, tx] of transactions.entries()) {
      if (index === 0) continue;
      const result = validateTransactionInUtxoContext(tx, view, povDaaScore, {
        coinbaseMaturity: input.coinbaseMaturity,
        checkScripts: !isSelectedParent,
        scriptCache: input.scriptCache,
        secp256k1: input.secp256k1,
        toccata,
      });
      if (!result.ok) continue;
      accepted.push({ tx, id: ids[index]!, entries: result.entries });
      fees += result.fee;
    }
    // Transactions of one block are independent (no chained spends, no double spends), so they are applied together.
    for (const { tx, id, entries } of accepted) {
      acceptIntoDiff(diff, tx, id, entries, povDaaScore, false);
      addTransactionToMultiset(multiset, tx, id, entries, povDaaScore, false, input.multisetCache);
      acceptedTransactionIds.push(id);
      acceptedTransactions.push({ id, version: tx.version, subnetworkId: tx.subnetworkId });
    }
    const acceptedIds = accepted.map(({ id }) => id);
    mergesetAcceptance.push({
      blockHash: block,
      acceptedTransactionIds: isSelectedParent ? [coinbaseId, ...acceptedIds] : acceptedIds,
    });
    const payload = decodeCoinbasePayload(transactions[0]!.payload);
    rewards.set(block, { subsidy: payload.subsidy, totalFees: fees, scriptPublicKey: payload.scriptPublicKey });
  });

  const base = { diff, multiset, acceptedTransactionIds, mergesetAcceptance, rewards };
  const { seqCommit } = input;
  if (seqCommit === undefined) {
    return {
      ...base,
      acceptedIdMerkleRoot: acceptedIdMerkleRoot(input.selectedParentAcceptedIdMerkleRoot, acceptedTransactionIds),
      lanes: LanesTree.EMPTY,
    };
  }
  const result = computeSeqCommitBlock({ ...seqCommit, parentSeqCommit: input.selectedParentAcceptedIdMerkleRoot, acceptedTransactions });
  return {
    ...base,
    acceptedIdMerkleRoot: result.seqCommit,
    lanes: result.lanes,
    seqCommitParts: {
      parentSeqCommit: input.selectedParentAcceptedIdMerkleRoot,
      payloadAndContextDigest: result.payloadAndContextDigest,
      inactivityShortcut: seqCommit.inactivityShortcut,
    },
  };
}

export interface ExpectedCoinbaseInput {
  ghostdag: GhostdagData;
  daaScore: bigint;
  subsidy: bigint;
  rewards: ReadonlyMap<BlockId, BlockRewardData>;
  mergesetNonDaa: ReadonlySet<BlockId>;
  minerScriptPublicKey: ScriptPublicKey;
  extraData: Uint8Array;
  /** Toccata is active at `daaScore`: the coinbase is a version 1 transaction (coinbase.rs at v2.0.1). */
  toccataActive: boolean;
}

/** `expected_coinbase_transaction` with the Crescendo red-reward rule (fees only for non-DAA reds). */
export function expectedCoinbaseTransaction(input: ExpectedCoinbaseInput): Transaction {
  const outputs: TransactionOutput[] = [];
  for (const blue of input.ghostdag.mergesetBlues) {
    if (input.mergesetNonDaa.has(blue)) continue;
    const reward = input.rewards.get(blue)!;
    const value = reward.subsidy + reward.totalFees;
    if (value > 0n) outputs.push({ value, scriptPublicKey: reward.scriptPublicKey });
  }
  let redReward = 0n;
  for (const red of input.ghostdag.mergesetReds) {
    const reward = input.rewards.get(red)!;
    redReward += input.mergesetNonDaa.has(red) ? reward.totalFees : reward.subsidy + reward.totalFees;
  }
  if (redReward > 0n) outputs.push({ value: redReward, scriptPublicKey: input.minerScriptPublicKey });
  const payload = encodeCoinbasePayload({
    blueScore: input.ghostdag.blueScore,
    subsidy: input.subsidy,
    scriptPublicKey: input.minerScriptPublicKey,
    extraData: input.extraData,
  });
  return {
    version: input.toccataActive ? TX_VERSION_TOCCATA : TX_VERSION,
    inputs: [],
    outputs,
    lockTime: 0n,
    subnetworkId: SUBNETWORK_ID_COINBASE,
    gas: 0n,
    payload,
    storageMass: 0n,
  };
}

