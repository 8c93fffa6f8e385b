import { describe, expect, it } from 'vitest';
import { payToPublicKeyScript } from '../kaspa/address';
import { bytesToHex } from '../kaspa/bytes';
import { counterTemplate, covenantRedeemScript } from '../kaspa/covenant-templates';
import { blake2b256 } from '../kaspa/hashing';
import { schnorrPublicKey } from '../kaspa/signing';
import { counterCovenantLineage } from '../kaspa/test-support/covenant-fixture';
import { disassembleHex, disassembleScript, opcodeName, revealedRedeemScript } from './script-disassembly';

const OWNER_KEY = blake2b256(new TextEncoder().encode('script-disassembly-test:owner'));
const OWNER = schnorrPublicKey(OWNER_KEY);

describe('disassembleScript', () => {
  it('reads a pay-to-public-key script as its push and OP_CHECKSIG', () => {
    const script = payToPublicKeyScript(OWNER).script;
    expect(disassembleScript(script)).toEqual({ operations: [bytesToHex(OWNER), 'OP_CHECKSIG'], error: null });
  });

  it('names small numbers, the Toccata introspection opcodes and opcodes no name is known for', () => {
    expect(opcodeName(0x00)).toBe('OP_0');
    expect(opcodeName(0x51)).toBe('OP_1');
    expect(opcodeName(0x55)).toBe('OP_5');
    expect(opcodeName(0x60)).toBe('OP_16');
    expect(opcodeName(0xc3)).toBe('OP_TX_OUTPUT_SPK');
    expect(opcodeName(0xcf)).toBe('OP_INPUT_COVENANT_ID');
    expect(opcodeName(0xca)).toBe('OP_UNKNOWN_0xca');
    expect(disassembleHex('4c03aabbcc00').operations).toEqual(['OP_PUSHDATA1 aabbcc', 'OP_0']);
  });

  it('shows what parsed before a push that runs past the end, and why it stopped', () => {
    expect(disassembleHex('7605aabb')).toEqual({
      operations: ['OP_DUP'],
      error: 'opcode requires 5 bytes, but script only has 2 remaining',
    });
    expect(disassembleHex('zz').error).toBe('not hexadecimal');
  });

  it('reads a covenant redeem script: its state prefix, then the body that enforces the successor', () => {
    const redeem = covenantRedeemScript(counterTemplate(OWNER, { maxFee: 50_000n }), 7);
    const { operations, error } = disassembleScript(redeem);
    expect(error).toBeNull();
    expect(operations.slice(0, 2)).toEqual(['0700000000000000', bytesToHex(OWNER)]);
    expect(operations).toContain('OP_TX_OUTPUT_SPK');
    expect(operations).toContain('OP_CHECKSIGVERIFY');
    expect(operations).toContain('OP_AUTH_OUTPUT_COUNT');
  });
});

describe('revealedRedeemScript', () => {
  it('finds the redeem script a covenant continuation reveals in its signature script', () => {
    const { template, continuation } = counterCovenantLineage('script-disassembly-test:lineage');
    const signatureScript = bytesToHex(continuation.tx.inputs[0]!.signatureScript);
    expect(revealedRedeemScript(signatureScript)).toBe(bytesToHex(covenantRedeemScript(template, 0)));
  });

  it('finds nothing when the signature script does not end in a push or is not a script', () => {
    expect(revealedRedeemScript('01aa76')).toBeNull();
    expect(revealedRedeemScript('')).toBeNull();
    expect(revealedRedeemScript('4c05aa')).toBeNull();
  });
});
