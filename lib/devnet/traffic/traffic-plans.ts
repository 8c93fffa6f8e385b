/**
 * The traffic's plans: what to submit next, built from the wallets' usable outputs. Each call to `next()` is one plan:
 * the devnet HD wallet's periodic sweep, else a split for a wallet short of outputs, else a consolidation for a
 * crowded one, else a due covenant step, else a kind drawn from the mix (falling back to a payment). Invariant: a
 * plan never spends the change of a plan still running (`unsettled`), and building a plan tracks its transactions in
 * their wallets, so the next plan does not spend the same outputs.
 */
import { bytesToHex } from '../../kaspa/bytes';
import { SUBNETWORK_ID_SIZE } from '../../kaspa/types';
import { isForkActive } from '../consensus/params';
import { createCovenantTraffic, type CovenantTraffic } from './covenant-traffic';
import { createTokenTraffic, type TokenTraffic } from './token-traffic';
import { storageSafeAmount, WalletError, type BuiltTransaction, type Lane, type Payment, type SpendableUtxo, type Wallet, type WalletSet } from './wallet';

/** One plan in this many is the devnet HD wallet's sweep (when it holds enough), and it spends at most this many UTXOs. */
const HD_SWEEP_EVERY = 50;
const HD_SWEEP_MAX_INPUTS = 8;

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

export interface Submission {
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

export interface Plan {
  kind: TrafficKind;
  /** Submissions in order; `replace` follows an accepted predecessor with its fee-bumped replacement. */
  steps: (Submission | 'replace')[];
}

class PlanSkipped extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

export interface TrafficPlannerOptions {
  wallets: WalletSet;
  random: () => number;
  /** Weights by kind, with a positive total. */
  mix: Readonly<Record<TrafficKind, number>>;
  minUtxosPerWallet: number;
  maxUtxosPerWallet: number;
  toccataActivation: bigint;
  tokens?: { seed: Uint8Array | string; random: () => number };
  covenants?: { seed: Uint8Array | string; random: () => number; stepIntervalMs?: number };
  /** Milliseconds, for the covenant steps' timing. */
  now: () => number;
  /** Transactions (hex ids) of plans still running: their change is not spent meanwhile. */
  unsettled: ReadonlySet<string>;
  /** A plan of `kind` not built, and why. */
  skipped(kind: TrafficKind, reason: string): void;
  /** An unexpected failure while building a plan of `kind`. */
  report(error: unknown, kind: TrafficKind): void;
}

export interface TrafficPlanner {
  /** The next plan, or null when nothing can be built now. */
  next(): Plan | null;
  /** The covenant lineages (refreshed and reported by the generator); null without the option. */
  readonly covenants: CovenantTraffic | null;
}

export function createTrafficPlanner(options: TrafficPlannerOptions): TrafficPlanner {
  const { wallets, random, mix, minUtxosPerWallet, maxUtxosPerWallet, toccataActivation, unsettled, skipped, report, now } = options;
  const totalWeight = TRAFFIC_KINDS.reduce((sum, kind) => sum + Math.max(0, mix[kind]), 0);
  /** Each wallet's split awaiting the chain, so a wallet short of UTXOs is not split again meanwhile. */
  const pendingSplits = new Map<Wallet, string>();
  let sequence = 0;

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
    ? createCovenantTraffic({ wallets, seed: options.covenants.seed, random: options.covenants.random, now, stepIntervalMs: options.covenants.stepIntervalMs, usable })
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
        skipped(kind, error instanceof WalletError ? error.code : error.reason);
      } else {
        skipped(kind, 'error');
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

  return { next: plan, covenants: covenantTraffic };
}
