/**
 * The consensus side of KIP-21 (rusty-kaspa v2.0.1 virtual_processor/utxo_validation.rs `recompute_seq_commit`,
 * processor.rs `compute_inactivity_shortcut_block`, consensus/mod.rs `get_seq_commit_lane_proof`): the inputs of a
 * chain block's sequencing commitment, read from the stored blocks, and lane proofs against it. Each chain-qualified
 * block's acceptance keeps its lanes tree (persistent, sharing structure with its selected parent's), so a
 * reorganisation needs no revert: the new chain's blocks carry their own trees.
 */
import { inactivityShortcutOf, inactivityShortcutTargetBlueScore } from '../../kaspa/seq-commit-block';
import { encodeSmtProof, type SeqCommitLaneProof } from '../../kaspa/smt-proof';
import type { Hash, Header, Transaction } from '../../kaspa/types';
import type { AcceptanceState, SeqCommitContext } from './acceptance';
import { blockIdOf, ORIGIN_ID, type BlockId, type GhostdagData } from './ghostdag';

/** What these functions read of a stored block. */
export interface StoredBlock {
  readonly hash: Hash;
  readonly header: Header;
  readonly ghostdag: GhostdagData;
  readonly transactions: readonly Transaction[];
  readonly finalityPoint: BlockId;
  readonly acceptance?: AcceptanceState;
}

export interface SeqCommitStore {
  record(id: BlockId): StoredBlock;
  readonly genesisId: BlockId;
  readonly finalityDepth: number;
  toccataActiveAt(daaScore: bigint): boolean;
  /** block_depth.rs: the finality point of a block with this GHOSTDAG data (ORIGIN when unconstrained). */
  finalityPointOf(ghostdag: GhostdagData): BlockId;
}

/** The KIP-21 inputs of a chain block (or the virtual) with this GHOSTDAG data and DAA score. */
export function seqCommitContext(
  ghostdag: GhostdagData,
  daaScore: bigint,
  orderedMergeset: readonly BlockId[],
  store: SeqCommitStore,
): SeqCommitContext {
  const selectedParent = store.record(ghostdag.selectedParent);
  const shortcut = store.record(inactivityShortcutBlock(ghostdag, store));
  return {
    lanes: selectedParent.acceptance!.lanes,
    context: { timestamp: selectedParent.header.timestamp, daaScore, blueScore: ghostdag.blueScore },
    mergeset: orderedMergeset.map((id) => {
      const record = store.record(id);
      return { hash: record.hash, blueWork: record.ghostdag.blueWork, coinbasePayload: record.transactions[0]!.payload };
    }),
    inactivityShortcut: inactivityShortcutOf({
      acceptedIdMerkleRoot: shortcut.header.acceptedIdMerkleRoot,
      toccataActive: store.toccataActiveAt(shortcut.header.daaScore),
    }),
    finalityDepth: BigInt(store.finalityDepth),
  };
}

/**
 * The highest block of the selected parent's chain with blue score ≤ bs − F − 1 (genesis while bs ≤ F). That is the
 * finality point; it is walked to only when the pruning point leaves the finality point unconstrained (ORIGIN).
 */
function inactivityShortcutBlock(ghostdag: GhostdagData, store: SeqCommitStore): BlockId {
  const target = inactivityShortcutTargetBlueScore(ghostdag.blueScore, BigInt(store.finalityDepth));
  if (target === null) return store.genesisId;
  const finalityPoint = store.finalityPointOf(ghostdag);
  if (finalityPoint !== ORIGIN_ID) return finalityPoint;
  let current = ghostdag.selectedParent;
  while (current !== store.genesisId && store.record(current).ghostdag.blueScore > target) {
    current = store.record(current).ghostdag.selectedParent;
  }
  return current;
}

/** A query the node cannot answer for the given arguments (kaspad's ConsensusError texts). */
export class ConsensusQueryError extends Error {
  override name = 'ConsensusQueryError';
}

export interface LaneProofStore {
  find(id: BlockId): StoredBlock | undefined;
  readonly genesisId: BlockId;
  readonly sinkId: BlockId;
  readonly pruningPointId: BlockId;
  isChainAncestorOf(ancestor: BlockId, block: BlockId): boolean;
  toccataActiveAt(daaScore: bigint): boolean;
}

/**
 * `get_seq_commit_lane_proof` (the RPC's getSeqCommitLaneProof): the proof that lane `laneKey` holds what it holds (or
 * nothing) in the active-lanes tree a selected-chain block commits to, with the other inputs of its seq commit.
 */
export function seqCommitLaneProof(blockHash: Hash, laneKey: Hash, store: LaneProofStore): SeqCommitLaneProof {
  const id = blockIdOf(blockHash);
  const record = store.find(id);
  if (record === undefined) throw new ConsensusQueryError(`cannot find full block ${id}`);
  if (id === store.genesisId) throw new ConsensusQueryError(`block ${id} is genesis and has no selected parent`);
  if (!store.isChainAncestorOf(id, store.sinkId)) throw new ConsensusQueryError(`block ${id} is not in the selected parent chain`);
  if (!store.isChainAncestorOf(store.pruningPointId, id)) {
    throw new ConsensusQueryError(`block ${id} is too deep (before the current pruning point)`);
  }
  const parts = record.acceptance?.seqCommitParts;
  if (!store.toccataActiveAt(record.header.daaScore) || parts === undefined) {
    throw new ConsensusQueryError(`toccata is not active at block ${id}`);
  }
  const { lanes } = record.acceptance!;
  const lane = lanes.get(laneKey);
  return { smtProof: encodeSmtProof(lanes.prove(laneKey)), lane: lane && { tip: lane.tip, blueScore: lane.blueScore }, ...parts };
}
