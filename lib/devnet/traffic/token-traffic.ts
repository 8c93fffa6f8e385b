/**
 * KRC-20 token traffic for the devnet: a seeded scenario over the deterministic wallets that deploys the tokens of
 * TOKEN_TRAFFIC_TOKENS (one with a premine, one small enough to mint out), mints, transfers, burns, lists and fills or
 * cancels trades at a per-token random-walk price (so candles have shape), plus a few ops that fail on purpose (a mint
 * after the token finished, a transfer beyond the balance, a mint of an unknown tick, a burn by a non-owner) so
 * opErrors appear.
 *
 * Every op is a real commit/reveal pair: the commit pays P2SH(envelope redeem script) from the wallet (built and signed
 * by the wallet), and the reveal spends that output with `<sig> <redeem script>`; the reveal is submitted right after
 * the commit and chains on it in the mempool, as kaspad allows. Deploy and mint reveals pay Kasplex's fee floors (1000
 * and 1 KAS) as miner fee. A `list` reveal pays the seller's send P2SH (the listing UTXO); a fill spends it at input 0
 * (the seller's SIGHASH_SINGLE|ANYONECANPAY signature, as marketplaces pre-sign listings) with the buyer's inputs after
 * it, paying the seller the price at outputs[0] and the buyer at outputs[1]; a cancel spends it alone back to the seller.
 *
 * The scenario keeps its own model of token state (what lib/tokens should compute when the ops are accepted in the
 * order planned) and each plan names the opError it expects; a plan whose submission is rejected rolls its model
 * change back. The first plans follow a fixed script so a fresh devnet gets every op kind within its first minutes;
 * after it the choice is random (seeded).
 */
import { bytesToHex } from '../../kaspa/bytes';
import { computeMass, transactionStorageMass, transientMass } from '../../kaspa/mass';
import { calcSchnorrSignatureHash, SIG_HASH_ALL, SIG_HASH_ANY_ONE_CAN_PAY, SIG_HASH_SINGLE, SigHashReusedValues } from '../../kaspa/sighash';
import { p2pkSignatureScript, signSchnorr } from '../../kaspa/signing';
import { transactionId } from '../../kaspa/transaction';
import { SUBNETWORK_ID_NATIVE, type Outpoint, type Transaction, type TransactionOutput, type UtxoEntry } from '../../kaspa/types';
import {
  buildRedeemScript,
  commitScriptPublicKey,
  opJson,
  pushData,
  sendRedeemScript,
  signRevealInput,
  singleKeySignerScript,
} from '../../tokens/envelope';
import { DEPLOY_FEE_FLOOR, MINT_FEE_FLOOR, type OpError } from '../../tokens/operations';
import {
  deriveWalletPrivateKey,
  P2PK_SIGNATURE_SCRIPT_LENGTH,
  requiredFee,
  storageSafeAmount,
  WalletError,
  type BuiltTransaction,
  type SpendableUtxo,
  type Wallet,
  type WalletSet,
} from './wallet';

const KAS = 100_000_000n;

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

/** What each non-deploy, non-mint reveal leaves to the miner; far above the RPC relay fee floor of its ~2,000 grams. */
const REVEAL_FEE = 1_000_000n;
/** The reveal's one output back to the sender, and the amount a listing UTXO holds. */
const REVEAL_OUTPUT = KAS;
const LISTING_AMOUNT = KAS;
const UNKNOWN_TICK = 'NOPE';
const RANDOM_ATTEMPTS = 4;

export type TokenOpKind = 'deploy' | 'mint' | 'transfer' | 'burn' | 'list' | 'fill' | 'cancel';

export interface TokenSubmission {
  wallet: Wallet;
  built: BuiltTransaction;
  /** Whether `wallet` spends its own UTXOs here (the commit, the buyer's side of a fill) and should track it. */
  walletFunded: boolean;
}

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

interface Listing {
  tick: string;
  seller: Wallet;
  amount: bigint;
  outpoint: Outpoint;
  entry: UtxoEntry;
  redeemScript: Uint8Array;
  /** Plans made when it was listed. */
  listedAt: number;
}

export interface TokenModelBalance {
  balance: bigint;
  locked: bigint;
}

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

