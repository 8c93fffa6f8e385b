import { describe, expect, expectTypeOf, it } from 'vitest';
import { notificationMethod, parseWireMessage, RPC_EVENT_NAMES, isRpcApiOp } from './protocol';
import { type DecodedRequest, decodeScope, requestSchemas, transactionSchema } from './request-schemas';
import type { RpcHeader, RpcRequest, RpcTransaction } from './types';

const HASH = 'ab'.repeat(32);
const P2PK = `000020${'bb'.repeat(32)}ac`;
const ADDRESS = 'kaspadev:qr0lr4m8nq0ql7ga4xkmrkqrq7ez26s0d0p6r8n6v9c6p0ra8l0ds6zlaqyaz';

/** The four JSON texts of rpc/core/src/model/tx.rs `rpc_transaction_json_tests` (rusty-kaspa 2.0). */
const txJson = (massFields: string) =>
  `{"version":1,"inputs":[],"outputs":[],"lockTime":0,"subnetworkId":"0000000000000000000000000000000000000000","gas":0,"payload":"",${massFields}"verboseData":null}`;

function decodeTransaction(text: string) {
  return transactionSchema.safeParse(parseWireMessage(text));
}

describe('transactionSchema (RpcTransaction custom Deserialize)', () => {
  it('accepts storageMass alone, mass alone, or both when equal, and emits both', () => {
    for (const fields of ['"storageMass":123,', '"mass":123,', '"storageMass":123,"mass":123,']) {
      const decoded = decodeTransaction(txJson(fields));
      expect(decoded.success, fields).toBe(true);
      expect(decoded.data).toMatchObject({ storageMass: 123n, mass: 123n, verboseData: null });
    }
  });

  it('rejects conflicting or missing mass like serde does', () => {
    const conflicting = decodeTransaction(txJson('"storageMass":123,"mass":456,'));
    expect(conflicting.error?.issues[0]?.message).toContain('storageMass and mass must match when both are provided');
    expect(decodeTransaction(txJson('')).error?.issues[0]?.message).toBe('Either storageMass or mass must be provided');
  });

  it('normalizes inputs and outputs: default computeBudget, object script keys, lowercase hex', () => {
    const text = txJson('"mass":0,')
      .replace(
        '"inputs":[]',
        `"inputs":[{"previousOutpoint":{"transactionId":"${HASH.toUpperCase()}","index":1},"signatureScript":"41AB","sequence":18446744073709551615,"sigOpCount":1,"verboseData":null}]`,
      )
      .replace('"outputs":[]', `"outputs":[{"value":1000,"scriptPublicKey":{"version":0,"script":"${P2PK.slice(4)}"}}]`);
    const decoded = decodeTransaction(text);
    expect(decoded.error).toBeUndefined();
    expect(decoded.data?.inputs[0]).toEqual({
      previousOutpoint: { transactionId: HASH, index: 1 },
      signatureScript: '41ab',
      sequence: 18446744073709551615n,
      sigOpCount: 1,
      computeBudget: 0,
      verboseData: null,
    });
    expect(decoded.data?.outputs[0]).toEqual({ value: 1000n, scriptPublicKey: P2PK, verboseData: null, covenant: null });
  });

  it('rejects out-of-range integers and malformed hex', () => {
    const base = JSON.parse(txJson('"mass":0,')) as Record<string, unknown>;
    const withInput = (input: Record<string, unknown>) => ({
      ...base,
      inputs: [{ previousOutpoint: { transactionId: HASH, index: 0 }, signatureScript: '', sequence: 0, sigOpCount: 0, ...input }],
    });
    expect(transactionSchema.safeParse(withInput({ sigOpCount: 256 })).success).toBe(false);
    expect(transactionSchema.safeParse(withInput({ sequence: -1 })).success).toBe(false);
    expect(transactionSchema.safeParse(withInput({ sequence: 1n << 64n })).success).toBe(false);
    expect(transactionSchema.safeParse(withInput({ signatureScript: 'abc' })).success).toBe(false);
    expect(transactionSchema.safeParse({ ...base, subnetworkId: '00' }).success).toBe(false);
  });
});

