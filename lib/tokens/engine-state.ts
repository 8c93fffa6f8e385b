/**
 * The KRC-20 state records (tokens, balances, market orders, blacklist entries), their keys, the store holding them
 * with its per-tick and per-address indexes, and the writer a block's ops write through.
 *
 * Invariants: records are immutable: every write replaces the record, so an undo entry is the record reference that
 * was there before the block touched the key. The writer keeps one change per key (the value before the block and the
 * latest), deletes balance rows holding nothing, and keeps a token's holderTotal equal to its balance rows.
 */
import type { TokenMode } from './operations';

export interface TokenState {
  /** Token key: the upper-case tick, or the ca (deploy reveal tx id) of an issue-mode token. */
  tick: string;
  mode: TokenMode;
  name: string;
  /** 0n = unlimited (issue mode). */
  max: bigint;
  lim: bigint;
  pre: bigint;
  dec: number;
  /** The deploy's signer. */
  from: string;
  /** The owner (deployer, receiver of pre, the only address that may burn, issue, chown, blacklist). */
  to: string;
  minted: bigint;
  burned: bigint;
  txId: string;
  opScoreAdd: bigint;
  opScoreMod: bigint;
  mtsAdd: number;
  mtsMod: number;
  holderTotal: number;
  mintTotal: number;
  transferTotal: number;
}

export interface BalanceState {
  address: string;
  tick: string;
  dec: number;
  /** Available. */
  balance: bigint;
  /** Locked in open listings. */
  locked: bigint;
  opScoreMod: bigint;
}

export interface MarketOrderState {
  tick: string;
  seller: string;
  /** The list reveal transaction; its outputs[0] is the listing UTXO. */
  uTxId: string;
  uAddr: string;
  /** Sompi held by the listing UTXO (not a price). */
  uAmt: bigint;
  /** The send redeem script, hex. */
  uScript: string;
  amount: bigint;
  opScoreAdd: bigint;
}

export interface BlacklistState {
  tick: string;
  address: string;
  opScoreAdd: bigint;
}

export type StateChange =
  | { table: 'token'; key: string; before: TokenState | null; after: TokenState | null }
  | { table: 'balance'; key: string; before: BalanceState | null; after: BalanceState | null }
  | { table: 'order'; key: string; before: MarketOrderState | null; after: MarketOrderState | null }
  | { table: 'blacklist'; key: string; before: BlacklistState | null; after: BlacklistState | null };


export function balanceKey(address: string, tick: string): string {
  return `${address}_${tick}`;
}

export function orderKey(tick: string, seller: string, uTxId: string): string {
  return `${tick}_${seller}_${uTxId}`;
}

export function blacklistKey(tick: string, address: string): string {
  return `${tick}_${address}`;
}


function addToIndex(index: Map<string, Set<string>>, group: string, key: string): void {
  let keys = index.get(group);
  if (!keys) {
    keys = new Set();
    index.set(group, keys);
  }
  keys.add(key);
}

function removeFromIndex(index: Map<string, Set<string>>, group: string, key: string): void {
  const keys = index.get(group);
  if (!keys) return;
  keys.delete(key);
  if (keys.size === 0) index.delete(group);
}


export class TokenStore {
  readonly tokens = new Map<string, TokenState>();
  readonly balances = new Map<string, BalanceState>();
  readonly orders = new Map<string, MarketOrderState>();
  readonly blacklist = new Map<string, BlacklistState>();
  readonly balancesByTick = new Map<string, Set<string>>();
  readonly balancesByAddress = new Map<string, Set<string>>();
  readonly ordersByTick = new Map<string, Set<string>>();

  setToken(key: string, value: TokenState | null): void {
    if (value) this.tokens.set(key, value);
    else this.tokens.delete(key);
  }

  setBalance(key: string, value: BalanceState | null): void {
    const previous = this.balances.get(key);
    if (previous) {
      removeFromIndex(this.balancesByTick, previous.tick, key);
      removeFromIndex(this.balancesByAddress, previous.address, key);
    }
    if (value) {
      this.balances.set(key, value);
      addToIndex(this.balancesByTick, value.tick, key);
      addToIndex(this.balancesByAddress, value.address, key);
    } else {
      this.balances.delete(key);
    }
  }

  setOrder(key: string, value: MarketOrderState | null): void {
    const previous = this.orders.get(key);
    if (previous) removeFromIndex(this.ordersByTick, previous.tick, key);
    if (value) {
      this.orders.set(key, value);
      addToIndex(this.ordersByTick, value.tick, key);
    } else {
      this.orders.delete(key);
    }
  }

  setBlacklist(key: string, value: BlacklistState | null): void {
    if (value) this.blacklist.set(key, value);
    else this.blacklist.delete(key);
  }

  restore(change: StateChange, side: 'before' | 'after'): void {
    switch (change.table) {
      case 'token':
        this.setToken(change.key, change[side]);
        break;
      case 'balance':
        this.setBalance(change.key, change[side]);
        break;
      case 'order':
        this.setOrder(change.key, change[side]);
        break;
      case 'blacklist':
        this.setBlacklist(change.key, change[side]);
        break;
    }
  }
}

/** Writes through the store while recording, per key, the value before the block and the latest value. */
export class BlockWriter {
  private readonly changes = new Map<string, StateChange>();

  constructor(private readonly store: TokenStore) {}

  private record<C extends StateChange>(change: C): void {
    const id = `${change.table}:${change.key}`;
    const existing = this.changes.get(id);
    if (existing) existing.after = change.after;
    else this.changes.set(id, change);
  }

  token(key: string, value: TokenState | null): void {
    this.record({ table: 'token', key, before: this.store.tokens.get(key) ?? null, after: value });
    this.store.setToken(key, value);
  }

  /** Balance rows with nothing available and nothing locked are deleted; holder counts follow the transitions. */
  balance(key: string, value: BalanceState | null): void {
    const before = this.store.balances.get(key) ?? null;
    const after = value && (value.balance > 0n || value.locked > 0n) ? value : null;
    const wasHolder = before !== null;
    const isHolder = after !== null;
    this.record({ table: 'balance', key, before, after });
    this.store.setBalance(key, after);
    if (wasHolder !== isHolder) {
      const tick = (after ?? before)!.tick;
      const token = this.store.tokens.get(tick);
      if (token) this.token(tick, { ...token, holderTotal: token.holderTotal + (isHolder ? 1 : -1) });
    }
  }

  order(key: string, value: MarketOrderState | null): void {
    this.record({ table: 'order', key, before: this.store.orders.get(key) ?? null, after: value });
    this.store.setOrder(key, value);
  }

  blacklist(key: string, value: BlacklistState | null): void {
    this.record({ table: 'blacklist', key, before: this.store.blacklist.get(key) ?? null, after: value });
    this.store.setBlacklist(key, value);
  }

  finish(): StateChange[] {
    return [...this.changes.values()];
  }
}

