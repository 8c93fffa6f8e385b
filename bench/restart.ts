/**
 * Devnet restart time against chain length: a persisted devnet chain mined offline (no simulated miners, a fake
 * clock, one block interval per block) to L blocks, restarted, mined on to 30·L blocks, restarted again. Each restart
 * runs in a fresh child process (open the snapshot and block log, replay, ready), which prints its wall time and RSS.
 * With pruning the restart work is bounded by the pruning depth, so the ratio of the two restarts stays near 1 (goal
 * ≤ 1.5, and ≤ 10 s absolute); the L restart is the baseline of the same run.
 *
 * Every block carries one transaction consolidating two matured coinbase outputs into one, so the UTXO set stays the
 * same size and the replay verifies signatures as a real chain's does; every fourth round mines two parallel blocks.
 *
 * Options: --length 1000 (L, blocks; above pruning + finality depth in blue score, so both restarts start from a
 * snapshot; mining 30·L takes a long time on a loaded machine: `--pruning-depth 100 --length 150` shows the same
 * flatness in minutes), --pruning-depth (blue score; the DEVNET_PRUNING_DEPTH default), --keep (leave
 * the chain's directory). Run with `npm run bench:restart`; it stops by itself.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { payToPublicKeyScript } from '../lib/kaspa/address';
import { transactionStorageMass } from '../lib/kaspa/mass';
import { PowState } from '../lib/kaspa/pow';
import { signTransaction } from '../lib/kaspa/signing';
import { SUBNETWORK_ID_NATIVE, type Transaction } from '../lib/kaspa/types';
import type { Block } from '../lib/devnet/consensus/consensus';
import { createDevnetNode, type DevnetNode } from '../lib/devnet/node';
import { FORK_ALWAYS } from '../lib/devnet/consensus/params';
import { DEFAULT_DEVNET_PRUNING_DEPTH } from '../lib/devnet/consensus/pruning-defaults';
import { wasmSecp256k1 } from '../lib/devnet/consensus/secp256k1-wasm';

const { values } = parseArgs({
  options: {
    length: { type: 'string', default: '1000' },
    'pruning-depth': { type: 'string', default: String(DEFAULT_DEVNET_PRUNING_DEPTH) },
    keep: { type: 'boolean', default: false },
    open: { type: 'string' },
  },
});

const GENESIS_TIME = 1_750_000_000_000;
const COINBASE_MATURITY = 20;
const FEE = 10_000n;
const pruningDepth = Number(values['pruning-depth']);
const privateKey = new Uint8Array(32).fill(7);
const scriptPublicKey = payToPublicKeyScript(wasmSecp256k1.schnorrPublicKey(privateKey));

function openNode(dir: string, clock: { now: number }): DevnetNode {
  return createDevnetNode({
    seed: 'bench-restart',
    miners: 0,
    hashesPerSecond: 20,
    persistence: { dir },
    clock: () => clock.now,
    pruningDepth,
    params: { coinbaseMaturity: COINBASE_MATURITY, toccataActivation: FORK_ALWAYS },
    partitions: null,
  });
}

function solve(block: Block): Block {
  const state = PowState.fromHeader(block.header);
  for (let nonce = 0n; ; nonce++) {
    if (state.checkPow(nonce)) return { ...block, header: { ...block.header, nonce } };
  }
}

/** Two matured outputs of the bench key into one. */
function consolidation(node: DevnetNode): Transaction[] {
  const matured = node.consensus
    .getUtxosByScriptPublicKey(scriptPublicKey)
    .filter(({ entry }) => entry.blockDaaScore + BigInt(COINBASE_MATURITY) < node.consensus.virtualDaaScore())
    .slice(0, 2);
  if (matured.length < 2) return [];
  const unsigned: Transaction = {
    version: 0,
    inputs: matured.map(({ outpoint }) => ({ previousOutpoint: outpoint, signatureScript: new Uint8Array(0), sequence: 0n, sigOpCount: 1 })),
    outputs: [{ value: matured[0]!.entry.amount + matured[1]!.entry.amount - FEE, scriptPublicKey }],
    lockTime: 0n,
    subnetworkId: SUBNETWORK_ID_NATIVE,
    gas: 0n,
    payload: new Uint8Array(0),
    storageMass: 0n,
  };
  const spent = matured.map(({ entry }) => entry);
  const committed = { ...unsigned, storageMass: transactionStorageMass(unsigned, spent) ?? 0n };
  const signed = signTransaction(committed, [privateKey, privateKey], spent, {});
  node.consensus.markScriptsVerified(signed);
  return [signed];
}

