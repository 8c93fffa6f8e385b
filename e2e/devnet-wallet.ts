/**
 * The devnet wallet the end-to-end tests sign with, and the conversions of its transactions to the §2.2 submission
 * form. The devnet's miners pay wallet 0 of the seed, so it holds coinbase outputs from the first blocks on.
 */
import { expect, type APIRequestContext } from '@playwright/test';
import { deriveWalletPrivateKey } from '../lib/devnet/traffic/wallet';
import { payToPublicKeyScript, schnorrAddressFromPublicKey } from '../lib/kaspa/address';
import { bytesToHex, hexToBytes } from '../lib/kaspa/bytes';
import { schnorrPublicKey, signTransaction } from '../lib/kaspa/signing';
import { SUBNETWORK_ID_NATIVE, type ScriptPublicKey, type Transaction } from '../lib/kaspa/types';
import { E2E_API_KEY, E2E_COINBASE_MATURITY, E2E_DEVNET_SEED } from './api/settings';

type Json = Record<string, unknown>;

export const walletKey = deriveWalletPrivateKey(E2E_DEVNET_SEED, 0);
export const walletAddress = schnorrAddressFromPublicKey(schnorrPublicKey(walletKey), 'kaspadev');
export const walletScript = payToPublicKeyScript(schnorrPublicKey(walletKey));
/** A fresh receiver nobody else spends from (its outputs stay in the UTXO set once mined). */
export function freshReceiver(label: string): { script: ScriptPublicKey; address: string } {
  const publicKey = schnorrPublicKey(deriveWalletPrivateKey(`${E2E_DEVNET_SEED}/${label}/${Date.now()}`, 0));
  return { script: payToPublicKeyScript(publicKey), address: schnorrAddressFromPublicKey(publicKey, 'kaspadev') };
}

export const COINBASE_MATURITY = BigInt(E2E_COINBASE_MATURITY);
/** Above the relay fee floor (100 sompi per gram of max(compute, 2 × bytes)) of any spend these tests build. */
export const FEE = 1_000_000n;

export interface Utxo {
  outpoint: { transactionId: string; index: number };
  amount: string;
  blockDaaScore: string;
  isCoinbase: boolean;
}

/** A spend needs its output matured with a margin: the tip moves on while a test builds and submits. */
const MATURITY_MARGIN = 20n;

/** The wallet's outputs a spend can use now. */
export async function matureWalletUtxos(request: APIRequestContext): Promise<Utxo[]> {
  const headers = { 'x-api-key': E2E_API_KEY };
  const { virtualDaaScore } = (await (await request.get('/v1/rpc/getBlockDagInfo', { headers })).json()) as { virtualDaaScore: string };
  const answer = await request.post('/v1/rpc/getUtxosByAddresses', { headers, data: { addresses: [walletAddress] } });
  const { entries } = (await answer.json()) as { entries: Utxo[] };
  return entries.filter((utxo) => BigInt(utxo.blockDaaScore) + COINBASE_MATURITY + MATURITY_MARGIN <= BigInt(virtualDaaScore));
}

/**
 * The genesis's bootstrap outputs (DAA score 0) come from a transaction that is in no block, as a pruning point's
 * imported UTXO set is: the index has no record of them.
 */
const fromBlock = (utxo: Utxo) => utxo.blockDaaScore !== '0';

/**
 * Waits until the wallet holds more than `moreThan` mature outputs and returns them shuffled: the traffic generator
 * and other tests spend the same wallet, so callers try a few, and a random order keeps them from racing for one.
 * `indexed` keeps only outputs of transactions in blocks (whose records the index holds).
 */
export async function awaitMatureWalletUtxos(
  request: APIRequestContext,
  options: { moreThan: number; timeout: number; indexed?: boolean },
): Promise<Utxo[]> {
  const usable = async () => (await matureWalletUtxos(request)).filter((utxo) => options.indexed !== true || fromBlock(utxo));
  await expect.poll(async () => (await usable()).length, { timeout: options.timeout, intervals: [2_000] }).toBeGreaterThan(options.moreThan);
  return (await usable()).sort(() => Math.random() - 0.5);
}

/** A one-input, one-output spend of `utxo` by the wallet, signed. */
export function spend(utxo: Utxo, fee: bigint, to: ScriptPublicKey = walletScript): Transaction {
  const amount = BigInt(utxo.amount);
  const unsigned: Transaction = {
    version: 0,
    inputs: [
      {
        previousOutpoint: { transactionId: hexToBytes(utxo.outpoint.transactionId), index: utxo.outpoint.index },
        signatureScript: new Uint8Array(),
        sequence: 0n,
        sigOpCount: 1,
      },
    ],
    outputs: [{ value: amount - fee, scriptPublicKey: to }],
    lockTime: 0n,
    subnetworkId: SUBNETWORK_ID_NATIVE,
    gas: 0n,
    payload: new Uint8Array(),
    storageMass: 0n,
  };
  return signTransaction(unsigned, [walletKey], [
    { amount, scriptPublicKey: walletScript, blockDaaScore: BigInt(utxo.blockDaaScore), isCoinbase: utxo.isCoinbase },
  ]);
}

export function submissionOf(tx: Transaction) {
  return {
    version: tx.version,
    inputs: tx.inputs.map((input) => ({
      previousOutpoint: { transactionId: bytesToHex(input.previousOutpoint.transactionId), index: input.previousOutpoint.index },
      signatureScript: bytesToHex(input.signatureScript),
      sequence: input.sequence,
      sigOpCount: input.sigOpCount,
    })),
    outputs: tx.outputs.map((output) => ({
      value: output.value.toString(),
      scriptPublicKey: { version: output.scriptPublicKey.version, script: bytesToHex(output.scriptPublicKey.script) },
    })),
    lockTime: tx.lockTime,
    subnetworkId: bytesToHex(tx.subnetworkId),
    gas: tx.gas.toString(),
    payload: bytesToHex(tx.payload),
  };
}

/**
 * A read-form transaction (a template's) in the §2.2 submission form, keeping its mass (the block commits to it) and
 * Toccata's compute budgets and covenant bindings (its id commits to them).
 */
export function templateSubmission(tx: Json) {
  return {
    version: tx.version,
    inputs: (tx.inputs as Json[]).map((input) => ({
      previousOutpoint: input.previousOutpoint,
      signatureScript: input.signatureScript,
      sequence: BigInt(input.sequence as string),
      sigOpCount: input.sigOpCount,
      ...(input.computeBudget === undefined ? {} : { computeBudget: input.computeBudget }),
    })),
    outputs: (tx.outputs as Json[]).map((output) => {
      const script = output.scriptPublicKey as string;
      return {
        value: output.value,
        scriptPublicKey: { version: Number.parseInt(script.slice(0, 4), 16), script: script.slice(4) },
        ...(output.covenant === undefined ? {} : { covenant: output.covenant }),
      };
    }),
    lockTime: BigInt(tx.lockTime as string),
    subnetworkId: tx.subnetworkId,
    gas: tx.gas,
    payload: (tx.payload as string).slice(2),
    mass: tx.mass,
  };
}
