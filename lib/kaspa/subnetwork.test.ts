import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hexToBytes } from './bytes';
import { isGasAllowed, isSubnetworkAllowed, subnetworkShape } from './subnetwork';
import { toccata } from './test-support/toccata-vectors';
import { SUBNETWORK_ID_COINBASE, SUBNETWORK_ID_NATIVE } from './types';

const { subnetworkCases, gasCases } = toccata.txRules;

describe('subnetwork shapes (tx_validation_in_isolation.rs::tests::check_transaction_subnetwork_shape)', () => {
  it.each(subnetworkCases)('$subnetworkId in version $version: allowed $allowed', (vector) => {
    expect(isSubnetworkAllowed(hexToBytes(vector.subnetworkId), vector.version)).toBe(vector.allowed);
  });

  it.each(gasCases)('$subnetworkId in version $version: gas allowed $gasAllowed', (vector) => {
    expect(isGasAllowed(hexToBytes(vector.subnetworkId), vector.version)).toBe(vector.gasAllowed);
  });

  it('classifies the system ids, user lanes and everything else', () => {
    expect(subnetworkShape(SUBNETWORK_ID_NATIVE)).toBe('native');
    expect(subnetworkShape(SUBNETWORK_ID_COINBASE)).toBe('coinbase');
    expect(subnetworkShape(hexToBytes(`02${'00'.repeat(19)}`))).toBe('reserved');
    expect(subnetworkShape(hexToBytes(`00000001${'00'.repeat(16)}`))).toBe('userLane');
    expect(subnetworkShape(hexToBytes(`0000000000${'00'.repeat(14)}01`))).toBe('malformed');
    expect(subnetworkShape(new Uint8Array(19))).toBe('malformed');
  });

  it('allows exactly native, coinbase and (from version 1) user lanes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), fc.constantFrom(0, 1), (id, version) => {
        const shape = subnetworkShape(id);
        const expected = shape === 'native' || shape === 'coinbase' || (shape === 'userLane' && version === 1);
        expect(isSubnetworkAllowed(id, version)).toBe(expected);
      }),
    );
  });
});
