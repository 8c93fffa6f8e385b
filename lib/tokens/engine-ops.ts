/**
 * The KRC-20 ops applied to the state, with the rules of kasplex/indexer-executor operation/op_*.go Do: their checks in
 * their order, their opError strings. Invariant: an op runs every check before its first write, so an op that fails
 * writes nothing and only names its opError.
 */
import { scriptHashAddress } from '../kaspa/address';
import { bytesToHex } from '../kaspa/bytes';
import { type BlockWriter, balanceKey, blacklistKey, orderKey, type TokenState, type TokenStore } from './engine-state';
import { sendRedeemScript } from './envelope';
import {
  feeFloor,
  isValidTokenAddress,
  type BlacklistOp,
  type BurnOp,
  type ChownOp,
  type DeployOp,
  type IssueOp,
  type ListOp,
  type MintOp,
  type OpError,
  type SendOp,
  type TokenOp,
  type TransferOp,
} from './operations';
import type { TokenProfile } from './profile';

export interface OpSession {
  opScore: bigint;
  txId: string;
  timestamp: number;
  /** undefined: the spent outputs were not given, so the fee cannot be known. */
  fee: bigint | undefined;
  signerScript: Uint8Array | null;
}

export type Execution = { opError: OpError } | { opError: null; amount: bigint | null };

function failed(opError: OpError): Execution {
  return { opError };
}


/** Applies one op of the transaction `session` describes through `writer`, reading the state from `store`. */
export type ExecuteOp = (writer: BlockWriter, op: TokenOp, session: OpSession) => Execution;

export function createOpExecution(profile: TokenProfile, store: TokenStore): ExecuteOp {
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

  return execute;
}
