import { describe, expect, it } from 'vitest';
import { payToPublicKeyScript, payToScriptHashScript } from '../../kaspa/address';
import { p2shSigOpCount } from './p2sh-sig-ops';

const CHECKSIG = 0xac;
const CHECKSIGVERIFY = 0xad;
const CHECKMULTISIG = 0xae;
const CHECKSIG_FROM_STACK = 0xd7;
const CHECKSIG_FROM_STACK_ECDSA = 0xd8;
const OP_2 = 0x52;
const OP_DROP = 0x75;

/** A signature script whose last push is `redeem`, and the P2SH script it spends. */
function spendOf(redeem: number[]): [Uint8Array, Uint8Array] {
  const push = redeem.length <= 75 ? [redeem.length, ...redeem] : [0x4c, redeem.length, ...redeem];
  return [Uint8Array.of(0x01, 0x07, ...push), payToScriptHashScript(Uint8Array.from(redeem)).script];
}

const count = (redeem: number[]) => p2shSigOpCount(...spendOf(redeem));

describe('post_toccata_p2sh_sig_scanner', () => {
  it('counts each signature check of the redeem script, from-stack variants included', () => {
    expect(count([CHECKSIG, CHECKSIGVERIFY, 0xab])).toBe(3);
    expect(count([CHECKSIG_FROM_STACK, CHECKSIG_FROM_STACK_ECDSA])).toBe(2);
  });

  it('takes a multisig key count from OP_1..OP_16 or any data push of 1..20, else assumes 20', () => {
    expect(count([OP_2, CHECKMULTISIG])).toBe(2);
    expect(count([0x01, 0x03, CHECKMULTISIG])).toBe(3);
    // Non-minimal pushes count too: 0x0500 is 5 with a redundant zero byte.
    expect(count([0x02, 0x05, 0x00, CHECKMULTISIG])).toBe(5);
    expect(count([0x01, 0x14, CHECKMULTISIG])).toBe(20);
    expect(count([0x01, 0x15, CHECKMULTISIG])).toBe(20);
    expect(count([0x01, 0x81, CHECKMULTISIG])).toBe(20);
    expect(count([CHECKMULTISIG])).toBe(20);
    // Only the opcode right before the multisig gives its count.
    expect(count([OP_2, OP_DROP, CHECKMULTISIG])).toBe(20);
  });

  it('is zero for a spend that is not P2SH or whose scripts do not parse', () => {
    const [signatureScript] = spendOf([CHECKSIG]);
    expect(p2shSigOpCount(signatureScript, payToPublicKeyScript(new Uint8Array(32)).script)).toBe(0);
    const [truncated, p2sh] = spendOf([CHECKSIG, CHECKSIG, 0x05, 0x01]);
    expect(p2shSigOpCount(truncated, p2sh)).toBe(0);
    expect(p2shSigOpCount(Uint8Array.of(0x02, 0x01), p2sh)).toBe(0);
    expect(p2shSigOpCount(new Uint8Array(0), p2sh)).toBe(0);
  });

  it('counts more than the standard 15 for a 16-key multisig', () => {
    expect(count([0x60, CHECKMULTISIG])).toBe(16);
  });
});
