import { describe, expect, it } from 'vitest';
import { readVectors } from '../kaspa/test-support/vectors';
import { createTokenEngine } from './engine';
import {
  MAX_AMOUNT,
  isValidTokenAddress,
  normalizeContractAddress,
  normalizeOpName,
  normalizeProtocol,
  normalizeTick,
  normalizeTickOrContract,
  parseAmount,
  parseDecimals,
  parseTransactionOps,
  revealFee,
  type TokenOp,
} from './operations';
import { DEVNET_PROFILE, MAINNET_PROFILE, testNetworkProfile, type TokenProfile } from './profile';
import {
  KAS,
  acceptedBlock,
  listingAddress,
  reveal,
  schnorrParty,
  sendInput,
  transaction,
  type Party,
} from './test-support/transactions';
import type { AcceptedTransaction } from './engine';

const alice = schnorrParty(1);
const bob = schnorrParty(2);

function opsOf(accepted: AcceptedTransaction, profile: TokenProfile = DEVNET_PROFILE, daaScore = 1000n): TokenOp[] | null {
  const parsed = parseTransactionOps(accepted.transaction, {
    profile,
    txId: 'aa'.repeat(32),
    daaScore,
    spentOutputs: accepted.spentOutputs,
  });
  return parsed && parsed.scripts.map((script) => script.op);
}

function singleOp(op: Record<string, string> | string, signer: Party = alice, profile?: TokenProfile, daaScore?: bigint) {
  const ops = opsOf(reveal({ signer, op, inputAmount: 2n * KAS }), profile, daaScore);
  return ops?.[0] ?? null;
}

describe('field rules', () => {
  it('tick: 4–6 letters A–Z, upper-cased; digits and other lengths are not ticks', () => {
    expect(normalizeTick('abcd')).toBe('ABCD');
    expect(normalizeTick('AbCdEf')).toBe('ABCDEF');
    expect(normalizeTick('ABC')).toBeNull();
    expect(normalizeTick('ABCDEFG')).toBeNull();
    expect(normalizeTick('AB1D')).toBeNull();
    expect(normalizeTick('AB D')).toBeNull();
  });

  it('tick: runes upper-case one by one, as Go does (dotless ı becomes I)', () => {
    expect(normalizeTick('\u0131abc')).toBe('IABC');
    expect(normalizeTick('stra\u00dfe')).toBeNull();
  });

  it('a 64-character tick or ca is a contract address: hex, lower-cased', () => {
    const ca = 'AB'.repeat(32);
    expect(normalizeContractAddress(ca)).toBe('ab'.repeat(32));
    expect(normalizeTickOrContract(ca)).toBe('ab'.repeat(32));
    expect(normalizeTickOrContract('zz'.repeat(32))).toBeNull();
    expect(normalizeTickOrContract('ab'.repeat(33))).toBeNull();
  });

  it('amounts: canonical positive integers up to 32 nines', () => {
    expect(parseAmount('1')).toBe(1n);
    expect(parseAmount(MAX_AMOUNT.toString())).toBe(MAX_AMOUNT);
    expect(parseAmount((MAX_AMOUNT + 1n).toString())).toBeNull();
    for (const bad of ['', '0', '0100', '+5', '-5', '1.5', '1e3', ' 1', '1_000']) expect(parseAmount(bad)).toBeNull();
  });

  it('dec: canonical 0–18, empty means 8', () => {
    expect(parseDecimals('')).toBe(8);
    expect(parseDecimals('0')).toBe(0);
    expect(parseDecimals('18')).toBe(18);
    for (const bad of ['19', '08', '-1', '+1', '1.0', 'x']) expect(parseDecimals(bad)).toBeNull();
  });

  it('p is upper-cased and must be KRC-20; op is lower-cased and must be a known op', () => {
    expect(normalizeProtocol('krc-20')).toBe('KRC-20');
    expect(normalizeProtocol('brc-20')).toBeNull();
    expect(normalizeOpName('MINT')).toBe('mint');
    expect(normalizeOpName('blac\u212alist')).toBe('blacklist');
    expect(normalizeOpName('swap')).toBeNull();
  });

  it('addresses must be canonical for the network prefix', () => {
    expect(isValidTokenAddress(alice.address, 'kaspadev')).toBe(true);
    expect(isValidTokenAddress(schnorrParty(1, 'kaspa').address, 'kaspadev')).toBe(false);
    expect(isValidTokenAddress(alice.address.toUpperCase(), 'kaspadev')).toBe(false);
    expect(isValidTokenAddress(`${alice.address.slice(0, -1)}q`, 'kaspadev')).toBe(false);
    expect(isValidTokenAddress('kaspadev:', 'kaspadev')).toBe(false);
  });
});

