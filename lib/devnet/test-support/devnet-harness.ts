/**
 * A devnet consensus on a controllable clock with the easiest target (two hashes per block on average), plus helpers
 * that mine templates, sign spends and solve nonces, so tests run the same path a simulated miner does:
 * buildBlockTemplate → solve the nonce → validateAndInsertBlock.
 */
import { payToPublicKeyScript } from '../../kaspa/address';
import { bytesToHex } from '../../kaspa/bytes';
import { hashMerkleRoot } from '../../kaspa/merkle';
import { transactionStorageMass } from '../../kaspa/mass';
import { PowState } from '../../kaspa/pow';
import { schnorrPublicKey, signTransaction } from '../../kaspa/signing';
import { transactionId } from '../../kaspa/transaction';
import { populateGenesisCovenants } from '../../kaspa/covenant';
import {
  SUBNETWORK_ID_NATIVE,
  type Hash,
  type Outpoint,
  type ScriptPublicKey,
  type Transaction,
  type TransactionOutput,
  type UtxoEntry,
} from '../../kaspa/types';
import { createConsensus, type Block, type Consensus, type TemplateRequest, type UtxoChange } from '../consensus/consensus';
import { bitsForExpectedHashesPerBlock, createDevnetGenesis } from '../consensus/genesis';
import { CRESCENDO_PARAMS, FORK_ALWAYS, type ConsensusParams } from '../consensus/params';

export const GENESIS_TIMESTAMP = 1_750_000_000_000n;
export const EASY_BITS = bitsForExpectedHashesPerBlock(2n);

export interface TestKey {
  privateKey: Uint8Array;
  scriptPublicKey: ScriptPublicKey;
}

export function testKey(seed: number): TestKey {
  const privateKey = new Uint8Array(32);
  privateKey[31] = seed;
  privateKey[0] = 0x11;
  return { privateKey, scriptPublicKey: payToPublicKeyScript(schnorrPublicKey(privateKey)) };
}

/** Finds the first nonce whose PoW meets the header's target. */
export function solve(block: Block): Block {
  const state = PowState.fromHeader(block.header);
  for (let nonce = 0n; ; nonce++) {
    if (state.checkPow(nonce)) return { ...block, header: { ...block.header, nonce } };
  }
}

/** Replaces the header fields a test tampers with, keeping the merkle root in step with the transactions. */
export function withTransactions(block: Block, transactions: Transaction[]): Block {
  return { header: { ...block.header, hashMerkleRoot: hashMerkleRoot(transactions) }, transactions };
}

export interface TestDevnet {
  consensus: Consensus;
  genesis: Block & { hash: Hash };
  now(): bigint;
  advance(ms: number): void;
  template(request?: Partial<TemplateRequest>): Block;
  submit(block: Block): ReturnType<Consensus['validateAndInsertBlock']>;
  /** Builds, solves and submits a template; throws if the node rejects it. Advances the clock by one block time. */
  mine(request?: Partial<TemplateRequest>): Block;
}

export const MINER = testKey(1);

/** Pruning depths and windows small enough that a few hundred blocks move the pruning point several times. */
export const PRUNING_TEST_PARAMS: Partial<ConsensusParams> = {
  pruningDepth: 40,
  finalityDepth: 16,
  mergeDepth: 12,
  difficultyWindowSize: 20,
  minDifficultyWindowSize: 10,
  difficultySampleRate: 2,
  pastMedianTimeWindowSize: 11,
  pastMedianTimeSampleRate: 2,
  toccataActivation: FORK_ALWAYS,
};

export function createTestDevnet(overrides: Partial<ConsensusParams> = {}): TestDevnet {
  let now = GENESIS_TIMESTAMP;
  const genesis = createDevnetGenesis({ timestamp: now, bits: EASY_BITS });
  const params = { ...CRESCENDO_PARAMS, coinbaseMaturity: 10, ...overrides };
  const consensus = createConsensus({ params, genesis, clock: () => Number(now), random: () => 0 });
  const template = (request: Partial<TemplateRequest> = {}) =>
    consensus.buildBlockTemplate({ payScriptPublicKey: MINER.scriptPublicKey, ...request }).block;
  const submit = (block: Block) => consensus.validateAndInsertBlock(block, { allowNonDaaBlocks: false });
  return {
    consensus,
    genesis,
    now: () => now,
    advance: (ms) => {
      now += BigInt(ms);
    },
    template,
    submit,
    mine: (request) => {
      const block = solve(template(request));
      const result = submit(block);
      if (result.type !== 'success') throw new Error(`mined block rejected: ${result.message}`);
      now += BigInt(params.targetTimePerBlock);
      return block;
    },
  };
}

/**
 * A signed transaction spending `utxo` to `to` (minus `fee`), with the storage-mass commitment kaspad requires. The
 * default fee clears kaspad 2.0.1's RPC relay fee floor (100 sompi per gram: about 162,400 for this shape).
 */
export function spend(utxo: UtxoChange, key: TestKey, to: ScriptPublicKey, fee = 1_000_000n): Transaction {
  const spent: UtxoEntry[] = [utxo.entry];
  const unsigned: Transaction = {
    version: 0,
    inputs: [{ previousOutpoint: utxo.outpoint, signatureScript: new Uint8Array(0), sequence: 0n, sigOpCount: 1 }],
    outputs: [{ value: utxo.entry.amount - fee, scriptPublicKey: to }],
    lockTime: 0n,
    subnetworkId: SUBNETWORK_ID_NATIVE,
    gas: 0n,
    payload: new Uint8Array(0),
    storageMass: 0n,
  };
  const committed = { ...unsigned, storageMass: transactionStorageMass(unsigned, spent) ?? 0n };
  return signTransaction(committed, [key.privateKey], spent, {});
}

/**
 * A signed version 1 transaction spending `utxo` into `outputs`, each input committing `computeBudget`; with `genesis`,
 * output 0 becomes a KIP-20 covenant genesis authorized by input 0.
 */
export function spendV1(
  utxo: { outpoint: Outpoint; entry: UtxoEntry; key: TestKey },
  outputs: TransactionOutput[],
  { computeBudget, genesis = false }: { computeBudget: number; genesis?: boolean },
): Transaction {
  const unsigned: Transaction = {
    version: 1,
    inputs: [{ previousOutpoint: utxo.outpoint, signatureScript: new Uint8Array(0), sequence: 0n, sigOpCount: 0, computeBudget }],
    outputs,
    lockTime: 0n,
    subnetworkId: SUBNETWORK_ID_NATIVE,
    gas: 0n,
    payload: new Uint8Array(0),
    storageMass: 0n,
  };
  const bound = genesis ? populateGenesisCovenants(unsigned, [{ authorizingInput: 0, outputs: [0] }]) : unsigned;
  const committed = { ...bound, storageMass: transactionStorageMass(bound, [utxo.entry]) ?? 0n };
  return signTransaction(committed, [utxo.key.privateKey], [utxo.entry]);
}

export function idHex(tx: Transaction): string {
  return bytesToHex(transactionId(tx));
}
