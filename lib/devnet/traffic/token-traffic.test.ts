import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesToHex } from '../../kaspa/bytes';
import { transactionId } from '../../kaspa/transaction';
import type { Hash, Transaction } from '../../kaspa/types';
import { blockFromRpc, blockToRpcSubmission } from '../../rpc/convert-block';
import { transactionToRpc } from '../../rpc/convert-transaction';
import {
  createTokenEngine,
  DEVNET_PROFILE,
  parseEnvelopeInput,
  parseTransactionOps,
  tokenStatus,
  type OpRecord,
  type SpentOutput,
  type TokenEngine,
} from '../../tokens';
import { createDevnetNode, type DevnetNode } from '../node';
import { wasmSecp256k1 } from '../consensus/secp256k1-wasm';
import { GENESIS_TIMESTAMP, solve } from '../test-support/devnet-harness';
import { settle, TEST_COINBASE_MATURITY } from '../test-support/wire-devnet';
import { createTokenTraffic, TOKEN_TRAFFIC_TICKERS, TOKEN_TRAFFIC_TOKENS, type TokenPlan, type TokenTraffic } from './token-traffic';
import { seededRandom } from './traffic';
import { createWalletSet, type WalletSet } from './wallet';

const SEED = 'token-traffic-test';
const WALLETS = 4;
/** 50 KAS per block: enough for the five 1000-KAS deploys and the rest of the opening. */
const FUNDING_BLOCKS = 180;
/** Bounds the run: the scripted opening has 35 plans; a plan that cannot be funded yet waits for more blocks. */
const MAX_ROUNDS = 120;

interface Run {
  node: DevnetNode;
  wallets: WalletSet;
  plans: TokenPlan[];
  traffic: TokenTraffic;
  engine: TokenEngine;
  records: Map<string, OpRecord>;
  accepted: Map<string, Transaction>;
}

async function mine(node: DevnetNode, clock: { now: number }, payAddress: string): Promise<void> {
  const { block } = await node.rpc.call('getBlockTemplate', { payAddress, extraData: [] });
  const solved = solve(blockFromRpc(block));
  const { report } = await node.rpc.call('submitBlock', { block: blockToRpcSubmission(solved), allowNonDaaBlocks: false });
  if (report.type !== 'success') throw new Error(`block rejected: ${JSON.stringify(report)}`);
  await settle();
  clock.now += 100;
}

/** Every block, by walking parents down from the tips. */
function allBlocks(node: DevnetNode): Hash[] {
  const seen = new Map<string, Hash>();
  const queue = node.consensus.getTips();
  while (queue.length > 0) {
    const hash = queue.pop()!;
    const key = bytesToHex(hash);
    if (seen.has(key)) continue;
    seen.set(key, hash);
    queue.push(...(node.consensus.getBlock(hash)?.header.parentsByLevel[0] ?? []));
  }
  return [...seen.values()];
}

/** Feeds the selected chain's accepted transactions, in acceptance order, to a lib/tokens engine. */
function indexTokens(node: DevnetNode): Pick<Run, 'engine' | 'records' | 'accepted'> {
  const transactions = new Map<string, Transaction>();
  for (const hash of allBlocks(node)) {
    for (const tx of node.consensus.getBlock(hash)!.transactions) transactions.set(bytesToHex(transactionId(tx)), tx);
  }
  const outputs = new Map<string, SpentOutput>();
  for (const [id, tx] of transactions) {
    tx.outputs.forEach((output, index) => outputs.set(`${id}:${index}`, { amount: output.value, scriptPublicKey: output.scriptPublicKey }));
  }
  const engine = createTokenEngine({ profile: DEVNET_PROFILE });
  const records = new Map<string, OpRecord>();
  const accepted = new Map<string, Transaction>();
  const chain = node.consensus.getVirtualChainFromBlock(node.genesisHash, true);
  for (const { acceptingBlockHash, acceptedTransactionIds } of chain.acceptedTransactionIds) {
    const header = node.consensus.getBlock(acceptingBlockHash)!.header;
    const block = {
      hash: bytesToHex(acceptingBlockHash),
      daaScore: header.daaScore,
      timestamp: Number(header.timestamp),
      transactions: acceptedTransactionIds.map((id) => {
        const txId = bytesToHex(id);
        const transaction = transactions.get(txId)!;
        accepted.set(txId, transaction);
        const spentOutputs = transaction.inputs.map((input) =>
          outputs.get(`${bytesToHex(input.previousOutpoint.transactionId)}:${input.previousOutpoint.index}`),
        );
        return { transaction, txId, spentOutputs };
      }),
    };
    for (const record of engine.applyBlock(block).ops) records.set(record.txId, record);
  }
  return { engine, records, accepted };
}

