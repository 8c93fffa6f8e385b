import { describe, expect, it } from 'vitest';
import { payToPublicKeyScript } from './address';
import { concatBytes } from './bytes';
import { covenantId } from './covenant';
import {
  buildCovenantContinuation,
  buildCovenantEnd,
  buildCovenantGenesis,
  counterTemplate,
  covenantRedeemScript,
  covenantScriptPublicKey,
  splitTemplate,
  vaultTemplate,
  type CovenantTemplate,
  type CovenantUtxo,
} from './covenant-templates';
import { blake2b256 } from './hashing';
import { executeInputScripts, type ScriptExecution } from './script-engine';
import { calcSchnorrSignatureHash, SIG_HASH_ALL } from './sighash';
import { schnorrPublicKey, signSchnorr } from './signing';
import type { Transaction, UtxoEntry } from './types';

const OWNER_KEY = blake2b256(new TextEncoder().encode('covenant-templates-test:owner'));
const THIEF_KEY = blake2b256(new TextEncoder().encode('covenant-templates-test:thief'));
const OWNER = schnorrPublicKey(OWNER_KEY);
const MAX_FEE = 50_000n;
const FEE = 10_000n;

const funding = {
  outpoint: { transactionId: new Uint8Array(32).fill(9), index: 1 },
  entry: { amount: 10_000_000_000n, scriptPublicKey: payToPublicKeyScript(OWNER), blockDaaScore: 5n, isCoinbase: false },
};

function run(tx: Transaction, entries: readonly UtxoEntry[], inputIndex = 0): ScriptExecution {
  return executeInputScripts({ tx, inputIndex, entries, toccata: true });
}

function genesis(template: CovenantTemplate) {
  const built = buildCovenantGenesis({ template, funding, amount: 1_000_000_000n, fee: FEE, privateKey: OWNER_KEY });
  expect(run(built.tx, [funding.entry])).toEqual({ status: 'valid' });
  return built;
}

function continueFrom(template: CovenantTemplate, utxo: CovenantUtxo, amounts?: bigint[]) {
  const built = buildCovenantContinuation({ template, utxo, fee: FEE, privateKey: OWNER_KEY, amounts });
  expect(run(built.tx, [utxo.entry])).toEqual({ status: 'valid' });
  return built;
}

/** Signs input 0 as a spender would, with a generous budget, whether or not the covenant accepts the result. */
function signedAnyway(tx: Transaction, utxo: CovenantUtxo, template: CovenantTemplate, privateKey = OWNER_KEY): Transaction {
  const hash = calcSchnorrSignatureHash(tx, 0, [utxo.entry], SIG_HASH_ALL);
  const signature = Uint8Array.of(...signSchnorr(hash, privateKey), SIG_HASH_ALL);
  const redeem = covenantRedeemScript(template, utxo.count);
  const signatureScript = concatBytes(Uint8Array.of(65), signature, Uint8Array.of(0x4d, redeem.length & 0xff, redeem.length >> 8), redeem);
  return { ...tx, inputs: [{ ...tx.inputs[0]!, signatureScript, computeBudget: 100 }] };
}

/** Changes a valid continuation and re-signs it, so only the covenant rule (or the key) can reject it. */
function tamper(template: CovenantTemplate, utxo: CovenantUtxo, change: (tx: Transaction) => Transaction, privateKey = OWNER_KEY) {
  const { tx } = buildCovenantContinuation({ template, utxo, fee: FEE, privateKey: OWNER_KEY });
  return run(signedAnyway(change(tx), utxo, template, privateKey), [utxo.entry]);
}

const failed = (error: string): ScriptExecution => ({ status: 'invalid', error });

