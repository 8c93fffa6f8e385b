/**
 * One chain block's KIP-21 sequencing commitment (consensus/src/pipeline/virtual_processor/utxo_validation.rs
 * `recompute_seq_commit`, `collect_mergeset_seq_data`, `resolve_lane_updates`, `build_seq_commit`; processor.rs
 * `expire_stale_lanes`, `compute_inactivity_shortcut_block`, `inactivity_shortcut`), as a pure function of the selected
 * parent's state. The result lists every lane change, so a caller can move its lanes tree forward and, on a
 * reorganisation, back (`LanesTree.revert`) or simply keep the previous tree.
 *
 * Lanes: accepted transactions are grouped by subnetwork id (their lane); each lane's activity digest is the H_seq
 * merkle root of activity_leaf(tx id, version, merge index) over its transactions, the merge index counting every
 * accepted transaction of the mergeset. A lane still active at the block (last touched at blue score ≥ bs − F) continues
 * from its tip; any other lane starts (or restarts) from the parent's seq commit. Touched lanes are stored with the
 * block's blue score; lanes last touched below bs − F expire.
 */
import { bytesToHex, compareBytes } from './bytes';
import { ZERO_HASH } from './hashing';
import { LanesTree, type LaneChange, type LaneEntry } from './lanes-tree';
import {
  activityLeaf,
  activityRootHash,
  laneActivityDigest,
  laneKey,
  laneTipNext,
  mergesetContextHash,
  minerPayloadLeaf,
  minerPayloadRoot,
  payloadAndContextDigest,
  seqCommit,
  seqStateRoot,
  type MergesetContext,
} from './seq-commit';
import type { Hash } from './types';

/** An accepted transaction as the commitment sees it. */
export interface AcceptedTransaction {
  id: Hash;
  version: number;
  /** The transaction's lane. */
  subnetworkId: Uint8Array;
}

/** A block of the mergeset as the miner-payload root sees it. */
export interface MergedBlock {
  hash: Hash;
  blueWork: bigint;
  /** The payload of the block's coinbase transaction. */
  coinbasePayload: Uint8Array;
}

export interface SeqCommitBlockInput {
  /** The selected parent's accepted_id_merkle_root (its seq commit; whatever it holds for a pre-Toccata parent). */
  parentSeqCommit: Hash;
  /** The active lanes after the selected parent (LanesTree.EMPTY for a pre-Toccata parent). */
  lanes: LanesTree;
  /** The selected parent's timestamp, and this block's DAA score and blue score. */
  context: MergesetContext;
  /**
   * Every transaction the block accepts, in acceptance order (calculate_utxo_state): the selected parent's coinbase
   * first, then each mergeset block's accepted non-coinbase transactions in block order, blocks in consensus mergeset
   * order (selected parent first). Other blocks' coinbases are not accepted.
   */
  acceptedTransactions: readonly AcceptedTransaction[];
  /** Every mergeset block, blue or red, in consensus mergeset order (selected parent first). */
  mergeset: readonly MergedBlock[];
  /** See inactivityShortcutTargetBlueScore. */
  inactivityShortcut: Hash;
  /** The finality depth F in blocks: lanes untouched for more than F blue score expire. */
  finalityDepth: bigint;
}

export interface TouchedLane {
  laneId: Uint8Array;
  laneKey: Hash;
  /** Whether the lane was not active at this block (new, expired or expiring now) and so restarts from the parent. */
  isNew: boolean;
  activityDigest: Hash;
  tip: Hash;
}

export interface SeqCommitBlockResult {
  /** The block's accepted_id_merkle_root. */
  seqCommit: Hash;
  contextHash: Hash;
  lanesRoot: Hash;
  payloadRoot: Hash;
  payloadAndContextDigest: Hash;
  activityRoot: Hash;
  stateRoot: Hash;
  /** Lanes with accepted transactions, ordered by lane id. */
  touchedLanes: TouchedLane[];
  /** Keys of the lanes that expire at this block and are not touched by it, in key order. */
  expiredLaneKeys: Hash[];
  /** One change per touched or expired lane: apply to `input.lanes` to get `lanes`, revert to go back. */
  changes: LaneChange[];
  /** The active lanes after this block. */
  lanes: LanesTree;
}

