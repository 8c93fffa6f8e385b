/**
 * Composing a devnet wallet's transaction before it is signed: the inputs given, the payments, and change back to the
 * wallet when the remainder is large enough not to blow the storage mass (otherwise the remainder becomes fee), with
 * a fee found by re-measuring until it covers the masses it pays for. Invariant: the masses are measured with
 * signature scripts of the signed length, so the fee composed is the fee the signed transaction needs; a composition
 * that succeeds is within the pre-Toccata standard mass cap.
 */
import { computeMass, coveringComputeBudget, SCRIPT_UNITS_PER_SIG_OP, transactionStorageMass, transientMass } from '../../kaspa/mass';
import { SUBNETWORK_ID_NATIVE, type Outpoint, type ScriptPublicKey, type Transaction, type TransactionOutput, type UtxoEntry } from '../../kaspa/types';
import { MAXIMUM_STANDARD_TRANSACTION_MASS_PRE_TOCCATA } from '../mempool/mempool-policy';
import { WalletError } from './wallet-error';
import { requiredFee, storageSafeAmount, type FeePolicy, type ResolvedMasses } from './wallet-fees';

/** OP_DATA_65 ‖ 64-byte Schnorr signature ‖ sighash type. */
export const P2PK_SIGNATURE_SCRIPT_LENGTH = 66;
/** rusty-kaspa's signer sets one sig op per P2PK input; consensus checks the committed count against the script. */
export const P2PK_SIG_OP_COUNT = 1;
/** A version-1 P2PK input's compute budget: the script units of its one signature check (OP_CHECKSIG). */
export const P2PK_V1_COMPUTE_BUDGET = coveringComputeBudget(SCRIPT_UNITS_PER_SIG_OP)!;

export interface SpendableUtxo {
  outpoint: Outpoint;
  entry: UtxoEntry;
}

export interface Lane {
  subnetworkId: Uint8Array;
  gas: bigint;
}

export interface TransactionShape {
  version: 0 | 1;
  lane: Lane | null;
}

export type Composition =
  | { ok: true; tx: Transaction; fee: bigint; masses: ResolvedMasses; changeValue: bigint | null }
  | { ok: false; error: WalletError };

function placeholderSignatureScripts(tx: Transaction): Transaction {
  const placeholder = new Uint8Array(P2PK_SIGNATURE_SCRIPT_LENGTH);
  return { ...tx, inputs: tx.inputs.map((input) => ({ ...input, signatureScript: placeholder })) };
}

export function composeTransaction(
  inputs: readonly SpendableUtxo[],
  payments: readonly { scriptPublicKey: ScriptPublicKey; amount: bigint }[],
  payload: Uint8Array,
  policy: FeePolicy,
  minimumFee: bigint,
  { version, lane }: TransactionShape,
  changeTo: ScriptPublicKey,
): Composition {
  if (inputs.length === 0) return { ok: false, error: new WalletError('insufficient_funds', 'no inputs to spend') };
  const entries = inputs.map((utxo) => utxo.entry);
  const totalIn = entries.reduce((sum, entry) => sum + entry.amount, 0n);
  const paymentOutputs: TransactionOutput[] = payments.map((payment) => ({
    value: payment.amount,
    scriptPublicKey: payment.scriptPublicKey,
  }));
  const paymentTotal = paymentOutputs.reduce((sum, output) => sum + output.value, 0n);
  const unsigned = (outputs: TransactionOutput[]): Transaction => ({
    version,
    inputs: inputs.map((utxo) => ({
      previousOutpoint: utxo.outpoint,
      signatureScript: new Uint8Array(0),
      sequence: 0n,
      ...(version === 0 ? { sigOpCount: P2PK_SIG_OP_COUNT } : { sigOpCount: 0, computeBudget: P2PK_V1_COMPUTE_BUDGET }),
    })),
    outputs,
    lockTime: 0n,
    subnetworkId: lane?.subnetworkId ?? SUBNETWORK_ID_NATIVE,
    gas: lane?.gas ?? 0n,
    payload,
    storageMass: 0n,
  });
  const measure = (tx: Transaction): ResolvedMasses | WalletError => {
    const sized = placeholderSignatureScripts(tx);
    const storage = transactionStorageMass(sized, entries);
    const masses = { compute: computeMass(sized), transient: transientMass(sized), storage: storage ?? -1n };
    const cap = MAXIMUM_STANDARD_TRANSACTION_MASS_PRE_TOCCATA;
    if (masses.compute > cap || masses.transient > cap) {
      return new WalletError('mass_too_high', `compute mass ${masses.compute}, transient mass ${masses.transient}`);
    }
    if (storage === null || storage > cap) {
      return new WalletError('storage_mass', `storage mass ${storage ?? 'overflows'} exceeds the standard limit`);
    }
    return masses;
  };
  const feeFor = (masses: ResolvedMasses) => {
    const fee = requiredFee(masses, policy);
    return fee > minimumFee ? fee : minimumFee;
  };

  const changeFloor = storageSafeAmount(paymentOutputs.length + 1);
  let lastError: WalletError | null = null;
  let fee = 0n;
  for (let round = 0; round < 8; round++) {
    const changeValue = totalIn - paymentTotal - fee;
    const changeOutput = { value: changeValue, scriptPublicKey: changeTo };
    if (changeValue < changeFloor) break;
    const tx = unsigned([...paymentOutputs, changeOutput]);
    const masses = measure(tx);
    if (masses instanceof WalletError) {
      lastError = masses;
      break;
    }
    const needed = feeFor(masses);
    if (needed <= fee) return { ok: true, tx, fee, masses, changeValue };
    fee = needed;
  }

  if (paymentOutputs.length > 0) {
    const tx = unsigned(paymentOutputs);
    const masses = measure(tx);
    if (masses instanceof WalletError) return { ok: false, error: masses };
    const needed = feeFor(masses);
    const leftover = totalIn - paymentTotal;
    if (leftover >= needed && leftover - needed <= changeFloor) {
      return { ok: true, tx, fee: leftover, masses, changeValue: null };
    }
  }
  return {
    ok: false,
    error:
      lastError ??
      new WalletError('insufficient_funds', `inputs of ${totalIn} sompi cannot pay ${paymentTotal} sompi plus fee`),
  };
}
