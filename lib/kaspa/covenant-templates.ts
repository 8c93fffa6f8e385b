/**
 * Covenant templates: P2SH state machines whose redeem script enforces its own successor with the Toccata
 * introspection and covenant opcodes (KIP-17/KIP-20), for the devnet's traffic and tests.
 *
 * A state is `count` (u64) and the owner's x-only key, held in the redeem script's 42-byte prefix
 * `OP_DATA_8 <count u64le> OP_DATA_32 <owner>`; the rest of the script (the body) is fixed per template. Spending a
 * state requires the owner's Schnorr signature and, to continue, outputs that this input authorizes (bound to the
 * same covenant id) paying to the P2SH of `prefix(count + 1) ‖ body` and carrying at least input amount − `maxFee`.
 * The body finds its own bytes as the tail of the input's signature script (the redeem script is its last push), so
 * the successor is rebuilt and hashed on chain rather than trusted from the spender.
 *
 * - counter: exactly one successor, forever.
 * - vault: one successor while count < `endAfter`; at `endAfter` it can only end: no authorized output, and output 0
 *   pays the owner's plain P2PK script (the end of the lineage).
 * - split: one or two successors (KIP-20 lets one covenant input authorize several outputs of its id), each paying to
 *   the next state, together carrying at least input − `maxFee`.
 *
 * API:
 *   counterTemplate(owner, { maxFee }) / vaultTemplate(owner, { maxFee, endAfter }) / splitTemplate(owner, { maxFee })
 *   covenantRedeemScript(template, count) → redeem script; covenantScriptPublicKey(template, count) → its P2SH
 *   buildCovenantGenesis({ template, funding, amount, fee, privateKey }) → { tx, covenantId, utxo }
 *   buildCovenantContinuation({ template, utxo, amounts?, fee, privateKey }) → { tx, utxos }
 *   buildCovenantEnd({ template, utxo, fee, privateKey }) → { tx }
 *   signCovenantInput(tx, entries, inputIndex, template, count, privateKey) → tx with signature script and budget
 * Every built transaction is version 1 with each input's compute budget set to cover the script units it uses
 * (measured by running the engine), and is valid under `executeInputScripts({ ..., toccata: true })`.
 */
import { payToPublicKeyScript, payToScriptHashScript } from './address';
import { concatBytes } from './bytes';
import { populateGenesisCovenants } from './covenant';
import { coveringComputeBudget, transactionStorageMass } from './mass';
import { encodeScriptNumber, measureInputScriptUnits } from './script-engine';
import * as op from './script-parse';
import { calcSchnorrSignatureHash, SIG_HASH_ALL } from './sighash';
import { p2pkSignatureScript, schnorrPublicKey, signSchnorr } from './signing';
import { transactionId, TX_VERSION_TOCCATA } from './transaction';
import { SUBNETWORK_ID_NATIVE, type Hash, type Outpoint, type ScriptPublicKey, type Transaction, type UtxoEntry } from './types';

export type CovenantKind = 'counter' | 'vault' | 'split';

export interface CovenantTemplate {
  kind: CovenantKind;
  /** The owner's 32-byte x-only Schnorr key. */
  owner: Uint8Array;
  /** The most a continuation may take from the covenant's value (its fee). */
  maxFee: bigint;
  /** vault: the count from which the lineage may end. */
  endAfter?: number;
}

/** A covenant output ready to spend: where it is, what it holds, and its state's count. */
export interface CovenantUtxo {
  outpoint: Outpoint;
  entry: UtxoEntry;
  count: number;
}

/** A plain P2PK output of the owner that funds a genesis. */
export interface FundingUtxo {
  outpoint: Outpoint;
  entry: UtxoEntry;
}

export const counterTemplate = (owner: Uint8Array, options: { maxFee: bigint }): CovenantTemplate => ({
  kind: 'counter',
  owner,
  maxFee: options.maxFee,
});

export const vaultTemplate = (owner: Uint8Array, options: { maxFee: bigint; endAfter: number }): CovenantTemplate => ({
  kind: 'vault',
  owner,
  maxFee: options.maxFee,
  endAfter: options.endAfter,
});

export const splitTemplate = (owner: Uint8Array, options: { maxFee: bigint }): CovenantTemplate => ({
  kind: 'split',
  owner,
  maxFee: options.maxFee,
});