describe('requestSchemas', () => {
  it('requires the non-Option fields and defaults the Option ones to null', () => {
    expect(requestSchemas.getBlock.safeParse({ hash: HASH }).success).toBe(false);
    expect(requestSchemas.getBlock.safeParse({ hash: HASH, includeTransactions: true, extra: 1 }).data).toEqual({
      hash: HASH,
      includeTransactions: true,
    });
    expect(requestSchemas.getBlocks.safeParse({ includeBlocks: true, includeTransactions: false }).data).toEqual({
      lowHash: null,
      includeBlocks: true,
      includeTransactions: false,
    });
    expect(requestSchemas.getVirtualChainFromBlock.safeParse({ startHash: HASH, includeAcceptedTransactionIds: true }).data)
      .toEqual({ startHash: HASH, includeAcceptedTransactionIds: true, minConfirmationCount: null });
    expect(requestSchemas.getVirtualChainFromBlockV2.safeParse({ startHash: HASH }).data).toEqual({
      startHash: HASH,
      dataVerbosityLevel: null,
      minConfirmationCount: null,
    });
    expect(requestSchemas.getVirtualChainFromBlockV2.safeParse({ startHash: HASH, dataVerbosityLevel: 'High', minConfirmationCount: 5 }).data)
      .toEqual({ startHash: HASH, dataVerbosityLevel: 'High', minConfirmationCount: 5n });
    for (const dataVerbosityLevel of [2, 'high', '']) {
      expect(requestSchemas.getVirtualChainFromBlockV2.safeParse({ startHash: HASH, dataVerbosityLevel }).success).toBe(false);
    }
    expect(requestSchemas.getInfo.safeParse(null).success).toBe(false);
    expect(requestSchemas.getBalanceByAddress.safeParse({ address: 'qr0lr4m8' }).success).toBe(false);
    expect(requestSchemas.getBlockTemplate.safeParse({ payAddress: ADDRESS, extraData: 'hi' }).success).toBe(false);
    expect(requestSchemas.getBlockTemplate.safeParse({ payAddress: ADDRESS, extraData: [104, 105] }).success).toBe(true);
  });

  it('accepts allowNonDaaBlocks or its alias allowNonDAABlocks, not both, and pads blue work', () => {
    const header: Omit<RpcHeader, 'hash'> = {
      version: 2,
      parentsByLevel: [[HASH]],
      hashMerkleRoot: HASH,
      acceptedIdMerkleRoot: HASH,
      utxoCommitment: HASH,
      timestamp: 1n,
      bits: 0x207fffff,
      nonce: 18446744073709551615n,
      daaScore: 1n,
      blueWork: 'a1b2c',
      blueScore: 1n,
      pruningPoint: HASH,
    };
    const block = { header, transactions: [] };
    const alias = requestSchemas.submitBlock.safeParse({ block, allowNonDAABlocks: true });
    expect(alias.data?.allowNonDaaBlocks).toBe(true);
    expect(alias.data?.block.header.blueWork).toBe('a1b2c'.padStart(48, '0'));
    expect(requestSchemas.submitBlock.safeParse({ block, allowNonDaaBlocks: false }).data?.allowNonDaaBlocks).toBe(false);
    expect(requestSchemas.submitBlock.safeParse({ block }).success).toBe(false);
    expect(requestSchemas.submitBlock.safeParse({ block, allowNonDaaBlocks: true, allowNonDAABlocks: true }).success).toBe(false);
  });

  it('decodes into shapes the wire types describe', () => {
    expectTypeOf<DecodedRequest<'getBlocks'>>().toExtend<RpcRequest<'getBlocks'>>();
    expectTypeOf<DecodedRequest<'submitTransaction'>['transaction']>().toExtend<RpcTransaction>();
    expectTypeOf<DecodedRequest<'submitBlock'>>().toExtend<RpcRequest<'submitBlock'>>();
    expectTypeOf<DecodedRequest<'getMempoolEntriesByAddresses'>>().toExtend<RpcRequest<'getMempoolEntriesByAddresses'>>();
  });
});

describe('decodeScope', () => {
  it('takes one externally tagged variant with snake_case fields', () => {
    expect(decodeScope({ UtxosChanged: { addresses: [ADDRESS] } })).toEqual({ UtxosChanged: { addresses: [ADDRESS] } });
    expect(decodeScope({ VirtualChainChanged: { include_accepted_transaction_ids: true, other: 1 } })).toEqual({
      VirtualChainChanged: { include_accepted_transaction_ids: true },
    });
    expect(decodeScope({ BlockAdded: {} })).toEqual({ BlockAdded: {} });
  });

  it('rejects what serde rejects', () => {
    for (const params of [
      {},
      [],
      null,
      { BlockAdded: null },
      { blockAdded: {} },
      { BlockAdded: {}, VirtualDaaScoreChanged: {} },
      { VirtualChainChanged: { includeAcceptedTransactionIds: true } },
      { UtxosChanged: {} },
      { toString: {} },
    ]) {
      expect(decodeScope(params), JSON.stringify(params)).toBeUndefined();
    }
  });
});

describe('protocol names', () => {
  it('derives notification methods that are RpcApiOps variants', () => {
    expect(notificationMethod('BlockAdded')).toBe('blockAddedNotification');
    expect(notificationMethod('VirtualDaaScoreChanged')).toBe('virtualDaaScoreChangedNotification');
    for (const event of RPC_EVENT_NAMES) expect(isRpcApiOp(notificationMethod(event))).toBe(true);
    expect(isRpcApiOp('GetBlockDagInfo')).toBe(false);
    expect(isRpcApiOp('getBlockDagInfo')).toBe(true);
  });

  it('decodes u64 fields of a kaspad frame as bigint and narrower integers and f64 as numbers', () => {
    const frame = parseWireMessage(
      `{"id":17433308886045497431,"method":"getBlock","params":{"block":{"header":{"hash":"${HASH}","version":2,"parentsByLevel":[["${HASH}"]],"hashMerkleRoot":"${HASH}","acceptedIdMerkleRoot":"${HASH}","utxoCommitment":"${HASH}","timestamp":1750000000000,"bits":486722099,"nonce":3,"daaScore":7,"blueWork":"000000000000000000000000000000000000000000000001","blueScore":6,"pruningPoint":"${HASH}"},"transactions":[],"verboseData":{"hash":"${HASH}","difficulty":1.0,"selectedParentHash":"${HASH}","transactionIds":[],"isHeaderOnly":false,"blueScore":6,"childrenHashes":[],"mergeSetBluesHashes":[],"mergeSetRedsHashes":[],"isChainBlock":true}}}}`,
    ) as { id: unknown; params: { block: { header: Record<string, unknown>; verboseData: Record<string, unknown> } } };
    expect(frame.id).toBe(17433308886045497431n);
    const { header, verboseData } = frame.params.block;
    expect(header).toMatchObject({ version: 2, bits: 486722099, timestamp: 1750000000000n, nonce: 3n, daaScore: 7n, blueScore: 6n });
    expect(verboseData).toMatchObject({ difficulty: 1, blueScore: 6n });
  });
});
