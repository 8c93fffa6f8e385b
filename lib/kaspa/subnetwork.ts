/**
 * KIP-21 subnetwork id shapes and the transaction rules on them (consensus/core/src/subnets.rs;
 * consensus/src/processes/transaction_validator/tx_validation_in_isolation.rs `check_transaction_subnetwork`,
 * `check_gas`). A subnetwork id is also the id of the sequencing lane its transactions belong to.
 *
 * - `[x, 0×19]` is a reserved system id: only native (x = 0) and coinbase (x = 1) are valid, at every version.
 * - `[namespace (4 bytes), 0×16]` with a namespace that is not `[x, 0, 0, 0]` is a user lane, valid from version 1.
 * - Every other shape is invalid.
 */
import { TX_VERSION_TOCCATA } from './transaction';
import { SUBNETWORK_ID_SIZE } from './types';

export const SUBNETWORK_NAMESPACE_LENGTH = 4;
export const SUBNETWORK_ZERO_TAIL_LENGTH = SUBNETWORK_ID_SIZE - SUBNETWORK_NAMESPACE_LENGTH;

export type SubnetworkShape = 'native' | 'coinbase' | 'reserved' | 'userLane' | 'malformed';

function zeroFrom(id: Uint8Array, start: number): boolean {
  for (let i = start; i < id.length; i++) if (id[i] !== 0) return false;
  return true;
}

export function subnetworkShape(id: Uint8Array): SubnetworkShape {
  if (id.length !== SUBNETWORK_ID_SIZE) return 'malformed';
  if (zeroFrom(id, 1)) return id[0] === 0 ? 'native' : id[0] === 1 ? 'coinbase' : 'reserved';
  return zeroFrom(id, SUBNETWORK_NAMESPACE_LENGTH) ? 'userLane' : 'malformed';
}

/** Whether a transaction of `version` may name subnetwork `id` (else `SubnetworksDisabled`). */
export function isSubnetworkAllowed(id: Uint8Array, version: number): boolean {
  const shape = subnetworkShape(id);
  return shape === 'native' || shape === 'coinbase' || (shape === 'userLane' && version >= TX_VERSION_TOCCATA);
}

/**
 * Whether a transaction of `version` on subnetwork `id` may carry non-zero gas (else `TxHasGas`): only version 1
 * transactions outside the reserved `[x, 0×19]` ids.
 */
export function isGasAllowed(id: Uint8Array, version: number): boolean {
  if (version < TX_VERSION_TOCCATA) return false;
  return !zeroFrom(id, 1);
}
