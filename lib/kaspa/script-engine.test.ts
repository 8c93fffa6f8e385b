import { describe, expect, it } from 'vitest';
import { payToPublicKeyScript, payToScriptHashScript } from './address';
import { concatBytes } from './bytes';
import { blake2b256 } from './hashing';
import {
  executeInputScripts,
  MAX_SCRIPT_ELEMENT_SIZE,
  OP_CHECKMULTISIG,
  OP_CHECKSIG,
  OP_CHECKSIGECDSA,
  OP_ENDIF,
  OP_FALSE,
  OP_IF,
  OP_PUSHDATA1,
  OP_PUSHDATA2,
  OP_PUSHDATA4,
  parseScript,
  sigOpCountUpperBound,
  ScriptError,
  type ScriptExecution,
} from './script-engine';
import { calcEcdsaSignatureHash, calcSchnorrSignatureHash, SIG_HASH_ALL, SIG_HASH_ANY_ONE_CAN_PAY, SIG_HASH_SINGLE } from './sighash';
import { ecdsaPublicKey, schnorrPublicKey, signEcdsa, signSchnorr } from './signing';
import { SUBNETWORK_ID_NATIVE, type Transaction, type UtxoEntry } from './types';

const KEY = blake2b256(new TextEncoder().encode('script-engine-test:alice'));
const OTHER_KEY = blake2b256(new TextEncoder().encode('script-engine-test:bob'));
const AUX = new Uint8Array(32);
const KASPLEX = new TextEncoder().encode('kasplex');
const OP_CAT = 0x7e;
const OP_DUP = 0x76;

function push(data: Uint8Array): Uint8Array {
  if (data.length <= 75) return concatBytes(Uint8Array.of(data.length), data);
  if (data.length <= 0xff) return concatBytes(Uint8Array.of(OP_PUSHDATA1, data.length), data);
  return concatBytes(Uint8Array.of(OP_PUSHDATA2, data.length & 0xff, data.length >> 8), data);
}

/** `<key> OP_CHECKSIG(ECDSA) OP_FALSE OP_IF "kasplex" OP_0 <json> <extra> OP_ENDIF`, assembled byte by byte. */
function envelope(json: string, options: { ecdsa?: boolean; extra?: Uint8Array; privateKey?: Uint8Array; endIf?: boolean } = {}) {
  const privateKey = options.privateKey ?? KEY;
  const key = options.ecdsa ? ecdsaPublicKey(privateKey) : schnorrPublicKey(privateKey);
  return concatBytes(
    push(key),
    Uint8Array.of(options.ecdsa ? OP_CHECKSIGECDSA : OP_CHECKSIG, OP_FALSE, OP_IF),
    push(KASPLEX),
    Uint8Array.of(OP_FALSE),
    push(new TextEncoder().encode(json)),
    options.extra ?? new Uint8Array(0),
    options.endIf === false ? new Uint8Array(0) : Uint8Array.of(OP_ENDIF),
  );
}

const MINT = '{"p":"krc-20","op":"mint","tick":"dagb"}';

interface Spend {
  tx: Transaction;
  entries: UtxoEntry[];
}

function revealSpend(redeemScript: Uint8Array, sigOpCount = 1): Spend {
  const entries: UtxoEntry[] = [
    { amount: 200_000_000n, scriptPublicKey: payToScriptHashScript(redeemScript), blockDaaScore: 10n, isCoinbase: false },
  ];
  const tx: Transaction = {
    version: 0,
    inputs: [{ previousOutpoint: { transactionId: new Uint8Array(32).fill(7), index: 0 }, signatureScript: new Uint8Array(0), sequence: 0n, sigOpCount }],
    outputs: [{ value: 90_000_000n, scriptPublicKey: payToPublicKeyScript(schnorrPublicKey(KEY)) }],
    lockTime: 0n,
    subnetworkId: SUBNETWORK_ID_NATIVE,
    gas: 0n,
    payload: new Uint8Array(0),
    storageMass: 0n,
  };
  return { tx, entries };
}

function signature(spend: Spend, options: { ecdsa?: boolean; privateKey?: Uint8Array; hashType?: number } = {}): Uint8Array {
  const hashType = options.hashType ?? SIG_HASH_ALL;
  const privateKey = options.privateKey ?? KEY;
  const signed = options.ecdsa
    ? signEcdsa(calcEcdsaSignatureHash(spend.tx, 0, spend.entries, hashType as 1), privateKey)
    : signSchnorr(calcSchnorrSignatureHash(spend.tx, 0, spend.entries, hashType as 1), privateKey, AUX);
  return Uint8Array.of(...signed, hashType);
}

function run(spend: Spend, signatureScript: Uint8Array): ScriptExecution {
  const tx = { ...spend.tx, inputs: [{ ...spend.tx.inputs[0]!, signatureScript }] };
  return executeInputScripts({ tx, inputIndex: 0, entries: spend.entries });
}

