import { describe, expect, it } from 'vitest';
import { bytesToHex } from '../../kaspa/bytes';
import { transactionHash } from '../../kaspa/transaction';
import type { Transaction, UtxoEntry } from '../../kaspa/types';
import { MINER, spend, testKey } from '../test-support/devnet-harness';
import { ScriptVerificationCache, validateTransactionInUtxoContext } from './tx-validation';
import { outpointKey, type UtxoView } from './utxo-diff';

const RECIPIENT = testKey(2);
const outpoint = { transactionId: new Uint8Array(32).fill(0xab), index: 1 };
const funding: UtxoEntry = { amount: 5_000_000_000n, scriptPublicKey: MINER.scriptPublicKey, blockDaaScore: 100n, isCoinbase: false };
const viewOf = (entry: UtxoEntry): UtxoView => ({ get: (key) => (key === outpointKey(outpoint) ? entry : undefined) });
const options = { coinbaseMaturity: 1000n, checkScripts: true };

function withSignatureByte(tx: Transaction, flip: number): Transaction {
  const script = tx.inputs[0]!.signatureScript.slice();
  script[10] = script[10]! ^ flip;
  return { ...tx, inputs: [{ ...tx.inputs[0]!, signatureScript: script }] };
}

describe('validateTransactionInUtxoContext', () => {
  const tx = spend({ outpoint, entry: funding }, MINER, RECIPIENT.scriptPublicKey, 5_000n);

  it('accepts a signed spend and returns its fee and spent entries', () => {
    expect(validateTransactionInUtxoContext(tx, viewOf(funding), 200n, options)).toEqual({ ok: true, fee: 5_000n, entries: [funding] });
  });

  it('rejects with kaspad texts: missing input, immature coinbase, overspend, wrong mass commitment, sequence lock', () => {
    const message = (candidate: Transaction, entry: UtxoEntry | undefined, pov = 200n) => {
      const view: UtxoView = entry === undefined ? { get: () => undefined } : viewOf(entry);
      const result = validateTransactionInUtxoContext(candidate, view, pov, options);
      return result.ok ? 'ok' : result.message;
    };
    expect(message(tx, undefined)).toMatch(/outpoints corresponding to some transaction inputs are missing/);
    expect(message(tx, { ...funding, isCoinbase: true }, 1099n)).toMatch(/coinbase maturity period of 1000 hasn't passed yet/);
    expect(message(tx, { ...funding, isCoinbase: true }, 1100n)).toBe('ok');
    expect(message(tx, { ...funding, amount: 1000n })).toMatch(/tries to spend 4999995000 while its total inputs amount is 1000/);
    expect(message({ ...tx, storageMass: tx.storageMass + 1n }, funding)).toMatch(/is not equal to the committed mass field/);
    const locked = spend({ outpoint, entry: funding }, MINER, RECIPIENT.scriptPublicKey, 5_000n);
    const relative = { ...locked, inputs: [{ ...locked.inputs[0]!, sequence: 150n }] };
    expect(message(relative, funding, 249n)).toMatch(/sequence locks conditions was not met/);
    expect(message(withSignatureByte(tx, 0xff), funding)).toMatch(/signature/);
  });

  it('skips scripts already verified, keyed by the signed transaction so a changed signature is checked again', () => {
    const cache = new ScriptVerificationCache(2);
    const cached = { ...options, scriptCache: cache };
    expect(validateTransactionInUtxoContext(tx, viewOf(funding), 200n, cached).ok).toBe(true);
    expect(cache.has(bytesToHex(transactionHash(tx)))).toBe(true);
    const tampered = withSignatureByte(tx, 0x01);
    expect(validateTransactionInUtxoContext(tampered, viewOf(funding), 200n, cached).ok).toBe(false);
    expect(cache.has(bytesToHex(transactionHash(tampered)))).toBe(false);
  });

  it('evicts the oldest verified transaction beyond its capacity', () => {
    const cache = new ScriptVerificationCache(2);
    for (const key of ['a', 'b', 'c']) cache.add(key);
    expect(['a', 'b', 'c'].map((key) => cache.has(key))).toEqual([false, true, true]);
  });
});
