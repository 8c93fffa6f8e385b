/**
 * The devnet bootstrap: a clearly labelled premine committed at genesis, so the traffic wallets can spend from the first
 * block instead of waiting the coinbase maturity (1000 DAA, 100 s) for their first mined rewards.
 *
 * rusty-kaspa's genesis commits its UTXO set in the header (utxoCommitment, a MuHash); every network's genesis commits
 * the empty set, but a node that starts from a pruning point imports that block's UTXO set and checks it against the
 * header's commitment (virtual_processor `import_pruning_point_utxo_set`). The devnet's genesis does the same with a
 * non-empty set: the outputs of the bootstrap transaction below, at DAA score 0, not coinbase (so no maturity applies;
 * `DEVNET_COINBASE_MATURITY` still governs every mined reward). The bootstrap transaction is never in a block: its id
 * names the outpoints, as a pruning point's imported outpoints name transactions the node never saw.
 */
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { SOMPI_PER_KAS } from '../../kaspa/amount';
import { EMPTY_MUHASH, MuHash } from '../../kaspa/muhash';
import { transactionId } from '../../kaspa/transaction';
import { SUBNETWORK_ID_NATIVE, type Hash, type ScriptPublicKey, type Transaction, type TransactionOutput, type UtxoEntry } from '../../kaspa/types';
import type { UtxoChange } from '../consensus/consensus';

/** The payload that labels the bootstrap transaction (shown wherever its outputs are explained). */
export const BOOTSTRAP_LABEL = 'dagboard devnet bootstrap';
/** Outputs per funded wallet: enough for the traffic's minimum UTXOs per wallet before the first split. */
export const BOOTSTRAP_OUTPUTS_PER_WALLET = 16;
/** 1,000 KAS per output: one wallet's outputs cover a KRC-20 deploy fee, a mint and covenant geneses. */
export const BOOTSTRAP_OUTPUT_AMOUNT = 1_000n * SOMPI_PER_KAS;

export interface BootstrapOutput {
  amount: bigint;
  scriptPublicKey: ScriptPublicKey;
}

/** Each script receives BOOTSTRAP_OUTPUTS_PER_WALLET outputs of BOOTSTRAP_OUTPUT_AMOUNT, in the given order. */
export function bootstrapOutputsFor(scripts: readonly ScriptPublicKey[]): BootstrapOutput[] {
  return scripts.flatMap((scriptPublicKey) =>
    Array.from({ length: BOOTSTRAP_OUTPUTS_PER_WALLET }, () => ({ amount: BOOTSTRAP_OUTPUT_AMOUNT, scriptPublicKey })),
  );
}

export function bootstrapTransaction(outputs: readonly BootstrapOutput[]): Transaction {
  const txOutputs: TransactionOutput[] = outputs.map(({ amount, scriptPublicKey }) => ({ value: amount, scriptPublicKey }));
  return {
    version: 0,
    inputs: [],
    outputs: txOutputs,
    lockTime: 0n,
    subnetworkId: SUBNETWORK_ID_NATIVE,
    gas: 0n,
    payload: utf8ToBytes(BOOTSTRAP_LABEL),
    storageMass: 0n,
  };
}

export interface DevnetBootstrap {
  /** The bootstrap transaction's id: the transaction id of every bootstrap outpoint. */
  transactionId: Hash;
  utxos: UtxoChange[];
  /** The genesis header's utxoCommitment: MuHash of `utxos`. */
  utxoCommitment: Hash;
  totalSompi: bigint;
}

export function createDevnetBootstrap(outputs: readonly BootstrapOutput[]): DevnetBootstrap {
  if (outputs.length === 0) return { transactionId: new Uint8Array(32), utxos: [], utxoCommitment: EMPTY_MUHASH, totalSompi: 0n };
  const id = transactionId(bootstrapTransaction(outputs));
  const utxos = outputs.map(({ amount, scriptPublicKey }, index): UtxoChange => {
    const entry: UtxoEntry = { amount, scriptPublicKey, blockDaaScore: 0n, isCoinbase: false, covenantId: null };
    return { outpoint: { transactionId: id, index }, entry };
  });
  return {
    transactionId: id,
    utxos,
    utxoCommitment: utxoSetCommitment(utxos),
    totalSompi: outputs.reduce((sum, { amount }) => sum + amount, 0n),
  };
}

/** MuHash of a UTXO set, as a header's utxoCommitment. */
export function utxoSetCommitment(utxos: readonly UtxoChange[]): Hash {
  const multiset = new MuHash();
  for (const { outpoint, entry } of utxos) multiset.addUtxo(outpoint, entry);
  return multiset.finalize();
}
