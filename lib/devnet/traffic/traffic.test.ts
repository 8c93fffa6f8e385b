import { describe, expect, it } from 'vitest';
import { bytesToHex } from '../../kaspa/bytes';
import { SUBNETWORK_ID_NATIVE } from '../../kaspa/types';
import { RpcRejectedError } from '../../rpc/errors';
import { decodeOpJson, parseEnvelopeInput } from '../../tokens/envelope';
import type { RpcMethodName, RpcRequest, RpcResponse } from '../../rpc/types';
import type { RpcCaller } from '../../rpc/convert-transaction';
import { wasmSecp256k1 } from '../consensus/secp256k1-wasm';
import { FakeRpcNode } from '../test-support/fake-rpc-node';
import {
  createTrafficGenerator,
  rejectionReason,
  seededRandom,
  type Clock,
  type TrafficGenerator,
  type TrafficGeneratorOptions,
} from './traffic';
import { TRAFFIC_KINDS, TRAFFIC_LANES } from './traffic-plans';
import { COINBASE_MATURITY, createWalletSet, type WalletSet } from './wallet';

const KAS = 100_000_000n;
const BLOCK_INTERVAL_MS = 100;
const START_DAA = 20_000n;

/** Virtual time: every sleep jumps ahead, mining a block per 100 ms crossed; the run stops at the horizon. */
class FakeClock implements Clock {
  time = 0;
  #stopping: Promise<void> | null = null;
  generator: TrafficGenerator | null = null;

  #observer: { everyMs: number; next: number; callback: () => void } | null = null;

  constructor(
    public horizonMs: number,
    private readonly onBlock: () => void,
  ) {}

  /** Calls `callback` each time the clock passes a multiple of `everyMs`. */
  observe(everyMs: number, callback: () => void): void {
    this.#observer = { everyMs, next: everyMs, callback };
  }

  now(): number {
    return this.time;
  }

