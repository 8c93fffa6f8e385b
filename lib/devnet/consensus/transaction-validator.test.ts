import { describe, expect, it } from 'vitest';
import { payToPublicKeyScript, payToScriptHashScript } from '../../kaspa/address';
import { bytesToHex, concatBytes } from '../../kaspa/bytes';
import { transactionId } from '../../kaspa/transaction';
import { calcSchnorrSignatureHash, SIG_HASH_ALL } from '../../kaspa/sighash';
import { buildRedeemScript, buildRevealSignatureScript, parseEnvelopeInput, signRevealInput } from '../../tokens/envelope';
import { schnorrPublicKey, signSchnorr } from '../../kaspa/signing';
import { toccata } from '../../kaspa/test-support/toccata-vectors';
import { transactionFromVector } from '../../kaspa/test-support/vectors';
import { SUBNETWORK_ID_COINBASE, type Transaction, type UtxoEntry } from '../../kaspa/types';
import { FakeVirtualState, KAS, newMempool, pay, spend, transfer, wallet, type Coin } from '../test-support/mempool-fixtures';
import {
  checkScripts,
  TxRuleError,
  UNACCEPTED_DAA_SCORE,
  validatePopulatedTransaction,
  validateTransactionInHeaderContext,
  validateTransactionInIsolation,
  type IsolationOptions,
  type TxRuleErrorKind,
} from './transaction-validator';

const alice = wallet('alice');
const bob = wallet('bob');

function ruleMessage(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    if (error instanceof TxRuleError) return error.message;
    throw error;
  }
  throw new Error('expected a TxRuleError');
}

function signedTransfer(): { tx: Transaction; coin: Coin } {
  const coin = new FakeVirtualState().fund(alice, 5n * KAS);
  return { tx: transfer([coin], bob, 3000n), coin };
}

describe('validateTransactionInIsolation', () => {
  const { tx } = signedTransfer();

  it('accepts a well-formed transaction', () => {
    expect(() => validateTransactionInIsolation(tx)).not.toThrow();
  });

  it.each([
    ['no inputs', { ...tx, inputs: [] }, 'transaction has no inputs'],
    ['duplicate inputs', { ...tx, inputs: [tx.inputs[0]!, tx.inputs[0]!] }, 'transaction has duplicate inputs'],
    ['gas', { ...tx, gas: 1n }, 'transaction has non zero gas value'],
    [
      'another subnetwork',
      { ...tx, subnetworkId: Uint8Array.of(2, ...new Uint8Array(19)) },
      'transaction subnetwork id 0200000000000000000000000000000000000000 is neither native nor coinbase',
    ],
    ['version 1', { ...tx, version: 1 }, 'transaction version 1 is unknown'],
    ['a zero output', { ...tx, outputs: [pay(bob, 0n)] }, 'transaction output 0 has zero value'],
    [
      'an output above MAX_SOMPI',
      { ...tx, outputs: [pay(bob, 2_900_000_000_000_000_001n)] },
      'transaction output 0 value is higher than the max allowed of 2900000000000000000',
    ],
    [
      'outputs summing above MAX_SOMPI',
      { ...tx, outputs: [pay(bob, 2_000_000_000_000_000_000n), pay(bob, 2_000_000_000_000_000_000n)] },
      'transaction total outputs value is higher than the max allowed of 2900000000000000000',
    ],
    [
      'a coinbase with inputs',
      { ...tx, subnetworkId: SUBNETWORK_ID_COINBASE },
      'coinbase transaction has 1 inputs while none are expected',
    ],
    [
      'a coinbase output script over 150 bytes',
      { ...tx, inputs: [], subnetworkId: SUBNETWORK_ID_COINBASE, outputs: [{ value: 1n, scriptPublicKey: { version: 0, script: new Uint8Array(151) } }] },
      'script public key of coinbase output #0 is too long',
    ],
  ] satisfies [string, Transaction, string][])('rejects %s', (_, bad, message) => {
    expect(ruleMessage(() => validateTransactionInIsolation(bad))).toBe(message);
  });
});

function ruleKind(action: () => unknown): TxRuleErrorKind | null {
  try {
    action();
  } catch (error) {
    if (error instanceof TxRuleError) return error.kind;
    throw error;
  }
  return null;
}