function reveal(redeemScript: Uint8Array, options: Parameters<typeof signature>[1] & { sigOpCount?: number } = {}) {
  const spend = revealSpend(redeemScript, options.sigOpCount);
  return run(spend, concatBytes(push(signature(spend, options)), push(redeemScript)));
}

const invalid = (error: string): ScriptExecution => ({ status: 'invalid', error });

describe('executeInputScripts: the Kasplex envelope', () => {
  it('accepts a Schnorr reveal: the signature is checked and the envelope branch is skipped', () => {
    expect(reveal(envelope(MINT))).toEqual({ status: 'valid' });
  });

  it('accepts an ECDSA reveal (33-byte key, OP_CHECKSIGECDSA)', () => {
    expect(reveal(envelope(MINT, { ecdsa: true }), { ecdsa: true })).toEqual({ status: 'valid' });
  });

  it('accepts SIGHASH_SINGLE|ANYONECANPAY, the listing signature', () => {
    expect(reveal(envelope(MINT), { hashType: SIG_HASH_SINGLE | SIG_HASH_ANY_ONE_CAN_PAY })).toEqual({ status: 'valid' });
  });

  it('accepts a redeem script pushed with OP_PUSHDATA2 (above 255 bytes) and rejects one above 520 bytes', () => {
    const large = envelope(`{"p":"krc-20","op":"mint","tick":"dagb","pad":"${'x'.repeat(300)}"}`);
    expect(large.length).toBeGreaterThan(255);
    expect(reveal(large)).toEqual({ status: 'valid' });
    const tooLarge = envelope(`{"p":"krc-20","op":"mint","tick":"dagb","pad":"${'x'.repeat(500)}"}`);
    expect(reveal(tooLarge)).toEqual(invalid(`element size ${tooLarge.length} exceeds max allowed size ${MAX_SCRIPT_ELEMENT_SIZE}`));
  });

  it('rejects a signature by another key with a false stack entry', () => {
    expect(reveal(envelope(MINT), { privateKey: OTHER_KEY })).toEqual(invalid('false stack entry at end of script execution'));
  });

  it('rejects a signature made over other transaction data', () => {
    const redeem = envelope(MINT);
    const spend = revealSpend(redeem);
    const sig = signature(spend);
    const changed = { ...spend, tx: { ...spend.tx, outputs: [{ ...spend.tx.outputs[0]!, value: 80_000_000n }] } };
    expect(run(changed, concatBytes(push(sig), push(redeem)))).toEqual(invalid('false stack entry at end of script execution'));
  });

  it('treats an empty signature as false without using a sig op', () => {
    const redeem = envelope(MINT);
    expect(run(revealSpend(redeem, 0), concatBytes(Uint8Array.of(OP_FALSE), push(redeem)))).toEqual(
      invalid('false stack entry at end of script execution'),
    );
  });

  it('consumes one sig op per signature check at run time', () => {
    expect(reveal(envelope(MINT), { sigOpCount: 0 })).toEqual(invalid('sig op count exceeds passed limit of 0'));
    expect(reveal(envelope(MINT), { sigOpCount: 3 })).toEqual({ status: 'valid' });
  });

  it('rejects an invalid sighash type, a short signature and an off-curve key with kaspad v2.0.1 texts', () => {
    const redeem = envelope(MINT);
    const spend = revealSpend(redeem);
    const sig = signature(spend);
    const badType = Uint8Array.of(...sig.subarray(0, 64), 0x05);
    expect(run(spend, concatBytes(push(badType), push(redeem)))).toEqual(invalid('invalid hash type 0x05'));
    expect(run(spend, concatBytes(push(sig.subarray(1)), push(redeem)))).toEqual(invalid('signature invalid: malformed signature'));
    const offCurve = concatBytes(push(new Uint8Array(32)), envelope(MINT).subarray(33));
    const offSpend = revealSpend(offCurve);
    expect(run(offSpend, concatBytes(push(signature(offSpend)), push(offCurve)))).toEqual(
      invalid('pubkey invalid: malformed public key'),
    );
  });

  it('requires a push-only signature script and minimal pushes for executed data', () => {
    const redeem = envelope(MINT);
    const spend = revealSpend(redeem);
    const sig = signature(spend);
    expect(run(spend, concatBytes(push(sig), Uint8Array.of(OP_DUP), push(redeem)))).toEqual(invalid('signature script is not push only'));
    const nonMinimal = concatBytes(push(sig), Uint8Array.of(OP_PUSHDATA4, redeem.length, 0, 0, 0), redeem);
    const result = run(spend, nonMinimal);
    expect(result.status).toBe('invalid');
    expect((result as { error: string }).error).toMatch(
      new RegExp(`^push encoding is not minimal: data push of ${redeem.length} bytes encoded with opcode Opcode<0x4e>\\{ data:\\[\\d`),
    );
    expect((result as { error: string }).error).toMatch(/ instead of OP_PUSHDATA1$/);
  });

  it('skips a non-minimal push inside the branch not taken but still rejects disabled opcodes there', () => {
    const skippedNonMinimal = envelope(MINT, { extra: Uint8Array.of(OP_PUSHDATA1, 3, 1, 2, 3) });
    expect(reveal(skippedNonMinimal)).toEqual({ status: 'valid' });
    const unimplementedSkipped = envelope(MINT, { extra: Uint8Array.of(OP_DUP) });
    expect(reveal(unimplementedSkipped)).toEqual({ status: 'valid' });
    const disabled = envelope(MINT, { extra: Uint8Array.of(OP_CAT) });
    expect(reveal(disabled)).toEqual(invalid('attempt to execute disabled opcode Opcode<0x7e>{ data:[] }'));
  });

  it('rejects an envelope without OP_ENDIF as an unbalanced conditional', () => {
    expect(reveal(envelope(MINT, { endIf: false }))).toEqual(invalid('end of script reached in conditional execution'));
  });

  it('runs stack opcodes before the envelope: a signature duplicated by OP_DUP is left as an extra item', () => {
    const redeem = concatBytes(Uint8Array.of(OP_DUP), envelope(MINT));
    expect(reveal(redeem)).toEqual(invalid('stack contains 1 unexpected items'));
  });

  it('rejects a redeem script whose hash the spent output does not commit to', () => {
    const redeem = envelope(MINT);
    const spend = revealSpend(envelope('{"p":"krc-20","op":"mint","tick":"other"}'));
    expect(run(spend, concatBytes(push(signature(spend)), push(redeem)))).toEqual(invalid('false stack entry at end of script execution'));
  });

  it('rejects an envelope leaving extra items as an unclean stack', () => {
    const redeem = concatBytes(envelope(MINT), Uint8Array.of(0x51));
    expect(reveal(redeem)).toEqual(invalid('stack contains 1 unexpected items'));
  });
});

