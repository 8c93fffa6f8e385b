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
 */
import { bytesToHex } from '../../kaspa/bytes';
import { SUBNETWORK_ID_SIZE } from '../../kaspa/types';
import { RpcError } from '../../rpc/errors';
import { transactionToRpc, type RpcCaller } from '../../rpc/convert-transaction';
import { createCovenantTraffic, type CovenantTrafficStats } from './covenant-traffic';
import { FORK_ALWAYS, isForkActive } from '../consensus/params';
import { createTokenTraffic, type TokenTraffic } from './token-traffic';
import { storageSafeAmount, WalletError, type BuiltTransaction, type Lane, type Payment, type SpendableUtxo, type Wallet, type WalletSet } from './wallet';

/** One plan in this many is the devnet HD wallet's sweep (when it holds enough), and it spends at most this many UTXOs. */
const HD_SWEEP_EVERY = 50;
const HD_SWEEP_MAX_INPUTS = 8;

/** kaspad's rejection of a transaction spending outputs it does not know (submitted with allowOrphan false). */
const MISSING_INPUTS = /is an orphan where orphan is disallowed/;

export const TRAFFIC_KINDS = [
  'payment',
  'fanOut',
  'consolidation',
  'split',
  'textPayload',
  'binaryPayload',
  'replacement',
  'orphan',
  'token',
  'covenant',
  'lane',
] as const;
export type TrafficKind = (typeof TRAFFIC_KINDS)[number];

/**
 * Relative weights; a kind that cannot be built at the moment falls back to a payment. Splits come when a wallet runs
 * short of UTXOs (see the header), not from the mix.
 */
export const DEFAULT_TRAFFIC_MIX: Readonly<Record<TrafficKind, number>> = Object.freeze({
  payment: 50,
  fanOut: 8,
  consolidation: 6,
  split: 0,
  textPayload: 10,
  binaryPayload: 8,
  replacement: 8,
  orphan: 10,
  // A token plan submits two transactions (commit and reveal), so this is about 8% of the submissions.
  token: 4,
  // Covenant steps come when a lineage is due (covenant-traffic.ts), not from the mix.
  covenant: 0,
  lane: 4,
});

/**
 * The KIP-21 user lanes the traffic writes to: a readable 4-byte namespace (ASCII) and 16 zero bytes, the user-lane
 * shape (lib/kaspa/subnetwork.ts), which may carry gas.
 */
export const TRAFFIC_LANES: readonly Uint8Array[] = ['dgbA', 'dgbB', 'dgbC'].map((namespace) => {
  const id = new Uint8Array(SUBNETWORK_ID_SIZE);
  id.set(new TextEncoder().encode(namespace));
  return id;
});
/** Gas a lane transaction declares: far below the 1e9 a block allows per lane at the traffic's lane share. */
const LANE_GAS = { minimum: 1_000, maximum: 2_000_000 };

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

/** Outputs of a split (the change included). */
const MAX_SPLIT_PARTS = 16;
/** Inputs of a consolidation of a crowded wallet: well within the standard compute mass. */
const CROWDED_CONSOLIDATION_INPUTS = 50;

const TEXT_PAYLOADS = [
  'hello from the dagboard devnet',
  'gm kaspa',
  'invoice 42: two coffees',
  'blockdag says hi',
  'ping',
  'payment for services rendered',
  '{"p":"note","msg":"devnet traffic"}',
];

interface Submission {
  wallet: Wallet;
  built: BuiltTransaction;
  method: 'submitTransaction' | 'submitTransactionReplacement';
  allowOrphan: boolean;
  /** For a replacement: the transaction it replaces. */
  replaces?: string;
  /** Spends an output of the plan's previous submission: skipped when that one was not accepted. */
  requiresPrevious?: boolean;
  /** Called when the node accepts this submission. */
  onAccepted?: () => void;
  /** Called when this submission is not accepted (a token plan rolls its model back). */
  onRejected?: () => void;
}

interface Plan {
  kind: TrafficKind;
  /** Submissions in order; `replace` follows an accepted predecessor with its fee-bumped replacement. */
  steps: (Submission | 'replace')[];
}