describe('validateTransactionInIsolation under Toccata (tx_validation_in_isolation.rs::tests::validate_tx_in_isolation_test)', () => {
  const TOCCATA: IsolationOptions = { toccata: true };

  it.each(toccata.txRules.isolationCases.map((vector) => [vector.name, vector] as const))('%s', (_name, vector) => {
    const tx = transactionFromVector(vector.tx);
    expect(ruleKind(() => validateTransactionInIsolation(tx, undefined, TOCCATA))).toBe(vector.expectedError);
    // Before activation a version 1 transaction is unknown (validate_tx_in_header_context at DAA score 0 in the same
    // test); every other case behaves as under Toccata.
    const crescendo = tx.version === 1 ? 'UnknownTxVersion' : vector.expectedError;
    expect(ruleKind(() => validateTransactionInIsolation(tx))).toBe(crescendo);
  });

  const { tx } = signedTransfer();
  const v1: Transaction = { ...tx, version: 1, inputs: tx.inputs.map((input) => ({ ...input, computeBudget: 1 })) };
  const userLane = Uint8Array.of(0, 0, 0, 1, ...new Uint8Array(16));

  it('accepts version 1, user lanes and their gas', () => {
    expect(() => validateTransactionInIsolation(v1, undefined, TOCCATA)).not.toThrow();
    expect(() => validateTransactionInIsolation({ ...v1, subnetworkId: userLane, gas: 5n }, undefined, TOCCATA)).not.toThrow();
    expect(ruleMessage(() => validateTransactionInIsolation(v1))).toBe('transaction version 1 is unknown');
  });

  it.each([
    ['gas on a version 0 lane', { ...tx, subnetworkId: userLane, gas: 1n }, 'transaction has non-zero gas: gas is only allowed for Toccata-or-newer tx versions'],
    ['gas on the native subnetwork', { ...v1, gas: 1n }, 'transaction has non-zero gas: native / system subnetworks must use zero gas'],
    ['a version 0 user lane', { ...tx, subnetworkId: userLane }, 'transaction subnetwork id 0000000100000000000000000000000000000000 is neither native nor coinbase'],
    [
      'a version 0 covenant binding',
      { ...tx, outputs: [{ ...tx.outputs[0]!, covenant: { authorizingInput: 0, covenantId: new Uint8Array(32) } }] },
      'transaction output #0 has covenant field but transaction version is 0',
    ],
    [
      'a coinbase with a mass commitment',
      { ...tx, inputs: [], subnetworkId: SUBNETWORK_ID_COINBASE, storageMass: 1n },
      'coinbase mass commitment field is not zero',
    ],
  ] satisfies [string, Transaction, string][])('rejects %s', (_, bad, message) => {
    expect(ruleMessage(() => validateTransactionInIsolation(bad, undefined, TOCCATA))).toBe(message);
  });

  it('limits coinbase outputs to GHOSTDAG K + 2 when K is given', () => {
    const coinbase: Transaction = { ...tx, inputs: [], subnetworkId: SUBNETWORK_ID_COINBASE, outputs: Array.from({ length: 4 }, () => pay(bob, 1n)) };
    expect(ruleMessage(() => validateTransactionInIsolation(coinbase, undefined, { toccata: true, ghostdagK: 1 }))).toBe(
      'coinbase transaction has 4 outputs while at most 3 are expected',
    );
    expect(() => validateTransactionInIsolation(coinbase, undefined, { toccata: true, ghostdagK: 2 })).not.toThrow();
  });
});

describe('validateTransactionInHeaderContext (Crescendo limits)', () => {
  const { tx } = signedTransfer();

  it('limits inputs, outputs and script sizes', () => {
    const input = tx.inputs[0]!;
    const manyInputs = { ...tx, inputs: Array.from({ length: 1001 }, (_, index) => ({ ...input, previousOutpoint: { ...input.previousOutpoint, index } })) };
    expect(ruleMessage(() => validateTransactionInHeaderContext(manyInputs, 0n, 0n))).toBe(
      'transaction has 1001 inputs where the max allowed is 1000',
    );
    const manyOutputs = { ...tx, outputs: Array.from({ length: 1001 }, () => pay(bob, 1n)) };
    expect(ruleMessage(() => validateTransactionInHeaderContext(manyOutputs, 0n, 0n))).toBe(
      'transaction has 1001 outputs where the max allowed is 1000',
    );
    const longSignature = { ...tx, inputs: [{ ...input, signatureScript: new Uint8Array(10_001) }] };
    expect(ruleMessage(() => validateTransactionInHeaderContext(longSignature, 0n, 0n))).toBe(
      'transaction input #0 signature script is above 10000 bytes',
    );
    const longScript = { ...tx, outputs: [{ value: 1n, scriptPublicKey: { version: 0, script: new Uint8Array(10_001) } }] };
    expect(ruleMessage(() => validateTransactionInHeaderContext(longScript, 0n, 0n))).toBe(
      'transaction input #0 signature script is above 10000 bytes',
    );
  });

  it('reads lock times from the threshold up as milliseconds against the past median time', () => {
    const timeLocked = { ...tx, lockTime: 1_700_000_000_000n };
    expect(ruleMessage(() => validateTransactionInHeaderContext(timeLocked, 10n ** 12n, 1_700_000_000_000n))).toBe(
      'transaction input #0 is not finalized',
    );
    expect(() => validateTransactionInHeaderContext(timeLocked, 0n, 1_700_000_000_001n)).not.toThrow();
    const finalBySequence = { ...timeLocked, inputs: [{ ...tx.inputs[0]!, sequence: (1n << 64n) - 1n }] };
    expect(() => validateTransactionInHeaderContext(finalBySequence, 0n, 0n)).not.toThrow();
  });
});

