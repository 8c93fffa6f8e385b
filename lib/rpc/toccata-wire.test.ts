import { describe, expect, it } from 'vitest';
import { bytesToHex } from '../kaspa/bytes';
import { headerHash } from '../kaspa/header';
import { headerFromVector } from '../kaspa/test-support/headers';
import { toccata } from '../kaspa/test-support/toccata-vectors';
import { transactionFromVector } from '../kaspa/test-support/vectors';
import { transactionId } from '../kaspa/transaction';
import type { Block, Transaction } from '../kaspa/types';
import { blockFromRpc, blockToRpcRaw, blockToRpcSubmission, headerToRpc } from './convert-block';
import { transactionFromRpc, transactionToRpc } from './convert-transaction';
import { stringifyJson } from './json';
import { parseWireMessage } from './protocol';
import { requestSchemas } from './request-schemas';
import type { RpcRawBlock, RpcRawBlockInputForm, RpcTransactionInputForm } from './types';

/** Through text and back, as a frame travels: u64 keys come back as bigint. */
function overWire(value: unknown): unknown {
  return parseWireMessage(stringifyJson(value as never));
}

/** The vectors write `covenant: null`; the conversions spell "no covenant" as an absent key. */
function withoutNullCovenants(tx: Transaction): Transaction {
  return { ...tx, outputs: tx.outputs.map(({ covenant, ...output }) => (covenant ? { ...output, covenant } : output)) };
}

/**
 * The version 1 vectors an RPC client can send: kaspad's `TryFrom<RpcTransaction>` refuses a version 1 input with a
 * sig-op count (the vectors hash such inputs to show the count is not committed) and the v0 counterparts are not v1.
 */
const V1_TRANSACTIONS = toccata.transactionsV1.vectors
  .map((vector) => ({ name: vector.name, tx: withoutNullCovenants(transactionFromVector(vector.tx)), expectedId: vector.expectedId }))
  .filter(({ tx }) => tx.version === 1 && tx.inputs.every((input) => input.sigOpCount === 0));

describe('Toccata transactions on the wire (toccata-vectors transactionsV1)', () => {
  it.each(V1_TRANSACTIONS.map((vector) => [vector.name, vector] as const))(
    '%s survives submitTransaction’s request decoder with its compute budgets, covenant bindings and id',
    (_name, { tx, expectedId }) => {
      expect(tx.version).toBe(1);
      const params = overWire({ transaction: transactionToRpc(tx), allowOrphan: false });
      const text = stringifyJson(params as never);
      for (const input of tx.inputs) expect(text).toContain(`"computeBudget":${input.computeBudget ?? 0}`);
      const decoded = requestSchemas.submitTransaction.parse(params);
      decoded.transaction.outputs.forEach((output, index) => {
        const covenant = tx.outputs[index]!.covenant;
        expect(output.covenant).toEqual(
          covenant ? { authorizingInput: covenant.authorizingInput, covenantId: bytesToHex(covenant.covenantId) } : null,
        );
      });
      const back = transactionFromRpc(decoded.transaction as RpcTransactionInputForm);
      expect(back).toEqual(tx);
      expect(bytesToHex(transactionId(back))).toBe(expectedId);
    },
  );

  it('has vectors exercising both compute budgets and covenant bindings', () => {
    expect(V1_TRANSACTIONS.length).toBeGreaterThanOrEqual(3);
    expect(V1_TRANSACTIONS.some(({ tx }) => tx.inputs.some((input) => (input.computeBudget ?? 0) > 0))).toBe(true);
    expect(V1_TRANSACTIONS.some(({ tx }) => tx.outputs.some((output) => output.covenant))).toBe(true);
  });
});

describe('Toccata blocks on the wire (toccata-vectors headerV2)', () => {
  const vector = toccata.headerV2.derivedVectors.find((candidate) => headerFromVector(candidate.header).version === 2)!;
  const block: Block = { header: headerFromVector(vector.header), transactions: V1_TRANSACTIONS.map(({ tx }) => tx) };

  it('a version 2 header keeps its hash through the read form', () => {
    const read = overWire(headerToRpc(block.header)) as { hash: string; version: number };
    expect(read.version).toBe(2);
    expect(read.hash).toBe(vector.expectedHeaderHash);
  });

  it('a getBlockTemplate answer decodes to the block, and its submitBlock request passes the decoder unchanged', () => {
    const template = blockFromRpc(overWire(blockToRpcRaw(block)) as RpcRawBlock);
    expect(template).toEqual(block);
    expect(bytesToHex(headerHash(template.header))).toBe(vector.expectedHeaderHash);
    const decoded = requestSchemas.submitBlock.parse(overWire({ block: blockToRpcSubmission(template), allowNonDaaBlocks: false }));
    const submitted = blockFromRpc(decoded.block as RpcRawBlockInputForm);
    expect(submitted).toEqual(block);
    expect(bytesToHex(headerHash(submitted.header))).toBe(vector.expectedHeaderHash);
  });
});
