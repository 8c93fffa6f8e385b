/**
 * The token traffic's transactions, built and signed with the wallets' keys: the commit/reveal pair of an op (the
 * wallet pays P2SH(envelope redeem script), the reveal spends it with `<sig> <redeem script>`), and the listing
 * spends a fill or a cancel makes. Invariant: a transaction is signed only after its storage-mass commitment is set,
 * over signature scripts sized as the signed ones will be, so the masses returned are the masses kaspad computes;
 * what cannot be funded or paid for now throws CannotPlanNow and changes nothing.
 */
import { SOMPI_PER_KAS as KAS } from '../../kaspa/amount';
import { bytesToHex } from '../../kaspa/bytes';
import { computeMass, transactionStorageMass, transientMass } from '../../kaspa/mass';
import { calcSchnorrSignatureHash, SIG_HASH_ALL, SigHashReusedValues } from '../../kaspa/sighash';
import { p2pkSignatureScript, signSchnorr } from '../../kaspa/signing';
import { transactionId } from '../../kaspa/transaction';
import { SUBNETWORK_ID_NATIVE, type Outpoint, type Transaction, type TransactionOutput, type UtxoEntry } from '../../kaspa/types';
import { buildRedeemScript, commitScriptPublicKey, pushData, signRevealInput } from '../../tokens/envelope';
import {
  deriveWalletPrivateKey,
  P2PK_SIGNATURE_SCRIPT_LENGTH,
  requiredFee,
  WalletError,
  type BuiltTransaction,
  type SpendableUtxo,
  type Wallet,
  type WalletSet,
} from './wallet';

/** What each non-deploy, non-mint reveal leaves to the miner; far above the RPC relay fee floor of its ~2,000 grams. */
export const REVEAL_FEE = 1_000_000n;
/** The reveal's one output back to the sender, and the amount a listing UTXO holds. */
export const REVEAL_OUTPUT = KAS;

/** A plan cannot be made now (funds, fees, mass); the scenario tries again later or makes another. */
export class CannotPlanNow extends Error {}

export interface TokenSubmission {
  wallet: Wallet;
  built: BuiltTransaction;
  /** Whether `wallet` spends its own UTXOs here (the commit, the buyer's side of a fill) and should track it. */
  walletFunded: boolean;
}

export interface InputPlan {
  outpoint: Outpoint;
  entry: UtxoEntry;
  signatureScriptLength: number;
  sign: (tx: Transaction, index: number, entries: readonly UtxoEntry[], reused: SigHashReusedValues) => Uint8Array;
}

export interface CommitReveal {
  /** The commit, then the reveal chained on it. */
  submissions: TokenSubmission[];
  reveal: BuiltTransaction;
  redeemScript: Uint8Array;
}

export interface TokenTransactionsOptions {
  wallets: WalletSet;
  /** The wallet set's seed: reveals and fills are signed with the wallets' keys. */
  seed: Uint8Array | string;
  usable: (wallet: Wallet) => SpendableUtxo[];
}

export interface TokenTransactions {
  /** Sets the storage-mass commitment, signs every input, and returns the transaction with its masses. */
  assemble(inputs: readonly InputPlan[], outputs: TransactionOutput[]): { transaction: Transaction; masses: BuiltTransaction['masses'] };
  /** An input spending a P2SH(redeem script) output, signed by `signer` with `hashType`. */
  envelopeInput(signer: Wallet, outpoint: Outpoint, entry: UtxoEntry, redeemScript: Uint8Array, hashType?: number): InputPlan;
  /** An input spending one of `owner`'s P2PK outputs. */
  walletInput(owner: Wallet, utxo: SpendableUtxo): InputPlan;
  builtOf(
    transaction: Transaction,
    masses: BuiltTransaction['masses'],
    fee: bigint,
    inputs?: SpendableUtxo[],
    change?: SpendableUtxo | null,
  ): BuiltTransaction;
  /**
   * The commit (the wallet pays P2SH(redeem) enough for the reveal's outputs and fee) and the reveal spending it.
   * Throws CannotPlanNow when the wallet cannot fund it now.
   */
  commitReveal(signer: Wallet, op: Record<string, string>, feeFloor: bigint, revealOutputs?: TransactionOutput[]): CommitReveal;
}