describe('counter covenant', () => {
  const template = counterTemplate(OWNER, { maxFee: MAX_FEE });

  it('derives its covenant id from the genesis outpoint and output, and continues three times with count + 1', () => {
    const { tx, covenantId: id, utxo } = genesis(template);
    expect(id).toEqual(covenantId(funding.outpoint, [{ index: 0, output: tx.outputs[0]! }]));
    expect(tx.version).toBe(1);
    expect(tx.inputs[0]!.computeBudget).toBeGreaterThan(0);
    let current = utxo;
    for (let step = 1; step <= 3; step += 1) {
      const next = continueFrom(template, current);
      expect(next.tx.outputs[0]!.scriptPublicKey).toEqual(covenantScriptPublicKey(template, step));
      expect(next.tx.outputs[0]!.covenant?.covenantId).toEqual(id);
      expect(next.tx.inputs[0]!.computeBudget).toBeGreaterThanOrEqual(10);
      current = next.utxos[0]!;
      expect(current.count).toBe(step);
    }
  });

  it('rejects a successor whose script skips a count, or that carries too little', () => {
    const { utxo } = genesis(template);
    const skip = tamper(template, utxo, (tx) => ({
      ...tx,
      outputs: [{ ...tx.outputs[0]!, scriptPublicKey: covenantScriptPublicKey(template, 2) }],
    }));
    expect(skip).toEqual(failed('script ran, but verification failed'));
    const drained = tamper(template, utxo, (tx) => ({ ...tx, outputs: [{ ...tx.outputs[0]!, value: utxo.entry.amount - MAX_FEE - 1n }] }));
    expect(drained).toEqual(failed('false stack entry at end of script execution'));
  });

  it('rejects a successor not bound to the covenant (no authorized output)', () => {
    const { utxo } = genesis(template);
    const unbound = tamper(template, utxo, (tx) => ({ ...tx, outputs: [{ ...tx.outputs[0]!, covenant: null }] }));
    expect(unbound).toEqual(failed('script ran, but verification failed'));
  });

  it('rejects a successor bound to another covenant (a new genesis under the same input)', () => {
    const { utxo } = genesis(template);
    const rebound = tamper(template, utxo, (tx) => {
      const otherId = covenantId(utxo.outpoint, [{ index: 0, output: tx.outputs[0]! }]);
      return { ...tx, outputs: [{ ...tx.outputs[0]!, covenant: { authorizingInput: 0, covenantId: otherId } }] };
    });
    expect(rebound).toEqual(failed('script ran, but verification failed'));
  });

  it('rejects a missing or foreign signature', () => {
    const { utxo } = genesis(template);
    const { tx } = buildCovenantContinuation({ template, utxo, fee: FEE, privateKey: OWNER_KEY });
    const script = tx.inputs[0]!.signatureScript;
    const withoutSignature = { ...tx, inputs: [{ ...tx.inputs[0]!, signatureScript: Uint8Array.of(0x00, ...script.subarray(66)) }] };
    expect(run(withoutSignature, [utxo.entry])).toEqual(failed('script ran, but verification failed'));
    expect(tamper(template, utxo, (same) => same, THIEF_KEY)).toEqual(failed('script ran, but verification failed'));
  });

  it('rejects a compute budget below the script units the spend uses', () => {
    const { utxo } = genesis(template);
    const { tx } = buildCovenantContinuation({ template, utxo, fee: FEE, privateKey: OWNER_KEY });
    const budget = tx.inputs[0]!.computeBudget!;
    const short = { ...tx, inputs: [{ ...tx.inputs[0]!, computeBudget: budget - 1 }] };
    const result = run(short, [utxo.entry]);
    expect(result.status).toBe('invalid');
    expect((result as { error: string }).error).toMatch(
      new RegExp(`^script units exceeded the amount committed in the input: used=\\d+, limit=${(budget - 1) * 10_000 + 9_999}$`),
    );
  });

  it('is not spendable under Crescendo rules, where the introspection it needs does not exist', () => {
    const { utxo } = genesis(template);
    const { tx } = buildCovenantContinuation({ template, utxo, fee: FEE, privateKey: OWNER_KEY });
    const result = executeInputScripts({ tx, inputIndex: 0, entries: [utxo.entry] });
    expect(result.status).toBe('invalid');
  });
});

describe('vault covenant', () => {
  const template = vaultTemplate(OWNER, { maxFee: MAX_FEE, endAfter: 3 });

  it('continues until its count reaches endAfter, then must end by paying the owner', () => {
    let current = genesis(template).utxo;
    expect(() => buildCovenantEnd({ template, utxo: current, fee: FEE, privateKey: OWNER_KEY })).toThrow(/verification failed/);
    const endTx = (utxo: CovenantUtxo): Transaction => ({
      ...buildCovenantContinuation({ template, utxo, fee: FEE, privateKey: OWNER_KEY }).tx,
      outputs: [{ value: utxo.entry.amount - FEE, scriptPublicKey: payToPublicKeyScript(OWNER) }],
    });
    expect(run(signedAnyway(endTx(current), current, template), [current.entry])).toEqual(failed('script ran, but verification failed'));
    for (let step = 0; step < 3; step += 1) current = continueFrom(template, current).utxos[0]!;
    expect(() => buildCovenantContinuation({ template, utxo: current, fee: FEE, privateKey: OWNER_KEY })).toThrow(/verification failed/);
    const { tx } = buildCovenantEnd({ template, utxo: current, fee: FEE, privateKey: OWNER_KEY });
    expect(tx.outputs[0]!.scriptPublicKey).toEqual(payToPublicKeyScript(OWNER));
    expect(tx.outputs[0]!.covenant ?? null).toBeNull();
    expect(run(tx, [current.entry])).toEqual({ status: 'valid' });
    const toThief = { ...tx, outputs: [{ value: current.entry.amount - FEE, scriptPublicKey: payToPublicKeyScript(schnorrPublicKey(THIEF_KEY)) }] };
    expect(run(signedAnyway(toThief, current, template), [current.entry])).toEqual(failed('false stack entry at end of script execution'));
  });
});

describe('split covenant', () => {
  const template = splitTemplate(OWNER, { maxFee: MAX_FEE });

  it('splits one covenant input into two successors of the same covenant, each of which continues', () => {
    const { covenantId: id, utxo } = genesis(template);
    const first = continueFrom(template, utxo).utxos[0]!;
    const half = (first.entry.amount - FEE) / 2n;
    const split = continueFrom(template, first, [half, first.entry.amount - FEE - half]);
    expect(split.utxos.map((child) => [child.count, child.entry.covenantId])).toEqual([
      [2, id],
      [2, id],
    ]);
    for (const child of split.utxos) expect(continueFrom(template, child).utxos[0]!.count).toBe(3);
  });

  it('rejects three successors and two that together carry too little', () => {
    const { utxo } = genesis(template);
    const third = (utxo.entry.amount - FEE) / 3n;
    const three = tamper(template, utxo, (tx) => ({ ...tx, outputs: [tx.outputs[0]!, tx.outputs[0]!, tx.outputs[0]!].map((o) => ({ ...o, value: third })) }));
    expect(three).toEqual(failed('script ran, but verification failed'));
    const short = tamper(template, utxo, (tx) => ({ ...tx, outputs: [tx.outputs[0]!, tx.outputs[0]!].map((o) => ({ ...o, value: third })) }));
    expect(short).toEqual(failed('false stack entry at end of script execution'));
  });
});
