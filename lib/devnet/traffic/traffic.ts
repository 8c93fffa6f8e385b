/**
 * Devnet transaction traffic: a steady stream of realistic transactions from a WalletSet, submitted through the
 * node's wRPC methods (submitTransaction, submitTransactionReplacement). A token bucket holds the rate of new
 * transactions: one token per submission, none for a replacement, which supersedes a transaction already counted, so
 * the chain accepts about `rate` transactions a second. At most `maxInFlight` submissions wait for the node at once,
 * and node rejections are counted per reason, never thrown.
 *
 * Kinds: payments (1–3 inputs, 1–3 outputs, change), fan-outs to fresh and known addresses, consolidations of many
 * small UTXOs, splits of a large UTXO (a coinbase reward) into mid-size outputs to the same wallet, payloads (text
 * and binary), replacements (a payment at the minimum fee, then, once the node holds it, submitTransactionReplacement
 * of the same payment at a higher feerate), orphans (a child submitted with allowOrphan before its parent), and KRC-20
 * token ops (token-traffic.ts: a commit and its reveal, or a fill, as one plan; only with the `tokens` option).
 * Wallet UTXOs are re-read every `refreshIntervalMs`; callers with a subscription can also feed UtxosChanged to the
 * WalletSet (`followUtxosChanged`).
 *
 * Funding. A wallet holding fewer than `minUtxosPerWallet` usable UTXOs cannot carry its share of the rate (each
 * transaction locks 1–3 of them until it is answered), so before planning anything else the generator splits one of
 * its large UTXOs, at most one split per wallet awaiting the chain at a time. Likewise a wallet holding more than
 * `maxUtxosPerWallet` is consolidated first, so the UTXO set (and the cost of each refresh) stays bounded.
 *
 * What to submit is traffic-plans.ts' part (the kinds, funding and the plan order); this module is the rate, the
 * submissions in their order, their outcomes and the counts. Invariant: a plan's transactions stay `unsettled` until
 * its last submission is answered, and the planner never spends their change meanwhile.
 */
import { RpcError } from '../../rpc/errors';
import { transactionToRpc, type RpcCaller } from '../../rpc/convert-transaction';
import { FORK_ALWAYS } from '../consensus/params';
import type { CovenantTrafficStats } from './covenant-traffic';
import { createTrafficPlanner, DEFAULT_TRAFFIC_MIX, TRAFFIC_KINDS, type Plan, type Submission, type TrafficKind } from './traffic-plans';
import { WalletError, type WalletSet } from './wallet';

/** kaspad's rejection of a transaction spending outputs it does not know (submitted with allowOrphan false). */
const MISSING_INPUTS = /is an orphan where orphan is disallowed/;

export interface Clock {
  /** Milliseconds. */
  now(): number;
  sleep(milliseconds: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  sleep: (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds)),
};

/** A seeded PRNG (mulberry32) returning floats in [0, 1), for reproducible traffic. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 2 ** 32;
  };
}

export type TrafficErrorSource = TrafficKind | 'refresh' | 'loop';

export interface TrafficGeneratorOptions {
  rpc: RpcCaller;
  wallets: WalletSet;
  /** Submissions per second; default 20. */
  rate?: number;
  /** Uniform floats in [0, 1); pass `seededRandom(seed)` for reproducible traffic. */
  random: () => number;
  /** Failures other than node rejections: transport errors, failed refreshes, unexpected exceptions. */
  onError?: (error: unknown, source: TrafficErrorSource) => void;
  clock?: Clock;
  /** Submissions awaiting the node at once; default 64. */
  maxInFlight?: number;
  /** Token bucket capacity, absorbing timer and event-loop lateness; default max(2, rate / 4). */
  burst?: number;
  /** How often wallets re-read their UTXOs and the virtual DAA score; default 1000 ms. */
  refreshIntervalMs?: number;
  mix?: Partial<Record<TrafficKind, number>>;
  /**
   * A wallet with fewer usable UTXOs is split up first; default max(8, ⌈2.5 × rate / wallets⌉): two seconds of its
   * share of the rate, plus room for the replacements and orphan pairs that lock UTXOs without taking a token.
   */
  minUtxosPerWallet?: number;
  /**
   * A wallet with more usable UTXOs is consolidated first; default max(64, 4 × minUtxosPerWallet). Coinbase rewards
   * and change outgrow what the mix spends, and every refresh, snapshot and spendable-list costs time in proportion.
   */
  maxUtxosPerWallet?: number;
  /**
   * KRC-20 token traffic (the `token` kind): the wallet set's seed, whose keys sign the reveals, and the scenario's own
   * seeded PRNG. Without it the `token` kind falls back to a payment.
   */
  tokens?: { seed: Uint8Array | string; random: () => number };
  /**
   * Covenant lineages (covenant-traffic.ts): the wallet set's seed, whose keys own the covenants, and their own seeded
   * PRNG. A due step is planned before anything else; without this option there are none.
   */
  covenants?: { seed: Uint8Array | string; random: () => number; stepIntervalMs?: number };
  /**
   * DAA score from which the node applies Toccata (default 0, from genesis). Before it the traffic is what Crescendo
   * accepts: version-0 payments on the native lane, no covenants.
   */
  toccataActivation?: bigint;
}

