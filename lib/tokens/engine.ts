/**
 * The KRC-20 state machine: applies the ops of accepted transactions chain block by chain block, in opScore order,
 * and keeps an undo log per accepting block so a reorg can revert blocks newest first. Assembled from two parts:
 * - engine-state.ts: the state records, their store and indexes, and the block writer recording each key's change;
 * - engine-ops.ts: each op's checks and writes, with the rules of kasplex/indexer-executor.
 * This module numbers the ops (opScore), makes the op records, applies and reverts whole blocks, and answers queries.
 */
import { AddressVersion, encodeAddress, type AddressPrefix } from '../kaspa/address';
import { bytesToHex } from '../kaspa/bytes';
import { transactionId } from '../kaspa/transaction';
import type { Transaction } from '../kaspa/types';
import { createOpExecution, type Execution, type OpSession } from './engine-ops';
import {
  balanceKey,
  blacklistKey,
  BlockWriter,
  orderKey,
  TokenStore,
  type BalanceState,
  type BlacklistState,
  type MarketOrderState,
  type StateChange,
  type TokenState,
} from './engine-state';
import { feeFloor, parseTransactionOps, revealFee, type OpError, type SpentOutput, type TokenOp } from './operations';
import type { TokenProfile } from './profile';

export { balanceKey, blacklistKey, orderKey } from './engine-state';
export type { BalanceState, BlacklistState, MarketOrderState, StateChange, TokenState } from './engine-state';

/** opScore = DAA score of the accepting chain block × 10000 + the op-bearing transaction's index in that block. */
export const OP_SCORE_MULTIPLIER = 10_000n;

export function opScoreOf(daaScore: bigint, index: number): bigint {
  return daaScore * OP_SCORE_MULTIPLIER + BigInt(index);
}

export function decodeOpScore(opScore: bigint): { daaScore: bigint; index: number } {
  return { daaScore: opScore / OP_SCORE_MULTIPLIER, index: Number(opScore % OP_SCORE_MULTIPLIER) };
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

function tokenKeyFromQuery(tickOrCa: string): string {
  return tickOrCa.length === 64 ? tickOrCa.toLowerCase() : tickOrCa.toUpperCase();
}

function compareByKey<T>(keyOf: (value: T) => string): (a: T, b: T) => number {
  return (a, b) => {
    const left = keyOf(a);
    const right = keyOf(b);
    return left < right ? -1 : left > right ? 1 : 0;
  };
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

  const execute = createOpExecution(profile, store);

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