describe('validatePopulatedTransaction', () => {
  const context = { povDaaScore: new FakeVirtualState().daaScore, coinbaseMaturity: 1000n };

  it('returns the fee', () => {
    const { tx, coin } = signedTransfer();
    expect(validatePopulatedTransaction(tx, [coin.entry], context)).toBe(3000n);
  });

  it('rejects inputs above MAX_SOMPI', () => {
    const { tx, coin } = signedTransfer();
    const rich: UtxoEntry = { ...coin.entry, amount: 2_900_000_000_000_000_001n };
    expect(ruleMessage(() => validatePopulatedTransaction(tx, [rich], context))).toBe(
      'transaction total inputs spending amount is higher than the max allowed of 2900000000000000000',
    );
  });

  it('reads an unaccepted entry’s DAA score as −1, so relative locks never hold back a chained spend', () => {
    const state = new FakeVirtualState();
    const coin = state.fund(alice, 5n * KAS);
    const pending = { ...coin, entry: { ...coin.entry, blockDaaScore: UNACCEPTED_DAA_SCORE } };
    const tx = transfer([pending], bob, 3000n, { sequence: 1000n });
    expect(validatePopulatedTransaction(tx, [pending.entry], context)).toBe(3000n);
  });

  it('ignores relative locks on inputs with the disable flag', () => {
    const state = new FakeVirtualState();
    const coin = state.fund(alice, 5n * KAS, { blockDaaScore: state.daaScore - 1n });
    const tx = transfer([coin], bob, 3000n, { sequence: (1n << 63n) | 500n });
    expect(validatePopulatedTransaction(tx, [coin.entry], context)).toBe(3000n);
  });

  it('rejects a replacement not beating the feerate floor before looking at the scripts', () => {
    const { tx, coin } = signedTransfer();
    const broken = { ...tx, inputs: [{ ...tx.inputs[0]!, signatureScript: new Uint8Array(0) }] };
    expect(ruleMessage(() => validatePopulatedTransaction(broken, [coin.entry], { ...context, feerateThreshold: { mass: 1000n, threshold: 3 } }))).toBe(
      'fee rate per contextual mass gram is not greater than the fee rate of the replaced transaction',
    );
  });
});

describe('checkScripts', () => {
  it('verifies a P2SH-wrapped P2PK spend', () => {
    const redeemScript = payToPublicKeyScript(schnorrPublicKey(alice.privateKey)).script;
    const coin = new FakeVirtualState().fund(alice, 5n * KAS, { scriptPublicKey: payToScriptHashScript(redeemScript) });
    const tx = transfer([coin], bob, 3000n);
    expect(() => checkScripts(tx, [coin.entry])).not.toThrow();
  });

  it('reports an unknown sighash type as the engine does', () => {
    const { tx, coin } = signedTransfer();
    const script = Uint8Array.from(tx.inputs[0]!.signatureScript);
    script[65] = 0x05;
    const tampered = { ...tx, inputs: [{ ...tx.inputs[0]!, signatureScript: script }] };
    expect(ruleMessage(() => checkScripts(tampered, [coin.entry]))).toBe('failed to verify the signature script: invalid hash type 0x05');
  });

  it('reports a non-push signature script', () => {
    const { tx, coin } = signedTransfer();
    const tampered = { ...tx, inputs: [{ ...tx.inputs[0]!, signatureScript: Uint8Array.of(0xac) }] };
    expect(ruleMessage(() => checkScripts(tampered, [coin.entry]))).toBe('failed to verify the signature script: signature script is not push only');
  });

  it('flags a script it cannot run as unsupported, naming the input', () => {
    const coin = new FakeVirtualState().fund(alice, 5n * KAS, { scriptPublicKey: { version: 0, script: Uint8Array.of(0x51) } });
    const tx = spend([coin], [pay(bob, KAS)], { unsigned: true });
    try {
      checkScripts(tx, [coin.entry]);
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ kind: 'UnsupportedScript', inputIndex: 0 });
    }
  });
});