export interface TrafficKindStats {
  submitted: number;
  accepted: number;
  rejected: number;
}

export interface TrafficStats {
  /** Submission calls made (an orphan pair counts two). */
  submitted: number;
  accepted: number;
  /** The node answered with an error. */
  rejected: number;
  /** No answer: timeouts, lost connections, protocol errors. */
  failed: number;
  byKind: Record<TrafficKind, TrafficKindStats>;
  /** Rejection and failure reasons, with hashes, addresses and numbers masked. */
  rejectionsByReason: Record<string, number>;
  /** Transactions not built, by `kind:reason` (no spendable funds, storage mass, …). */
  skippedByReason: Record<string, number>;
  refreshFailures: number;
  inFlight: number;
  covenants: CovenantTrafficStats | null;
}

export interface TrafficGenerator {
  start(): void;
  /** Stops planning new transactions; resolves once every in-flight submission has settled. */
  stop(): Promise<void>;
  readonly running: boolean;
  stats(): TrafficStats;
}

/** Masks what varies between occurrences of the same rejection: hashes, addresses and numbers. */
export function rejectionReason(message: string): string {
  return message
    .replace(/kaspa(?:dev|test|sim)?:[0-9a-z]+/g, '<address>')
    .replace(/\b[0-9a-f]{64}\b/gi, '<hash>')
    .replace(/\d+/g, '<n>')
    .slice(0, 160);
}

function emptyKindStats(): Record<TrafficKind, TrafficKindStats> {
  return Object.fromEntries(TRAFFIC_KINDS.map((kind) => [kind, { submitted: 0, accepted: 0, rejected: 0 }])) as Record<
    TrafficKind,
    TrafficKindStats
  >;
}

