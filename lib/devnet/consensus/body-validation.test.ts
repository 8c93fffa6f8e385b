import { describe, expect, it } from 'vitest';
import { bytesToHex } from '../../kaspa/bytes';
import { blockMassLimits } from '../../kaspa/mass';
import { merkleRoot } from '../../kaspa/merkle';
import { transactionHash } from '../../kaspa/transaction';
import { SUBNETWORK_ID_SIZE, type Transaction } from '../../kaspa/types';
import { BlockInvalid, validateBodyInIsolation, type ForkRules } from './body-validation';
import type { Block } from './genesis';
import { transactionLimits } from './transaction-validator';
import { createTestDevnet, MINER } from '../test-support/devnet-harness';

const TOCCATA: ForkRules = {
  toccata: true,
  transactionLimits: transactionLimits(true),
  massLimits: blockMassLimits(true),
  isolation: { toccata: true, ghostdagK: 124 },
};

function lane(index: number): Uint8Array {
  const id = new Uint8Array(SUBNETWORK_ID_SIZE);
  id[0] = 0x10;
  id[1] = index + 1;
  return id;
}

function laneTransaction(index: number, subnetworkId: Uint8Array, gas: bigint): Transaction {
  return {
    version: 1,
    inputs: [{ previousOutpoint: { transactionId: new Uint8Array(32).fill(index + 1), index: 0 }, signatureScript: new Uint8Array(0), sequence: 0n, sigOpCount: 0, computeBudget: 0 }],
    outputs: [{ value: 1000n, scriptPublicKey: MINER.scriptPublicKey }],
    lockTime: 0n,
    subnetworkId,
    gas,
    payload: new Uint8Array(0),
    storageMass: 0n,
  };
}

function blockWith(transactions: Transaction[]): Block {
  const template = createTestDevnet().template();
  const all = [template.transactions[0]!, ...transactions];
  return { header: { ...template.header, hashMerkleRoot: merkleRoot(all.map(transactionHash)) }, transactions: all };
}

function failure(block: Block): string {
  try {
    validateBodyInIsolation(block, TOCCATA);
  } catch (error) {
    if (error instanceof BlockInvalid) return error.message;
    throw error;
  }
  return 'valid';
}

describe('body validation: Toccata lane limits', () => {
  it('accepts 50 lanes and rejects the 51st with kaspad’s text', () => {
    const fifty = Array.from({ length: 50 }, (_, index) => laneTransaction(index, lane(index), 1n));
    expect(validateBodyInIsolation(blockWith(fifty), TOCCATA)).toHaveLength(51);
    const fiftyOne = [...fifty, laneTransaction(50, lane(50), 1n)];
    expect(failure(blockWith(fiftyOne))).toBe('block has 51 lanes, exceeding limit of 50');
  });

  it('sums gas per lane and rejects a lane above 1,000,000,000', () => {
    const full = [laneTransaction(0, lane(0), 600_000_000n), laneTransaction(1, lane(0), 400_000_000n)];
    expect(failure(blockWith(full))).toBe('valid');
    const over = [...full, laneTransaction(2, lane(0), 1n)];
    expect(failure(blockWith(over))).toBe(`block lane ${bytesToHex(lane(0))} gas 1000000001 exceeds limit of 1000000000`);
  });

  it('reports a double spend and a bad merkle root as kaspad does', () => {
    const tx = laneTransaction(0, lane(0), 0n);
    const twice = blockWith([tx, { ...tx, outputs: [{ value: 999n, scriptPublicKey: MINER.scriptPublicKey }] }]);
    expect(failure(twice)).toBe(`outpoint (${bytesToHex(tx.inputs[0]!.previousOutpoint.transactionId)}, 0) is spent more than once on the same block`);
    const block = blockWith([tx]);
    const wrongRoot = { ...block, header: { ...block.header, hashMerkleRoot: new Uint8Array(32) } };
    expect(failure(wrongRoot)).toMatch(/^invalid merkle root: header indicates 0{64} but calculated value is [0-9a-f]{64}$/);
  });
});
