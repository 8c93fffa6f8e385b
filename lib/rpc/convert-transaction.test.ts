import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesToHex } from '../kaspa/bytes';
import { transactionHash, transactionId } from '../kaspa/transaction';
import type { Transaction } from '../kaspa/types';
import { stringifyJson } from './json';
import { parseWireMessage } from './protocol';
import { requestSchemas } from './request-schemas';
import type { RpcUtxoEntry } from './types';
import { scriptPublicKeyFromRpc, transactionFromRpc, transactionToRpc, utxoEntryFromRpc } from './convert-transaction';

const U64_MAX = (1n << 64n) - 1n;
const bytes = (min: number, max: number) => fc.uint8Array({ minLength: min, maxLength: max });

const transactionArbitrary: fc.Arbitrary<Transaction> = fc.record({
  version: fc.constant(0),
  inputs: fc.array(
    fc.record({
      previousOutpoint: fc.record({ transactionId: bytes(32, 32), index: fc.nat({ max: 0xffff_ffff }) }),
      signatureScript: bytes(0, 80),
      sequence: fc.bigInt({ min: 0n, max: U64_MAX }),
      sigOpCount: fc.nat({ max: 255 }),
    }),
    { maxLength: 4 },
  ),
  outputs: fc.array(
    fc.record({
      value: fc.bigInt({ min: 0n, max: U64_MAX }),
      scriptPublicKey: fc.record({ version: fc.nat({ max: 0xffff }), script: bytes(0, 40) }),
    }),
    { maxLength: 4 },
  ),
  lockTime: fc.bigInt({ min: 0n, max: U64_MAX }),
  subnetworkId: bytes(20, 20),
  gas: fc.bigInt({ min: 0n, max: U64_MAX }),
  payload: bytes(0, 64),
  storageMass: fc.bigInt({ min: 0n, max: U64_MAX }),
});

describe('wRPC transaction form', () => {
  it('survives the JSON codec and the server request decoder unchanged, ids included', () => {
    fc.assert(
      fc.property(transactionArbitrary, fc.boolean(), (tx, allowOrphan) => {
        const wire = parseWireMessage(stringifyJson({ transaction: transactionToRpc(tx), allowOrphan }));
        const decoded = requestSchemas.submitTransaction.parse(wire);
        expect(decoded.allowOrphan).toBe(allowOrphan);
        const back = transactionFromRpc(decoded.transaction);
        expect(back).toEqual(tx);
        expect(bytesToHex(transactionId(back))).toBe(bytesToHex(transactionId(tx)));
        expect(bytesToHex(transactionHash(back))).toBe(bytesToHex(transactionHash(tx)));
      }),
      { numRuns: 60 },
    );
  });

  it('writes u64 fields as bare JSON integers and script public keys as objects', () => {
    const tx: Transaction = {
      version: 0,
      inputs: [
        {
          previousOutpoint: { transactionId: new Uint8Array(32).fill(0xab), index: 1 },
          signatureScript: Uint8Array.of(1, 2),
          sequence: U64_MAX,
          sigOpCount: 1,
        },
      ],
      outputs: [{ value: 2n ** 60n + 1n, scriptPublicKey: { version: 0, script: Uint8Array.of(0x20, 0xac) } }],
      lockTime: 2n ** 53n + 1n,
      subnetworkId: new Uint8Array(20),
      gas: 0n,
      payload: Uint8Array.of(0xff),
      storageMass: 123n,
    };
    const json = stringifyJson(transactionToRpc(tx));
    expect(json).toContain('"sequence":18446744073709551615');
    expect(json).toContain('"lockTime":9007199254740993');
    expect(json).toContain('"value":1152921504606846977');
    expect(json).toContain('"scriptPublicKey":{"version":0,"script":"20ac"}');
    expect(json).toContain('"storageMass":123');
    expect(json).not.toContain('computeBudget');
    expect(json).not.toContain('"mass"');
  });

  it('reads the string form of script public keys and UTXO entries as the node sends them', () => {
    expect(scriptPublicKeyFromRpc('000120ac')).toEqual({ version: 1, script: Uint8Array.of(0x20, 0xac) });
    const entry: RpcUtxoEntry = {
      amount: 5n,
      scriptPublicKey: '000020ac',
      blockDaaScore: 7n,
      isCoinbase: true,
      covenantId: null,
    };
    expect(utxoEntryFromRpc(entry)).toEqual({
      amount: 5n,
      scriptPublicKey: { version: 0, script: Uint8Array.of(0x20, 0xac) },
      blockDaaScore: 7n,
      isCoinbase: true,
      covenantId: null,
    });
  });
});
