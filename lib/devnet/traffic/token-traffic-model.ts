/**
 * The token traffic's model of KRC-20 state: what lib/tokens should compute when the planned ops are accepted in the
 * order planned (deployers, minted supply, balances with their locked part, open listings) and the per-token price
 * the trades walk. Invariant: every change a plan makes to supply, balances and listings comes with its undo, so a
 * plan whose submission is rejected leaves them as they were before the plan; prices only walk and are never undone.
 */
import type { Outpoint, UtxoEntry } from '../../kaspa/types';
import type { Wallet } from './wallet';

export interface TokenTrafficToken {
  tick: string;
  dec: number;
  /** Smallest units. */
  max: bigint;
  lim: bigint;
  pre: bigint;
  /** Starting price in sompi per whole token. */
  startPrice: bigint;
}

export interface TokenModelBalance {
  balance: bigint;
  locked: bigint;
}

export interface Listing {
  tick: string;
  seller: Wallet;
  amount: bigint;
  outpoint: Outpoint;
  entry: UtxoEntry;
  redeemScript: Uint8Array;
  /** Plans made when it was listed. */
  listedAt: number;
}

export type Undo = () => void;

export interface TokenModel {
  readonly definitions: ReadonlyMap<string, TokenTrafficToken>;
  readonly deployer: Map<string, Wallet>;
  readonly mintedOf: Map<string, bigint>;
  readonly prices: Map<string, bigint>;
  readonly listings: Listing[];
  /** Plans made so far; a listing is filled or cancelled only by a later plan. */
  planned: number;
  balanceOf(address: string, tick: string): TokenModelBalance;
  /** Adds `balance` and `locked` to the model balance of `wallet` in `tick` and returns the undo. */
  adjust(wallet: Wallet, tick: string, balance: bigint, locked?: bigint): Undo;
  /** The wallets holding at least `minimum` of `tick`. */
  holders(tick: string, minimum?: bigint): Wallet[];
  /** The deployed ticks, in the order of the token definitions; then those with supply left, those minted out, those held. */
  deployedTicks(): string[];
  mintable(): string[];
  finished(): string[];
  held(): string[];
}

/** The model of `tokens` as held by `wallets`. */
export function createTokenModel(tokens: readonly TokenTrafficToken[], wallets: readonly Wallet[]): TokenModel {
  const balances = new Map<string, TokenModelBalance>();
  const balanceKey = (address: string, tick: string) => `${address}/${tick}`;
  const balanceOf = (address: string, tick: string) => balances.get(balanceKey(address, tick)) ?? { balance: 0n, locked: 0n };
  const definitions = new Map(tokens.map((token) => [token.tick, token]));
  const deployer = new Map<string, Wallet>();
  const mintedOf = new Map<string, bigint>();
  const holders = (tick: string, minimum = 1n) => wallets.filter((wallet) => balanceOf(wallet.address, tick).balance >= minimum);
  const deployedTicks = () => tokens.map((token) => token.tick).filter((tick) => deployer.has(tick));
  return {
    definitions,
    deployer,
    mintedOf,
    prices: new Map(tokens.map((token) => [token.tick, token.startPrice])),
    listings: [],
    planned: 0,
    balanceOf,
    adjust(wallet, tick, balance, locked = 0n) {
      const key = balanceKey(wallet.address, tick);
      const before = balances.get(key);
      const current = before ?? { balance: 0n, locked: 0n };
      balances.set(key, { balance: current.balance + balance, locked: current.locked + locked });
      return () => {
        if (before) balances.set(key, before);
        else balances.delete(key);
      };
    },
    holders,
    deployedTicks,
    mintable: () => deployedTicks().filter((tick) => mintedOf.get(tick)! < definitions.get(tick)!.max),
    finished: () => deployedTicks().filter((tick) => mintedOf.get(tick)! >= definitions.get(tick)!.max),
    held: () => deployedTicks().filter((tick) => holders(tick, 2n).length > 0),
  };
}

/** Runs `undos` latest first, as one undo. */
export const undoAll = (undos: Undo[]): Undo => () => {
  for (const undo of undos.reverse()) undo();
};