function pushData(data: Uint8Array): Uint8Array {
  if (data.length === 0) return Uint8Array.of(op.OP_FALSE);
  if (data.length <= op.OP_DATA_75) return concatBytes(Uint8Array.of(data.length), data);
  if (data.length <= 0xff) return concatBytes(Uint8Array.of(op.OP_PUSHDATA1, data.length), data);
  return concatBytes(Uint8Array.of(op.OP_PUSHDATA2, data.length & 0xff, data.length >> 8), data);
}

const pushNumber = (value: bigint) => pushData(encodeScriptNumber(value));

function u64le(value: number): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(value), true);
  return bytes;
}

function statePrefix(count: number, owner: Uint8Array): Uint8Array {
  if (owner.length !== 32) throw new RangeError(`an owner key is 32 bytes, got ${owner.length}`);
  return concatBytes(Uint8Array.of(8), u64le(count), Uint8Array.of(32), owner);
}

const bytes = (...parts: (number | Uint8Array)[]) =>
  concatBytes(...parts.map((part) => (typeof part === 'number' ? Uint8Array.of(part) : part)));

/** [count] alt:[owner] → [E], E the script-public-key bytes of P2SH(prefix(count + 1) ‖ body). */
function successorSpk(bodyLength: Uint8Array): Uint8Array {
  return bytes(
    op.OP_1ADD, 0x58, op.OP_NUM2BIN,
    pushData(Uint8Array.of(8)), op.OP_SWAP, op.OP_CAT,
    pushData(Uint8Array.of(32)), op.OP_CAT, op.OP_FROMALTSTACK, op.OP_CAT,
    op.OP_TX_INPUT_INDEX, op.OP_TX_INPUT_INDEX, op.OP_TX_INPUT_SCRIPT_SIG_LEN,
    op.OP_DUP, 0x02, bodyLength, op.OP_SUB, op.OP_SWAP,
    op.OP_TX_INPUT_SCRIPT_SIG_SUBSTR, op.OP_CAT,
    op.OP_BLAKE2B, pushData(Uint8Array.of(0, 0, op.OP_BLAKE2B, 32)), op.OP_SWAP, op.OP_CAT, pushData(Uint8Array.of(op.OP_EQUAL)), op.OP_CAT,
  );
}

/** [E] → [sum of the authorized outputs' amounts], each output's script public key checked against E. */
function successorOutputs(maxSplit: 1 | 2): Uint8Array {
  const checkOutput = (k: number, depthOfE: number) =>
    bytes(op.OP_TX_INPUT_INDEX, op.OP_FALSE + (k === 0 ? 0 : 0x50 + k), op.OP_AUTH_OUTPUT_IDX,
      op.OP_DUP, op.OP_TX_OUTPUT_SPK, 0x50 + depthOfE, op.OP_PICK, op.OP_EQUALVERIFY, op.OP_TX_OUTPUT_AMOUNT);
  if (maxSplit === 1) {
    return bytes(
      op.OP_TX_INPUT_INDEX, op.OP_AUTH_OUTPUT_COUNT, op.OP_TRUE, op.OP_NUMEQUALVERIFY,
      checkOutput(0, 2), op.OP_NIP,
    );
  }
  return bytes(
    op.OP_TX_INPUT_INDEX, op.OP_AUTH_OUTPUT_COUNT,
    op.OP_DUP, op.OP_TRUE, 0x53, op.OP_WITHIN, op.OP_VERIFY,
    checkOutput(0, 3),
    op.OP_OVER, 0x52, op.OP_NUMEQUAL, op.OP_IF, checkOutput(1, 4), op.OP_ADD, op.OP_ENDIF,
    op.OP_NIP, op.OP_NIP,
  );
}