describe('validation of each op (dropped ops have no record)', () => {
  it('deploy (mint mode): tick, max, lim required; dec defaults to 8; pre defaults to 0; to defaults to from', () => {
    expect(singleOp({ p: 'krc-20', op: 'deploy', tick: 'abcd', max: '100', lim: '10' })).toEqual({
      op: 'deploy',
      mode: 'mint',
      tick: 'ABCD',
      name: '',
      max: 100n,
      lim: 10n,
      pre: 0n,
      dec: 8,
      from: alice.address,
      to: alice.address,
      inputIndex: 0,
    });
    expect(singleOp({ p: 'krc-20', op: 'deploy', tick: 'abcd', max: '100' })).toBeNull();
    expect(singleOp({ p: 'krc-20', op: 'deploy', tick: 'abcd', max: '100', lim: '1', dec: '19' })).toBeNull();
    expect(singleOp({ p: 'krc-20', op: 'deploy', tick: 'abcd', max: '100', lim: '1', pre: '007' })).toMatchObject({ pre: 0n });
  });

  it('deploy (issue mode): the ca is the reveal tx id, lim is 0, max "0" means unlimited, name is a tick', () => {
    const op = singleOp({ p: 'krc-20', op: 'deploy', mod: 'issue', name: 'usdx', max: '0', to: bob.address });
    expect(op).toMatchObject({ op: 'deploy', mode: 'issue', tick: 'aa'.repeat(32), name: 'USDX', max: 0n, lim: 0n, to: bob.address });
    expect(singleOp({ p: 'krc-20', op: 'deploy', mod: 'issue', name: 'us1', max: '0' })).toBeNull();
  });

  it('mint: tick required, amt ignored, to defaults to from', () => {
    expect(singleOp({ p: 'krc-20', op: 'mint', tick: 'abcd', amt: '999' })).toEqual({
      op: 'mint',
      tick: 'ABCD',
      to: alice.address,
      from: alice.address,
      inputIndex: 0,
    });
  });

  it('transfer: to and amt required; a valid ca replaces the tick', () => {
    expect(singleOp({ p: 'krc-20', op: 'transfer', tick: 'abcd', amt: '5' })).toBeNull();
    const ca = 'cd'.repeat(32);
    expect(singleOp({ p: 'krc-20', op: 'transfer', tick: 'abcd', ca, amt: '5', to: bob.address })).toMatchObject({
      tick: ca,
      amt: 5n,
      to: bob.address,
    });
  });

  it('transfer memo: kept (ASCII, cut to 256) only after the v3 fork', () => {
    const op = { p: 'krc-20', op: 'transfer', tick: 'abcd', amt: '5', to: bob.address, memo: 'm'.repeat(300) };
    expect(singleOp(op)).toMatchObject({ memo: 'm'.repeat(256) });
    const v2 = testNetworkProfile('kaspadev', { payloadFrom: null });
    expect(singleOp(op, alice, v2)).toMatchObject({ memo: null });
  });

  it('burn and list need amt; chown needs to; issue and blacklist need a ca', () => {
    const ca = 'cd'.repeat(32);
    expect(singleOp({ p: 'krc-20', op: 'burn', tick: 'abcd' })).toBeNull();
    expect(singleOp({ p: 'krc-20', op: 'burn', tick: 'abcd', amt: '1' })).toMatchObject({ op: 'burn', amt: 1n });
    expect(singleOp({ p: 'krc-20', op: 'chown', tick: 'abcd' })).toBeNull();
    expect(singleOp({ p: 'krc-20', op: 'issue', tick: 'abcd', amt: '1' })).toBeNull();
    expect(singleOp({ p: 'krc-20', op: 'issue', ca, amt: '1' })).toMatchObject({ op: 'issue', tick: ca, to: alice.address });
    expect(singleOp({ p: 'krc-20', op: 'blacklist', ca, to: bob.address, mod: 'ban' })).toBeNull();
    expect(singleOp({ p: 'krc-20', op: 'blacklist', ca, to: bob.address, mod: 'add' })).toMatchObject({ mod: 'add' });
  });

  it('list records outputs[0] as the listing UTXO', () => {
    const accepted = reveal({
      signer: alice,
      op: { p: 'krc-20', op: 'list', tick: 'abcd', amt: '7' },
      inputAmount: 3n * KAS,
      outputs: [{ address: listingAddress(alice, 'ABCD'), value: KAS }],
    });
    expect(opsOf(accepted)![0]).toMatchObject({
      op: 'list',
      amt: 7n,
      utxo: { txId: 'aa'.repeat(32), address: listingAddress(alice, 'ABCD'), amount: KAS },
    });
  });

  it('send at input 0 with two outputs is a fill (to = outputs[1], price = outputs[0]); otherwise a cancel', () => {
    const listTxId = '11'.repeat(32);
    const fill = transaction([sendInput(alice, 'ABCD', listTxId)], [
      { address: alice.address, value: 50n * KAS },
      { address: bob.address, value: KAS },
    ]);
    expect(opsOf(fill)![0]).toMatchObject({ op: 'send', tick: 'ABCD', to: bob.address, price: 50n * KAS, listingTxId: listTxId });
    const cancel = transaction([sendInput(alice, 'ABCD', listTxId)], [{ address: alice.address, value: KAS }]);
    expect(opsOf(cancel)![0]).toMatchObject({ op: 'send', to: alice.address, price: 0n });
  });

  it('drops ops with a non-ASCII to, an unknown p or op', () => {
    expect(singleOp({ p: 'krc-20', op: 'mint', tick: 'abcd', to: 'kaspadev:\u00e9' })).toBeNull();
    expect(singleOp({ p: 'krc-21', op: 'mint', tick: 'abcd' })).toBeNull();
    expect(singleOp({ p: 'krc-20', op: 'swap', tick: 'abcd' })).toBeNull();
  });
});

