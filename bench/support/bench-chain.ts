/**
 * The chain bench/indexer.ts ingests: a Toccata devnet chain (activation at genesis, as the embedded default runs)
 * mined offline by a devnet node with no simulated miners and a fake clock (one block interval per block, the easiest
 * target). Coinbase outputs become spending lanes, and every round each lane pays its value on to the next of 64 keys
 * (one input, one output), 300 transactions a block. Lanes of odd keys pay with version 1 transactions (a compute
 * budget per input), the others with version 0; every sixteenth lane instead runs a KIP-20 counter covenant, created
 * in the first round and continued every round after, so the chain carries covenant bindings and long lineages.
 * The node's block log under data/bench/ (gitignored) keeps the chain, so reruns replay it (every block re-validated)
 * instead of mining it again.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Block } from '../../lib/devnet/consensus/consensus';
import { createDevnetNode, type DevnetNode } from '../../lib/devnet/node';
import { FORK_ALWAYS } from '../../lib/devnet/consensus/params';
import { wasmSecp256k1 as secp256k1Backend } from '../../lib/devnet/consensus/secp256k1-wasm';
import { payToPublicKeyScript } from '../../lib/kaspa/address';
import {
  buildCovenantContinuation,
  buildCovenantGenesis,
  counterTemplate,
  type CovenantTemplate,
  type CovenantUtxo,
} from '../../lib/kaspa/covenant-templates';
import { transactionStorageMass } from '../../lib/kaspa/mass';
import { PowState } from '../../lib/kaspa/pow';
import { signTransaction } from '../../lib/kaspa/signing';
import { transactionId } from '../../lib/kaspa/transaction';
import { SUBNETWORK_ID_NATIVE, type Outpoint, type ScriptPublicKey, type Transaction, type UtxoEntry } from '../../lib/kaspa/types';
import { P2PK_V1_COMPUTE_BUDGET } from '../../lib/devnet/traffic/wallet';

const KEYS = 64;
const LANES = 300;
const TRANSACTIONS_PER_BLOCK = 300;
const COINBASE_MATURITY = 10;
const FEE = 10_000n;
const COVENANT_LANE_EVERY = 16;
const SEED = 'bench-indexer';
const GENESIS_TIME = 1_750_000_000_000;

const seconds = (ms: number) => (ms / 1000).toFixed(2);

interface Key {
  privateKey: Uint8Array;
  publicKey: Uint8Array;
  scriptPublicKey: ScriptPublicKey;
}

function benchKey(index: number): Key {
  const privateKey = new Uint8Array(32);
  privateKey[0] = 0x42;
  privateKey[30] = index >> 8;
  privateKey[31] = (index & 0xff) + 1;
  const publicKey = secp256k1Backend.schnorrPublicKey(privateKey);
  return { privateKey, publicKey, scriptPublicKey: payToPublicKeyScript(publicKey) };
}

type Lane =
  | { kind: 'payment'; outpoint: Outpoint; entry: UtxoEntry; key: number }
  | { kind: 'covenant'; key: number; template: CovenantTemplate; utxo: CovenantUtxo };

/** The chain's devnet node; `now` is its fake clock (one block interval per mined block). */
function chainNode(dir: string): { node: DevnetNode; clock: { now: number } } {
  const clock = { now: GENESIS_TIME };
  const node = createDevnetNode({
    seed: SEED,
    miners: 0,
    hashesPerSecond: 20,
    persistence: { dir },
    clock: () => clock.now,
    params: { coinbaseMaturity: COINBASE_MATURITY, toccataActivation: FORK_ALWAYS },
    partitions: null,
  });
  return { node, clock };
}

function solve(block: Block): Block {
  const state = PowState.fromHeader(block.header);
  for (let nonce = 0n; ; nonce++) {
    if (state.checkPow(nonce)) return { ...block, header: { ...block.header, nonce } };
  }
}

function payOn(lane: Extract<Lane, { kind: 'payment' }>, keys: readonly Key[]): { transaction: Transaction; next: Lane } {
  const to = (lane.key + 1) % keys.length;
  const input =
    lane.key % 2 === 1
      ? { previousOutpoint: lane.outpoint, signatureScript: new Uint8Array(0), sequence: 0n, sigOpCount: 0, computeBudget: P2PK_V1_COMPUTE_BUDGET }
      : { previousOutpoint: lane.outpoint, signatureScript: new Uint8Array(0), sequence: 0n, sigOpCount: 1 };
  const unsigned: Transaction = {
    version: lane.key % 2,
    inputs: [input],
    outputs: [{ value: lane.entry.amount - FEE, scriptPublicKey: keys[to]!.scriptPublicKey }],
    lockTime: 0n,
    subnetworkId: SUBNETWORK_ID_NATIVE,
    gas: 0n,
    payload: new Uint8Array(0),
    storageMass: 0n,
  };
  const committed = { ...unsigned, storageMass: transactionStorageMass(unsigned, [lane.entry]) ?? 0n };
  const transaction = signTransaction(committed, [keys[lane.key]!.privateKey], [lane.entry], { backend: secp256k1Backend });
  return {
    transaction,
    next: {
      kind: 'payment',
      outpoint: { transactionId: transactionId(transaction), index: 0 },
      entry: { amount: lane.entry.amount - FEE, scriptPublicKey: keys[to]!.scriptPublicKey, blockDaaScore: 0n, isCoinbase: false },
      key: to,
    },
  };
}

