/**
 * KRC-20 token traffic for the devnet: a seeded scenario over the deterministic wallets that deploys the tokens of
 * TOKEN_TRAFFIC_TOKENS (one with a premine, one small enough to mint out), mints, transfers, burns, lists and fills or
 * cancels trades at a per-token random-walk price (so candles have shape), plus a few ops that fail on purpose (a mint
 * after the token finished, a transfer beyond the balance, a mint of an unknown tick, a burn by a non-owner) so
 * opErrors appear. Assembled from three parts:
 * - token-traffic-model.ts: the scenario's model of token state (what lib/tokens should compute when the ops are
 *   accepted in the order planned), whose changes a rejected plan rolls back;
 * - token-traffic-transactions.ts: the commit/reveal pairs and listing spends, built and signed with the wallets' keys.
 *   The reveal is submitted right after the commit and chains on it in the mempool, as kaspad allows; deploy and mint
 *   reveals pay Kasplex's fee floors (1000 and 1 KAS) as miner fee;
 * - token-traffic-ops.ts: each op as one plan naming the opError it expects.
 * This module chooses the next op: the first plans follow a fixed script so a fresh devnet gets every op kind within
 * its first minutes; after it the choice is random (seeded).
 */
import { SOMPI_PER_KAS as KAS } from '../../kaspa/amount';
import { createTokenModel, type TokenModelBalance, type TokenTrafficToken } from './token-traffic-model';
import { createTokenOps, picker, type TokenPlan } from './token-traffic-ops';
import { CannotPlanNow, createTokenTransactions } from './token-traffic-transactions';
import type { SpendableUtxo, Wallet, WalletSet } from './wallet';

export type { TokenModelBalance, TokenTrafficToken } from './token-traffic-model';
export type { TokenOpKind, TokenPlan } from './token-traffic-ops';
export type { TokenSubmission } from './token-traffic-transactions';

/** The tickers the devnet's token traffic deploys (the devnet token registry names them). */
export const TOKEN_TRAFFIC_TICKERS = ['DAGB', 'SPARK', 'KRAFT', 'PIXEL', 'ORBIT'] as const;
export type TokenTrafficTicker = (typeof TOKEN_TRAFFIC_TICKERS)[number];

const units = (whole: bigint, dec: number) => whole * 10n ** BigInt(dec);

export const TOKEN_TRAFFIC_TOKENS: readonly TokenTrafficToken[] = Object.freeze([
  { tick: 'DAGB', dec: 8, max: units(21_000_000n, 8), lim: units(1_000n, 8), pre: 0n, startPrice: KAS / 2n },
  // Ten mints finish it.
  { tick: 'SPARK', dec: 2, max: units(50_000n, 2), lim: units(5_000n, 2), pre: 0n, startPrice: 2n * KAS },
  { tick: 'KRAFT', dec: 8, max: units(1_000_000n, 8), lim: units(10_000n, 8), pre: units(250_000n, 8), startPrice: KAS / 20n },
  { tick: 'PIXEL', dec: 0, max: 10_000n, lim: 100n, pre: 0n, startPrice: 3n * KAS },
  // Amounts past 2^53 in smallest units.
  { tick: 'ORBIT', dec: 18, max: units(1_000_000_000n, 18), lim: units(1_000_000n, 18), pre: 0n, startPrice: KAS / 1000n },
]);

const UNKNOWN_TICK = 'NOPE';
const RANDOM_ATTEMPTS = 4;

export interface TokenTrafficOptions {
  wallets: WalletSet;
  /** The wallet set's seed: the scenario signs reveals with the wallets' keys. */
  seed: Uint8Array | string;
  random: () => number;
  /** The wallets' spendable UTXOs to fund from; `wallet.spendableUtxos()` when omitted. */
  usable?: (wallet: Wallet) => SpendableUtxo[];
}

export interface TokenTraffic {
  /** The next op, or null when none can be funded now (try again later). */
  next(): TokenPlan | null;
  /** The model: per token, minted so far (accepted mints and premine). */
  minted(tick: string): bigint;
  /** The model balance of `address` in `tick`. */
  balance(address: string, tick: string): TokenModelBalance;
  /** Plans made so far. */
  readonly planned: number;
}

type Action = () => TokenPlan;

export function createTokenTraffic(options: TokenTrafficOptions): TokenTraffic {
  const { wallets, random } = options;
  const usable = options.usable ?? ((wallet: Wallet) => wallet.spendableUtxos());
  const transactions = createTokenTransactions({ wallets, seed: options.seed, usable });
  const model = createTokenModel(TOKEN_TRAFFIC_TOKENS, wallets.wallets);
  const { deploy, mint, transfer, burn, list, fill, cancel } = createTokenOps({ wallets, random, usable, model, transactions });
  const pick = picker(random);

  /** The opening: every op kind (and every deliberate failure) within the first few dozen plans. */
  const script: Action[] = [
    ...TOKEN_TRAFFIC_TOKENS.map((token) => () => deploy(token)),
    ...Array.from({ length: 10 }, (_, index) => () => mint('SPARK', wallets.wallets[index % wallets.wallets.length])),
    () => mint('SPARK'),
    () => mint('DAGB'),
    () => mint('PIXEL'),
    () => mint('ORBIT'),
    () => mint('PIXEL'),
    () => transfer('KRAFT'),
    () => transfer('SPARK'),
    () => transfer('PIXEL', true),
    () => mint(UNKNOWN_TICK),
    () => burn('KRAFT'),
    () => burn('SPARK', true),
    () => list('KRAFT'),
    () => list('SPARK'),
    () => fill('KRAFT'),
    () => fill('SPARK'),
    () => list('PIXEL'),
    () => cancel('PIXEL'),
    () => list('KRAFT'),
    () => fill('KRAFT'),
  ];

  const burnable = () =>
    model.deployedTicks().filter((tick) => model.deployer.get(tick) && model.balanceOf(model.deployer.get(tick)!.address, tick).balance > 0n);

  const randomAction = (): Action => {
    const roll = random() * 100;
    if (roll < 40) return () => mint(pick(model.mintable()));
    if (roll < 55) return () => transfer(pick(model.held()));
    if (roll < 60) return () => burn(pick(burnable()));
    if (roll < 72) return () => list(pick(model.held()));
    if (roll < 85) return () => fill();
    if (roll < 88) return () => cancel();
    if (roll < 92) return () => mint(pick(model.finished()));
    if (roll < 95) return () => transfer(pick(model.held()), true);
    if (roll < 97) return () => mint(UNKNOWN_TICK);
    return () => burn(pick(model.held()), true);
  };

  return {
    next() {
      const scripted = script[0];
      // The opening waits for its next step; a random choice that cannot be made now gives way to another.
      for (let attempt = 0; attempt < (scripted ? 1 : RANDOM_ATTEMPTS); attempt++) {
        try {
          const made = (scripted ?? randomAction())();
          if (scripted) script.shift();
          model.planned += 1;
          return made;
        } catch (error) {
          if (!(error instanceof CannotPlanNow)) throw error;
        }
      }
      return null;
    },
    minted: (tick) => model.mintedOf.get(tick) ?? 0n,
    balance: (address, tick) => model.balanceOf(address, tick),
    get planned() {
      return model.planned;
    },
  };
}
