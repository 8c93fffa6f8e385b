/** Builders of reveal transactions and accepted blocks for the KRC-20 tests (devnet profile, prefix kaspadev). */
import { addressToScriptPublicKey, scriptHashAddress, type AddressPrefix } from '../../kaspa/address';
import { hexToBytes } from '../../kaspa/bytes';
import { ecdsaPublicKey, schnorrPublicKey } from '../../kaspa/signing';
import { SUBNETWORK_ID_NATIVE, type Transaction, type TransactionOutput } from '../../kaspa/types';
import type { AcceptedBlock, AcceptedTransaction } from '../engine';
import {
  buildEnvelopeScript,
  buildRevealSignatureScript,
  commitScriptPublicKey,
  envelopeSenderAddress,
  opJson,
  sendRedeemScript,
  singleKeySignerScript,
} from '../envelope';

export const KAS = 100_000_000n;
export const PREFIX: AddressPrefix = 'kaspadev';

/** A Schnorr 64-byte signature placeholder plus SIGHASH_ALL: the indexer never verifies signatures. */
export const PLACEHOLDER_SIGNATURE = Uint8Array.of(...new Array<number>(64).fill(0x11), 0x01);

export interface Party {
  publicKey: Uint8Array;
  signerScript: Uint8Array;
  address: string;
}

function privateKey(seed: number): Uint8Array {
  const key = new Uint8Array(32);
  key[31] = seed;
  key[0] = 0x42;
  return key;
}

export function schnorrParty(seed: number, prefix: AddressPrefix = PREFIX): Party {
  const publicKey = schnorrPublicKey(privateKey(seed));
  const signerScript = singleKeySignerScript(publicKey);
  return { publicKey, signerScript, address: envelopeSenderAddress({ signer: { kind: 'schnorr', publicKey }, signerScript }, prefix) };
}

export function ecdsaParty(seed: number, prefix: AddressPrefix = PREFIX): Party {
  const publicKey = ecdsaPublicKey(privateKey(seed));
  const signerScript = singleKeySignerScript(publicKey);
  return { publicKey, signerScript, address: envelopeSenderAddress({ signer: { kind: 'ecdsa', publicKey }, signerScript }, prefix) };
}

let outpointCounter = 0;

/** A fresh previous-transaction id, so every built transaction has its own id. */
export function freshTxId(): Uint8Array {
  outpointCounter++;
  const id = new Uint8Array(32);
  new DataView(id.buffer).setUint32(0, outpointCounter);
  id[31] = 0xee;
  return id;
}

export interface OutputSpec {
  address: string;
  value: bigint;
}

function output(spec: OutputSpec): TransactionOutput {
  return { value: spec.value, scriptPublicKey: addressToScriptPublicKey(spec.address) };
}

export interface InputSpec {
  signatureScript: Uint8Array;
  previousTxId?: Uint8Array;
  previousIndex?: number;
  /** The spent UTXO entry, when the test wants it known. */
  spent?: { amount: bigint; scriptPublicKey: ReturnType<typeof commitScriptPublicKey> } | null;
}

export function transaction(inputs: InputSpec[], outputs: OutputSpec[], payload = new Uint8Array(0)): AcceptedTransaction {
  const tx: Transaction = {
    version: 0,
    inputs: inputs.map((input) => ({
      previousOutpoint: { transactionId: input.previousTxId ?? freshTxId(), index: input.previousIndex ?? 0 },
      signatureScript: input.signatureScript,
      sequence: 0n,
      sigOpCount: 1,
    })),
    outputs: outputs.map(output),
    lockTime: 0n,
    subnetworkId: SUBNETWORK_ID_NATIVE,
    gas: 0n,
    payload,
    storageMass: 0n,
  };
  return { transaction: tx, spentOutputs: inputs.map((input) => input.spent ?? null) };
}

export interface RevealSpec {
  signer: Party;
  op: Readonly<Record<string, string>> | string;
  /** Amount of the commit UTXO being spent. */
  inputAmount: bigint;
  outputs?: OutputSpec[];
  /** More inputs after input 0 (e.g. a second `send`). */
  extraInputs?: InputSpec[];
  previousTxId?: Uint8Array;
}

/** input 0 spends the commit P2SH of `signer` + op; the fee is inputAmount − Σ outputs. */
export function reveal(spec: RevealSpec): AcceptedTransaction {
  const json = typeof spec.op === 'string' ? spec.op : opJson(spec.op);
  const redeemScript = buildEnvelopeScript(spec.signer.signerScript, json);
  const outputs = spec.outputs ?? [{ address: spec.signer.address, value: KAS }];
  return transaction(
    [
      {
        signatureScript: buildRevealSignatureScript(PLACEHOLDER_SIGNATURE, redeemScript),
        previousTxId: spec.previousTxId,
        spent: { amount: spec.inputAmount, scriptPublicKey: commitScriptPublicKey(redeemScript) },
      },
      ...(spec.extraInputs ?? []),
    ],
    outputs,
  );
}

/** The listing P2SH address a seller's `list` reveal must pay outputs[0] to. */
export function listingAddress(seller: Party, tick: string, prefix: AddressPrefix = PREFIX): string {
  return scriptHashAddress(sendRedeemScript(seller.signerScript, tick), prefix);
}

/** The seller's `send` input spending the listing UTXO (outputs[0] of the list reveal `listTxId`). */
export function sendInput(seller: Party, tick: string, listTxId: string, amount = KAS): InputSpec {
  const redeemScript = sendRedeemScript(seller.signerScript, tick);
  return {
    signatureScript: buildRevealSignatureScript(Uint8Array.of(...PLACEHOLDER_SIGNATURE.subarray(0, 64), 0x84), redeemScript),
    previousTxId: hexToBytes(listTxId),
    previousIndex: 0,
    spent: { amount, scriptPublicKey: commitScriptPublicKey(redeemScript) },
  };
}

export function acceptedBlock(daaScore: bigint, transactions: AcceptedTransaction[], hash?: string): AcceptedBlock {
  return {
    hash: hash ?? `block-${daaScore}`,
    daaScore,
    timestamp: Number(daaScore) * 1000,
    transactions,
  };
}