/** Blocks mined in this run, both phases. */
let mined = 0;

function mineTo(node: DevnetNode, clock: { now: number }, blocks: number): void {
  for (let round = 0; mined < blocks; round++) {
    const transactions = consolidation(node);
    const parallel = round % 4 === 3 ? 2 : 1;
    for (let index = 0; index < parallel; index++) {
      const template = node.consensus.buildBlockTemplate({
        payScriptPublicKey: scriptPublicKey,
        extraData: new Uint8Array([index]),
        transactions: index === 0 ? transactions : [],
      });
      const result = node.consensus.validateAndInsertBlock(solve(template.block));
      if (result.type !== 'success') throw new Error(`bench block rejected: ${result.message}`);
      mined++;
    }
    clock.now += 100;
  }
}


function directoryBytes(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
}

interface RestartFigure {
  milliseconds: number;
  /** The part spent loading the snapshot and replaying the log (the rest: wallets, WebAssembly, handlers). */
  replayMilliseconds: number;
  rssBytes: number;
  blueScore: string;
}

/** The child side: open the chain, report, exit. */
function openAndReport(dir: string): void {
  const started = performance.now();
  const node = openNode(dir, { now: Date.now() });
  const milliseconds = performance.now() - started;
  globalThis.gc?.();
  const figure: RestartFigure = { milliseconds, replayMilliseconds: node.restored?.milliseconds ?? 0, rssBytes: process.memoryUsage().rss, blueScore: node.consensus.virtualBlueScore().toString() };
  process.stdout.write(`${JSON.stringify(figure)}\n`);
  void node.stop().then(() => process.exit(0));
}

function restartInChild(dir: string): RestartFigure {
  const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--open', dir, '--pruning-depth', String(pruningDepth)], {
    encoding: 'utf8',
    timeout: 600_000,
  });
  if (child.status !== 0) throw new Error(`restart child failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as RestartFigure;
}

async function main(): Promise<void> {
  const length = Number(values.length);
  if (!(Number.isInteger(length) && length > 0)) throw new RangeError(`--length must be a positive integer, got ${values.length}`);
  if (length < (pruningDepth * 7) / 5) console.log(`note: L below ${(pruningDepth * 7) / 5} blocks restarts without a snapshot (the chain is not pruned yet)`);
  const dir = mkdtempSync(join(tmpdir(), 'dagboard-bench-restart-'));
  const clock = { now: GENESIS_TIME };
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
  try {
    console.log(`devnet restart bench: pruning depth ${pruningDepth} blue score, L = ${length} blocks, 30·L = ${30 * length}`);
    const figures: { blocks: number; restart: RestartFigure; disk: number }[] = [];
    for (const target of [length, 30 * length]) {
      const generating = performance.now();
      const node = openNode(dir, clock);
      mineTo(node, clock, target);
      await node.stop();
      const restart = restartInChild(dir);
      figures.push({ blocks: mined, restart, disk: directoryBytes(dir) });
      console.log(
        `  ${String(mined).padStart(7)} blocks (mined in ${((performance.now() - generating) / 1000).toFixed(0)} s): restart ${(restart.milliseconds / 1000).toFixed(2)} s ` +
          `(snapshot and replay ${(restart.replayMilliseconds / 1000).toFixed(2)} s), ` +
          `RSS after restart ${mb(restart.rssBytes)}, devnet directory ${mb(figures.at(-1)!.disk)}`,
      );
    }
    const [short, long] = figures as [(typeof figures)[0], (typeof figures)[0]];
    const ratio = long.restart.milliseconds / short.restart.milliseconds;
    console.log(`restart at 30·L / restart at L (baseline): ${ratio.toFixed(2)} (goal ≤ 1.5); at 30·L ${(long.restart.milliseconds / 1000).toFixed(2)} s (goal ≤ 10 s)`);
    console.log(`RSS after restart: ${mb(short.restart.rssBytes)} at L, ${mb(long.restart.rssBytes)} at 30·L`);
  } finally {
    if (values.keep) console.log(`chain kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

if (values.open !== undefined) openAndReport(values.open);
else await main();
