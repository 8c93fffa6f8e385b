import { describe, expect, it } from 'vitest';
import { acceptedRootMeaning, laneShapeOf, lanesTouched } from './block-lanes';

const COINBASE = '01' + '00'.repeat(19);
const NATIVE = '00'.repeat(20);
const LANE_A = 'aa000001' + '00'.repeat(16);
const LANE_B = '0a000100' + '00'.repeat(16);

describe('laneShapeOf', () => {
  it('names the lane of one transaction’s subnetwork id', () => {
    expect(laneShapeOf(NATIVE)).toBe('native');
    expect(laneShapeOf(LANE_A)).toBe('userLane');
    expect(laneShapeOf('xyz')).toBe('malformed');
  });
});

describe('lanesTouched', () => {
  it('counts transactions and sums gas per subnetwork, coinbase and native first', () => {
    const lanes = lanesTouched([
      { subnetworkId: LANE_A, gas: '5' },
      { subnetworkId: NATIVE, gas: '0' },
      { subnetworkId: COINBASE, gas: '0' },
      { subnetworkId: LANE_A.toUpperCase(), gas: '18446744073709551615' },
      { subnetworkId: LANE_B, gas: '7' },
      { subnetworkId: NATIVE, gas: '0' },
    ]);
    expect(lanes).toEqual([
      { subnetworkId: COINBASE, shape: 'coinbase', transactions: 1, gas: 0n },
      { subnetworkId: NATIVE, shape: 'native', transactions: 2, gas: 0n },
      { subnetworkId: LANE_B, shape: 'userLane', transactions: 1, gas: 7n },
      { subnetworkId: LANE_A, shape: 'userLane', transactions: 2, gas: 18446744073709551620n },
    ]);
  });

  it('names ids that are neither system ids nor lanes malformed, also when they are not hex', () => {
    const lanes = lanesTouched([
      { subnetworkId: '05' + '00'.repeat(19), gas: '0' },
      { subnetworkId: 'aa'.repeat(20), gas: '0' },
      { subnetworkId: 'zz', gas: '0' },
    ]);
    expect(lanes.map((lane) => lane.shape)).toEqual(['reserved', 'malformed', 'malformed']);
  });

  it('is empty for a block without transactions', () => {
    expect(lanesTouched([])).toEqual([]);
  });
});

describe('acceptedRootMeaning', () => {
  it('reads the field as the KIP-21 sequencing commitment from header version 2 on', () => {
    expect(acceptedRootMeaning(1).label).toBe('Accepted id merkle root');
    expect(acceptedRootMeaning(2).label).toMatch(/KIP-21/);
  });
});