/** The template's body: everything after the state prefix. */
function templateBody(template: CovenantTemplate): Uint8Array {
  const build = (bodyLength: Uint8Array) => {
    const owner = bytes(op.OP_DUP, op.OP_TOALTSTACK, op.OP_ROT, op.OP_SWAP, op.OP_CHECKSIGVERIFY);
    const amountCheck = bytes(op.OP_TX_INPUT_INDEX, op.OP_TX_INPUT_AMOUNT, pushNumber(template.maxFee), op.OP_SUB, op.OP_GREATERTHANOREQUAL);
    const continuation = bytes(successorSpk(bodyLength), successorOutputs(template.kind === 'split' ? 2 : 1), amountCheck);
    if (template.kind !== 'vault') return bytes(owner, continuation);
    const ownerP2pk = bytes(
      pushData(Uint8Array.of(0, 0, 32)), op.OP_FROMALTSTACK, op.OP_CAT, pushData(Uint8Array.of(op.OP_CHECKSIG)), op.OP_CAT,
      op.OP_FALSE, op.OP_TX_OUTPUT_SPK, op.OP_EQUAL,
    );
    const end = bytes(op.OP_DROP, op.OP_TX_INPUT_INDEX, op.OP_AUTH_OUTPUT_COUNT, op.OP_FALSE, op.OP_NUMEQUALVERIFY, ownerP2pk);
    return bytes(
      owner, op.OP_DUP, pushNumber(BigInt(template.endAfter ?? 0)), op.OP_GREATERTHANOREQUAL,
      op.OP_IF, end, op.OP_ELSE, continuation, op.OP_ENDIF,
    );
  };
  const length = build(new Uint8Array(2)).length;
  return build(Uint8Array.of(length & 0xff, length >> 8));
}

/** `OP_DATA_8 <count> OP_DATA_32 <owner> ‖ body`. */
export function covenantRedeemScript(template: CovenantTemplate, count: number): Uint8Array {
  return concatBytes(statePrefix(count, template.owner), templateBody(template));
}

export function covenantScriptPublicKey(template: CovenantTemplate, count: number): ScriptPublicKey {
  return payToScriptHashScript(covenantRedeemScript(template, count));
}

function signatureOf(tx: Transaction, entries: readonly UtxoEntry[], inputIndex: number, privateKey: Uint8Array): Uint8Array {
  const hash = calcSchnorrSignatureHash(tx, inputIndex, entries, SIG_HASH_ALL);
  return Uint8Array.of(...signSchnorr(hash, privateKey), SIG_HASH_ALL);
}

/** Sets input `inputIndex`'s signature script and the smallest compute budget covering the units it uses. */
function finishInput(tx: Transaction, entries: readonly UtxoEntry[], inputIndex: number, signatureScript: Uint8Array): Transaction {
  const withScript = (computeBudget: number): Transaction => ({
    ...tx,
    inputs: tx.inputs.map((input, index) => (index === inputIndex ? { ...input, signatureScript, computeBudget } : input)),
  });
  const { execution, usedScriptUnits } = measureInputScriptUnits({ tx: withScript(0), inputIndex, entries });
  if (execution.status !== 'valid') {
    throw new Error(`input ${inputIndex} does not satisfy its script: ${JSON.stringify(execution)}`);
  }
  const budget = coveringComputeBudget(usedScriptUnits);
  if (budget === null) throw new RangeError(`input ${inputIndex} needs ${usedScriptUnits} script units, beyond any compute budget`);
  return withScript(budget);
}

/** Signs covenant input `inputIndex` (state `count`) and sets its compute budget; every other input must be final. */
export function signCovenantInput(
  tx: Transaction,
  entries: readonly UtxoEntry[],
  inputIndex: number,
  template: CovenantTemplate,
  count: number,
  privateKey: Uint8Array,
): Transaction {
  const signatureScript = concatBytes(pushData(signatureOf(tx, entries, inputIndex, privateKey)), pushData(covenantRedeemScript(template, count)));
  return finishInput(tx, entries, inputIndex, signatureScript);
}

function unsignedTransaction(inputs: readonly Outpoint[], outputs: Transaction['outputs']): Transaction {
  return {
    version: TX_VERSION_TOCCATA,
    inputs: inputs.map((previousOutpoint) => ({ previousOutpoint, signatureScript: new Uint8Array(0), sequence: 0n, sigOpCount: 0, computeBudget: 0 })),
    outputs,
    lockTime: 0n,
    subnetworkId: SUBNETWORK_ID_NATIVE,
    gas: 0n,
    payload: new Uint8Array(0),
    storageMass: 0n,
  };
}

/** Commits the storage mass (KIP-9) the spent entries give, which consensus recomputes; signatures cover it. */
function withStorageMass(tx: Transaction, entries: readonly UtxoEntry[]): Transaction {
  return { ...tx, storageMass: transactionStorageMass(tx, entries) ?? 0n };
}