let run: Run;
const clock = { now: Number(GENESIS_TIMESTAMP) };

beforeAll(async () => {
  const node = createDevnetNode({
    seed: SEED,
    miners: 0,
    hashesPerSecond: 20,
    persistence: null,
    clock: () => clock.now,
    params: { coinbaseMaturity: TEST_COINBASE_MATURITY },
    partitions: null,
    wallets: WALLETS,
  });
  const wallets = createWalletSet({
    seed: SEED,
    count: WALLETS,
    prefix: 'kaspadev',
    coinbaseMaturity: BigInt(TEST_COINBASE_MATURITY),
    secp256k1: wasmSecp256k1,
  });
  for (let index = 0; index < FUNDING_BLOCKS; index++) await mine(node, clock, wallets.wallets[index % WALLETS]!.address);
  const traffic = createTokenTraffic({ wallets, seed: SEED, random: () => 0.5 });
  const plans: TokenPlan[] = [];
  for (let round = 0; round < MAX_ROUNDS && plans.length < 35; round++) {
    await wallets.refresh(node.rpc);
    const plan = traffic.next();
    if (plan) {
      for (const { wallet, built, walletFunded } of plan.submissions) {
        if (walletFunded) wallet.track(built);
        await node.rpc.call('submitTransaction', { transaction: transactionToRpc(built.transaction), allowOrphan: false });
      }
      plans.push(plan);
    }
    await mine(node, clock, wallets.wallets[round % WALLETS]!.address);
  }
  for (let index = 0; index < 5; index++) await mine(node, clock, wallets.wallets[0]!.address);
  run = { node, wallets, plans, traffic, ...indexTokens(node) };
}, 240_000);

afterAll(async () => {
  await run?.node.stop();
});

