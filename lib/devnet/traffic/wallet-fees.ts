/**
 * The devnet wallets' fee policy: what a transaction pays for its masses, and the smallest output amount the storage
 * mass tolerates. Invariant: requiredFee is at least kaspad 2.0.1's RPC relay fee floor and at least the policy's
 * feerate over the largest mass dimension, so a transaction paying it is standard in every Toccata mode.
 */
import { MINIMUM_RELAY_FEE_SOMPI_PER_KG, STORAGE_MASS_PARAMETER } from '../../kaspa/mass';
import { MAXIMUM_STANDARD_TRANSACTION_MASS_PRE_TOCCATA, relayFeeFloor } from '../mempool/mempool-policy';

export interface FeePolicy {
  /**
   * Sompi per 1000 grams of the relay fee floor's mass, max(compute, 2 × bytes): kaspad 2.0.1's 100,000 for every
   * RPC submission, whether Toccata is active or not.
   */
  minimumRelayFeeSompiPerKg: bigint;
  /**
   * Sompi per gram of the transaction's largest mass dimension, never less than the mempool's feerate measure (the
   * normalized mass), so a fee at this rate is at least this feerate to the mempool in every mode.
   */
  feerate: number;
}

export const DEFAULT_FEE_POLICY: Readonly<FeePolicy> = Object.freeze({
  minimumRelayFeeSompiPerKg: MINIMUM_RELAY_FEE_SOMPI_PER_KG,
  feerate: 1,
});

export interface ResolvedMasses {
  compute: bigint;
  transient: bigint;
  storage: bigint;
}

export function largestMass(masses: ResolvedMasses): bigint {
  const { compute, transient, storage } = masses;
  const larger = compute > transient ? compute : transient;
  return larger > storage ? larger : storage;
}

/** max(the RPC relay fee floor, ⌈feerate × largest mass⌉). */
export function requiredFee(masses: ResolvedMasses, policy: FeePolicy = DEFAULT_FEE_POLICY): bigint {
  const relayFee = relayFeeFloor(masses, 'toccata', policy.minimumRelayFeeSompiPerKg).minimumFee;
  const rateFee = BigInt(Math.ceil(policy.feerate * Number(largestMass(masses))));
  return relayFee > rateFee ? relayFee : rateFee;
}

/**
 * The smallest amount that keeps the KIP-9 output term of `outputCount` such outputs within half the pre-Toccata
 * standard mass cap (C / amount each, P2PK outputs having plurality 1), whatever the inputs are.
 */
export function storageSafeAmount(outputCount: number): bigint {
  const count = BigInt(Math.max(1, outputCount));
  const half = MAXIMUM_STANDARD_TRANSACTION_MASS_PRE_TOCCATA / 2n;
  return (count * STORAGE_MASS_PARAMETER + half - 1n) / half;
}
