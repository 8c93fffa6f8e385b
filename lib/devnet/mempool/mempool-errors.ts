/**
 * Mempool rejections with kaspad's exact text: `RuleError` and `NonStandardError` of rusty-kaspa v2.0.1
 * mining/errors/src/mempool.rs. The RPC layer sends `Rejected transaction <id>: <message>`
 * (rpc/core/src/error.rs `RpcError::RejectedTransaction`).
 */
import { bytesToHex } from '../../kaspa/bytes';
import type { Hash, Outpoint } from '../../kaspa/types';
import { formatOutpoint, TxRuleError } from '../consensus/transaction-validator';

export type MempoolRuleErrorKind =
  | 'RejectTxRule'
  | 'RejectMissingOutpoint'
  | 'RejectImpossibleOutpoint'
  | 'RejectAlreadyAccepted'
  | 'RejectDuplicate'
  | 'RejectDoubleSpendInMempool'
  | 'RejectRbfNoDoubleSpend'
  | 'RejectRbfTooManyDoubleSpendingTransactions'
  | 'RejectMempoolIsFull'
  | 'RejectNonStandard'
  | 'RejectComputeMass'
  | 'RejectTransientMass'
  | 'RejectStorageMass'
  | 'RejectGas'
  | 'RejectImmatureSpend'
  | 'RejectMissingTransaction'
  | 'RejectBadOrphanMass'
  | 'RejectDuplicateOrphan'
  | 'RejectDoubleSpendOrphan'
  | 'RejectDisallowedOrphan'
  | 'RejectMissingOrphanOutpoint'
  | 'RejectMissingOrphanTransaction'
  | 'RejectOrphanPoolIsFull';

export class MempoolRuleError extends Error {
  override name = 'MempoolRuleError';

  constructor(
    readonly kind: MempoolRuleErrorKind,
    message: string,
    /** The consensus rule behind `RejectTxRule` and `RejectImmatureSpend`. */
    readonly txRule?: TxRuleError,
  ) {
    super(message);
  }
}

const hex = (id: Hash | string) => (typeof id === 'string' ? id : bytesToHex(id));

export const ruleErrors = {
  missingOutpoint: () =>
    new MempoolRuleError('RejectMissingOutpoint', 'at least one outpoint of the transaction is lacking a matching UTXO entry'),
  impossibleOutpoint: () =>
    new MempoolRuleError(
      'RejectImpossibleOutpoint',
      'at least one outpoint of the transaction is impossible to have a matching UTXO entry',
    ),
  alreadyAccepted: (id: Hash | string) =>
    new MempoolRuleError('RejectAlreadyAccepted', `transaction ${hex(id)} was already accepted by the consensus`),
  duplicate: (id: Hash | string) => new MempoolRuleError('RejectDuplicate', `transaction ${hex(id)} is already in the mempool`),
  doubleSpendInMempool: (outpoint: Outpoint, owner: Hash | string) =>
    new MempoolRuleError(
      'RejectDoubleSpendInMempool',
      `output ${formatOutpoint(outpoint)} already spent by transaction ${hex(owner)} in the mempool`,
    ),
  rbfNoDoubleSpend: () =>
    new MempoolRuleError('RejectRbfNoDoubleSpend', 'replace by fee found no double spending transaction in the mempool'),
  rbfTooManyDoubleSpendingTransactions: () =>
    new MempoolRuleError(
      'RejectRbfTooManyDoubleSpendingTransactions',
      'replace by fee found more than one double spending transaction in the mempool',
    ),
  mempoolIsFull: () =>
    new MempoolRuleError(
      'RejectMempoolIsFull',
      "transaction could not be added to the mempool because it's full with transactions with higher priority",
    ),
  nonStandard: (id: Hash | string, reason: string) =>
    new MempoolRuleError('RejectNonStandard', `transaction ${hex(id)} is not standard: ${reason}`),
  computeMass: (mass: bigint, maximum: bigint) => new MempoolRuleError('RejectComputeMass', nonStandardReasons.computeMass(mass, maximum)),
  transientMass: (mass: bigint, maximum: bigint) =>
    new MempoolRuleError('RejectTransientMass', nonStandardReasons.transientMass(mass, maximum)),
  storageMass: (mass: bigint, maximum: bigint) => new MempoolRuleError('RejectStorageMass', nonStandardReasons.storageMass(mass, maximum)),
  gas: (gas: bigint, maximum: bigint) =>
    new MempoolRuleError('RejectGas', `transaction gas of ${gas} is larger than max allowed per-lane gas of ${maximum}`),
  missingTransaction: (id: Hash | string) =>
    new MempoolRuleError('RejectMissingTransaction', `transaction ${hex(id)} doesn't exist in transaction pool`),
  badOrphanMass: (mass: bigint, maximum: bigint) =>
    new MempoolRuleError(
      'RejectBadOrphanMass',
      `orphan transaction size of ${mass} bytes is larger than max allowed size of ${maximum} bytes`,
    ),
  duplicateOrphan: (id: Hash | string) =>
    new MempoolRuleError('RejectDuplicateOrphan', `orphan transaction ${hex(id)} is already in the orphan pool`),
  doubleSpendOrphan: (id: Hash | string, other: Hash | string) =>
    new MempoolRuleError(
      'RejectDoubleSpendOrphan',
      `orphan transaction ${hex(id)} is double spending an input from already existing orphan ${hex(other)}`,
    ),
  disallowedOrphan: (id: Hash | string) =>
    new MempoolRuleError('RejectDisallowedOrphan', `transaction ${hex(id)} is an orphan where orphan is disallowed`),
  missingOrphanOutpoint: (inputIndex: number, id: Hash | string, outpoint: Outpoint) =>
    new MempoolRuleError(
      'RejectMissingOrphanOutpoint',
      `input No. ${inputIndex} of ${hex(id)} (${formatOutpoint(outpoint)}) doesn't exist in orphan_ids_by_previous_outpoint`,
    ),
  missingOrphanTransaction: (id: Hash | string) =>
    new MempoolRuleError('RejectMissingOrphanTransaction', `transaction ${hex(id)} doesn't exist in orphan pool`),
  orphanPoolIsFull: (count: number, maximum: number) =>
    new MempoolRuleError(
      'RejectOrphanPoolIsFull',
      `number of high-priority transactions in orphan pool (${count}) has reached the maximum allowed (${maximum})`,
    ),
};