  async sleep(milliseconds: number): Promise<void> {
    const target = this.time + milliseconds;
    let nextBlock = (Math.floor(this.time / BLOCK_INTERVAL_MS) + 1) * BLOCK_INTERVAL_MS;
    while (nextBlock <= target) {
      this.time = nextBlock;
      this.onBlock();
      if (this.#observer && this.time >= this.#observer.next) {
        this.#observer.next += this.#observer.everyMs;
        this.#observer.callback();
      }
      nextBlock += BLOCK_INTERVAL_MS;
    }
    this.time = target;
    if (this.time >= this.horizonMs && !this.#stopping) this.#stopping = this.generator!.stop();
    await Promise.resolve();
  }

  async finished(): Promise<void> {
    while (!this.#stopping) await new Promise((resolve) => setTimeout(resolve, 5));
    await this.#stopping;
  }
}

interface Scenario {
  node: FakeRpcNode;
  wallets: WalletSet;
  clock: FakeClock;
  generator: TrafficGenerator;
  errors: unknown[];
}

function fund(node: FakeRpcNode, wallets: WalletSet): void {
  let counter = 0;
  const nextId = () => {
    counter += 1;
    return Uint8Array.from(Buffer.from(counter.toString(16).padStart(64, '0'), 'hex'));
  };
  for (const wallet of wallets.wallets) {
    for (let i = 0; i < 12; i++) {
      node.addUtxo(
        { transactionId: nextId(), index: 0 },
        { amount: 200n * KAS, scriptPublicKey: wallet.scriptPublicKey, blockDaaScore: 100n, isCoinbase: false },
      );
    }
    node.addUtxo(
      { transactionId: nextId(), index: 0 },
      { amount: 500n * KAS, scriptPublicKey: wallet.scriptPublicKey, blockDaaScore: START_DAA - COINBASE_MATURITY, isCoinbase: true },
    );
    node.addUtxo(
      { transactionId: nextId(), index: 0 },
      { amount: 5_000n * KAS, scriptPublicKey: wallet.scriptPublicKey, blockDaaScore: START_DAA - 10n, isCoinbase: true },
    );
  }
}

function scenario(
  horizonMs: number,
  options: Partial<TrafficGeneratorOptions> = {},
  node: { rejectEvery?: number; timeoutEvery?: number; verifySignatures?: boolean } = {},
): Scenario {
  const wallets = createWalletSet({ seed: 'traffic-tests', count: 6 });
  const clock: FakeClock = new FakeClock(horizonMs, () => fakeNode.mineBlock());
  const fakeNode = new FakeRpcNode(wallets, { now: () => clock.now(), virtualDaaScore: START_DAA, ...node });
  fund(fakeNode, wallets);
  const errors: unknown[] = [];
  const generator = createTrafficGenerator({
    rpc: fakeNode.rpc,
    wallets,
    random: seededRandom(7),
    tokens: { seed: 'traffic-tests', random: seededRandom(11) },
    clock,
    onError: (error) => errors.push(error),
    ...options,
  });
  clock.generator = generator;
  return { node: fakeNode, wallets, clock, generator, errors };
}

async function runToHorizon({ generator, clock }: Scenario): Promise<void> {
  generator.start();
  await clock.finished();
}

describe('traffic generator against a fake node', () => {
  it.each([
    { rate: 20, seconds: 4 },
    { rate: 4, seconds: 8 },
  ])('holds $rate new transactions per second over $seconds seconds of fake time', async ({ rate, seconds }) => {
    const run = scenario(seconds * 1000, { rate }, { verifySignatures: false });
    await runToHorizon(run);
    const submitted = run.node.submissions.filter((submission) => submission.at <= seconds * 1000);
    const replacements = submitted.filter((submission) => submission.method === 'submitTransactionReplacement');
    expect(replacements.length).toBeGreaterThan(0);
    const sent = submitted.filter((submission) => submission.method === 'submitTransaction');
    expect(sent.length).toBeGreaterThanOrEqual(Math.floor(rate * seconds * 0.95));
    expect(sent.length).toBeLessThanOrEqual(rate * seconds + 2);
    for (let second = 1; second < seconds; second++) {
      const inSecond = sent.filter((submission) => submission.at > second * 1000 && submission.at <= (second + 1) * 1000);
      expect(inSecond.length).toBeGreaterThanOrEqual(rate - Math.max(2, rate * 0.15));
      expect(inSecond.length).toBeLessThanOrEqual(rate + Math.max(2, rate * 0.15));
    }
    expect(run.generator.stats().failed).toBe(0);
  });

  it('sends valid traffic of every kind, then stops', async () => {
    const evenMix = Object.fromEntries(TRAFFIC_KINDS.map((kind) => [kind, 1]));
    const run = scenario(3_000, { rate: 20, mix: evenMix });
    await runToHorizon(run);
    const { node, generator, wallets, errors } = run;
    const stats = generator.stats();

    expect(errors).toEqual([]);
    expect(stats.failed).toBe(0);
    expect(stats.submitted).toBe(node.submissions.length);
    // Covenant steps need a node that runs covenant scripts and reports covenant outputs: covenant-traffic.test.ts.
    for (const kind of TRAFFIC_KINDS.filter((kind) => kind !== 'covenant')) expect(stats.byKind[kind].accepted, kind).toBeGreaterThan(0);
    const reasons = Object.keys(stats.rejectionsByReason);
    expect(reasons.every((reason) => /replace by fee/.test(reason)), reasons.join('\n')).toBe(true);
    expect(stats.accepted).toBeGreaterThan(0.9 * stats.submitted);

    const own = new Set(wallets.addresses());
    const accepted = node.submissions.filter((submission) => submission.outcome !== 'rejected');
    const paysFresh = (submission: (typeof accepted)[number]) =>
      submission.transaction.outputs.filter(
        (output) => !wallets.walletFor(output.scriptPublicKey) && output.scriptPublicKey.script.length === 34,
      ).length;
    expect(accepted.some((submission) => submission.transaction.outputs.length >= 5 && paysFresh(submission) > 0)).toBe(true);
    expect(
      accepted.some((submission) => submission.transaction.inputs.length >= 6 && submission.transaction.outputs.length === 1),
    ).toBe(true);
    const payloads = accepted.map((submission) => submission.transaction.payload).filter((payload) => payload.length > 0);
    const decoder = new TextDecoder('utf-8', { fatal: true });
    const isText = (payload: Uint8Array) => {
      try {
        return /^[\x20-\x7e]+$/.test(decoder.decode(payload));
      } catch {
        return false;
      }
    };
    expect(payloads.some(isText)).toBe(true);
    expect(payloads.some((payload) => !isText(payload))).toBe(true);
    const versions = accepted.map((submission) => submission.transaction.version);
    const versionOneShare = versions.filter((version) => version === 1).length / versions.length;
    expect(versionOneShare).toBeGreaterThan(0.2);
    expect(versionOneShare).toBeLessThan(0.8);
    const laneIds = new Set(TRAFFIC_LANES.map(bytesToHex));
    const onLanes = accepted.filter((submission) => laneIds.has(bytesToHex(submission.transaction.subnetworkId)));
    expect(onLanes.length).toBeGreaterThan(0);
    for (const { transaction } of onLanes) {
      expect(transaction.version).toBe(1);
      expect(transaction.gas).toBeGreaterThan(0n);
    }
    expect(node.replacements).toBeGreaterThan(0);
    expect(node.unorphaned).toBeGreaterThan(0);
    const orphanSubmission = accepted.find((submission) => submission.outcome === 'orphaned');
    expect(orphanSubmission?.allowOrphan).toBe(true);
    // The 6 wallets and the HD wallet's addresses handed out so far (fresh addresses take some of them).
    expect(wallets.hd.wallets().length).toBeGreaterThan(0);
    expect(own.size).toBe(6 + wallets.hd.wallets().length);

    expect(generator.running).toBe(false);
    expect(stats.inFlight).toBe(0);
    const countAfterStop = node.submissions.length;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(node.submissions.length).toBe(countAfterStop);
  });

  it('sends only what Crescendo accepts before the Toccata activation', async () => {
    const evenMix = Object.fromEntries(TRAFFIC_KINDS.map((kind) => [kind, 1]));
    const run = scenario(2_000, { rate: 20, mix: evenMix, toccataActivation: START_DAA + 1_000_000n });
    await runToHorizon(run);
    const accepted = run.node.submissions.filter((submission) => submission.outcome !== 'rejected');
    expect(accepted.length).toBeGreaterThan(20);
    for (const { transaction } of accepted) {
      expect(transaction.version).toBe(0);
      expect(transaction.gas).toBe(0n);
      expect(transaction.subnetworkId).toEqual(SUBNETWORK_ID_NATIVE);
    }
    expect(run.generator.stats().skippedByReason['lane:lanes_before_toccata']).toBeGreaterThan(0);
  });

  it('never spends coinbase outputs before they mature, and spends them once they have', async () => {
    const run = scenario(1_500, { rate: 20 }, { verifySignatures: false });
    const coinbase = { mature: new Set<string>(), immature: new Set<string>() };
    for (const { outpoint, entry } of run.node.confirmed.values()) {
      if (!entry.isCoinbase) continue;
      const key = `${bytesToHex(outpoint.transactionId)}:${outpoint.index}`;
      (entry.blockDaaScore + COINBASE_MATURITY <= START_DAA ? coinbase.mature : coinbase.immature).add(key);
    }
    expect([coinbase.mature.size, coinbase.immature.size]).toEqual([6, 6]);
    await runToHorizon(run);
    const spent = new Set(
      run.node.submissions.flatMap((submission) =>
        submission.transaction.inputs.map((input) => `${bytesToHex(input.previousOutpoint.transactionId)}:${input.previousOutpoint.index}`),
      ),
    );
    expect([...coinbase.immature].filter((key) => spent.has(key))).toEqual([]);
    expect([...coinbase.mature].some((key) => spent.has(key))).toBe(true);
    expect(Object.keys(run.generator.stats().rejectionsByReason).some((reason) => /immature/.test(reason))).toBe(false);
  });

  it('survives rejections and timeouts, counting them per reason', async () => {
    const run = scenario(3_000, { rate: 20 }, { rejectEvery: 7, timeoutEvery: 11, verifySignatures: false });
    await runToHorizon(run);
    const stats = run.generator.stats();
    expect(stats.rejected).toBeGreaterThanOrEqual(7);
    expect(stats.failed).toBeGreaterThanOrEqual(4);
    expect(stats.rejectionsByReason['Rejected transaction <hash>: simulated policy rejection']).toBeGreaterThanOrEqual(7);
    expect(stats.rejectionsByReason.timeout).toBe(stats.failed);
    expect(run.errors).toHaveLength(stats.failed);
    const lastSecond = run.node.submissions.filter((submission) => submission.at > 2_000 && submission.at <= 3_000);
    expect(lastSecond.length).toBeGreaterThanOrEqual(17);
    expect(stats.accepted).toBeGreaterThan(stats.submitted / 2);
  });

  it('keeps at most maxInFlight submissions waiting and settles them all on stop', async () => {
    const wallets = createWalletSet({ seed: 'bounded', count: 3 });
    let node: FakeRpcNode | null = null;
    const clock = new FakeClock(Number.POSITIVE_INFINITY, () => node!.mineBlock());
    node = new FakeRpcNode(wallets, { now: () => clock.now(), virtualDaaScore: START_DAA });
    fund(node, wallets);
    const held: (() => void)[] = [];
    const rpc: RpcCaller = {
      call: <M extends RpcMethodName>(method: M, params: RpcRequest<M>): Promise<RpcResponse<M>> => {
        if (method !== 'submitTransaction' && method !== 'submitTransactionReplacement') return node!.rpc.call(method, params);
        return new Promise((resolve, reject) => {
          held.push(() => node!.rpc.call(method, params).then(resolve, reject));
        });
      },
    };
    const generator = createTrafficGenerator({ rpc, wallets, random: seededRandom(3), clock, rate: 100, maxInFlight: 5 });
    clock.generator = generator;
    generator.start();
    for (let tick = 0; tick < 200 && held.length < 5; tick++) await new Promise((resolve) => setTimeout(resolve, 1));
    for (let tick = 0; tick < 20; tick++) await new Promise((resolve) => setTimeout(resolve, 1));
    expect(generator.stats().inFlight).toBe(5);
    expect(held).toHaveLength(5);
    expect(generator.stats().submitted).toBe(5);
    let stopped = false;
    const stopping = generator.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(stopped).toBe(false);
    while (!stopped) {
      held.splice(0).forEach((release) => release());
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await stopping;
    expect(generator.stats().inFlight).toBe(0);
    expect(generator.stats().submitted).toBe(generator.stats().accepted + generator.stats().rejected);
  });

  it('counts a failing node as rejections without throwing', async () => {
    const wallets = createWalletSet({ seed: 'always-rejects', count: 2 });
    let node: FakeRpcNode | null = null;
    const clock = new FakeClock(2_000, () => node!.mineBlock());
    node = new FakeRpcNode(wallets, { now: () => clock.now(), virtualDaaScore: START_DAA });
    fund(node, wallets);
    const rpc: RpcCaller = {
      call: <M extends RpcMethodName>(method: M, params: RpcRequest<M>): Promise<RpcResponse<M>> => {
        if (method === 'submitTransaction') return Promise.reject(new RpcRejectedError(method, 'Rejected transaction: mempool is full (1234 transactions)'));
        return node!.rpc.call(method, params);
      },
    };
    const generator = createTrafficGenerator({ rpc, wallets, random: seededRandom(5), clock, rate: 10 });
    clock.generator = generator;
    generator.start();
    await clock.finished();
    const stats = generator.stats();
    expect(stats.rejectionsByReason['Rejected transaction: mempool is full (<n> transactions)']).toBe(stats.rejected);
    expect(stats.rejected).toBeGreaterThanOrEqual(15);
    expect(wallets.wallets.every((wallet) => wallet.pendingTransactions().length === 0)).toBe(true);
  });
});

describe('token traffic in the mix', () => {
  it('submits each token op as its commit and then the reveal spending it (or a fill spending a listing)', async () => {
    const run = scenario(4_000, { rate: 20, mix: { token: 30 } });
    await runToHorizon(run);
    const stats = run.generator.stats();
    expect(run.errors).toEqual([]);
    expect(stats.byKind.token.accepted).toBeGreaterThanOrEqual(10);
    expect(stats.byKind.token.rejected).toBe(0);
    const accepted = run.node.submissions.filter((submission) => submission.outcome === 'accepted');
    const reveals = accepted.filter((submission) => parseEnvelopeInput(submission.transaction.inputs[0]!.signatureScript));
    const ops = reveals.map((submission) => decodeOpJson(parseEnvelopeInput(submission.transaction.inputs[0]!.signatureScript)!.content)!.op);
    expect(ops.slice(0, 5)).toEqual(['deploy', 'deploy', 'deploy', 'deploy', 'deploy']);
    expect(ops).toContain('mint');
    const ids = accepted.map((submission) => submission.id);
    for (const reveal of reveals) {
      const commitId = bytesToHex(reveal.transaction.inputs[0]!.previousOutpoint.transactionId);
      expect(ids.indexOf(commitId)).toBeGreaterThanOrEqual(0);
      expect(ids.indexOf(commitId)).toBeLessThan(ids.indexOf(reveal.id));
    }
  });

  it('leaves the token kind out without the tokens option', async () => {
    const run = scenario(1_000, { rate: 20, mix: { token: 30 }, tokens: undefined });
    await runToHorizon(run);
    expect(run.generator.stats().byKind.token.submitted).toBe(0);
    expect(run.generator.stats().submitted).toBeGreaterThan(0);
  });
});

describe('funding', () => {
  /** Four wallets, each holding two mature coinbase rewards of a 10 blocks/s devnet (44 KAS). */
  function coinbaseFunded(seed: string, options: Partial<TrafficGeneratorOptions>) {
    const wallets = createWalletSet({ seed, count: 4, secp256k1: wasmSecp256k1 });
    let node: FakeRpcNode | null = null;
    const clock = new FakeClock(3_000, () => node!.mineBlock());
    node = new FakeRpcNode(wallets, { now: () => clock.now(), virtualDaaScore: START_DAA, verifySignatures: false });
    wallets.wallets.forEach((wallet, index) => {
      for (const output of [0, 1]) {
        node.addUtxo(
          { transactionId: Uint8Array.from({ length: 32 }, (_, byte) => (byte === 0 ? index + 1 : 7)), index: output },
          { amount: 44n * KAS, scriptPublicKey: wallet.scriptPublicKey, blockDaaScore: START_DAA - COINBASE_MATURITY, isCoinbase: true },
        );
      }
    });
    const generator = createTrafficGenerator({ rpc: node.rpc, wallets, random: seededRandom(5), clock, rate: 40, ...options });
    clock.generator = generator;
    return { wallets, node, clock, generator };
  }

  async function run(minUtxosPerWallet: number) {
    const scenario = coinbaseFunded('funding', { minUtxosPerWallet });
    scenario.generator.start();
    await scenario.clock.finished();
    await scenario.wallets.refresh(scenario.node.rpc);
    const stats = scenario.generator.stats();
    return { ...scenario, stats, utxoCounts: scenario.wallets.wallets.map((wallet) => wallet.spendableUtxos().length) };
  }

  it('splits large coinbase rewards so every wallet soon holds enough UTXOs for the rate', async () => {
    const withoutSplits = await run(0);
    const withSplits = await run(20);

    expect(withoutSplits.stats.byKind.split.submitted).toBe(0);
    expect(Math.min(...withoutSplits.utxoCounts)).toBeLessThan(20);
    expect(withSplits.stats.byKind.split.accepted).toBeGreaterThanOrEqual(4);
    const splits = withSplits.node.submissions.filter(
      ({ outcome, transaction }) => outcome === 'accepted' && transaction.inputs.length === 1 && transaction.outputs.length >= 8,
    );
    expect(splits.length).toBeGreaterThanOrEqual(4);
    for (const count of withSplits.utxoCounts) expect(count).toBeGreaterThanOrEqual(20);
    // Kinds needing more than a wallet holds fall back to a payment, so a payment rarely goes without funds (only while
    // the first splits await the chain, when replacements and orphan pairs lock UTXOs beyond the rate).
    expect(withSplits.stats.skippedByReason['payment:no_funded_wallet'] ?? 0).toBeLessThanOrEqual(0.02 * withSplits.stats.accepted);
    expect(withSplits.stats.accepted).toBeGreaterThanOrEqual(0.9 * 40 * 3);
  });
});

describe('a long run', () => {
  /**
   * A devnet-like node whose blocks also pay a 10 KAS coinbase to the wallets in turn, and whose getUtxosByAddresses
   * takes fake time in proportion to the UTXOs it returns, as a node's snapshot (and the worker's copy of it) does.
   */
  function longRun(options: { msPerUtxo: number; maxUtxosPerWallet?: number }) {
    const wallets = createWalletSet({ seed: 'long-run', count: 4, secp256k1: wasmSecp256k1 });
    let node: FakeRpcNode | null = null;
    let rewards = 0;
    const clock = new FakeClock(Number.POSITIVE_INFINITY, () => {
      node!.mineBlock();
      rewards += 1;
      node!.addUtxo(
        { transactionId: Uint8Array.from({ length: 32 }, (_, byte) => (byte < 4 ? (rewards >>> (8 * byte)) & 0xff : 0xcb)), index: 0 },
        { amount: 10n * KAS, scriptPublicKey: wallets.wallets[rewards % wallets.wallets.length]!.scriptPublicKey, blockDaaScore: 100n, isCoinbase: true },
      );
    });
    node = new FakeRpcNode(wallets, { now: () => clock.now(), virtualDaaScore: START_DAA, verifySignatures: false });
    fund(node, wallets);
    const rpc: RpcCaller = {
      call: async <M extends RpcMethodName>(method: M, params: RpcRequest<M>): Promise<RpcResponse<M>> => {
        const result = await node!.rpc.call(method, params);
        if (method === 'getUtxosByAddresses') {
          await clock.sleep((result as RpcResponse<'getUtxosByAddresses'>).entries.length * options.msPerUtxo);
        }
        return result;
      },
    };
    const errors: unknown[] = [];
    const generator = createTrafficGenerator({
      rpc,
      wallets,
      random: seededRandom(13),
      tokens: { seed: 'long-run', random: seededRandom(17) },
      clock,
      rate: 20,
      onError: (error) => errors.push(error),
      ...(options.maxUtxosPerWallet === undefined ? {} : { maxUtxosPerWallet: options.maxUtxosPerWallet }),
    });
    clock.generator = generator;
    return { node, wallets, clock, generator, errors };
  }

  /** Runs for `windows` windows of `windowMs` fake time; accepted submissions and the largest wallet per window. */
  async function acceptedPerWindow(run: ReturnType<typeof longRun>, windows: number, windowMs: number) {
    const accepted: number[] = [];
    const largestWallet: number[] = [];
    let previous = 0;
    run.clock.horizonMs = windows * windowMs;
    run.clock.observe(windowMs, () => {
      const now = run.generator.stats().accepted;
      accepted.push(now - previous);
      previous = now;
      largestWallet.push(Math.max(...run.wallets.wallets.map((wallet) => wallet.spendableUtxos().length)));
    });
    run.generator.start();
    await run.clock.finished();
    return { accepted, largestWallet };
  }

  it('keeps submitting when a wallet refresh takes longer than the refresh interval', async () => {
    const run = longRun({ msPerUtxo: 0 });
    const rpc = run.node.rpc;
    const slow: RpcCaller = {
      call: async <M extends RpcMethodName>(method: M, params: RpcRequest<M>): Promise<RpcResponse<M>> => {
        if (method === 'getUtxosByAddresses') await run.clock.sleep(1_500);
        return rpc.call(method, params);
      },
    };
    const generator = createTrafficGenerator({ rpc: slow, wallets: run.wallets, random: seededRandom(19), clock: run.clock, rate: 20 });
    run.clock.generator = generator;
    const { accepted } = await acceptedPerWindow({ ...run, generator }, 4, 5_000);
    // Each 2.5 s cycle (a 1.5 s refresh, then 1 s of planning) sends at least the second's 20 plus the bucket.
    for (const count of accepted.slice(1)) expect(count).toBeGreaterThanOrEqual(30);
  });

  it('holds its rate over simulated minutes while coinbase rewards keep arriving', async () => {
    const run = longRun({ msPerUtxo: 2 });
    const { accepted, largestWallet } = await acceptedPerWindow(run, 12, 20_000);
    expect(run.errors).toEqual([]);
    const steady = accepted.slice(2);
    // Refreshes take a bounded share of the time, so every window after the warm-up sends most of 20 per second.
    for (const count of steady) expect(count).toBeGreaterThanOrEqual(0.6 * 20 * 20);
    expect(Math.min(...steady)).toBeGreaterThanOrEqual(0.8 * Math.max(...steady));
    for (const count of largestWallet.slice(2)) expect(count).toBeLessThanOrEqual(64 + 50);
  }, 120_000);
});

describe('rejectionReason', () => {
  it('masks hashes, addresses and numbers so equal causes group together', () => {
    const hash = 'ab'.repeat(32);
    expect(rejectionReason(`Rejected transaction ${hash}: output 2 of kaspadev:qqxyz09 is dust (546 sompi)`)).toBe(
      'Rejected transaction <hash>: output <n> of <address> is dust (<n> sompi)',
    );
  });
});