/** The lowest blue score a lane may have been last touched at and still be active at a block of `blueScore`. */
export function laneActivityFloor(blueScore: bigint, finalityDepth: bigint): bigint {
  return blueScore > finalityDepth ? blueScore - finalityDepth : 0n;
}

export function computeSeqCommitBlock(input: SeqCommitBlockInput): SeqCommitBlockResult {
  const { context, lanes } = input;
  const floor = laneActivityFloor(context.blueScore, input.finalityDepth);
  const contextHash = mergesetContextHash(context);

  const activity = new Map<string, { laneId: Uint8Array; leaves: Hash[] }>();
  input.acceptedTransactions.forEach((tx, mergeIndex) => {
    const id = bytesToHex(tx.subnetworkId);
    const lane = activity.get(id) ?? { laneId: tx.subnetworkId, leaves: [] };
    lane.leaves.push(activityLeaf(tx.id, tx.version, mergeIndex));
    activity.set(id, lane);
  });

  const changes = new Map<string, LaneChange>();
  const expired = lanes.lanesBelow(floor);
  for (const { laneKey: key, entry } of expired) changes.set(bytesToHex(key), { laneKey: key, before: entry, after: null });

  const touchedLanes = [...activity.values()]
    .sort((a, b) => compareBytes(a.laneId, b.laneId))
    .map(({ laneId, leaves }): TouchedLane => {
      const key = laneKey(laneId);
      const before = lanes.get(key);
      const active = before !== null && before.blueScore >= floor;
      const activityDigest = laneActivityDigest(leaves);
      const tip = laneTipNext({ parentRef: active ? before.tip : input.parentSeqCommit, laneKey: key, activityDigest, contextHash });
      const after: LaneEntry = { tip, blueScore: context.blueScore };
      changes.set(bytesToHex(key), { laneKey: key, before, after });
      return { laneId, laneKey: key, isNew: !active, activityDigest, tip };
    });

  const laneChanges = [...changes.values()];
  const nextLanes = lanes.apply(laneChanges);
  const lanesRoot = nextLanes.root;
  const payloadRoot = minerPayloadRoot(input.mergeset.map((block) => minerPayloadLeaf({ blockHash: block.hash, blueWork: block.blueWork, coinbasePayload: block.coinbasePayload })));
  const payloadAndContext = payloadAndContextDigest(contextHash, payloadRoot);
  const activityRoot = activityRootHash(input.inactivityShortcut, lanesRoot);
  const stateRoot = seqStateRoot(activityRoot, payloadAndContext);
  return {
    seqCommit: seqCommit(input.parentSeqCommit, stateRoot),
    contextHash,
    lanesRoot,
    payloadRoot,
    payloadAndContextDigest: payloadAndContext,
    activityRoot,
    stateRoot,
    touchedLanes,
    expiredLaneKeys: laneChanges.filter((change) => change.after === null).map((change) => change.laneKey),
    changes: laneChanges,
    lanes: nextLanes,
  };
}

/**
 * The inactivity shortcut a chain block of `blueScore` commits to is the seq commit of its shortcut block: the highest
 * block of its selected chain (its selected parent's chain) with blue score ≤ bs − F − 1, or genesis when bs < F + 1.
 * Returns that target blue score, or null for genesis. The caller then passes `inactivityShortcutOf(shortcut block)`.
 */
export function inactivityShortcutTargetBlueScore(blueScore: bigint, finalityDepth: bigint): bigint | null {
  return blueScore < finalityDepth + 1n ? null : blueScore - finalityDepth - 1n;
}

/** The committed value for a shortcut block: its accepted_id_merkle_root if Toccata is active at its DAA score, else ZERO. */
export function inactivityShortcutOf(block: { acceptedIdMerkleRoot: Hash; toccataActive: boolean }): Hash {
  return block.toccataActive ? block.acceptedIdMerkleRoot : ZERO_HASH;
}
