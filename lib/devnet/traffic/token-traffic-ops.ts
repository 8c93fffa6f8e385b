/**
 * The token traffic's ops, one plan each: deploy, mint, transfer, burn, list, and the fill or cancel of a listing.
 * A `list` reveal pays the seller's send P2SH (the listing UTXO); a fill spends it at input 0 (the seller's
 * SIGHASH_SINGLE|ANYONECANPAY signature, as marketplaces pre-sign listings) with the buyer's inputs after it, paying
 * the seller the price at outputs[0] and the buyer at outputs[1]; a cancel spends it alone back to the seller.
 * Invariant: an op checks what it needs first and builds its transactions before it changes the model's supply,
 * balances and listings, so an op that throws CannotPlanNow leaves them as they were (a fill's price step stays, as a
 * walk); the plan it returns carries the undo of every such change it made.
 */
import { SOMPI_PER_KAS as KAS } from '../../kaspa/amount';
import { SIG_HASH_ANY_ONE_CAN_PAY, SIG_HASH_SINGLE } from '../../kaspa/sighash';
import { transactionId } from '../../kaspa/transaction';
import type { TransactionOutput } from '../../kaspa/types';
import { commitScriptPublicKey, opJson, sendRedeemScript, singleKeySignerScript } from '../../tokens/envelope';
import { DEPLOY_FEE_FLOOR, MINT_FEE_FLOOR, type OpError } from '../../tokens/operations';
import { undoAll, type Listing, type TokenModel, type TokenTrafficToken, type Undo } from './token-traffic-model';
import { CannotPlanNow, REVEAL_FEE, REVEAL_OUTPUT, type TokenSubmission, type TokenTransactions } from './token-traffic-transactions';
import { requiredFee, storageSafeAmount, type SpendableUtxo, type Wallet, type WalletSet } from './wallet';

const LISTING_AMOUNT = KAS;

export type TokenOpKind = 'deploy' | 'mint' | 'transfer' | 'burn' | 'list' | 'fill' | 'cancel';

export interface TokenPlan {
  kind: TokenOpKind;
  tick: string;
  /** The op JSON the envelope carries. */
  json: string;
  /** The opError lib/tokens should record, null when the op should be accepted (in planned order). */
  expectedError: OpError | null;
  /** In submission order; each after the first needs the one before it. */
  submissions: TokenSubmission[];
  /** Undoes the model change (call once, when a submission is rejected). */
  rollback(): void;
}

/** Picks one of `items` with `random`; none to pick from means the plan cannot be made now. */
export const picker =
  (random: () => number) =>
  <T>(items: readonly T[]): T => {
    if (items.length === 0) throw new CannotPlanNow();
    return items[Math.floor(random() * items.length)]!;
  };

export interface TokenOpsOptions {
  wallets: WalletSet;
  random: () => number;
  usable: (wallet: Wallet) => SpendableUtxo[];
  model: TokenModel;
  transactions: TokenTransactions;
}

export interface TokenOps {
  deploy(token: TokenTrafficToken): TokenPlan;
  /** By `minter`, else by a funded wallet drawn at random. */
  mint(tick: string, minter?: Wallet): TokenPlan;
  /** `overdraw` sends more than the sender holds. */
  transfer(tick: string, overdraw?: boolean): TokenPlan;
  /** Only the deployer (the token's `to`) may burn; `byOther` has a holder try anyway. */
  burn(tick: string, byOther?: boolean): TokenPlan;
  list(tick: string): TokenPlan;
  /** Fills the oldest listing (of `tick`, when given) made by an earlier plan. */
  fill(tick?: string): TokenPlan;
  /** Cancels the oldest listing (of `tick`, when given) made by an earlier plan. */
  cancel(tick?: string): TokenPlan;
}