/** `NonStandardError` reasons (the part after "is not standard: "). */
export const nonStandardReasons = {
  computeMass: (mass: bigint, maximum: bigint) => `transaction compute mass of ${mass} is larger than max allowed size of ${maximum}`,
  transientMass: (mass: bigint, maximum: bigint) =>
    `transaction transient (storage) mass of ${mass} is larger than max allowed size of ${maximum}`,
  storageMass: (mass: bigint, maximum: bigint) => `transaction storage mass of ${mass} is larger than max allowed size of ${maximum}`,
  scriptPublicKeyVersion: (outputIndex: number) =>
    `transaction output #${outputIndex}: the version of the scriptPublicKey is higher than the known version`,
  outputScriptClass: (outputIndex: number) => `transaction output #${outputIndex}: non-standard script form`,
  inputScriptClass: (inputIndex: number) => `transaction input ${inputIndex}: non-standard script form`,
  signatureCount: (inputIndex: number, count: number, maximum: number) =>
    `transaction input #${inputIndex} has ${count} signature operations which is more than the allowed max amount of ${maximum}`,
  insufficientComputeFee: (fee: bigint, minimum: bigint, computeMass: bigint) =>
    `transaction has ${fee} fees which is under the required amount of ${minimum} for compute mass ${computeMass}`,
  insufficientTransientFee: (fee: bigint, minimum: bigint, normalizedTransientMass: bigint) =>
    `transaction has ${fee} fees which is under the required amount of ${minimum} for normalized transient mass ` +
    `${normalizedTransientMass} (proportional to transaction byte size)`,
};

/**
 * `impl From<TxRuleError> for RuleError`: an immature coinbase spend and missing outpoints get their own variants,
 * everything else is passed through. A script this node cannot execute is rejected as a non-standard input.
 */
export function mempoolErrorFromTxRule(error: TxRuleError, transactionId: Hash | string): MempoolRuleError {
  switch (error.kind) {
    case 'ImmatureCoinbaseSpend':
      return new MempoolRuleError(
        'RejectImmatureSpend',
        `one of the transaction inputs spends an immature UTXO: ${error.message}`,
        error,
      );
    case 'MissingTxOutpoints':
      return ruleErrors.missingOutpoint();
    case 'UnsupportedScript':
      return ruleErrors.nonStandard(transactionId, nonStandardReasons.inputScriptClass(error.inputIndex ?? 0));
    default:
      return new MempoolRuleError('RejectTxRule', error.message, error);
  }
}