describe('krc20-vectors.json JSON rule vectors', () => {
  interface RuleVector {
    json: string;
    expect: string;
  }
  const rules = readVectors<{ jsonRuleVectors_derivedFromSource: RuleVector[] }>('krc20-vectors.json')
    .jsonRuleVectors_derivedFromSource;
  const outcome: Record<string, (op: TokenOp | null) => void> = {
    'dropped': (op) => expect(op).toBeNull(),
    'ignored': (op) => {
      expect(op).toMatchObject({ op: 'deploy', tick: 'KASP' });
      const engine = createTokenEngine({ profile: DEVNET_PROFILE });
      const block = engine.applyBlock(
        acceptedBlock(10n, [reveal({ signer: alice, op: rules[0]!.json, inputAmount: 2n * KAS })]),
      );
      expect(block.ops[0]?.opError).toBe('tick ignored');
    },
    'mint': (op) => expect(op).toEqual({ op: 'mint', tick: 'ABCD', to: alice.address, from: alice.address, inputIndex: 0 }),
    'send': (op) => expect(op).toMatchObject({ op: 'send', tick: 'ABCD' }),
  };

  it.each(rules.map((rule) => [rule.json, rule] as const))('%s', (_json, rule) => {
    const kind = rule.expect.includes('tick ignored')
      ? 'ignored'
      : rule.expect.startsWith('valid mint')
        ? 'mint'
        : rule.expect.startsWith('valid send')
          ? 'send'
          : 'dropped';
    expect(rule.expect.includes('dropped') || kind !== 'dropped').toBe(true);
    if (kind === 'send') {
      const op = opsOf(transaction([sendInput(alice, 'abcd', '22'.repeat(32))], [{ address: alice.address, value: KAS }]));
      outcome.send!(op![0]!);
      return;
    }
    outcome[kind]!(singleOp(rule.json));
  });
});