function utxoOf(tx: Transaction, index: number, count: number, blockDaaScore: bigint): CovenantUtxo {
  const output = tx.outputs[index]!;
  return {
    outpoint: { transactionId: transactionId(tx), index },
    entry: { amount: output.value, scriptPublicKey: output.scriptPublicKey, blockDaaScore, isCoinbase: false, covenantId: output.covenant?.covenantId ?? null },
    count,
  };
}

/**
 * Creates a covenant at count 0 from the owner's P2PK output: output 0 carries `amount` bound to a new covenant id
 * (`populateGenesisCovenants`), output 1 returns the change, if any, to the owner.
 */
export function buildCovenantGenesis(args: {
  template: CovenantTemplate;
  funding: FundingUtxo;
  amount: bigint;
  fee: bigint;
  privateKey: Uint8Array;
  blockDaaScore?: bigint;
}): { tx: Transaction; covenantId: Hash; utxo: CovenantUtxo } {
  const { template, funding, amount, fee, privateKey } = args;
  const change = funding.entry.amount - amount - fee;
  if (change < 0n) throw new RangeError(`funding of ${funding.entry.amount} sompi cannot pay ${amount} plus a fee of ${fee}`);
  const outputs: Transaction['outputs'] = [{ value: amount, scriptPublicKey: covenantScriptPublicKey(template, 0) }];
  if (change > 0n) outputs.push({ value: change, scriptPublicKey: payToPublicKeyScript(schnorrPublicKey(privateKey)) });
  const entries = [funding.entry];
  const unsigned = withStorageMass(
    populateGenesisCovenants(unsignedTransaction([funding.outpoint], outputs), [{ authorizingInput: 0, outputs: [0] }]),
    entries,
  );
  const tx = finishInput(unsigned, entries, 0, p2pkSignatureScript(signatureOf(unsigned, entries, 0, privateKey).subarray(0, 64), SIG_HASH_ALL));
  return { tx, covenantId: tx.outputs[0]!.covenant!.covenantId, utxo: utxoOf(tx, 0, 0, args.blockDaaScore ?? 0n) };
}

/**
 * Spends `utxo` into its next state: one successor carrying input − fee, or for a split template the given `amounts`
 * (one or two, together at most input − fee's complement allows). Each successor is bound to the covenant under input 0.
 */
export function buildCovenantContinuation(args: {
  template: CovenantTemplate;
  utxo: CovenantUtxo;
  fee: bigint;
  privateKey: Uint8Array;
  amounts?: readonly bigint[];
  blockDaaScore?: bigint;
}): { tx: Transaction; utxos: CovenantUtxo[] } {
  const { template, utxo, fee, privateKey } = args;
  const covenantId = utxo.entry.covenantId;
  if (!covenantId) throw new RangeError('the spent output carries no covenant id');
  const amounts = args.amounts ?? [utxo.entry.amount - fee];
  const next = utxo.count + 1;
  const outputs = amounts.map((value) => ({
    value,
    scriptPublicKey: covenantScriptPublicKey(template, next),
    covenant: { authorizingInput: 0, covenantId },
  }));
  const unsigned = withStorageMass(unsignedTransaction([utxo.outpoint], outputs), [utxo.entry]);
  const tx = signCovenantInput(unsigned, [utxo.entry], 0, template, utxo.count, privateKey);
  return { tx, utxos: amounts.map((_, index) => utxoOf(tx, index, next, args.blockDaaScore ?? 0n)) };
}

/** Ends a vault lineage: input − fee to the owner's P2PK script, no covenant output. */
export function buildCovenantEnd(args: { template: CovenantTemplate; utxo: CovenantUtxo; fee: bigint; privateKey: Uint8Array }): {
  tx: Transaction;
} {
  const { template, utxo, fee, privateKey } = args;
  const outputs = [{ value: utxo.entry.amount - fee, scriptPublicKey: payToPublicKeyScript(template.owner) }];
  const unsigned = withStorageMass(unsignedTransaction([utxo.outpoint], outputs), [utxo.entry]);
  return { tx: signCovenantInput(unsigned, [utxo.entry], 0, template, utxo.count, privateKey) };
}