class Skip extends Error {}

type Action = () => TokenPlan;

export function createTokenTraffic(options: TokenTrafficOptions): TokenTraffic {
  const { wallets, random } = options;
  const usable = options.usable ?? ((wallet: Wallet) => wallet.spendableUtxos());
  const privateKeys = new Map<Wallet, Uint8Array>();
  for (const wallet of wallets.wallets) {
    const key = deriveWalletPrivateKey(options.seed, wallet.index);
    const publicKey = wallets.secp256k1.schnorrPublicKey(key);
    if (bytesToHex(publicKey) !== bytesToHex(wallet.publicKey)) throw new RangeError('the seed does not derive these wallets');
    privateKeys.set(wallet, key);
  }
  const backend = wallets.secp256k1;

  const definitions = new Map(TOKEN_TRAFFIC_TOKENS.map((token) => [token.tick, token]));
  const deployer = new Map<string, Wallet>();
  const mintedOf = new Map<string, bigint>();
  const prices = new Map(TOKEN_TRAFFIC_TOKENS.map((token) => [token.tick, token.startPrice]));
  const balances = new Map<string, TokenModelBalance>();
  const listings: Listing[] = [];
  let planned = 0;

  const balanceKey = (address: string, tick: string) => `${address}/${tick}`;
  const balanceOf = (wallet: Wallet, tick: string): TokenModelBalance =>
    balances.get(balanceKey(wallet.address, tick)) ?? { balance: 0n, locked: 0n };
  /** Applies `change` to a model balance and returns the undo. */
  const adjust = (wallet: Wallet, tick: string, balance: bigint, locked = 0n): (() => void) => {
    const key = balanceKey(wallet.address, tick);
    const before = balances.get(key);
    const current = before ?? { balance: 0n, locked: 0n };
    balances.set(key, { balance: current.balance + balance, locked: current.locked + locked });
    return () => {
      if (before) balances.set(key, before);
      else balances.delete(key);
    };
  };
  const undoAll = (undos: (() => void)[]) => () => {
    for (const undo of undos.reverse()) undo();
  };

  const integer = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => {
    if (items.length === 0) throw new Skip();
    return items[Math.floor(random() * items.length)]!;
  };
  const percentOf = (amount: bigint, min: number, max: number) => (amount * BigInt(integer(min, max))) / 100n;
  const balanceOfUtxos = (utxos: readonly SpendableUtxo[]) => utxos.reduce((sum, utxo) => sum + utxo.entry.amount, 0n);
  const funded = (wallet: Wallet, minimum: bigint) => balanceOfUtxos(usable(wallet)) >= minimum;
  const fundedWallets = (minimum: bigint) => wallets.wallets.filter((wallet) => funded(wallet, minimum));
  const holders = (tick: string, minimum = 1n) => wallets.wallets.filter((wallet) => balanceOf(wallet, tick).balance >= minimum);
  const deployedTicks = () => TOKEN_TRAFFIC_TOKENS.map((token) => token.tick).filter((tick) => deployer.has(tick));

  const emptyTransaction = (outputs: TransactionOutput[]): Transaction => ({
    version: 0,
    inputs: [],
    outputs,
    lockTime: 0n,
    subnetworkId: SUBNETWORK_ID_NATIVE,
    gas: 0n,
    payload: new Uint8Array(0),
    storageMass: 0n,
  });

  interface InputPlan {
    outpoint: Outpoint;
    entry: UtxoEntry;
    signatureScriptLength: number;
    sign: (tx: Transaction, index: number, entries: readonly UtxoEntry[], reused: SigHashReusedValues) => Uint8Array;
  }

  /** Sets the storage-mass commitment, signs every input, and returns the transaction with its masses. */
  const assemble = (inputs: readonly InputPlan[], outputs: TransactionOutput[]) => {
    const entries = inputs.map((input) => input.entry);
    const base = emptyTransaction(outputs);
    const unsigned: Transaction = {
      ...base,
      inputs: inputs.map((input) => ({ previousOutpoint: input.outpoint, signatureScript: new Uint8Array(0), sequence: 0n, sigOpCount: 1 })),
    };
    const sized: Transaction = {
      ...unsigned,
      inputs: unsigned.inputs.map((input, index) => ({ ...input, signatureScript: new Uint8Array(inputs[index]!.signatureScriptLength) })),
    };
    const storage = transactionStorageMass(sized, entries);
    if (storage === null) throw new Skip();
    const masses = { compute: computeMass(sized), transient: transientMass(sized), storage };
    const withMass: Transaction = { ...unsigned, storageMass: storage };
    const reused = new SigHashReusedValues(withMass);
    const transaction: Transaction = {
      ...withMass,
      inputs: withMass.inputs.map((input, index) => ({ ...input, signatureScript: inputs[index]!.sign(withMass, index, entries, reused) })),
    };
    return { transaction, masses };
  };

  const revealSignatureLength = (redeemScript: Uint8Array) => 1 + 65 + pushData(redeemScript).length;
  const envelopeInput = (signer: Wallet, outpoint: Outpoint, entry: UtxoEntry, redeemScript: Uint8Array, hashType = SIG_HASH_ALL): InputPlan => ({
    outpoint,
    entry,
    signatureScriptLength: revealSignatureLength(redeemScript),
    sign: (tx, index, entries, reusedValues) =>
      signRevealInput(tx, index, privateKeys.get(signer)!, entries, redeemScript, { hashType: hashType as typeof SIG_HASH_ALL, reusedValues, backend }),
  });
  const walletInput = (owner: Wallet, utxo: SpendableUtxo): InputPlan => ({
    outpoint: utxo.outpoint,
    entry: utxo.entry,
    signatureScriptLength: P2PK_SIGNATURE_SCRIPT_LENGTH,
    sign: (tx, index, entries, reusedValues) => {
      const hash = calcSchnorrSignatureHash(tx, index, entries, SIG_HASH_ALL, reusedValues);
      return p2pkSignatureScript(signSchnorr(hash, privateKeys.get(owner)!, undefined, backend), SIG_HASH_ALL);
    },
  });
  const builtOf = (
    transaction: Transaction,
    masses: BuiltTransaction['masses'],
    fee: bigint,
    inputs: SpendableUtxo[] = [],
    change: SpendableUtxo | null = null,
  ): BuiltTransaction => ({
    transaction,
    id: bytesToHex(transactionId(transaction)),
    inputs,
    payments: transaction.outputs.map((output) => ({ scriptPublicKey: output.scriptPublicKey, amount: output.value })),
    payload: transaction.payload,
    fee,
    masses,
    change,
  });

  /**
   * The commit (the wallet pays P2SH(redeem) enough for the reveal's outputs and fee) and the reveal spending it.
   * Throws Skip when the wallet cannot fund it now.
   */
  const commitReveal = (
    signer: Wallet,
    op: Record<string, string>,
    feeFloor: bigint,
    revealOutputs: TransactionOutput[] = [{ value: REVEAL_OUTPUT, scriptPublicKey: signer.scriptPublicKey }],
  ): { submissions: TokenSubmission[]; reveal: BuiltTransaction; redeemScript: Uint8Array } => {
    const redeemScript = buildRedeemScript(signer.publicKey, op);
    const commitSpk = commitScriptPublicKey(redeemScript);
    const fee = feeFloor > REVEAL_FEE ? feeFloor : REVEAL_FEE;
    const commitAmount = revealOutputs.reduce((sum, output) => sum + output.value, 0n) + fee;
    let commit: BuiltTransaction;
    try {
      commit = signer.buildTransaction({ candidates: usable(signer), payments: [{ to: commitSpk, amount: commitAmount }] });
    } catch (error) {
      if (error instanceof WalletError) throw new Skip();
      throw error;
    }
    const entry: UtxoEntry = { amount: commitAmount, scriptPublicKey: commitSpk, blockDaaScore: wallets.virtualDaaScore(), isCoinbase: false };
    const outpoint = { transactionId: transactionId(commit.transaction), index: 0 };
    const { transaction, masses } = assemble([envelopeInput(signer, outpoint, entry, redeemScript)], revealOutputs);
    if (requiredFee(masses, wallets.feePolicy) > fee) throw new Skip();
    const reveal = builtOf(transaction, masses, fee);
    return {
      submissions: [
        { wallet: signer, built: commit, walletFunded: true },
        { wallet: signer, built: reveal, walletFunded: false },
      ],
      reveal,
      redeemScript,
    };
  };

  const plan = (
    kind: TokenOpKind,
    tick: string,
    op: Record<string, string>,
    expectedError: OpError | null,
    submissions: TokenSubmission[],
    undos: (() => void)[],
  ): TokenPlan => ({ kind, tick, json: opJson(op), expectedError, submissions, rollback: undoAll(undos) });

  // Ops. Each checks what it needs first (throwing Skip), then builds, then updates the model.

  const deploy = (token: TokenTrafficToken): TokenPlan => {
    const [signer] = fundedWallets(DEPLOY_FEE_FLOOR + 3n * KAS).sort((a, b) =>
      balanceOfUtxos(usable(b)) > balanceOfUtxos(usable(a)) ? 1 : -1,
    );
    if (!signer) throw new Skip();
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
    const undos: (() => void)[] = [
      () => {
        deployer.delete(token.tick);
        mintedOf.delete(token.tick);
      },
    ];
    if (token.pre > 0n) undos.push(adjust(signer, token.tick, token.pre));
    return plan('deploy', token.tick, op, null, built.submissions, undos);
  };

  const mint = (tick: string, minter?: Wallet): TokenPlan => {
    const signer = minter ?? pick(fundedWallets(MINT_FEE_FLOOR + 3n * KAS));
    if (!funded(signer, MINT_FEE_FLOOR + 3n * KAS)) throw new Skip();
    const op = { p: 'krc-20', op: 'mint', tick: tick.toLowerCase() };
    const built = commitReveal(signer, op, MINT_FEE_FLOOR);
    const definition = definitions.get(tick);
    if (!definition || !deployer.has(tick)) return plan('mint', tick, op, 'tick not found', built.submissions, []);
    const minted = mintedOf.get(tick)!;
    const left = definition.max - minted;
    if (left <= 0n) return plan('mint', tick, op, 'mint finished', built.submissions, []);
    const amount = definition.lim < left ? definition.lim : left;
    mintedOf.set(tick, minted + amount);
    return plan('mint', tick, op, null, built.submissions, [() => mintedOf.set(tick, minted), adjust(signer, tick, amount)]);
  };

  const transfer = (tick: string, overdraw = false): TokenPlan => {
    const sender = pick(holders(tick).filter((wallet) => funded(wallet, 3n * KAS)));
    const recipient = pick(wallets.wallets.filter((wallet) => wallet !== sender));
    const { balance } = balanceOf(sender, tick);
    const amount = overdraw ? balance * 10n + 1n : percentOf(balance, 10, 40) || 1n;
    const op = { p: 'krc-20', op: 'transfer', tick: tick.toLowerCase(), amt: amount.toString(), to: recipient.address };
    const built = commitReveal(sender, op, 0n);
    if (overdraw) return plan('transfer', tick, op, 'balance insuff', built.submissions, []);
    return plan('transfer', tick, op, null, built.submissions, [adjust(sender, tick, -amount), adjust(recipient, tick, amount)]);
  };

  /** Only the deployer (the token's `to`) may burn; `byOther` has a holder try anyway. */
  const burn = (tick: string, byOther = false): TokenPlan => {
    const owner = deployer.get(tick);
    if (!owner) throw new Skip();
    const burner = byOther ? pick(holders(tick).filter((wallet) => wallet !== owner && funded(wallet, 3n * KAS))) : owner;
    const { balance } = balanceOf(burner, tick);
    if (balance === 0n || !funded(burner, 3n * KAS)) throw new Skip();
    const amount = percentOf(balance, 1, 5) || 1n;
    const op = { p: 'krc-20', op: 'burn', tick: tick.toLowerCase(), amt: amount.toString() };
    const built = commitReveal(burner, op, 0n);
    if (byOther) return plan('burn', tick, op, 'no ownership', built.submissions, []);
    return plan('burn', tick, op, null, built.submissions, [adjust(burner, tick, -amount)]);
  };

  const list = (tick: string): TokenPlan => {
    const seller = pick(holders(tick, 2n).filter((wallet) => funded(wallet, 4n * KAS)));
    const definition = definitions.get(tick)!;
    const { balance } = balanceOf(seller, tick);
    // A trade worth 2–30 KAS at the current price, at most half the balance.
    const price = prices.get(tick)!;
    const wanted = (BigInt(integer(2, 30)) * KAS * 10n ** BigInt(definition.dec)) / price;
    const half = balance / 2n;
    const amount = wanted < 1n ? 1n : wanted > half ? half : wanted;
    if (amount < 1n) throw new Skip();
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
      listedAt: planned,
    };
    listings.push(listing);
    const undos = [adjust(seller, tick, -amount, amount), () => listings.splice(listings.indexOf(listing), 1)];
    return plan('list', tick, op, null, built.submissions, undos);
  };

  const takeListing = (tick?: string): Listing => {
    const open = listings.filter((listing) => listing.listedAt < planned && (tick === undefined || listing.tick === tick));
    const listing = open[0];
    if (!listing) throw new Skip();
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
    if (total < need) throw new Skip();
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
    if (masses.storage > 100_000n) throw new Skip();
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
      adjust(listing.seller, listing.tick, 0n, -listing.amount),
      adjust(buyer, listing.tick, listing.amount),
    ];
    return plan('fill', listing.tick, op, null, [{ wallet: buyer, built, walletFunded: true }], undos);
  };

  const cancel = (tick?: string): TokenPlan => {
    const listing = takeListing(tick);
    const outputs = [{ value: listing.entry.amount - REVEAL_FEE, scriptPublicKey: listing.seller.scriptPublicKey }];
    const { transaction, masses } = assemble([envelopeInput(listing.seller, listing.outpoint, listing.entry, listing.redeemScript)], outputs);
    if (requiredFee(masses, wallets.feePolicy) > REVEAL_FEE) throw new Skip();
    listings.splice(listings.indexOf(listing), 1);
    const built = builtOf(transaction, masses, REVEAL_FEE);
    const op = { p: 'krc-20', op: 'send', tick: listing.tick.toLowerCase() };
    const undos = [() => listings.push(listing), adjust(listing.seller, listing.tick, listing.amount, -listing.amount)];
    return plan('cancel', listing.tick, op, null, [{ wallet: listing.seller, built, walletFunded: false }], undos);
  };

  const mintable = () => deployedTicks().filter((tick) => mintedOf.get(tick)! < definitions.get(tick)!.max);
  const finished = () => deployedTicks().filter((tick) => mintedOf.get(tick)! >= definitions.get(tick)!.max);
  const held = () => deployedTicks().filter((tick) => holders(tick, 2n).length > 0);

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

  const randomAction = (): Action => {
    const roll = random() * 100;
    if (roll < 40) return () => mint(pick(mintable()));
    if (roll < 55) return () => transfer(pick(held()));
    if (roll < 60) return () => burn(pick(deployedTicks().filter((tick) => deployer.get(tick) && balanceOf(deployer.get(tick)!, tick).balance > 0n)));
    if (roll < 72) return () => list(pick(held()));
    if (roll < 85) return () => fill();
    if (roll < 88) return () => cancel();
    if (roll < 92) return () => mint(pick(finished()));
    if (roll < 95) return () => transfer(pick(held()), true);
    if (roll < 97) return () => mint(UNKNOWN_TICK);
    return () => burn(pick(held()), true);
  };

  return {
    next() {
      const scripted = script[0];
      // The opening waits for its next step; a random choice that cannot be made now gives way to another.
      for (let attempt = 0; attempt < (scripted ? 1 : RANDOM_ATTEMPTS); attempt++) {
        try {
          const made = (scripted ?? randomAction())();
          if (scripted) script.shift();
          planned += 1;
          return made;
        } catch (error) {
          if (!(error instanceof Skip)) throw error;
        }
      }
      return null;
    },
    minted: (tick) => mintedOf.get(tick) ?? 0n,
    balance: (address, tick) => balances.get(balanceKey(address, tick)) ?? { balance: 0n, locked: 0n },
    get planned() {
      return planned;
    },
  };
}