export function createTokenTransactions(options: TokenTransactionsOptions): TokenTransactions {
  const { wallets, usable } = options;
  const backend = wallets.secp256k1;
  const privateKeys = new Map<Wallet, Uint8Array>();
  for (const wallet of wallets.wallets) {
    const key = deriveWalletPrivateKey(options.seed, wallet.index);
    const publicKey = backend.schnorrPublicKey(key);
    if (bytesToHex(publicKey) !== bytesToHex(wallet.publicKey)) throw new RangeError('the seed does not derive these wallets');
    privateKeys.set(wallet, key);
  }

  const emptyTransaction = (outputs: TransactionOutput[]): Transaction => ({
    version: 0,
    inputs: [],
    outputs,
    lockTime: 0n,
    subnetworkId: SUBNETWORK_ID_NATIVE,
    gas: 0n,
    payload: new Uint8Array(0),
    storageMass: 0n,
  });

  const assemble: TokenTransactions['assemble'] = (inputs, outputs) => {
    const entries = inputs.map((input) => input.entry);
    const base = emptyTransaction(outputs);
    const unsigned: Transaction = {
      ...base,
      inputs: inputs.map((input) => ({ previousOutpoint: input.outpoint, signatureScript: new Uint8Array(0), sequence: 0n, sigOpCount: 1 })),
    };
    const sized: Transaction = {
      ...unsigned,
      inputs: unsigned.inputs.map((input, index) => ({ ...input, signatureScript: new Uint8Array(inputs[index]!.signatureScriptLength) })),
    };
    const storage = transactionStorageMass(sized, entries);
    if (storage === null) throw new CannotPlanNow();
    const masses = { compute: computeMass(sized), transient: transientMass(sized), storage };
    const withMass: Transaction = { ...unsigned, storageMass: storage };
    const reused = new SigHashReusedValues(withMass);
    const transaction: Transaction = {
      ...withMass,
      inputs: withMass.inputs.map((input, index) => ({ ...input, signatureScript: inputs[index]!.sign(withMass, index, entries, reused) })),
    };
    return { transaction, masses };
  };

  const revealSignatureLength = (redeemScript: Uint8Array) => 1 + 65 + pushData(redeemScript).length;
  const envelopeInput: TokenTransactions['envelopeInput'] = (signer, outpoint, entry, redeemScript, hashType = SIG_HASH_ALL) => ({
    outpoint,
    entry,
    signatureScriptLength: revealSignatureLength(redeemScript),
    sign: (tx, index, entries, reusedValues) =>
      signRevealInput(tx, index, privateKeys.get(signer)!, entries, redeemScript, { hashType: hashType as typeof SIG_HASH_ALL, reusedValues, backend }),
  });
  const walletInput: TokenTransactions['walletInput'] = (owner, utxo) => ({
    outpoint: utxo.outpoint,
    entry: utxo.entry,
    signatureScriptLength: P2PK_SIGNATURE_SCRIPT_LENGTH,
    sign: (tx, index, entries, reusedValues) => {
      const hash = calcSchnorrSignatureHash(tx, index, entries, SIG_HASH_ALL, reusedValues);
      return p2pkSignatureScript(signSchnorr(hash, privateKeys.get(owner)!, undefined, backend), SIG_HASH_ALL);
    },
  });
  const builtOf: TokenTransactions['builtOf'] = (transaction, masses, fee, inputs = [], change = null) => ({
    transaction,
    id: bytesToHex(transactionId(transaction)),
    inputs,
    payments: transaction.outputs.map((output) => ({ scriptPublicKey: output.scriptPublicKey, amount: output.value })),
    payload: transaction.payload,
    fee,
    masses,
    change,
  });

  const commitReveal: TokenTransactions['commitReveal'] = (
    signer,
    op,
    feeFloor,
    revealOutputs = [{ value: REVEAL_OUTPUT, scriptPublicKey: signer.scriptPublicKey }],
  ) => {
    const redeemScript = buildRedeemScript(signer.publicKey, op);
    const commitSpk = commitScriptPublicKey(redeemScript);
    const fee = feeFloor > REVEAL_FEE ? feeFloor : REVEAL_FEE;
    const commitAmount = revealOutputs.reduce((sum, output) => sum + output.value, 0n) + fee;
    let commit: BuiltTransaction;
    try {
      commit = signer.buildTransaction({ candidates: usable(signer), payments: [{ to: commitSpk, amount: commitAmount }] });
    } catch (error) {
      if (error instanceof WalletError) throw new CannotPlanNow();
      throw error;
    }
    const entry: UtxoEntry = { amount: commitAmount, scriptPublicKey: commitSpk, blockDaaScore: wallets.virtualDaaScore(), isCoinbase: false };
    const outpoint = { transactionId: transactionId(commit.transaction), index: 0 };
    const { transaction, masses } = assemble([envelopeInput(signer, outpoint, entry, redeemScript)], revealOutputs);
    if (requiredFee(masses, wallets.feePolicy) > fee) throw new CannotPlanNow();
    const reveal = builtOf(transaction, masses, fee);
    return {
      submissions: [
        { wallet: signer, built: commit, walletFunded: true },
        { wallet: signer, built: reveal, walletFunded: false },
      ],
      reveal,
      redeemScript,
    };
  };

  return { assemble, envelopeInput, walletInput, builtOf, commitReveal };
}
