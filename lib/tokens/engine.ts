/**
 * The KRC-20 state machine: applies the ops of accepted transactions chain block by chain block, in opScore order,
 * with the rules of kasplex/indexer-executor operation/op_*.go Do (checks in their order, their opError strings),
 * and keeps an undo log per accepting block so a reorg can revert blocks newest first.
 *
 * State records are immutable: every write replaces the record, so an undo entry is the record reference that was
 * there before the block touched the key.
 */
import { AddressVersion, encodeAddress, scriptHashAddress, type AddressPrefix } from '../kaspa/address';
import { bytesToHex } from '../kaspa/bytes';
import { transactionId } from '../kaspa/transaction';
import type { Transaction } from '../kaspa/types';
import { sendRedeemScript } from './envelope';
import {
  feeFloor,
  isValidTokenAddress,
  parseTransactionOps,
  revealFee,
  type BlacklistOp,
  type BurnOp,
  type ChownOp,
  type DeployOp,
  type IssueOp,
  type ListOp,
  type MintOp,
  type OpError,
  type SendOp,
  type SpentOutput,
  type TokenMode,
  type TokenOp,
  type TransferOp,
} from './operations';
import type { TokenProfile } from './profile';

/** opScore = DAA score of the accepting chain block × 10000 + the op-bearing transaction's index in that block. */
export const OP_SCORE_MULTIPLIER = 10_000n;

export function opScoreOf(daaScore: bigint, index: number): bigint {
  return daaScore * OP_SCORE_MULTIPLIER + BigInt(index);
}

export function decodeOpScore(opScore: bigint): { daaScore: bigint; index: number } {
  return { daaScore: opScore / OP_SCORE_MULTIPLIER, index: Number(opScore % OP_SCORE_MULTIPLIER) };
}

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

/** The API's token state: `finished` once a capped token is fully minted ([GK] api/v1token.go). */
export type TokenStatus = 'deployed' | 'finished';

export function tokenStatus(token: Pick<TokenState, 'max' | 'minted'>): TokenStatus {
  return token.max !== 0n && token.minted >= token.max ? 'finished' : 'deployed';
}

/** The burn sink: the version 0 address of 32 zero bytes (`kaspa:qqqq…kx9awp4e` on mainnet). */
export function blackHoleAddress(prefix: AddressPrefix): string {
  return encodeAddress({ prefix, version: AddressVersion.PubKey, payload: new Uint8Array(32) });
}

export interface SupplySummary {
  /** null = unlimited (issue mode with max 0). */
  maxSupply: bigint | null;
  totalSupply: bigint;
  totalBurned: bigint;
}

