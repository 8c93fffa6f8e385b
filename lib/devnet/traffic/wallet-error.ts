/** The reasons a devnet wallet cannot build, replace or spend as asked; the traffic tells them apart by `code`. */
export type WalletErrorCode =
  | 'insufficient_funds'
  | 'lane_needs_version_1'
  | 'non_positive_payment'
  | 'storage_mass'
  | 'mass_too_high'
  | 'not_spendable'
  | 'unknown_transaction'
  | 'has_descendants'
  | 'already_replacing';

export class WalletError extends Error {
  override name = 'WalletError';

  constructor(
    readonly code: WalletErrorCode,
    message: string,
  ) {
    super(message);
  }
}
