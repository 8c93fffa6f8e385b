/** The KIP-21 lanes (subnetworks) a block's transactions touch, for the block page. */
import { hexToBytes } from '../kaspa/bytes';
import { BLOCK_VERSION_TOCCATA } from '../kaspa/header';
import { subnetworkShape, type SubnetworkShape } from '../kaspa/subnetwork';

export interface LaneUse {
  subnetworkId: string;
  shape: SubnetworkShape;
  transactions: number;
  gas: bigint;
}

const SHAPE_ORDER: Record<SubnetworkShape, number> = { coinbase: 0, native: 1, userLane: 2, reserved: 3, malformed: 4 };

/** The kind of lane a subnetwork id names (a malformed id when it is not even-length hex). */
export function laneShapeOf(subnetworkId: string): SubnetworkShape {
  return /^[0-9a-f]*$/i.test(subnetworkId) && subnetworkId.length % 2 === 0
    ? subnetworkShape(hexToBytes(subnetworkId))
    : 'malformed';
}

/** One row per subnetwork id with its transaction count and total gas: coinbase, native, then lanes by id. */
export function lanesTouched(transactions: readonly { subnetworkId: string; gas: string }[]): LaneUse[] {
  const lanes = new Map<string, LaneUse>();
  for (const transaction of transactions) {
    const id = transaction.subnetworkId.toLowerCase();
    const lane = lanes.get(id) ?? { subnetworkId: id, shape: laneShapeOf(id), transactions: 0, gas: 0n };
    lane.transactions += 1;
    lane.gas += BigInt(transaction.gas);
    lanes.set(id, lane);
  }
  return [...lanes.values()].sort(
    (a, b) => SHAPE_ORDER[a.shape] - SHAPE_ORDER[b.shape] || (a.subnetworkId < b.subnetworkId ? -1 : a.subnetworkId > b.subnetworkId ? 1 : 0),
  );
}

export const LANE_NAMES: Record<SubnetworkShape, string> = {
  coinbase: 'coinbase',
  native: 'native',
  userLane: 'user lane',
  reserved: 'reserved',
  malformed: 'malformed id',
};

/**
 * What a header's accepted_id_merkle_root holds: the KIP-21 sequencing commitment from header version 2 (Toccata) on,
 * the merkle root of the accepted transaction ids before.
 */
export function acceptedRootMeaning(headerVersion: number): { label: string; hint: string } {
  return headerVersion >= BLOCK_VERSION_TOCCATA
    ? {
        label: 'Sequencing commitment (KIP-21)',
        hint: 'Header field accepted_id_merkle_root; from Toccata (header version 2) on it commits to the selected parent’s commitment, the active lanes and the transactions the merge set accepts',
      }
    : { label: 'Accepted id merkle root', hint: 'Merkle root of the ids of the transactions this block accepts' };
}