export function createTrafficGenerator(options: TrafficGeneratorOptions): TrafficGenerator {
  const { rpc, wallets, random, onError } = options;
  const clock = options.clock ?? systemClock;
  const rate = options.rate ?? 20;
  if (!(rate > 0)) throw new RangeError(`rate must be positive, got ${rate}`);
  const burst = options.burst ?? Math.max(2, rate / 4);
  if (!(burst >= 1)) throw new RangeError(`burst must be at least 1, got ${burst}`);
  const maxInFlight = options.maxInFlight ?? 64;
  const refreshIntervalMs = options.refreshIntervalMs ?? 1000;
  const mix = { ...DEFAULT_TRAFFIC_MIX, ...options.mix };
  if (!options.tokens) mix.token = 0;
  const totalWeight = TRAFFIC_KINDS.reduce((sum, kind) => sum + Math.max(0, mix[kind]), 0);
  if (!(totalWeight > 0)) throw new RangeError('the traffic mix needs a positive weight');
  const minUtxosPerWallet = options.minUtxosPerWallet ?? Math.max(8, Math.ceil((2.5 * rate) / wallets.wallets.length));
  const maxUtxosPerWallet = options.maxUtxosPerWallet ?? Math.max(64, 4 * minUtxosPerWallet);
  if (!(maxUtxosPerWallet > minUtxosPerWallet)) {
    throw new RangeError(`maxUtxosPerWallet (${maxUtxosPerWallet}) must exceed minUtxosPerWallet (${minUtxosPerWallet})`);
  }

  const counters = {
    submitted: 0,
    accepted: 0,
    rejected: 0,
    failed: 0,
    refreshFailures: 0,
    byKind: emptyKindStats(),
    rejectionsByReason: {} as Record<string, number>,
    skippedByReason: {} as Record<string, number>,
  };
  const inFlight = new Set<Promise<void>>();
  /** Transactions of plans still running: other plans do not chain on their change. */
  const unsettled = new Set<string>();
  /** The token bucket; a submission takes a token when it is made, so the bucket may briefly go below zero. */
  let tokens = 0;
  let running = false;
  let loop: Promise<void> | null = null;

  const report = (error: unknown, source: TrafficErrorSource) => {
    if (!onError) return;
    try {
      onError(error, source);
    } catch {
      // A failing observer must not stop the traffic.
    }
  };
  const bump = (record: Record<string, number>, key: string) => {
    record[key] = (record[key] ?? 0) + 1;
  };
  const planner = createTrafficPlanner({
    wallets,
    random,
    mix,
    minUtxosPerWallet,
    maxUtxosPerWallet,
    toccataActivation: options.toccataActivation ?? FORK_ALWAYS,
    tokens: options.tokens,
    covenants: options.covenants,
    now: () => clock.now(),
    unsettled,
    skipped: (kind, reason) => bump(counters.skippedByReason, `${kind}:${reason}`),
    report,
  });
  const covenantTraffic = planner.covenants;

  const submit = async (kind: TrafficKind, item: Submission): Promise<boolean> => {
    const { wallet, built } = item;
    if (item.method !== 'submitTransactionReplacement') tokens -= 1;
    counters.submitted += 1;
    counters.byKind[kind].submitted += 1;
    try {
      const transaction = transactionToRpc(built.transaction);
      if (item.method === 'submitTransactionReplacement') {
        await rpc.call('submitTransactionReplacement', { transaction });
        wallet.completeReplacement(item.replaces!, built);
      } else {
        await rpc.call('submitTransaction', { transaction, allowOrphan: item.allowOrphan });
      }
      counters.accepted += 1;
      counters.byKind[kind].accepted += 1;
      item.onAccepted?.();
      return true;
    } catch (error) {
      // Also after a timeout or a lost connection: should the node have the transaction after all, spending its inputs
      // again is rejected as a double spend and the next refresh shows them spent.
      const rejected = error instanceof RpcError && error.kind === 'rejected';
      item.onRejected?.();
      if (item.replaces) wallet.abortReplacement(item.replaces);
      else wallet.release(built.id);
      if (rejected && MISSING_INPUTS.test(error.message)) wallet.releaseMissingParents(built);
      if (rejected) {
        counters.rejected += 1;
        counters.byKind[kind].rejected += 1;
        bump(counters.rejectionsByReason, rejectionReason(error.message));
      } else {
        counters.failed += 1;
        bump(counters.rejectionsByReason, error instanceof RpcError ? error.kind : 'error');
        report(error, kind);
      }
      return false;
    }
  };

  /**
   * Runs a plan's submissions in order. Until the plan is done its transactions are unsettled, so no plan made
   * meanwhile chains on their change: an orphan's parent may not be submitted yet, a replaced transaction's change
   * is about to vanish, and a transaction not yet answered may be rejected.
   */
  const execute = async ({ kind, steps }: Plan): Promise<void> => {
    const marked = steps.filter((step): step is Submission => step !== 'replace').map((item) => item.built.id);
    for (const id of marked) unsettled.add(id);
    try {
      let previous: Submission | null = null;
      for (const step of steps) {
        let item: Submission;
        if (step === 'replace') {
          if (!previous) return;
          const { wallet, built } = previous;
          try {
            item = { wallet, built: wallet.buildReplacement(built.id), method: 'submitTransactionReplacement', allowOrphan: false, replaces: built.id };
          } catch (error) {
            if (!(error instanceof WalletError)) throw error;
            bump(counters.skippedByReason, `${kind}:${error.code}`);
            return;
          }
          unsettled.add(item.built.id);
          marked.push(item.built.id);
        } else {
          item = step;
          if (item.requiresPrevious && !previous) {
            item.onRejected?.();
            bump(counters.skippedByReason, `${kind}:previous_not_accepted`);
            return;
          }
        }
        previous = (await submit(kind, item)) ? item : null;
      }
    } finally {
      for (const id of marked) unsettled.delete(id);
    }
  };

  const launch = (next: Plan) => {
    const job = execute(next).catch((error: unknown) => report(error, next.kind));
    const tracked = job.finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
  };

  const refresh = async () => {
    try {
      await wallets.refresh(rpc);
      await covenantTraffic?.refresh(rpc);
    } catch (error) {
      counters.refreshFailures += 1;
      report(error, 'refresh');
    }
  };

  const run = async () => {
    const tokenIntervalMs = 1000 / rate;
    tokens = 0;
    let last = clock.now();
    let lastRefresh = Number.NEGATIVE_INFINITY;
    while (running) {
      const now = clock.now();
      tokens = Math.min(burst, tokens + ((now - last) * rate) / 1000);
      last = now;
      if (now - lastRefresh >= refreshIntervalMs) {
        await refresh();
        // Timed from the refresh's end: one slower than the interval (a large UTXO set on a loaded node) must still
        // leave the interval for planning, not start the next refresh at once and starve the traffic.
        lastRefresh = clock.now();
        continue;
      }
      if (inFlight.size >= maxInFlight) {
        await Promise.race(inFlight);
        continue;
      }
      if (tokens < 1) {
        await clock.sleep((1 - tokens) * tokenIntervalMs);
        continue;
      }
      const next = planner.next();
      if (!next) {
        await clock.sleep(tokenIntervalMs);
        continue;
      }
      launch(next);
    }
    await Promise.allSettled([...inFlight]);
  };

  return {
    start() {
      if (running) return;
      running = true;
      const previous = loop ?? Promise.resolve();
      loop = previous.then(run).catch((error: unknown) => {
        running = false;
        report(error, 'loop');
      });
    },
    async stop() {
      running = false;
      await loop;
    },
    get running() {
      return running;
    },
    stats() {
      return {
        submitted: counters.submitted,
        accepted: counters.accepted,
        rejected: counters.rejected,
        failed: counters.failed,
        byKind: Object.fromEntries(TRAFFIC_KINDS.map((kind) => [kind, { ...counters.byKind[kind] }])) as Record<
          TrafficKind,
          TrafficKindStats
        >,
        rejectionsByReason: { ...counters.rejectionsByReason },
        skippedByReason: { ...counters.skippedByReason },
        refreshFailures: counters.refreshFailures,
        inFlight: inFlight.size,
        covenants: covenantTraffic?.stats() ?? null,
      };
    },
  };
}