describe('P2SH spends of Kasplex envelopes (script engine)', () => {
  const signer = wallet('envelope-signer');
  const publicKey = schnorrPublicKey(signer.privateKey);
  const redeemScript = buildRedeemScript(publicKey, { p: 'krc-20', op: 'mint', tick: 'dagb' });

  function reveal(options: { signingKey?: Uint8Array; sigOpCount?: number; redeem?: Uint8Array } = {}) {
    const state = new FakeVirtualState();
    const redeem = options.redeem ?? redeemScript;
    const coin = state.fund(signer, 5n * KAS, { scriptPublicKey: payToScriptHashScript(redeem) });
    const unsigned = spend([coin], [pay(bob, 4n * KAS)], { unsigned: true, sigOpCount: options.sigOpCount ?? 1 });
    const signatureScript = options.redeem
      ? buildRevealSignatureScript(
          Uint8Array.of(...signSchnorr(calcSchnorrSignatureHash(unsigned, 0, [coin.entry], SIG_HASH_ALL), signer.privateKey), SIG_HASH_ALL),
          redeem,
        )
      : signRevealInput(unsigned, 0, signer.privateKey, [coin.entry], redeem, { auxRand: new Uint8Array(32) });
    let tx: Transaction = { ...unsigned, inputs: [{ ...unsigned.inputs[0]!, signatureScript }] };
    if (options.signingKey) {
      // A valid signature by another key, placed in the signature script of this redeem script.
      const otherScript = buildRedeemScript(schnorrPublicKey(options.signingKey), { p: 'krc-20', op: 'mint', tick: 'dagb' });
      const otherSignature = signRevealInput(unsigned, 0, options.signingKey, [{ ...coin.entry, scriptPublicKey: payToScriptHashScript(otherScript) }], otherScript);
      const sigPush = otherSignature.subarray(0, 66);
      tx = { ...unsigned, inputs: [{ ...unsigned.inputs[0]!, signatureScript: Uint8Array.of(...sigPush, ...signatureScript.subarray(66)) }] };
    }
    return { state, coin, tx };
  }

  it('accepts a signed reveal and parses its op back', () => {
    const { tx, coin } = reveal();
    expect(() => checkScripts(tx, [coin.entry])).not.toThrow();
    expect(parseEnvelopeInput(tx.inputs[0]!.signatureScript)?.content).toEqual(new TextEncoder().encode('{"p":"krc-20","op":"mint","tick":"dagb"}'));
  });

  it("rejects a bad signature inside the redeem script with kaspad's reason, in consensus and in the mempool", () => {
    const { state, coin, tx } = reveal({ signingKey: wallet('someone-else').privateKey });
    const reason = 'failed to verify the signature script: false stack entry at end of script execution';
    expect(ruleMessage(() => checkScripts(tx, [coin.entry]))).toBe(reason);
    expect(() => newMempool(state).submitTransaction(tx)).toThrow(reason);
  });

  it('holds the reveal to its committed sig-op count', () => {
    const { coin, tx } = reveal({ sigOpCount: 0 });
    expect(ruleMessage(() => checkScripts(tx, [coin.entry]))).toBe('failed to verify the signature script: sig op count exceeds passed limit of 0');
  });

  it('accepts the reveal into the mempool as standard (P2SH input, push-only signature script)', () => {
    const { state, tx } = reveal();
    expect(newMempool(state).submitTransaction(tx).accepted).toHaveLength(1);
  });

  it('keeps a P2SH spend whose redeem script has more than 15 sig ops valid but out of the mempool', () => {
    const heavy = concatBytes(redeemScript.subarray(0, -1), new Uint8Array(16).fill(0xac), Uint8Array.of(0x68));
    const { state, coin, tx } = reveal({ redeem: heavy });
    expect(() => checkScripts(tx, [coin.entry])).not.toThrow();
    expect(() => newMempool(state).submitTransaction(tx)).toThrow(
      `transaction ${bytesToHex(transactionId(tx))} is not standard: transaction input #0 has 17 signature operations which is more than the allowed max amount of 15`,
    );
  });
});