describe('which inputs count', () => {
  it('only input 0 carries a normal op; later inputs only send', () => {
    const mintAtOne = reveal({ signer: bob, op: { p: 'krc-20', op: 'mint', tick: 'efgh' }, inputAmount: 2n * KAS });
    const tx = reveal({
      signer: alice,
      op: { p: 'krc-20', op: 'mint', tick: 'abcd' },
      inputAmount: 2n * KAS,
      extraInputs: [
        { signatureScript: mintAtOne.transaction.inputs[0]!.signatureScript },
        sendInput(bob, 'ABCD', '33'.repeat(32)),
      ],
    });
    const ops = opsOf(tx)!;
    expect(ops.map((op) => [op.op, op.inputIndex])).toEqual([
      ['mint', 0],
      ['send', 2],
    ]);
    expect(ops[1]).toMatchObject({ to: bob.address, price: 0n });
  });

  it('a transaction without envelopes carries no op', () => {
    expect(opsOf(transaction([{ signatureScript: new Uint8Array(66) }], [{ address: alice.address, value: KAS }]))).toBeNull();
  });
});

describe('mainnet activation windows', () => {
  const mint = { p: 'krc-20', op: 'mint', tick: 'abcd' };

  it('nothing counts before the first window or during the pause', () => {
    expect(singleOp(mint, alice, MAINNET_PROFILE, 83_441_550n)).toBeNull();
    expect(singleOp(mint, alice, MAINNET_PROFILE, 83_441_551n)).not.toBeNull();
    expect(singleOp(mint, alice, MAINNET_PROFILE, 83_525_601n)).toBeNull();
    expect(singleOp(mint, alice, MAINNET_PROFILE, 90_090_599n)).toBeNull();
    expect(singleOp(mint, alice, MAINNET_PROFILE, 90_090_600n)).not.toBeNull();
  });

  it('in the first window to is the address of outputs[0]', () => {
    const mainAlice = schnorrParty(1, 'kaspa');
    const mainBob = schnorrParty(2, 'kaspa');
    const tx = reveal({ signer: mainAlice, op: mint, inputAmount: 2n * KAS, outputs: [{ address: mainBob.address, value: KAS }] });
    expect(opsOf(tx, MAINNET_PROFILE, 83_500_000n)![0]).toMatchObject({ to: mainBob.address });
    expect(opsOf(tx, MAINNET_PROFILE, 90_100_000n)![0]).toMatchObject({ to: mainAlice.address });
  });

  it('list and send from 97,539,090; burn, chown, issue and blacklist from 110,165,000', () => {
    const mainAlice = schnorrParty(1, 'kaspa');
    const list = { p: 'krc-20', op: 'list', tick: 'abcd', amt: '1' };
    expect(singleOp(list, mainAlice, MAINNET_PROFILE, 97_539_089n)).toBeNull();
    expect(singleOp(list, mainAlice, MAINNET_PROFILE, 97_539_090n)).not.toBeNull();
    const burn = { p: 'krc-20', op: 'burn', tick: 'abcd', amt: '1' };
    expect(singleOp(burn, mainAlice, MAINNET_PROFILE, 110_164_999n)).toBeNull();
    expect(singleOp(burn, mainAlice, MAINNET_PROFILE, 110_165_000n)).not.toBeNull();
  });

  it('before issue mode a mod:"issue" deploy is read as a mint-mode deploy', () => {
    const mainAlice = schnorrParty(1, 'kaspa');
    const op = { p: 'krc-20', op: 'deploy', mod: 'issue', name: 'usdx', tick: 'abcd', max: '10', lim: '1' };
    expect(singleOp(op, mainAlice, MAINNET_PROFILE, 100_000_000n)).toMatchObject({ mode: 'mint', tick: 'ABCD' });
    expect(singleOp(op, mainAlice, MAINNET_PROFILE, 110_165_000n)).toMatchObject({ mode: 'issue', name: 'USDX' });
  });
});