/** The v3 API's supply figures: burned counts the burn op total plus whatever the black-hole address holds. */
export function supplySummary(token: Pick<TokenState, 'max' | 'minted' | 'burned'>, blackHoleHolding: bigint): SupplySummary {
  const totalBurned = token.burned + blackHoleHolding;
  return {
    maxSupply: token.max === 0n ? null : token.max - totalBurned,
    totalSupply: token.minted - totalBurned,
    totalBurned,
  };
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

export interface ScriptOutcome {
  inputIndex: number;
  op: TokenOp;
  accepted: boolean;
  opError: OpError | null;
  /** Tokens moved: the credited amount of a mint or issue, the order amount of a send, else the op's amt. */
  amount: bigint | null;
  /** The token's decimals and display name when the token exists. */
  dec: number | null;
  name: string;
}

export interface OpRecord {
  opScore: bigint;
  txId: string;
  /** The accepting chain block. */
  blockAccept: string;
  daaScore: bigint;
  /** Accepting block time, ms. */
  mtsAdd: number;
  /** The reveal's miner fee in sompi; 0n when unknown. */
  feeRev: bigint;
  accepted: boolean;
  opError: OpError | null;
  /** The first accepted script, or the first script when none was accepted (Kasplex's op record). */
  primary: ScriptOutcome;
  scripts: ScriptOutcome[];
  fromPayload: boolean;
  /** The primary token's counters after this transaction, when the token exists. */
  tokenCounters: TokenCounters | null;
}

export interface TokenCounters {
  holderTotal: number;
  mintTotal: number;
  transferTotal: number;
}

export interface AcceptedTransaction {
  transaction: Transaction;
  /** Hex; computed from the transaction when absent. */
  txId?: string;
  /**
   * The UTXO entries each input spends, when known: they give the reveal fee and a payload op's sender. Without them
   * a deploy or mint fails with "fee unknown"; with them, a reveal paying no fee carries no deploy or mint at all.
   */
  spentOutputs?: readonly (SpentOutput | null | undefined)[];
}

export interface AcceptedBlock {
  /** Hex hash of the accepting chain block. */
  hash: string;
  daaScore: bigint;
  /** Header timestamp, ms. */
  timestamp: number;
  /** Accepted transactions in acceptance order. */
  transactions: readonly AcceptedTransaction[];
}

export interface BlockApplication {
  hash: string;
  daaScore: bigint;
  ops: OpRecord[];
  /** One entry per touched key: the value before the block and after it. Reverting restores every `before`. */
  changes: StateChange[];
}

export interface TokenEngineSnapshot {
  tokens: TokenState[];
  balances: BalanceState[];
  orders: MarketOrderState[];
  blacklist: BlacklistState[];
  /** DAA score of the last applied block. */
  lastDaaScore: bigint | null;
}

export interface TokenEngineOptions {
  profile: TokenProfile;
  snapshot?: TokenEngineSnapshot;
}

export interface TokenEngine {
  readonly profile: TokenProfile;
  applyBlock(block: AcceptedBlock): BlockApplication;
  /** Reverts the most recently applied block that still has its undo log; any other hash throws. */
  revertBlock(hash: string): BlockApplication;
  /** Forgets the undo logs of all but the newest `keep` blocks (those can then no longer be reverted). */
  pruneUndo(keep: number): void;
  revertibleBlocks(): { hash: string; daaScore: bigint }[];
  token(tickOrCa: string): TokenState | undefined;
  tokens(): TokenState[];
  balance(address: string, tickOrCa: string): BalanceState | undefined;
  balancesOf(address: string): BalanceState[];
  /** Holders by balance + locked, descending, then address. */
  holders(tickOrCa: string, limit?: number): BalanceState[];
  order(tickOrCa: string, seller: string, uTxId: string): MarketOrderState | undefined;
  orders(tickOrCa: string): MarketOrderState[];
  isBlacklisted(ca: string, address: string): boolean;
  snapshot(): TokenEngineSnapshot;
}

export function balanceKey(address: string, tick: string): string {
  return `${address}_${tick}`;
}

export function orderKey(tick: string, seller: string, uTxId: string): string {
  return `${tick}_${seller}_${uTxId}`;
}

export function blacklistKey(tick: string, address: string): string {
  return `${tick}_${address}`;
}

function tokenKeyFromQuery(tickOrCa: string): string {
  return tickOrCa.length === 64 ? tickOrCa.toLowerCase() : tickOrCa.toUpperCase();
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

function compareByKey<T>(keyOf: (value: T) => string): (a: T, b: T) => number {
  return (a, b) => {
    const left = keyOf(a);
    const right = keyOf(b);
    return left < right ? -1 : left > right ? 1 : 0;
  };
}

class TokenStore {
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
class BlockWriter {
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

interface OpSession {
  opScore: bigint;
  txId: string;
  timestamp: number;
  /** undefined: the spent outputs were not given, so the fee cannot be known. */
  fee: bigint | undefined;
  signerScript: Uint8Array | null;
}

type Execution = { opError: OpError } | { opError: null; amount: bigint | null };

function failed(opError: OpError): Execution {
  return { opError };
}

interface UndoEntry {
  application: BlockApplication;
  previousLastDaaScore: bigint | null;
}

export function createTokenEngine(options: TokenEngineOptions): TokenEngine {
  const { profile } = options;
  const store = new TokenStore();
  const undo: UndoEntry[] = [];
  let lastDaaScore: bigint | null = options.snapshot?.lastDaaScore ?? null;

  if (options.snapshot) {
    for (const token of options.snapshot.tokens) store.setToken(token.tick, { ...token });
    for (const balance of options.snapshot.balances) {
      store.setBalance(balanceKey(balance.address, balance.tick), { ...balance });
    }
    for (const order of options.snapshot.orders) store.setOrder(orderKey(order.tick, order.seller, order.uTxId), { ...order });
    for (const entry of options.snapshot.blacklist) store.setBlacklist(blacklistKey(entry.tick, entry.address), { ...entry });
  }

  const validAddress = (address: string): boolean => isValidTokenAddress(address, profile.addressPrefix);

  function credit(writer: BlockWriter, token: TokenState, address: string, amount: bigint, opScore: bigint): void {
    const key = balanceKey(address, token.tick);
    const current = store.balances.get(key);
    writer.balance(key, {
      address,
      tick: token.tick,
      dec: token.dec,
      balance: (current?.balance ?? 0n) + amount,
      locked: current?.locked ?? 0n,
      opScoreMod: opScore,
    });
  }

  function deploy(writer: BlockWriter, op: DeployOp, session: OpSession): Execution {
    if (store.tokens.has(op.tick)) return failed('tick existed');
    if (profile.ignoredTicks.has(op.tick)) return failed('tick ignored');
    const reservedFor = profile.reservedTicks.get(op.tick);
    if (reservedFor !== undefined && reservedFor !== op.from) return failed('tick reserved');
    if (session.fee === undefined) return failed('fee unknown');
    if (session.fee < feeFloor('deploy')) return failed('fee not enough');
    if (op.pre > 0n && !validAddress(op.to)) return failed('address invalid');
    const minted = op.pre > 0n && op.max > 0n && op.pre > op.max ? op.max : op.pre;
    const token: TokenState = {
      tick: op.tick,
      mode: op.mode,
      name: op.name,
      max: op.max,
      lim: op.lim,
      pre: op.pre,
      dec: op.dec,
      from: op.from,
      to: op.to,
      minted,
      burned: 0n,
      txId: session.txId,
      opScoreAdd: session.opScore,
      opScoreMod: session.opScore,
      mtsAdd: session.timestamp,
      mtsMod: session.timestamp,
      holderTotal: 0,
      mintTotal: 0,
      transferTotal: 0,
    };
    writer.token(op.tick, token);
    if (minted > 0n) credit(writer, token, op.to, minted, session.opScore);
    return { opError: null, amount: null };
  }

  function mint(writer: BlockWriter, op: MintOp, session: OpSession): Execution {
    const token = store.tokens.get(op.tick);
    if (!token) return failed('tick not found');
    if (token.mode !== 'mint') return failed('mode invalid');
    if (session.fee === undefined) return failed('fee unknown');
    if (session.fee < feeFloor('mint')) return failed('fee not enough');
    if (!validAddress(op.to)) return failed('address invalid');
    const left = token.max - token.minted;
    if (left <= 0n) return failed('mint finished');
    const amount = token.lim < left ? token.lim : left;
    const updated: TokenState = {
      ...token,
      minted: token.minted + amount,
      mintTotal: token.mintTotal + 1,
      opScoreMod: session.opScore,
      mtsMod: session.timestamp,
    };
    writer.token(op.tick, updated);
    credit(writer, updated, op.to, amount, session.opScore);
    return { opError: null, amount };
  }

  function transfer(writer: BlockWriter, op: TransferOp, session: OpSession): Execution {
    const token = store.tokens.get(op.tick);
    if (!token) return failed('tick not found');
    if (store.blacklist.has(blacklistKey(op.tick, op.from))) return failed('blacklist');
    if (op.from === op.to || !validAddress(op.to)) return failed('address invalid');
    const fromKey = balanceKey(op.from, op.tick);
    const source = store.balances.get(fromKey);
    if (!source || op.amt > source.balance) return failed('balance insuff');
    writer.balance(fromKey, { ...source, balance: source.balance - op.amt, opScoreMod: session.opScore });
    credit(writer, token, op.to, op.amt, session.opScore);
    const latest = store.tokens.get(op.tick)!;
    writer.token(op.tick, { ...latest, transferTotal: latest.transferTotal + 1 });
    return { opError: null, amount: op.amt };
  }

  function burn(writer: BlockWriter, op: BurnOp, session: OpSession): Execution {
    const token = store.tokens.get(op.tick);
    if (!token) return failed('tick not found');
    if (op.from !== token.to) return failed('no ownership');
    const key = balanceKey(op.from, op.tick);
    const source = store.balances.get(key);
    if (!source || op.amt > source.balance) return failed('balance insuff');
    writer.balance(key, { ...source, balance: source.balance - op.amt, opScoreMod: session.opScore });
    const latest = store.tokens.get(op.tick)!;
    writer.token(op.tick, {
      ...latest,
      burned: latest.burned + op.amt,
      opScoreMod: session.opScore,
      mtsMod: session.timestamp,
    });
    return { opError: null, amount: op.amt };
  }

  function list(writer: BlockWriter, op: ListOp, session: OpSession): Execution {
    const token = store.tokens.get(op.tick);
    if (!token) return failed('tick not found');
    if (store.blacklist.has(blacklistKey(op.tick, op.from))) return failed('blacklist');
    const key = balanceKey(op.from, op.tick);
    const source = store.balances.get(key);
    if (!source || op.amt > source.balance) return failed('balance insuff');
    const uScript = listingScriptFor(token, op.utxo.address, session.signerScript);
    if (uScript === null) return failed('address invalid');
    writer.balance(key, {
      ...source,
      balance: source.balance - op.amt,
      locked: source.locked + op.amt,
      opScoreMod: session.opScore,
    });
    writer.order(orderKey(op.tick, op.from, op.utxo.txId), {
      tick: op.tick,
      seller: op.from,
      uTxId: op.utxo.txId,
      uAddr: op.utxo.address,
      uAmt: op.utxo.amount,
      uScript: bytesToHex(uScript),
      amount: op.amt,
      opScoreAdd: session.opScore,
    });
    return { opError: null, amount: op.amt };
  }

  /** The send redeem script outputs[0] paid to, if it is the seller's lowercase send P2SH (or the ca form). */
  function listingScriptFor(token: TokenState, address: string, signerScript: Uint8Array | null): Uint8Array | null {
    if (!signerScript) return null;
    const byTick = sendRedeemScript(signerScript, token.tick, 'tick');
    if (scriptHashAddress(byTick, profile.addressPrefix) === address) return byTick;
    if (token.mode !== 'issue') return null;
    const byCa = sendRedeemScript(signerScript, token.tick, 'ca');
    return scriptHashAddress(byCa, profile.addressPrefix) === address ? byCa : null;
  }

  function send(writer: BlockWriter, op: SendOp, session: OpSession): Execution {
    const token = store.tokens.get(op.tick);
    if (!token) return failed('tick not found');
    const marketKey = orderKey(op.tick, op.from, op.listingTxId);
    const order = store.orders.get(marketKey);
    if (!order) return failed('order not found');
    const sellerKey = balanceKey(op.from, op.tick);
    const seller = store.balances.get(sellerKey);
    if (!seller || order.amount > seller.locked) return failed('order abnormal');
    const amount = order.amount;
    // As in op_send.go, rows that already existed keep their opScoreMod.
    if (op.to === op.from) {
      writer.balance(sellerKey, { ...seller, balance: seller.balance + amount, locked: seller.locked - amount });
    } else {
      const buyerKey = balanceKey(op.to, op.tick);
      const buyer = store.balances.get(buyerKey);
      writer.balance(
        buyerKey,
        buyer
          ? { ...buyer, balance: buyer.balance + amount }
          : { address: op.to, tick: op.tick, dec: seller.dec, balance: amount, locked: 0n, opScoreMod: session.opScore },
      );
      writer.balance(sellerKey, { ...seller, locked: seller.locked - amount });
    }
    writer.order(marketKey, null);
    return { opError: null, amount };
  }

  function issue(writer: BlockWriter, op: IssueOp, session: OpSession): Execution {
    const token = store.tokens.get(op.tick);
    if (!token) return failed('tick not found');
    if (token.mode !== 'issue') return failed('mode invalid');
    if (op.from !== token.to) return failed('no ownership');
    if (!validAddress(op.to)) return failed('address invalid');
    let amount = op.amt;
    if (token.max > 0n) {
      const left = token.max - token.minted;
      if (left <= 0n) return failed('issue finished');
      if (amount > left) amount = left;
    }
    const updated: TokenState = {
      ...token,
      minted: token.minted + amount,
      opScoreMod: session.opScore,
      mtsMod: session.timestamp,
    };
    writer.token(op.tick, updated);
    credit(writer, updated, op.to, amount, session.opScore);
    return { opError: null, amount };
  }

  function chown(writer: BlockWriter, op: ChownOp, session: OpSession): Execution {
    const token = store.tokens.get(op.tick);
    if (!token) return failed('tick not found');
    if (op.from !== token.to) return failed('no ownership');
    if (op.to === token.to || !validAddress(op.to)) return failed('address invalid');
    writer.token(op.tick, { ...token, to: op.to, opScoreMod: session.opScore, mtsMod: session.timestamp });
    return { opError: null, amount: null };
  }

  function blacklist(writer: BlockWriter, op: BlacklistOp, session: OpSession): Execution {
    const token = store.tokens.get(op.tick);
    if (!token) return failed('tick not found');
    if (token.mode !== 'issue') return failed('mode invalid');
    if (op.from !== token.to) return failed('no ownership');
    if (op.to === token.to || !validAddress(op.to)) return failed('address invalid');
    const key = blacklistKey(op.tick, op.to);
    const listed = store.blacklist.has(key);
    if (op.mod === 'add' ? listed : !listed) return failed('no affected');
    writer.blacklist(key, op.mod === 'add' ? { tick: op.tick, address: op.to, opScoreAdd: session.opScore } : null);
    return { opError: null, amount: null };
  }

  function execute(writer: BlockWriter, op: TokenOp, session: OpSession): Execution {
    switch (op.op) {
      case 'deploy':
        return deploy(writer, op, session);
      case 'mint':
        return mint(writer, op, session);
      case 'transfer':
        return transfer(writer, op, session);
      case 'burn':
        return burn(writer, op, session);
      case 'list':
        return list(writer, op, session);
      case 'send':
        return send(writer, op, session);
      case 'issue':
        return issue(writer, op, session);
      case 'chown':
        return chown(writer, op, session);
      case 'blacklist':
        return blacklist(writer, op, session);
    }
  }

  function outcomeOf(inputIndex: number, op: TokenOp, execution: Execution): ScriptOutcome {
    const token = store.tokens.get(op.tick);
    const amount = execution.opError === null ? execution.amount : 'amt' in op ? op.amt : null;
    return {
      inputIndex,
      op,
      accepted: execution.opError === null,
      opError: execution.opError,
      amount,
      dec: token?.dec ?? null,
      name: token?.name ?? '',
    };
  }

  function applyTransactions(block: AcceptedBlock, writer: BlockWriter): OpRecord[] {
    const ops: OpRecord[] = [];
    for (const accepted of block.transactions) {
      const txId = accepted.txId ?? bytesToHex(transactionId(accepted.transaction));
      const parsed = parseTransactionOps(accepted.transaction, {
        profile,
        txId,
        daaScore: block.daaScore,
        spentOutputs: accepted.spentOutputs,
      });
      if (!parsed) continue;
      const fee = revealFee(accepted.transaction, accepted.spentOutputs);
      if (feeFloor(parsed.scripts[0]!.op.op) > 0n && fee === 0n) continue;
      if (BigInt(ops.length) >= OP_SCORE_MULTIPLIER) {
        throw new RangeError(`more than ${OP_SCORE_MULTIPLIER} ops accepted by chain block ${block.hash}`);
      }
      const session: OpSession = {
        opScore: opScoreOf(block.daaScore, ops.length),
        txId,
        timestamp: block.timestamp,
        fee,
        signerScript: parsed.signerScript,
      };
      const scripts = parsed.scripts.map((script) =>
        outcomeOf(script.inputIndex, script.op, execute(writer, script.op, session)),
      );
      const primary = scripts.find((script) => script.accepted) ?? scripts[0]!;
      const token = store.tokens.get(primary.op.tick);
      ops.push({
        opScore: session.opScore,
        txId,
        blockAccept: block.hash,
        daaScore: block.daaScore,
        mtsAdd: block.timestamp,
        feeRev: fee ?? 0n,
        accepted: primary.accepted,
        opError: primary.opError,
        primary,
        scripts,
        fromPayload: parsed.fromPayload,
        tokenCounters: token
          ? { holderTotal: token.holderTotal, mintTotal: token.mintTotal, transferTotal: token.transferTotal }
          : null,
      });
    }
    return ops;
  }

  /** All or nothing: a block that throws midway leaves the state as it was. */
  function applyBlock(block: AcceptedBlock): BlockApplication {
    // The DAA score never falls along the selected chain; genesis and its chain child share one.
    if (lastDaaScore !== null && block.daaScore < lastDaaScore) {
      throw new RangeError(
        `chain blocks must be applied in non-decreasing DAA score: ${block.daaScore} after ${lastDaaScore}`,
      );
    }
    const writer = new BlockWriter(store);
    let ops: OpRecord[];
    try {
      ops = applyTransactions(block, writer);
    } catch (error) {
      for (const change of writer.finish()) store.restore(change, 'before');
      throw error;
    }
    const application: BlockApplication = { hash: block.hash, daaScore: block.daaScore, ops, changes: writer.finish() };
    undo.push({ application, previousLastDaaScore: lastDaaScore });
    lastDaaScore = block.daaScore;
    return application;
  }

  function revertBlock(hash: string): BlockApplication {
    const entry = undo[undo.length - 1];
    if (!entry || entry.application.hash !== hash) {
      throw new Error(`block ${hash} is not the most recently applied block with an undo log`);
    }
    undo.pop();
    const { changes } = entry.application;
    for (let i = changes.length - 1; i >= 0; i--) store.restore(changes[i]!, 'before');
    lastDaaScore = entry.previousLastDaaScore;
    return entry.application;
  }

  function collect<T>(keys: Set<string> | undefined, source: Map<string, T>): T[] {
    return keys ? [...keys].map((key) => source.get(key)!) : [];
  }

  return {
    profile,
    applyBlock,
    revertBlock,
    pruneUndo(keep) {
      if (undo.length > keep) undo.splice(0, undo.length - Math.max(0, keep));
    },
    revertibleBlocks: () => undo.map((entry) => ({ hash: entry.application.hash, daaScore: entry.application.daaScore })),
    token: (tickOrCa) => store.tokens.get(tokenKeyFromQuery(tickOrCa)),
    tokens: () =>
      [...store.tokens.values()].sort((a, b) => (a.opScoreAdd < b.opScoreAdd ? -1 : a.opScoreAdd > b.opScoreAdd ? 1 : 0)),
    balance: (address, tickOrCa) => store.balances.get(balanceKey(address, tokenKeyFromQuery(tickOrCa))),
    balancesOf: (address) =>
      collect(store.balancesByAddress.get(address), store.balances).sort(compareByKey((balance) => balance.tick)),
    holders(tickOrCa, limit = 100) {
      const holders = collect(store.balancesByTick.get(tokenKeyFromQuery(tickOrCa)), store.balances);
      holders.sort((a, b) => {
        const left = a.balance + a.locked;
        const right = b.balance + b.locked;
        if (left !== right) return left > right ? -1 : 1;
        return a.address < b.address ? -1 : a.address > b.address ? 1 : 0;
      });
      return holders.slice(0, limit);
    },
    order: (tickOrCa, seller, uTxId) => store.orders.get(orderKey(tokenKeyFromQuery(tickOrCa), seller, uTxId)),
    orders: (tickOrCa) =>
      collect(store.ordersByTick.get(tokenKeyFromQuery(tickOrCa)), store.orders).sort((a, b) =>
        a.opScoreAdd < b.opScoreAdd ? -1 : a.opScoreAdd > b.opScoreAdd ? 1 : 0,
      ),
    isBlacklisted: (ca, address) => store.blacklist.has(blacklistKey(ca.toLowerCase(), address)),
    snapshot: () => ({
      tokens: [...store.tokens.values()].map((token) => ({ ...token })).sort(compareByKey((token) => token.tick)),
      balances: [...store.balances.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([, balance]) => ({ ...balance })),
      orders: [...store.orders.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([, order]) => ({ ...order })),
      blacklist: [...store.blacklist.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([, entry]) => ({ ...entry })),
      lastDaaScore,
    }),
  };
}