describe('parseScript', () => {
  it('reads pushes of every width and fails lazily on a truncated push', () => {
    const ops = [...parseScript(Uint8Array.of(0x02, 1, 2, OP_PUSHDATA1, 1, 9, OP_PUSHDATA2, 1, 0, 8, OP_PUSHDATA4, 1, 0, 0, 0, 7, 0xac))];
    expect(ops.map((op) => [op.opcode, [...op.data]])).toEqual([
      [0x02, [1, 2]],
      [OP_PUSHDATA1, [9]],
      [OP_PUSHDATA2, [8]],
      [OP_PUSHDATA4, [7]],
      [0xac, []],
    ]);
    const truncated = parseScript(Uint8Array.of(0x51, 0x20, 1, 2, 3));
    expect(truncated.next().value).toEqual({ opcode: 0x51, data: new Uint8Array(0) });
    expect(() => truncated.next()).toThrow(new ScriptError('opcode requires 32 bytes, but script only has 3 remaining'));
    expect(() => [...parseScript(Uint8Array.of(OP_PUSHDATA2, 5))]).toThrow(new ScriptError('invalid opcode length: [05]'));
  });
});

describe('sigOpCountUpperBound', () => {
  const redeem = envelope(MINT);
  const p2sh = payToScriptHashScript(redeem).script;

  it('counts the redeem script of a P2SH spend, including sig ops in branches not taken', () => {
    expect(sigOpCountUpperBound(concatBytes(push(new Uint8Array(65)), push(redeem)), p2sh)).toBe(1);
    const heavy = envelope(MINT, { extra: new Uint8Array(16).fill(OP_CHECKSIG) });
    expect(sigOpCountUpperBound(concatBytes(push(new Uint8Array(65)), push(heavy)), payToScriptHashScript(heavy).script)).toBe(17);
  });

  it('counts a multisig by its key count, or 20 without one', () => {
    const multisig = Uint8Array.of(0x52, OP_FALSE, OP_FALSE, 0x53, OP_CHECKMULTISIG);
    expect(sigOpCountUpperBound(push(multisig), payToScriptHashScript(multisig).script)).toBe(3);
    expect(sigOpCountUpperBound(push(Uint8Array.of(OP_CHECKMULTISIG)), payToScriptHashScript(Uint8Array.of(OP_CHECKMULTISIG)).script)).toBe(20);
  });

  it('is 0 for an empty or non-push signature script, and counts the spent script otherwise', () => {
    expect(sigOpCountUpperBound(new Uint8Array(0), p2sh)).toBe(0);
    expect(sigOpCountUpperBound(concatBytes(Uint8Array.of(OP_DUP), push(redeem)), p2sh)).toBe(0);
    expect(sigOpCountUpperBound(new Uint8Array(0), payToPublicKeyScript(schnorrPublicKey(KEY)).script)).toBe(1);
  });
});