describe('token traffic on an in-process devnet', () => {
  it('gets through the scripted opening: every op kind, each reveal accepted on the selected chain', () => {
    expect(run.plans).toHaveLength(35);
    expect(new Set(run.plans.map((plan) => plan.kind))).toEqual(new Set(['deploy', 'mint', 'transfer', 'burn', 'list', 'fill', 'cancel']));
    for (const plan of run.plans) {
      for (const { built } of plan.submissions) expect(run.accepted.has(built.id), `${plan.kind} ${plan.tick} ${built.id}`).toBe(true);
    }
  });

  it('parses every reveal back with lib/tokens: the envelope carries the planned JSON from the right signer', () => {
    for (const plan of run.plans) {
      const reveal = plan.submissions[plan.submissions.length - 1]!.built;
      const envelope = parseEnvelopeInput(reveal.transaction.inputs[0]!.signatureScript);
      expect(envelope && new TextDecoder().decode(envelope.content)).toBe(plan.json);
      const parsed = parseTransactionOps(reveal.transaction, { profile: DEVNET_PROFILE, txId: reveal.id, daaScore: 1n });
      expect(parsed?.scripts[0]?.op.op).toBe(plan.kind === 'fill' || plan.kind === 'cancel' ? 'send' : plan.kind);
    }
  });

  it('records each op with the outcome the scenario planned, failures with their opError', () => {
    for (const plan of run.plans) {
      const reveal = plan.submissions[plan.submissions.length - 1]!.built;
      const record = run.records.get(reveal.id);
      expect(record, `${plan.kind} ${plan.json}`).toBeDefined();
      expect([plan.kind, plan.json, record!.opError]).toEqual([plan.kind, plan.json, plan.expectedError]);
    }
    const errors = run.plans.map((plan) => plan.expectedError).filter((error) => error !== null);
    expect(new Set(errors)).toEqual(new Set(['mint finished', 'balance insuff', 'tick not found', 'no ownership']));
  });

  it('deploys every ticker, mints one out, and trades at a price', () => {
    expect(run.engine.tokens().map((token) => token.tick).sort()).toEqual([...TOKEN_TRAFFIC_TICKERS].sort());
    const spark = run.engine.token('SPARK')!;
    expect(tokenStatus(spark)).toBe('finished');
    expect(spark.minted).toBe(TOKEN_TRAFFIC_TOKENS.find((token) => token.tick === 'SPARK')!.max);
    const kraft = run.engine.token('KRAFT')!;
    expect(kraft.pre).toBeGreaterThan(0n);
    expect(kraft.burned).toBeGreaterThan(0n);
    const fills = [...run.records.values()].filter((record) => record.primary.op.op === 'send' && record.primary.op.price > 0n);
    expect(fills.length).toBeGreaterThanOrEqual(3);
    for (const fill of fills) expect(fill.accepted).toBe(true);
  });

  it("matches the scenario's model balances (available and locked) for every wallet and ticker", () => {
    let compared = 0;
    for (const wallet of run.wallets.wallets) {
      for (const tick of TOKEN_TRAFFIC_TICKERS) {
        const state = run.engine.balance(wallet.address, tick);
        compared += state ? 1 : 0;
        expect({ tick, balance: state?.balance ?? 0n, locked: state?.locked ?? 0n }).toEqual({ tick, ...run.traffic.balance(wallet.address, tick) });
      }
    }
    expect(compared).toBeGreaterThan(5);
  });
});

describe('token traffic scenario', () => {
  /** The op sequence a scenario plans over wallets funded with the same made-up UTXOs. */
  function opSequence(randomSeed: number, count: number): string[] {
    const wallets = createWalletSet({ seed: SEED, count: WALLETS, prefix: 'kaspadev', secp256k1: wasmSecp256k1 });
    wallets.setVirtualDaaScore(10_000n);
    wallets.wallets.forEach((wallet, walletIndex) => {
      wallet.setConfirmedUtxos(
        Array.from({ length: 30 }, (_, index) => ({
          outpoint: { transactionId: new Uint8Array(32).fill(walletIndex * 40 + index + 1), index: 0 },
          entry: { amount: 500n * 100_000_000n, scriptPublicKey: wallet.scriptPublicKey, blockDaaScore: 1n, isCoinbase: false },
        })),
      );
    });
    const traffic = createTokenTraffic({ wallets, seed: SEED, random: seededRandom(randomSeed) });
    const sequence: string[] = [];
    while (sequence.length < count) {
      const plan = traffic.next();
      if (!plan) break;
      for (const { wallet, built, walletFunded } of plan.submissions) if (walletFunded) wallet.track(built);
      sequence.push(`${plan.kind} ${plan.json} ${plan.expectedError ?? 'ok'}`);
    }
    return sequence;
  }

  it('is deterministic per seed: the same seed plans the same ops, another seed diverges after the opening', () => {
    const first = opSequence(5, 45);
    expect(first).toHaveLength(45);
    expect(opSequence(5, 45)).toEqual(first);
    const other = opSequence(6, 45);
    expect(other.slice(0, 5)).toEqual(first.slice(0, 5));
    expect(other).not.toEqual(first);
  });

  it('rejects a seed that does not derive the wallets', () => {
    const wallets = createWalletSet({ seed: SEED, count: 2 });
    expect(() => createTokenTraffic({ wallets, seed: 'another seed', random: Math.random })).toThrow('the seed does not derive these wallets');
  });
});