describe('payload ops (v3)', () => {
  function payloadTx(json: string, extraEnvelope?: AcceptedTransaction): AcceptedTransaction {
    const base = extraEnvelope ?? transaction(
      [{ signatureScript: new Uint8Array(66), spent: { amount: 5n * KAS, scriptPublicKey: { version: 0, script: alice.signerScript } } }],
      [{ address: alice.address, value: KAS }],
    );
    return { ...base, transaction: { ...base.transaction, payload: new TextEncoder().encode(json) } };
  }

  it('reads the op from the payload, with from = the address input 0 spends', () => {
    const tx = payloadTx(`{"p":"krc-20","op":"transfer","tick":"abcd","amt":"3","to":"${bob.address}"}`);
    expect(opsOf(tx)).toEqual([{ op: 'transfer', tick: 'ABCD', to: bob.address, amt: 3n, memo: null, from: alice.address, inputIndex: 0 }]);
    const v2 = testNetworkProfile('kaspadev', { payloadFrom: null });
    expect(opsOf(tx, v2)).toBeNull();
  });

  it('replaces an envelope op, but not when the transaction carries a send; never a send itself', () => {
    const envelope = reveal({ signer: alice, op: { p: 'krc-20', op: 'mint', tick: 'abcd' }, inputAmount: 2n * KAS });
    const replaced = payloadTx('{"p":"krc-20","op":"mint","tick":"efgh"}', envelope);
    const parsed = parseTransactionOps(replaced.transaction, { profile: DEVNET_PROFILE, txId: '00'.repeat(32), daaScore: 5n, spentOutputs: replaced.spentOutputs })!;
    expect(parsed.fromPayload).toBe(true);
    expect(parsed.scripts.map((script) => script.op.tick)).toEqual(['EFGH']);
    const withSend = payloadTx('{"p":"krc-20","op":"mint","tick":"efgh"}', transaction([sendInput(alice, 'ABCD', '44'.repeat(32))], [{ address: alice.address, value: KAS }]));
    expect(opsOf(withSend)!.map((op) => op.op)).toEqual(['send']);
    expect(opsOf(payloadTx('{"p":"krc-20","op":"send","tick":"abcd"}'))).toBeNull();
  });

  it('uses case-sensitive keys in the payload', () => {
    expect(opsOf(payloadTx('{"p":"krc-20","op":"mint","TICK":"abcd"}'))).toBeNull();
  });
});

describe('revealFee', () => {
  it('is Σ known inputs − Σ outputs, 0 when not positive, undefined without spent outputs', () => {
    const tx = reveal({ signer: alice, op: { p: 'krc-20', op: 'mint', tick: 'abcd' }, inputAmount: 3n * KAS });
    expect(revealFee(tx.transaction, tx.spentOutputs)).toBe(2n * KAS);
    expect(revealFee(tx.transaction, [null])).toBe(0n);
    expect(revealFee(tx.transaction)).toBeUndefined();
  });
});