class PlanSkipped extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
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
  /** Each wallet's split awaiting the chain, so a wallet short of UTXOs is not split again meanwhile. */
  const pendingSplits = new Map<Wallet, string>();
  /** Transactions of plans still running: other plans do not chain on their change. */
  const unsettled = new Set<string>();
  /** The token bucket; a submission takes a token when it is made, so the bucket may briefly go below zero. */
  let tokens = 0;
  let running = false;
  let loop: Promise<void> | null = null;
  let sequence = 0;

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

  const integer = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const shuffled = <T>(items: readonly T[]): T[] => {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy;
  };
  /** Spendable outputs, leaving out the change of transactions whose plan is still running. */
  // Every plan looks over every wallet's UTXOs, so the ids' hex forms are kept with the id arrays they came from.
  const hexIds = new WeakMap<Uint8Array, string>();
  const hexId = (id: Uint8Array): string => {
    let hex = hexIds.get(id);
    if (hex === undefined) {
      hex = bytesToHex(id);
      hexIds.set(id, hex);
    }
    return hex;
  };
  const usable = (wallet: Wallet): SpendableUtxo[] => {
    const utxos = wallet.spendableUtxos();
    return unsettled.size === 0 ? utxos : utxos.filter((utxo) => !unsettled.has(hexId(utxo.outpoint.transactionId)));
  };
  const balanceOf = (utxos: readonly SpendableUtxo[]) => utxos.reduce((sum, utxo) => sum + utxo.entry.amount, 0n);
  const scaled = (amount: bigint, factor: number) => (amount * BigInt(Math.round(factor * 1_000_000))) / 1_000_000n;

  const fundedSender = (minimum: bigint): { wallet: Wallet; utxos: SpendableUtxo[] } => {
    const funded = wallets.wallets
      .map((wallet) => ({ wallet, utxos: usable(wallet) }))
      .filter(({ utxos }) => balanceOf(utxos) >= minimum);
    if (funded.length === 0) throw new PlanSkipped('no_funded_wallet');
    return pick(funded);
  };
  const otherAddress = (sender: Wallet): string => {
    const others = wallets.wallets.filter((wallet) => wallet !== sender);
    return others.length > 0 ? pick(others).address : wallets.freshAddress();
  };
  /** Splits `budget` into `count` payments of at least `floor` each, or fewer payments if the budget is short. */
  const splitPayments = (sender: Wallet, budget: bigint, count: number): Payment[] => {
    let outputs = count;
    while (outputs > 1 && budget / BigInt(outputs) < storageSafeAmount(outputs + 1)) outputs -= 1;
    const floor = storageSafeAmount(outputs + 1);
    if (budget / BigInt(outputs) < floor) throw new PlanSkipped('budget_below_storage_safe_amount');
    const spare = budget - floor * BigInt(outputs);
    const weights = Array.from({ length: outputs }, () => 1 + random());
    const weightTotal = weights.reduce((a, b) => a + b, 0);
    return weights.map((weight) => ({ to: otherAddress(sender), amount: floor + scaled(spare, weight / weightTotal) }));
  };

  const toccataActivation = options.toccataActivation ?? FORK_ALWAYS;
  const toccataActive = (): boolean => isForkActive(toccataActivation, wallets.virtualDaaScore());
  /** Under Toccata payments alternate between versions 0 and 1 by plan, leaving the random stream to the mix. */
  const paymentVersion = (): 0 | 1 => (toccataActive() && sequence % 2 === 0 ? 1 : 0);
  const payment = (payload?: Uint8Array, lane?: Lane): Submission[] => {
    const shape = lane ? { version: 1 as const, lane } : { version: paymentVersion() };
    const { wallet, utxos } = fundedSender(storageSafeAmount(4) * 2n);
    const inputs = shuffled(utxos).slice(0, integer(1, 3));
    const budget = scaled(balanceOf(inputs), 0.1 + 0.5 * random());
    const outputs = payload ? 1 : integer(1, 3);
    try {
      return [submission(wallet, wallet.buildTransaction({ inputs, payments: splitPayments(wallet, budget, outputs), payload, ...shape }))];
    } catch (error) {
      if (!(error instanceof WalletError || error instanceof PlanSkipped)) throw error;
      const fallback = splitPayments(wallet, storageSafeAmount(2) * BigInt(integer(1, 5)), 1);
      return [submission(wallet, wallet.buildTransaction({ candidates: utxos, payments: fallback, payload, ...shape }))];
    }
  };

  const fanOut = (): Submission[] => {
    const count = integer(4, 12);
    const floor = storageSafeAmount(count + 1);
    const { wallet, utxos } = fundedSender(floor * BigInt(count) * 4n);
    const payments = Array.from({ length: count }, () => ({
      to: random() < 0.5 ? wallets.freshAddress() : otherAddress(wallet),
      amount: scaled(floor, 1 + 2 * random()),
    }));
    return [submission(wallet, wallet.buildTransaction({ candidates: utxos, payments }))];
  };

  const consolidate = (wallet: Wallet, utxos: readonly SpendableUtxo[], count: number): Submission[] => {
    const smallest = [...utxos].sort((a, b) => (a.entry.amount < b.entry.amount ? -1 : a.entry.amount > b.entry.amount ? 1 : 0));
    return [submission(wallet, wallet.buildTransaction({ inputs: smallest.slice(0, count) }))];
  };
  const busiestWallet = (): { wallet: Wallet; utxos: SpendableUtxo[] } | undefined =>
    wallets.wallets.map((wallet) => ({ wallet, utxos: usable(wallet) })).sort((a, b) => b.utxos.length - a.utxos.length)[0];
  const consolidation = (): Submission[] => {
    const busiest = busiestWallet();
    if (!busiest || busiest.utxos.length < 6) throw new PlanSkipped('too_few_utxos');
    return consolidate(busiest.wallet, busiest.utxos, integer(6, 30));
  };

  /**
   * How many outputs to the wallet itself a split makes (the change, which also takes the remainder less the fee,
   * included): each share is at least twice the storage-safe amount for that many outputs, so the split stays well
   * within the standard storage mass.
   */
  const splitParts = (amount: bigint): number => {
    let parts = MAX_SPLIT_PARTS;
    while (parts > 2 && amount / BigInt(parts) < storageSafeAmount(parts) * 2n) parts -= 1;
    return parts;
  };
  const split = (wallet: Wallet, utxos: readonly SpendableUtxo[]): Submission[] => {
    const largest = utxos.reduce<SpendableUtxo | undefined>(
      (best, utxo) => (best === undefined || utxo.entry.amount > best.entry.amount ? utxo : best),
      undefined,
    );
    if (!largest) throw new PlanSkipped('nothing_to_split');
    const parts = splitParts(largest.entry.amount);
    const share = largest.entry.amount / BigInt(parts);
    if (share < storageSafeAmount(parts) * 2n) throw new PlanSkipped('too_small_to_split');
    const payments = Array.from({ length: parts - 1 }, () => ({ to: wallet.address, amount: share }));
    const built = wallet.buildTransaction({ inputs: [largest], payments });
    pendingSplits.set(wallet, built.id);
    return [submission(wallet, built)];
  };
  const splitting = (wallet: Wallet): boolean => {
    const id = pendingSplits.get(wallet);
    if (id === undefined) return false;
    if (wallet.isPending(id)) return true;
    pendingSplits.delete(wallet);
    return false;
  };
  /** Chosen from the mix: the wallet with the fewest usable UTXOs splits its largest. */
  const splitFewest = (): Submission[] => {
    const [fewest] = wallets.wallets
      .filter((wallet) => !splitting(wallet))
      .map((wallet) => ({ wallet, utxos: usable(wallet) }))
      .filter(({ utxos }) => utxos.length > 0)
      .sort((a, b) => a.utxos.length - b.utxos.length);
    if (!fewest) throw new PlanSkipped('nothing_to_split');
    return split(fewest.wallet, fewest.utxos);
  };
  /** A wallet short of UTXOs that holds one large enough to split, if any. */
  const shortWallet = (): { wallet: Wallet; utxos: SpendableUtxo[] } | undefined => {
    for (const wallet of wallets.wallets) {
      if (splitting(wallet)) continue;
      const utxos = usable(wallet);
      // With a single UTXO the split would leave the wallet nothing to spend until the chain confirms it.
      if (utxos.length >= minUtxosPerWallet || utxos.length < 2) continue;
      if (utxos.some((utxo) => splitParts(utxo.entry.amount) > 2)) return { wallet, utxos };
    }
    return undefined;
  };

  const textPayload = (): Submission[] =>
    payment(new TextEncoder().encode(`${pick(TEXT_PAYLOADS)} #${sequence}`));

  const binaryPayload = (): Submission[] => {
    const bytes = Uint8Array.from({ length: integer(8, 160) }, () => Math.floor(random() * 256));
    return payment(bytes);
  };

  /** A payment at the minimum fee, then, once the node has it, the same payment at a higher feerate. */
  const replacement = (): Plan['steps'] => [...payment(), 'replace'];

  /** A version-1 payment on one of the traffic's user lanes, declaring gas there. */
  const lanePayment = (): Submission[] => {
    if (!toccataActive()) throw new PlanSkipped('lanes_before_toccata');
    return payment(undefined, { subnetworkId: pick(TRAFFIC_LANES), gas: BigInt(integer(LANE_GAS.minimum, LANE_GAS.maximum)) });
  };

  const tokenTraffic: TokenTraffic | null = options.tokens
    ? createTokenTraffic({ wallets, seed: options.tokens.seed, random: options.tokens.random, usable })
    : null;
  const token = (): Submission[] => {
    if (!tokenTraffic) throw new PlanSkipped('tokens_disabled');
    const next = tokenTraffic.next();
    if (!next) throw new PlanSkipped('token_op_unfunded');
    let rolledBack = false;
    const rollback = () => {
      if (rolledBack) return;
      rolledBack = true;
      next.rollback();
    };
    return next.submissions.map(({ wallet, built, walletFunded }, index) => {
      if (walletFunded) wallet.track(built);
      return { wallet, built, method: 'submitTransaction', allowOrphan: false, requiresPrevious: index > 0, onRejected: rollback };
    });
  };

  const orphan = (): Submission[] => {
    const { wallet, utxos } = fundedSender(storageSafeAmount(2) * 8n);
    const parent = wallet.buildTransaction({ candidates: utxos, payments: splitPayments(wallet, storageSafeAmount(2) * 2n, 1) });
    if (!parent.change) throw new PlanSkipped('parent_without_change');
    wallet.track(parent);
    try {
      const budget = scaled(parent.change.entry.amount, 0.2 + 0.4 * random());
      const child = wallet.buildTransaction({ inputs: [parent.change], payments: splitPayments(wallet, budget, 1) });
      wallet.track(child);
      return [
        { wallet, built: child, method: 'submitTransaction', allowOrphan: true },
        { wallet, built: parent, method: 'submitTransaction', allowOrphan: false },
      ];
    } catch (error) {
      wallet.release(parent.id);
      throw error;
    }
  };

  function submission(wallet: Wallet, built: BuiltTransaction): Submission {
    wallet.track(built);
    return { wallet, built, method: 'submitTransaction', allowOrphan: false };
  }

  const covenantTraffic = options.covenants
    ? createCovenantTraffic({ wallets, seed: options.covenants.seed, random: options.covenants.random, now: () => clock.now(), stepIntervalMs: options.covenants.stepIntervalMs, usable })
    : null;
  /** The due covenant step, or no steps when none is due. */
  const dueCovenantStep = (): Submission[] => {
    const next = toccataActive() ? covenantTraffic?.next() : undefined;
    if (!next) return [];
    if (next.walletFunded) next.wallet.track(next.built);
    return [{ wallet: next.wallet, built: next.built, method: 'submitTransaction', allowOrphan: false, onAccepted: next.onAccepted, onRejected: next.onRejected }];
  };
  const covenant = (): Submission[] => {
    const steps = dueCovenantStep();
    if (!steps.length) throw new PlanSkipped('covenant_not_due');
    return steps;
  };

  const builders: Record<TrafficKind, () => Plan['steps']> = {
    payment: () => payment(),
    fanOut,
    consolidation,
    split: splitFewest,
    textPayload,
    binaryPayload,
    replacement,
    orphan,
    token,
    covenant,
    lane: lanePayment,
  };

  const chooseKind = (): TrafficKind => {
    let ticket = random() * totalWeight;
    for (const kind of TRAFFIC_KINDS) {
      ticket -= Math.max(0, mix[kind]);
      if (ticket < 0) return kind;
    }
    return 'payment';
  };

  const tryPlan = (kind: TrafficKind, build: () => Plan['steps'] = builders[kind]): Plan | null => {
    try {
      return { kind, steps: build() };
    } catch (error) {
      if (error instanceof PlanSkipped || error instanceof WalletError) {
        bump(counters.skippedByReason, `${kind}:${error instanceof WalletError ? error.code : error.reason}`);
      } else {
        bump(counters.skippedByReason, `${kind}:error`);
        report(error, kind);
      }
      return null;
    }
  };

  /**
   * Every HD_SWEEP_EVERY-th plan the devnet HD wallet spends what one of its addresses holds: alternately all to its
   * next change address (an internal transfer) or half of it to a traffic wallet and the rest to that change address.
   * Chosen by the plan's sequence number, so the mix's random stream is untouched.
   */
  const hdSweepSource = (): { wallet: Wallet; utxos: SpendableUtxo[] } | undefined => {
    const funded = wallets.hd
      .wallets()
      .map((wallet) => ({ wallet, utxos: usable(wallet).slice(0, HD_SWEEP_MAX_INPUTS) }))
      .filter(({ utxos }) => balanceOf(utxos) >= storageSafeAmount(3) * 4n);
    return funded[(sequence / HD_SWEEP_EVERY) % Math.max(1, funded.length)];
  };
  const hdSweep = ({ wallet, utxos }: { wallet: Wallet; utxos: SpendableUtxo[] }): Submission[] => {
    const round = sequence / HD_SWEEP_EVERY;
    const change = wallets.nextHdAddress('change');
    if (change === null) throw new PlanSkipped('hd_wallet_full');
    const half = balanceOf(utxos) / 2n;
    const payments: Payment[] =
      round % 2 === 0
        ? [{ to: change, amount: half }]
        : [
            { to: change, amount: half / 2n },
            { to: wallets.wallets[round % wallets.wallets.length]!.address, amount: half / 2n },
          ];
    return [submission(wallet, wallet.buildTransaction({ inputs: utxos, payments }))];
  };

  /** Builds (and tracks) the next transactions, falling back to a plain payment. */
  const plan = (): Plan | null => {
    sequence += 1;
    const sweepSource = sequence % HD_SWEEP_EVERY === 0 ? hdSweepSource() : undefined;
    if (sweepSource) {
      const sweep = tryPlan('payment', () => hdSweep(sweepSource));
      if (sweep) return sweep;
    }
    const short = shortWallet();
    if (short) {
      const splitPlan = tryPlan('split', () => split(short.wallet, short.utxos));
      if (splitPlan) return splitPlan;
    }
    const busiest = busiestWallet();
    if (busiest && busiest.utxos.length > maxUtxosPerWallet) {
      const consolidationPlan = tryPlan('consolidation', () =>
        consolidate(busiest.wallet, busiest.utxos, Math.min(CROWDED_CONSOLIDATION_INPUTS, busiest.utxos.length - minUtxosPerWallet)),
      );
      if (consolidationPlan) return consolidationPlan;
    }
    const dueCovenant = covenantTraffic && tryPlan('covenant', dueCovenantStep);
    if (dueCovenant && dueCovenant.steps.length) return dueCovenant;
    const kind = chooseKind();
    return tryPlan(kind) ?? (kind === 'payment' ? null : tryPlan('payment'));
  };

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
      const next = plan();
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