export function createTokenOps(options: TokenOpsOptions): TokenOps {
  const { wallets, random, usable, model } = options;
  const { assemble, envelopeInput, walletInput, builtOf, commitReveal } = options.transactions;
  const { definitions, deployer, mintedOf, prices, listings } = model;

  const integer = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const pick = picker(random);
  const percentOf = (amount: bigint, min: number, max: number) => (amount * BigInt(integer(min, max))) / 100n;
  const balanceOfUtxos = (utxos: readonly SpendableUtxo[]) => utxos.reduce((sum, utxo) => sum + utxo.entry.amount, 0n);
  const funded = (wallet: Wallet, minimum: bigint) => balanceOfUtxos(usable(wallet)) >= minimum;
  const fundedWallets = (minimum: bigint) => wallets.wallets.filter((wallet) => funded(wallet, minimum));
  const balanceOf = (wallet: Wallet, tick: string) => model.balanceOf(wallet.address, tick);

  const plan = (
    kind: TokenOpKind,
    tick: string,
    op: Record<string, string>,
    expectedError: OpError | null,
    submissions: TokenSubmission[],
    undos: Undo[],
  ): TokenPlan => ({ kind, tick, json: opJson(op), expectedError, submissions, rollback: undoAll(undos) });

  const deploy = (token: TokenTrafficToken): TokenPlan => {
    const [signer] = fundedWallets(DEPLOY_FEE_FLOOR + 3n * KAS).sort((a, b) =>
      balanceOfUtxos(usable(b)) > balanceOfUtxos(usable(a)) ? 1 : -1,
    );
    if (!signer) throw new CannotPlanNow();
    const op: Record<string, string> = {
      p: 'krc-20',
      op: 'deploy',
      tick: token.tick.toLowerCase(),
      max: token.max.toString(),
      lim: token.lim.toString(),
      dec: token.dec.toString(),
    };
    if (token.pre > 0n) op.pre = token.pre.toString();
    const built = commitReveal(signer, op, DEPLOY_FEE_FLOOR);
    deployer.set(token.tick, signer);
    mintedOf.set(token.tick, token.pre);
    const undos: Undo[] = [
      () => {
        deployer.delete(token.tick);
        mintedOf.delete(token.tick);
      },
    ];
    if (token.pre > 0n) undos.push(model.adjust(signer, token.tick, token.pre));
    return plan('deploy', token.tick, op, null, built.submissions, undos);
  };

  const mint = (tick: string, minter?: Wallet): TokenPlan => {
    const signer = minter ?? pick(fundedWallets(MINT_FEE_FLOOR + 3n * KAS));
    if (!funded(signer, MINT_FEE_FLOOR + 3n * KAS)) throw new CannotPlanNow();
    const op = { p: 'krc-20', op: 'mint', tick: tick.toLowerCase() };
    const built = commitReveal(signer, op, MINT_FEE_FLOOR);
    const definition = definitions.get(tick);
    if (!definition || !deployer.has(tick)) return plan('mint', tick, op, 'tick not found', built.submissions, []);
    const minted = mintedOf.get(tick)!;
    const left = definition.max - minted;
    if (left <= 0n) return plan('mint', tick, op, 'mint finished', built.submissions, []);
    const amount = definition.lim < left ? definition.lim : left;
    mintedOf.set(tick, minted + amount);
    return plan('mint', tick, op, null, built.submissions, [() => mintedOf.set(tick, minted), model.adjust(signer, tick, amount)]);
  };

  const transfer = (tick: string, overdraw = false): TokenPlan => {
    const sender = pick(model.holders(tick).filter((wallet) => funded(wallet, 3n * KAS)));
    const recipient = pick(wallets.wallets.filter((wallet) => wallet !== sender));
    const { balance } = balanceOf(sender, tick);
    const amount = overdraw ? balance * 10n + 1n : percentOf(balance, 10, 40) || 1n;
    const op = { p: 'krc-20', op: 'transfer', tick: tick.toLowerCase(), amt: amount.toString(), to: recipient.address };
    const built = commitReveal(sender, op, 0n);
    if (overdraw) return plan('transfer', tick, op, 'balance insuff', built.submissions, []);
    return plan('transfer', tick, op, null, built.submissions, [model.adjust(sender, tick, -amount), model.adjust(recipient, tick, amount)]);
  };

  const burn = (tick: string, byOther = false): TokenPlan => {
    const owner = deployer.get(tick);
    if (!owner) throw new CannotPlanNow();
    const burner = byOther ? pick(model.holders(tick).filter((wallet) => wallet !== owner && funded(wallet, 3n * KAS))) : owner;
    const { balance } = balanceOf(burner, tick);
    if (balance === 0n || !funded(burner, 3n * KAS)) throw new CannotPlanNow();
    const amount = percentOf(balance, 1, 5) || 1n;
    const op = { p: 'krc-20', op: 'burn', tick: tick.toLowerCase(), amt: amount.toString() };
    const built = commitReveal(burner, op, 0n);
    if (byOther) return plan('burn', tick, op, 'no ownership', built.submissions, []);
    return plan('burn', tick, op, null, built.submissions, [model.adjust(burner, tick, -amount)]);
  };

  const list = (tick: string): TokenPlan => {
    const seller = pick(model.holders(tick, 2n).filter((wallet) => funded(wallet, 4n * KAS)));
    const definition = definitions.get(tick)!;
    const { balance } = balanceOf(seller, tick);
    // A trade worth 2–30 KAS at the current price, at most half the balance.
    const price = prices.get(tick)!;
    const wanted = (BigInt(integer(2, 30)) * KAS * 10n ** BigInt(definition.dec)) / price;
    const half = balance / 2n;
    const amount = wanted < 1n ? 1n : wanted > half ? half : wanted;
    if (amount < 1n) throw new CannotPlanNow();
    const redeemScript = sendRedeemScript(singleKeySignerScript(seller.publicKey), tick);
    const listingSpk = commitScriptPublicKey(redeemScript);
    const op = { p: 'krc-20', op: 'list', tick: tick.toLowerCase(), amt: amount.toString() };
    const built = commitReveal(seller, op, 0n, [{ value: LISTING_AMOUNT, scriptPublicKey: listingSpk }]);
    const listing: Listing = {
      tick,
      seller,
      amount,
      outpoint: { transactionId: transactionId(built.reveal.transaction), index: 0 },
      entry: { amount: LISTING_AMOUNT, scriptPublicKey: listingSpk, blockDaaScore: wallets.virtualDaaScore(), isCoinbase: false },
      redeemScript,
      listedAt: model.planned,
    };
    listings.push(listing);
    const undos = [model.adjust(seller, tick, -amount, amount), () => listings.splice(listings.indexOf(listing), 1)];
    return plan('list', tick, op, null, built.submissions, undos);
  };

  const takeListing = (tick?: string): Listing => {
    const open = listings.filter((listing) => listing.listedAt < model.planned && (tick === undefined || listing.tick === tick));
    const listing = open[0];
    if (!listing) throw new CannotPlanNow();
    return listing;
  };

  /** The price walks ±15% per fill, so candles get bodies and wicks. */
  const tradePrice = (listing: Listing): bigint => {
    const definition = definitions.get(listing.tick)!;
    const current = prices.get(listing.tick)!;
    const next = (current * BigInt(Math.round((0.85 + 0.3 * random()) * 1_000_000))) / 1_000_000n;
    prices.set(listing.tick, next > 0n ? next : 1n);
    const total = (listing.amount * next) / 10n ** BigInt(definition.dec);
    return total < KAS ? KAS : total;
  };

  const fill = (tick?: string): TokenPlan => {
    const listing = takeListing(tick);
    const price = tradePrice(listing);
    const changeFloor = storageSafeAmount(3);
    const need = price + REVEAL_OUTPUT + changeFloor + KAS;
    const buyer = pick(wallets.wallets.filter((wallet) => wallet !== listing.seller && funded(wallet, need)));
    const candidates = [...usable(buyer)].sort((a, b) => (a.entry.amount > b.entry.amount ? -1 : a.entry.amount < b.entry.amount ? 1 : 0));
    const chosen: SpendableUtxo[] = [];
    let total = listing.entry.amount;
    for (const utxo of candidates) {
      if (total >= need || chosen.length >= 20) break;
      chosen.push(utxo);
      total += utxo.entry.amount;
    }
    if (total < need) throw new CannotPlanNow();
    const inputs = [
      envelopeInput(listing.seller, listing.outpoint, listing.entry, listing.redeemScript, SIG_HASH_SINGLE | SIG_HASH_ANY_ONE_CAN_PAY),
      ...chosen.map((utxo) => walletInput(buyer, utxo)),
    ];
    const outputsWith = (fee: bigint): TransactionOutput[] => [
      { value: price, scriptPublicKey: listing.seller.scriptPublicKey },
      { value: REVEAL_OUTPUT, scriptPublicKey: buyer.scriptPublicKey },
      { value: total - price - REVEAL_OUTPUT - fee, scriptPublicKey: buyer.scriptPublicKey },
    ];
    const estimate = assemble(inputs, outputsWith(REVEAL_FEE));
    const fee = requiredFee(estimate.masses, wallets.feePolicy) * 2n;
    const { transaction, masses } = assemble(inputs, outputsWith(fee));
    if (masses.storage > 100_000n) throw new CannotPlanNow();
    const id = transactionId(transaction);
    const change: SpendableUtxo = {
      outpoint: { transactionId: id, index: 2 },
      entry: { amount: transaction.outputs[2]!.value, scriptPublicKey: buyer.scriptPublicKey, blockDaaScore: wallets.virtualDaaScore(), isCoinbase: false },
    };
    const built = builtOf(transaction, masses, fee, chosen, change);
    listings.splice(listings.indexOf(listing), 1);
    const op = { p: 'krc-20', op: 'send', tick: listing.tick.toLowerCase() };
    const undos = [
      () => listings.push(listing),
      model.adjust(listing.seller, listing.tick, 0n, -listing.amount),
      model.adjust(buyer, listing.tick, listing.amount),
    ];
    return plan('fill', listing.tick, op, null, [{ wallet: buyer, built, walletFunded: true }], undos);
  };

  const cancel = (tick?: string): TokenPlan => {
    const listing = takeListing(tick);
    const outputs = [{ value: listing.entry.amount - REVEAL_FEE, scriptPublicKey: listing.seller.scriptPublicKey }];
    const { transaction, masses } = assemble([envelopeInput(listing.seller, listing.outpoint, listing.entry, listing.redeemScript)], outputs);
    if (requiredFee(masses, wallets.feePolicy) > REVEAL_FEE) throw new CannotPlanNow();
    listings.splice(listings.indexOf(listing), 1);
    const built = builtOf(transaction, masses, REVEAL_FEE);
    const op = { p: 'krc-20', op: 'send', tick: listing.tick.toLowerCase() };
    const undos = [() => listings.push(listing), model.adjust(listing.seller, listing.tick, listing.amount, -listing.amount)];
    return plan('cancel', listing.tick, op, null, [{ wallet: listing.seller, built, walletFunded: false }], undos);
  };

  return { deploy, mint, transfer, burn, list, fill, cancel };
}
