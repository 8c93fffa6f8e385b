import { describe, expect, it } from 'vitest';
import { bytesToHex } from '../../kaspa/bytes';
import { covenantId } from '../../kaspa/covenant';
import { buildCovenantContinuation, buildCovenantGenesis, counterTemplate, type CovenantUtxo } from '../../kaspa/covenant-templates';
import { schnorrPublicKey } from '../../kaspa/signing';
import { transactionId } from '../../kaspa/transaction';
import { type Hash, type Outpoint, type Transaction, type TransactionOutput, type UtxoEntry } from '../../kaspa/types';
import { FORK_ALWAYS } from './params';
import { createTestDevnet, MINER, spendV1, testKey, type TestDevnet, type TestKey } from '../test-support/devnet-harness';

const OWNER = testKey(5);
const FEE = 1_000_000n;

interface Spendable {
  outpoint: Outpoint;
  entry: UtxoEntry;
  key: TestKey;
}

/** A signed version 1 transaction spending `utxo` into `outputs` (with the given compute budget per input). */
function v1Transaction(utxo: Spendable, outputs: TransactionOutput[], computeBudget = 10, genesis = false): Transaction {
  return spendV1(utxo, outputs, { computeBudget, genesis });
}

function matureReward(net: TestDevnet): Spendable {
  while (net.consensus.getUtxosByScriptPublicKey(MINER.scriptPublicKey).length === 0) net.mine();
  const { outpoint, entry } = net.consensus.getUtxosByScriptPublicKey(MINER.scriptPublicKey)[0]!;
  net.mine();
  return { outpoint, entry, key: MINER };
}

function accept(net: TestDevnet, tx: Transaction): Spendable {
  const template = net.consensus.buildBlockTemplate({ payScriptPublicKey: MINER.scriptPublicKey, transactions: [tx] });
  expect(template.rejectedTransactions.map((rejected) => rejected.message)).toEqual([]);
  net.mine({ transactions: [tx] });
  net.mine();
  const outpoint = { transactionId: transactionId(tx), index: 0 };
  const entry = net.consensus.getUtxo(outpoint)!;
  expect(entry).toBeDefined();
  return { outpoint, entry, key: OWNER };
}

function rejection(net: TestDevnet, tx: Transaction): string | undefined {
  const template = net.consensus.buildBlockTemplate({ payScriptPublicKey: MINER.scriptPublicKey, transactions: [tx] });
  return template.rejectedTransactions[0]?.message;
}

const hex = (hash: Hash | null | undefined) => (hash ? bytesToHex(hash) : null);

describe('consensus: Toccata transactions and covenants', () => {
  it('accepts a signed v1 transaction, a covenant genesis and its continuation, and rejects a wrong continuation', () => {
    const net = createTestDevnet({ toccataActivation: FORK_ALWAYS, coinbaseMaturity: 1 });
    const reward = matureReward(net);

    const genesisTx = v1Transaction(reward, [{ value: reward.entry.amount - FEE, scriptPublicKey: OWNER.scriptPublicKey }], 10, true);
    const expectedId = covenantId(reward.outpoint, [{ index: 0, output: { value: genesisTx.outputs[0]!.value, scriptPublicKey: OWNER.scriptPublicKey } }]);
    expect(hex(genesisTx.outputs[0]!.covenant?.covenantId)).toBe(hex(expectedId));
    const covenantUtxo = accept(net, genesisTx);
    expect(hex(covenantUtxo.entry.covenantId)).toBe(hex(expectedId));

    const continuation = v1Transaction(covenantUtxo, [
      { value: covenantUtxo.entry.amount - FEE, scriptPublicKey: OWNER.scriptPublicKey, covenant: { authorizingInput: 0, covenantId: expectedId } },
    ]);
    const continued = accept(net, continuation);
    expect(hex(continued.entry.covenantId)).toBe(hex(expectedId));

    const wrongId = new Uint8Array(32).fill(0x42);
    const wrong = v1Transaction(continued, [
      { value: continued.entry.amount - FEE, scriptPublicKey: OWNER.scriptPublicKey, covenant: { authorizingInput: 0, covenantId: wrongId } },
    ]);
    expect(rejection(net, wrong)).toBe(
      `covenants error: input #0 and outputs with covenant id ${bytesToHex(wrongId)} do not correspond to the expected genesis hashing`,
    );
    const outOfBounds = v1Transaction(continued, [
      { value: continued.entry.amount - FEE, scriptPublicKey: OWNER.scriptPublicKey, covenant: { authorizingInput: 1, covenantId: expectedId } },
    ]);
    expect(rejection(net, outOfBounds)).toBe('covenants error: output #0 covenant authorizing input index 1 is out of bounds');

    // The covenant-bound output is committed to by the UTXO commitment with its covenant id, which the next block checks.
    net.mine();
    expect(net.consensus.getUtxo(continued.outpoint)?.covenantId).toEqual(expectedId);
  });

  it('meters v1 signature checks in script units: a compute budget below one sig op fails with kaspad’s text', () => {
    const net = createTestDevnet({ toccataActivation: FORK_ALWAYS, coinbaseMaturity: 1 });
    const reward = matureReward(net);
    const outputs = [{ value: reward.entry.amount - FEE, scriptPublicKey: OWNER.scriptPublicKey }];
    expect(rejection(net, v1Transaction(reward, outputs, 9))).toBe(
      'failed to verify the signature script: script units exceeded the amount committed in the input: used=100000, limit=99999',
    );
    const paid = accept(net, v1Transaction(reward, outputs, 10));
    expect(paid.entry.amount).toBe(reward.entry.amount - FEE);
    expect(paid.entry.covenantId ?? null).toBeNull();
  });

  it('rejects a v1 transaction before the activation', () => {
    const net = createTestDevnet({ toccataActivation: 1000n, coinbaseMaturity: 1 });
    const reward = matureReward(net);
    const tx = v1Transaction(reward, [{ value: reward.entry.amount - FEE, scriptPublicKey: OWNER.scriptPublicKey }]);
    expect(rejection(net, tx)).toBe('transaction version 1 is unknown');
  });

  it('runs a counter covenant’s P2SH script with the covenant opcodes: genesis and two continuations are accepted in blocks', () => {
    const net = createTestDevnet({ toccataActivation: FORK_ALWAYS, coinbaseMaturity: 1 });
    const reward = matureReward(net);
    const template = counterTemplate(schnorrPublicKey(MINER.privateKey), { maxFee: FEE });
    const genesis = buildCovenantGenesis({ template, funding: reward, amount: 1_000_000_000n, fee: FEE, privateKey: MINER.privateKey });
    accept(net, genesis.tx);
    let utxo: CovenantUtxo = { ...genesis.utxo, entry: net.consensus.getUtxo(genesis.utxo.outpoint)! };
    for (let step = 1; step <= 2; step++) {
      const { tx, utxos } = buildCovenantContinuation({ template, utxo, fee: FEE, privateKey: MINER.privateKey });
      expect(rejection(net, tx)).toBeUndefined();
      accept(net, tx);
      const entry = net.consensus.getUtxo(utxos[0]!.outpoint)!;
      expect(hex(entry.covenantId)).toBe(hex(genesis.covenantId));
      expect(net.consensus.getUtxo(utxo.outpoint)).toBeUndefined();
      utxo = { ...utxos[0]!, entry };
    }
    expect(utxo.count).toBe(2);
  });
});