/** A covenant lane's next step: the genesis from a payment lane's output, then one continuation per round. */
function stepCovenant(lane: Lane, keys: readonly Key[]): { transaction: Transaction; next: Lane } {
  const key = keys[lane.key]!;
  if (lane.kind === 'payment') {
    const template = counterTemplate(key.publicKey, { maxFee: FEE });
    const genesis = buildCovenantGenesis({
      template,
      funding: { outpoint: lane.outpoint, entry: lane.entry },
      amount: lane.entry.amount - FEE,
      fee: FEE,
      privateKey: key.privateKey,
    });
    return { transaction: genesis.tx, next: { kind: 'covenant', key: lane.key, template, utxo: genesis.utxo } };
  }
  const continued = buildCovenantContinuation({ template: lane.template, utxo: lane.utxo, fee: FEE, privateKey: key.privateKey });
  return { transaction: continued.tx, next: { ...lane, utxo: continued.utxos[0]! } };
}

export interface BenchChain {
  node: DevnetNode;
  /** Marks the cached chain complete; call once the node has stopped (it flushes its block log on close). */
  afterStop: () => void;
}

/** Mines the chain of at least `targetTransactions` into the block log, or replays the log; the node is not listening yet. */
export async function loadBenchChain(targetTransactions: number): Promise<BenchChain> {
  const dir = join('data', 'bench', `indexer-toccata-chain-${targetTransactions}`);
  const done = join(dir, 'complete.json');
  if (existsSync(dir) && !existsSync(done)) rmSync(dir, { recursive: true, force: true });
  const cached = existsSync(done);
  const started = performance.now();
  const { node, clock } = chainNode(dir);
  const { consensus } = node;
  if (cached) {
    const info = JSON.parse(readFileSync(done, 'utf8')) as { transactions: number; blocks: number };
    if (consensus.blockCount() - 1 !== info.blocks) {
      throw new Error(`the cached chain in ${dir} is incomplete; delete the directory to mine it again`);
    }
    console.log(`chain: replayed ${info.blocks} blocks / ${info.transactions} transactions from ${dir} in ${seconds(performance.now() - started)} s`);
    return { node, afterStop: () => undefined };
  }
  const keys = Array.from({ length: KEYS }, (_, index) => benchKey(index));
  const mine = (transactions: Transaction[], payKey: number) => {
    clock.now += 100;
    const template = consensus.buildBlockTemplate({ payScriptPublicKey: keys[payKey]!.scriptPublicKey, transactions });
    if (template.rejectedTransactions.length > 0) {
      throw new Error(`template rejected transactions: ${template.rejectedTransactions[0]!.message}`);
    }
    const result = consensus.validateAndInsertBlock(solve(template.block));
    if (result.type !== 'success') throw new Error(`mined block rejected: ${JSON.stringify(result)}`);
  };
  for (let block = 0; block < LANES + COINBASE_MATURITY + 2; block++) {
    mine([], block % KEYS);
    if (block % 20 === 19) await new Promise((resolve) => setImmediate(resolve));
    if (block % 100 === 99) console.log(`chain: mined ${block + 1} coinbase blocks (spending lanes)`);
  }
  const virtualDaaScore = consensus.virtualDaaScore();
  let lanes: Lane[] = keys.flatMap((key, index) =>
    consensus
      .getUtxosByScriptPublicKey(key.scriptPublicKey)
      .filter((utxo) => !utxo.entry.isCoinbase || utxo.entry.blockDaaScore + BigInt(COINBASE_MATURITY) < virtualDaaScore)
      .map((utxo): Lane => ({ kind: 'payment', outpoint: utxo.outpoint, entry: utxo.entry, key: index })),
  );
  let transactions = 0;
  let covenantSteps = 0;
  let blocks = 0;
  while (transactions < targetTransactions) {
    const next: Lane[] = [];
    for (let start = 0; start < lanes.length && transactions < targetTransactions; start += TRANSACTIONS_PER_BLOCK) {
      const paid = lanes.slice(start, start + TRANSACTIONS_PER_BLOCK).map((lane, offset) => {
        const covenantLane = lane.kind === 'covenant' || (start + offset) % COVENANT_LANE_EVERY === 0;
        if (covenantLane) covenantSteps += 1;
        return covenantLane ? stepCovenant(lane, keys) : payOn(lane as Extract<Lane, { kind: 'payment' }>, keys);
      });
      // Signed here with the keys they spend from, as the node marks what its mempool verified: the template and the
      // block skip the script check (a replay of the cached chain verifies every signature again).
      for (const item of paid) consensus.markScriptsVerified(item.transaction);
      mine(
        paid.map((item) => item.transaction),
        blocks % KEYS,
      );
      blocks++;
      transactions += paid.length;
      next.push(...paid.map((item) => item.next));
    }
    lanes = next;
    await new Promise((resolve) => setImmediate(resolve));
    if (blocks % 50 === 0) console.log(`chain: mined ${transactions} transactions in ${blocks} blocks`);
  }
  const total = consensus.blockCount() - 1;
  console.log(
    `chain: mined ${total} blocks / ${transactions} transactions (${covenantSteps} covenant steps, about half the rest ` +
      `version 1) in ${seconds(performance.now() - started)} s`,
  );
  return { node, afterStop: () => writeFileSync(done, JSON.stringify({ transactions, blocks: total })) };
}
