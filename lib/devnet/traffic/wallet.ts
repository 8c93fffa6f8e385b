/**
 * Deterministic devnet wallets: Schnorr P2PK keys derived from a seed, UTXO tracking fed by the node
 * (getUtxosByAddresses snapshots and UtxosChanged notifications) and builders for signed version-0 transactions
 * that kaspad 2.0.1's mempool accepts as standard in every Toccata mode: they pay the RPC relay fee floor
 * (mempool-policy.ts `relayFeeFloor`) and stay within the pre-Toccata standard mass cap.
 *
 * Key derivation: privateKey(i) = (BLAKE2b-256 keyed with "dagboard/devnet-wallet" over seed ‖ u32le(i)), read as a
 * big-endian integer x, mapped to x mod (n − 1) + 1 where n is the secp256k1 group order, so every index gives a
 * valid scalar. Fresh receive-only addresses continue the same sequence past the wallet count.
 *
 * Spendable = the node's UTXOs for the address that are mature (coinbase outputs need blockDaaScore + maturity ≤
 * virtual DAA score, as the mempool checks), minus outpoints spent by this wallet's pending transactions, plus the
 * change outputs of those pending transactions so payments can chain before they are mined.
 *
 * The fee policy lives in wallet-fees.ts, the composition of a transaction before signing (outputs, change, fee) in
 * wallet-composer.ts, the error codes in wallet-error.ts; this module keeps the keys, the UTXO view with the pending
 * transactions, selection, signing and replacement, and the wallet set.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { blake2b } from '@noble/hashes/blake2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { addressToScriptPublicKey, schnorrAddressFromPublicKey, type AddressPrefix } from '../../kaspa/address';
import { bytesToHex, concatBytes } from '../../kaspa/bytes';
import { calcSchnorrSignatureHash, SIG_HASH_ALL, SigHashReusedValues } from '../../kaspa/sighash';
import { nobleSecp256k1, p2pkSignatureScript, signSchnorr, type Secp256k1Backend } from '../../kaspa/signing';
import { transactionId } from '../../kaspa/transaction';
import type { Outpoint, ScriptPublicKey, Transaction, UtxoEntry } from '../../kaspa/types';
import type { RpcNotifications, RpcScopes, RpcUtxosByAddressesEntry } from '../../rpc/types';
import { DevnetHdWallet } from './hd-wallet';
import { CRESCENDO_PARAMS } from '../consensus/params';
import { outpointFromRpc, utxoEntryFromRpc, type RpcCaller } from '../../rpc/convert-transaction';
import { composeTransaction, type Composition, type Lane, type SpendableUtxo, type TransactionShape } from './wallet-composer';
import { WalletError } from './wallet-error';
import { DEFAULT_FEE_POLICY, largestMass, type FeePolicy, type ResolvedMasses } from './wallet-fees';

export {
  P2PK_SIG_OP_COUNT,
  P2PK_SIGNATURE_SCRIPT_LENGTH,
  P2PK_V1_COMPUTE_BUDGET,
  type Lane,
  type SpendableUtxo,
} from './wallet-composer';
export { WalletError, type WalletErrorCode } from './wallet-error';
export { DEFAULT_FEE_POLICY, largestMass, requiredFee, storageSafeAmount, type FeePolicy, type ResolvedMasses } from './wallet-fees';

/** One fresh address in this many is the devnet HD wallet's next receive address. */
export const HD_FRESH_EVERY = 8;
/** 1000 DAA at 10 BPS. */
export const COINBASE_MATURITY = BigInt(CRESCENDO_PARAMS.coinbaseMaturity);
export const DEFAULT_MAX_INPUTS = 60;
/** Pending transactions not settled within this many DAA units (2 minutes at 10 BPS) are presumed dropped. */
export const DEFAULT_PENDING_TTL_DAA = 1200n;

const KEY_DERIVATION_KEY = utf8ToBytes('dagboard/devnet-wallet');
const CURVE_ORDER = secp256k1.Point.CURVE().n;

export function deriveWalletPrivateKey(seed: Uint8Array | string, index: number): Uint8Array {
  if (!Number.isInteger(index) || index < 0 || index > 0xffff_ffff) {
    throw new RangeError(`a wallet index is a u32, got ${index}`);
  }
  const seedBytes = typeof seed === 'string' ? utf8ToBytes(seed) : seed;
  const indexBytes = new Uint8Array(4);
  new DataView(indexBytes.buffer).setUint32(0, index, true);
  const digest = blake2b(concatBytes(seedBytes, indexBytes), { key: KEY_DERIVATION_KEY, dkLen: 32 });
  const scalar = (BigInt(`0x${bytesToHex(digest)}`) % (CURVE_ORDER - 1n)) + 1n;
  const key = new Uint8Array(32);
  let rest = scalar;
  for (let i = 31; i >= 0; i--) {
    key[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  return key;
}

export function outpointKey(outpoint: Outpoint): string {
  return `${bytesToHex(outpoint.transactionId)}:${outpoint.index}`;
}

function scriptKey(scriptPublicKey: ScriptPublicKey): string {
  return `${scriptPublicKey.version}:${bytesToHex(scriptPublicKey.script)}`;
}

export interface Payment {
  /** An address or a script public key. */
  to: string | ScriptPublicKey;
  amount: bigint;
}

export interface BuildRequest {
  payments?: readonly Payment[];
  /** Spend exactly these (this wallet's spendable UTXOs); otherwise inputs are chosen largest first. */
  inputs?: readonly SpendableUtxo[];
  /** Restricts the automatic choice to these of the wallet's spendable UTXOs. */
  candidates?: readonly SpendableUtxo[];
  payload?: Uint8Array;
  /** Transaction version: 0 (default) or 1 (Toccata: each input carries P2PK_V1_COMPUTE_BUDGET instead of a sig-op count). */
  version?: 0 | 1;
  /** A KIP-21 user lane and the gas the transaction declares on it; only version 1 may carry gas (default: native, no gas). */
  lane?: Lane;
  /** Overrides the wallet's fee policy feerate (sompi per gram). */
  feerate?: number;
  /** Pay at least this fee. */
  minimumFee?: bigint;
  maxInputs?: number;
}

export interface BuiltTransaction {
  /** Signed, with the storage-mass commitment set. */
  transaction: Transaction;
  /** Transaction id, hex. */
  id: string;
  inputs: SpendableUtxo[];
  payments: { scriptPublicKey: ScriptPublicKey; amount: bigint }[];
  payload: Uint8Array;
  fee: bigint;
  masses: ResolvedMasses;
  /** This wallet's change output, if the transaction has one (always the last output). */
  change: SpendableUtxo | null;
}

export interface WalletContext {
  virtualDaaScore(): bigint;
  readonly coinbaseMaturity: bigint;
  readonly feePolicy: FeePolicy;
  readonly pendingTtlDaa: bigint;
  readonly secp256k1: Secp256k1Backend;
}

interface PendingRecord {
  built: BuiltTransaction;
  inputKeys: string[];
  trackedAtDaa: bigint;
  /** While a replacement is in flight its change must not be spent. */
  replacing: boolean;
}

export class Wallet {
  readonly #privateKey: Uint8Array;
  readonly #context: WalletContext;
  readonly #confirmed = new Map<string, SpendableUtxo>();
  readonly #pending = new Map<string, PendingRecord>();
  readonly index: number;
  /** x-only Schnorr public key. */
  readonly publicKey: Uint8Array;
  readonly address: string;
  readonly scriptPublicKey: ScriptPublicKey;

  constructor(privateKey: Uint8Array, index: number, prefix: AddressPrefix, context: WalletContext) {
    this.#privateKey = privateKey;
    this.#context = context;
    this.index = index;
    this.publicKey = context.secp256k1.schnorrPublicKey(privateKey);
    this.address = schnorrAddressFromPublicKey(this.publicKey, prefix);
    this.scriptPublicKey = addressToScriptPublicKey(this.address);
  }

  isMature(entry: UtxoEntry): boolean {
    return !entry.isCoinbase || entry.blockDaaScore + this.#context.coinbaseMaturity <= this.#context.virtualDaaScore();
  }

  #spentKeys(): Set<string> {
    const spent = new Set<string>();
    for (const record of this.#pending.values()) for (const key of record.inputKeys) spent.add(key);
    return spent;
  }

  /**
   * The traffic generator asks every wallet for its spendable outputs several times per transaction, while the answer
   * changes only with the chain view, the pending set or the virtual DAA score (maturity): kept until one changes.
   */
  #spendable: { daaScore: bigint; utxos: SpendableUtxo[] } | undefined;

  #changed(): void {
    this.#spendable = undefined;
  }

  spendableUtxos(): SpendableUtxo[] {
    const daaScore = this.#context.virtualDaaScore();
    if (this.#spendable?.daaScore !== daaScore) this.#spendable = { daaScore, utxos: this.#computeSpendable() };
    return [...this.#spendable.utxos];
  }

  #computeSpendable(): SpendableUtxo[] {
    const spent = this.#spentKeys();
    const spendable: SpendableUtxo[] = [];
    for (const [key, utxo] of this.#confirmed) {
      if (!spent.has(key) && this.isMature(utxo.entry)) spendable.push(utxo);
    }
    for (const record of this.#pending.values()) {
      const change = record.built.change;
      if (!change || record.replacing) continue;
      const key = outpointKey(change.outpoint);
      if (!spent.has(key) && !this.#confirmed.has(key)) spendable.push(change);
    }
    return spendable;
  }

  /** Sompi: on-chain UTXOs, the spendable view, and coinbase outputs still maturing. */
  balance(): { confirmed: bigint; spendable: bigint; immature: bigint } {
    let confirmed = 0n;
    let immature = 0n;
    for (const { entry } of this.#confirmed.values()) {
      confirmed += entry.amount;
      if (!this.isMature(entry)) immature += entry.amount;
    }
    const spendable = this.spendableUtxos().reduce((sum, utxo) => sum + utxo.entry.amount, 0n);
    return { confirmed, spendable, immature };
  }

  /** Replaces the on-chain view with a full snapshot of this address's UTXOs. */
  setConfirmedUtxos(utxos: readonly SpendableUtxo[]): void {
    this.#changed();
    this.#confirmed.clear();
    for (const utxo of utxos) this.#confirmed.set(outpointKey(utxo.outpoint), utxo);
    this.settle();
  }

  applyUtxoChanges(added: readonly SpendableUtxo[], removed: readonly Outpoint[]): void {
    this.#changed();
    for (const outpoint of removed) this.#confirmed.delete(outpointKey(outpoint));
    for (const utxo of added) this.#confirmed.set(outpointKey(utxo.outpoint), utxo);
    this.settle();
  }

  /**
   * Forgets pending transactions that are over: every input gone from both the chain view and the other pending
   * change (the transaction or a conflicting one was accepted, or its parent was dropped), or older than the TTL.
   */
  settle(): void {
    this.#changed();
    const now = this.#context.virtualDaaScore();
    for (const [id, record] of this.#pending) {
      if (record.trackedAtDaa + this.#context.pendingTtlDaa < now) this.#pending.delete(id);
    }
    let changed = true;
    while (changed) {
      changed = false;
      const available = new Set(this.#confirmed.keys());
      for (const record of this.#pending.values()) {
        if (record.built.change) available.add(outpointKey(record.built.change.outpoint));
      }
      for (const [id, record] of this.#pending) {
        if (record.inputKeys.every((key) => !available.has(key))) {
          this.#pending.delete(id);
          changed = true;
        }
      }
    }
  }

  /**
   * Builds and signs a transaction (version 0 unless `request.version` is 1) paying `payments`, with change back to this wallet when the remainder
   * is large enough not to blow the storage mass (otherwise the remainder becomes fee). Throws WalletError.
   */
  buildTransaction(request: BuildRequest = {}): BuiltTransaction {
    const spendable = this.spendableUtxos();
    if (request.inputs) {
      const spendableKeys = new Set(spendable.map((utxo) => outpointKey(utxo.outpoint)));
      const foreign = request.inputs.find((utxo) => !spendableKeys.has(outpointKey(utxo.outpoint)));
      if (foreign) {
        throw new WalletError('not_spendable', `${outpointKey(foreign.outpoint)} is not spendable by this wallet now`);
      }
      if (new Set(request.inputs.map((utxo) => outpointKey(utxo.outpoint))).size !== request.inputs.length) {
        throw new WalletError('not_spendable', 'the same outpoint is given twice');
      }
    }
    return this.#build(request, spendable);
  }

  #build(request: BuildRequest, spendable: readonly SpendableUtxo[]): BuiltTransaction {
    const policy: FeePolicy = { ...this.#context.feePolicy, ...(request.feerate === undefined ? {} : { feerate: request.feerate }) };
    const payments = (request.payments ?? []).map((payment) => ({
      scriptPublicKey: typeof payment.to === 'string' ? addressToScriptPublicKey(payment.to) : payment.to,
      amount: payment.amount,
    }));
    // Consensus refuses zero-value outputs; small ones are priced by storage mass, kaspad 2.0.1 has no dust rule.
    for (const payment of payments) {
      if (payment.amount <= 0n) throw new WalletError('non_positive_payment', `a payment of ${payment.amount} sompi is not positive`);
    }
    const payload = request.payload ?? new Uint8Array(0);
    const minimumFee = request.minimumFee ?? 0n;
    const maxInputs = request.maxInputs ?? DEFAULT_MAX_INPUTS;
    const shape: TransactionShape = { version: request.version ?? 0, lane: request.lane ?? null };
    if (shape.lane && shape.version !== 1) throw new WalletError('lane_needs_version_1', 'only version 1 transactions carry gas on a lane');

    if (request.inputs) {
      const composed = composeTransaction([...request.inputs], payments, payload, policy, minimumFee, shape, this.scriptPublicKey);
      if (!composed.ok) throw composed.error;
      return this.#sign(composed, [...request.inputs], payments, payload);
    }

    const spendableKeys = new Set(spendable.map((utxo) => outpointKey(utxo.outpoint)));
    const pool = request.candidates ? request.candidates.filter((utxo) => spendableKeys.has(outpointKey(utxo.outpoint))) : spendable;
    const candidates = [...pool].sort((a, b) => (a.entry.amount > b.entry.amount ? -1 : a.entry.amount < b.entry.amount ? 1 : 0));
    const paymentTotal = payments.reduce((sum, payment) => sum + payment.amount, 0n);
    const selected: SpendableUtxo[] = [];
    let selectedTotal = 0n;
    let lastError = new WalletError('insufficient_funds', 'the wallet has no spendable outputs');
    for (const candidate of candidates) {
      if (selected.length >= maxInputs) break;
      selected.push(candidate);
      selectedTotal += candidate.entry.amount;
      if (selectedTotal <= paymentTotal) continue;
      const composed = composeTransaction(selected, payments, payload, policy, minimumFee, shape, this.scriptPublicKey);
      if (composed.ok) return this.#sign(composed, selected, payments, payload);
      lastError = composed.error;
      if (composed.error.code === 'mass_too_high') break;
    }
    throw lastError;
  }


  #sign(
    composed: Extract<Composition, { ok: true }>,
    inputs: SpendableUtxo[],
    payments: { scriptPublicKey: ScriptPublicKey; amount: bigint }[],
    payload: Uint8Array,
  ): BuiltTransaction {
    const entries = inputs.map((utxo) => utxo.entry);
    const withMass: Transaction = { ...composed.tx, storageMass: composed.masses.storage };
    // Every input spends this wallet's own P2PK script, so the key is known and sub-hashes are shared.
    const reusedValues = new SigHashReusedValues(withMass);
    const transaction: Transaction = {
      ...withMass,
      inputs: withMass.inputs.map((input, index) => {
        const hash = calcSchnorrSignatureHash(withMass, index, entries, SIG_HASH_ALL, reusedValues);
        const signature = signSchnorr(hash, this.#privateKey, undefined, this.#context.secp256k1);
        return { ...input, signatureScript: p2pkSignatureScript(signature, SIG_HASH_ALL) };
      }),
    };
    const id = transactionId(transaction);
    const change: SpendableUtxo | null =
      composed.changeValue === null
        ? null
        : {
            outpoint: { transactionId: id, index: transaction.outputs.length - 1 },
            entry: {
              amount: composed.changeValue,
              scriptPublicKey: this.scriptPublicKey,
              blockDaaScore: this.#context.virtualDaaScore(),
              isCoinbase: false,
            },
          };
    return { transaction, id: bytesToHex(id), inputs, payments, payload, fee: composed.fee, masses: composed.masses, change };
  }

  /** Marks a built transaction as pending: its inputs are spent and its change becomes spendable. */
  track(built: BuiltTransaction): void {
    this.#changed();
    this.#pending.set(built.id, {
      built,
      inputKeys: built.inputs.map((utxo) => outpointKey(utxo.outpoint)),
      trackedAtDaa: this.#context.virtualDaaScore(),
      replacing: false,
    });
  }

  isPending(id: string): boolean {
    return this.#pending.has(id);
  }

  pendingTransactions(): BuiltTransaction[] {
    return [...this.#pending.values()].map((record) => record.built);
  }

  #descendants(id: string): string[] {
    const found: string[] = [];
    const frontier = [id];
    while (frontier.length > 0) {
      const parent = this.#pending.get(frontier.pop()!);
      const change = parent?.built.change;
      if (!change) continue;
      const key = outpointKey(change.outpoint);
      for (const [childId, child] of this.#pending) {
        if (!found.includes(childId) && child.inputKeys.includes(key)) {
          found.push(childId);
          frontier.push(childId);
        }
      }
    }
    return found;
  }

  hasPendingDescendants(id: string): boolean {
    return this.#descendants(id).length > 0;
  }

  /** Forgets a pending transaction (rejected, or known dropped) and every pending transaction spending its change. */
  release(id: string): string[] {
    if (!this.#pending.has(id)) return [];
    const dropped = [id, ...this.#descendants(id)];
    this.#changed();
    for (const droppedId of dropped) this.#pending.delete(droppedId);
    return dropped;
  }

  /**
   * The node rejected `built` for spending outputs it does not know. A pending transaction whose change `built` spends
   * is then gone from the node (dropped from its mempool without the wallet hearing of it): it is released with its
   * descendants instead of offering its change again until the TTL. Returns the ids released.
   */
  releaseMissingParents(built: BuiltTransaction): string[] {
    const spent = new Set(built.inputs.map((utxo) => outpointKey(utxo.outpoint)));
    const parents = [...this.#pending]
      .filter(([, record]) => record.built.change !== null && spent.has(outpointKey(record.built.change.outpoint)))
      .map(([id]) => id);
    return parents.flatMap((id) => this.release(id));
  }

  /**
   * Re-signs pending transaction `id` with the same inputs, payments and payload and a strictly higher feerate
   * (fee ≥ `feeMultiplier` × the old fee), for submitTransactionReplacement. Until `completeReplacement` or
   * `abortReplacement`, the old transaction's change is not offered for spending.
   */
  buildReplacement(id: string, feeMultiplier = 2n): BuiltTransaction {
    const record = this.#pending.get(id);
    if (!record) throw new WalletError('unknown_transaction', `transaction ${id} is not pending in this wallet`);
    if (record.replacing) throw new WalletError('already_replacing', `a replacement of ${id} is already in flight`);
    if (this.hasPendingDescendants(id)) {
      throw new WalletError('has_descendants', `pending transactions spend the change of ${id}`);
    }
    const old = record.built;
    const payments = old.payments.map((payment) => ({ to: payment.scriptPublicKey, amount: payment.amount }));
    let minimumFee = old.fee * feeMultiplier + 1n;
    for (let attempt = 0; attempt < 4; attempt++) {
      // The old inputs are spent by the old transaction itself, so they are passed without the spendability check.
      const { version, subnetworkId, gas } = old.transaction;
      const shape = version === 1 ? { version: 1 as const, lane: { subnetworkId, gas } } : { version: 0 as const };
      const replacement = this.#build({ inputs: old.inputs, payments, payload: old.payload, minimumFee, ...shape }, []);
      if (replacement.fee * largestMass(old.masses) > old.fee * largestMass(replacement.masses)) {
        record.replacing = true;
        this.#changed();
        return replacement;
      }
      minimumFee *= 2n;
    }
    throw new WalletError('insufficient_funds', `no affordable fee raises the feerate of ${id}`);
  }

  completeReplacement(oldId: string, replacement: BuiltTransaction): void {
    this.#changed();
    this.#pending.delete(oldId);
    this.track(replacement);
  }

  abortReplacement(oldId: string): void {
    const record = this.#pending.get(oldId);
    if (record) record.replacing = false;
    this.#changed();
  }
}

/** The part of lib/rpc's RpcClient that delivers UtxosChanged notifications. */
export interface UtxosChangedSource {
  subscribe(
    event: 'UtxosChanged',
    params: RpcScopes['UtxosChanged'],
    listener: (payload: RpcNotifications['UtxosChanged']) => void,
  ): Promise<() => Promise<void>>;
}

export interface WalletSetOptions {
  seed: Uint8Array | string;
  count: number;
  prefix?: AddressPrefix;
  coinbaseMaturity?: bigint;
  feePolicy?: Partial<FeePolicy>;
  pendingTtlDaa?: bigint;
  /** Derives keys and signs; lib/kaspa's reference implementation when omitted. */
  secp256k1?: Secp256k1Backend;
}

export class WalletSet implements WalletContext {
  readonly #seed: Uint8Array;
  readonly #byScript = new Map<string, Wallet>();
  #virtualDaaScore = 0n;
  #nextFreshIndex: number;
  #freshCount = 0;
  readonly wallets: readonly Wallet[];
  /** The devnet's HD wallet: its handed-out addresses are tracked like the wallets, but the mix never picks them. */
  readonly hd: DevnetHdWallet;
  readonly prefix: AddressPrefix;
  readonly coinbaseMaturity: bigint;
  readonly feePolicy: FeePolicy;
  readonly pendingTtlDaa: bigint;
  readonly secp256k1: Secp256k1Backend;

  constructor(options: WalletSetOptions) {
    const { count } = options;
    if (!Number.isInteger(count) || count < 1) throw new RangeError(`a wallet set needs a positive count, got ${count}`);
    this.#seed = typeof options.seed === 'string' ? utf8ToBytes(options.seed) : Uint8Array.from(options.seed);
    this.prefix = options.prefix ?? 'kaspadev';
    this.coinbaseMaturity = options.coinbaseMaturity ?? COINBASE_MATURITY;
    this.feePolicy = { ...DEFAULT_FEE_POLICY, ...options.feePolicy };
    this.pendingTtlDaa = options.pendingTtlDaa ?? DEFAULT_PENDING_TTL_DAA;
    this.secp256k1 = options.secp256k1 ?? nobleSecp256k1;
    this.#nextFreshIndex = count;
    this.wallets = Array.from(
      { length: count },
      (_, index) => new Wallet(deriveWalletPrivateKey(this.#seed, index), index, this.prefix, this),
    );
    for (const wallet of this.wallets) this.#byScript.set(scriptKey(wallet.scriptPublicKey), wallet);
    this.hd = new DevnetHdWallet(this.#seed, this.prefix, this);
  }

  #tracked(): Wallet[] {
    return [...this.wallets, ...this.hd.wallets()];
  }

  virtualDaaScore(): bigint {
    return this.#virtualDaaScore;
  }

  setVirtualDaaScore(score: bigint): void {
    this.#virtualDaaScore = score;
    for (const wallet of this.#tracked()) wallet.settle();
  }

  addresses(): string[] {
    return this.#tracked().map((wallet) => wallet.address);
  }

  walletFor(scriptPublicKey: ScriptPublicKey): Wallet | undefined {
    return this.#byScript.get(scriptKey(scriptPublicKey));
  }

  /**
   * A never-used receive address: every HD_FRESH_EVERY-th is the HD wallet's next receive address (while it has
   * some), the others come from the same seed past the wallets, their keys not kept.
   */
  freshAddress(): string {
    if (this.#freshCount++ % HD_FRESH_EVERY === 0) {
      const hd = this.nextHdAddress('receive');
      if (hd !== null) return hd;
    }
    const key = deriveWalletPrivateKey(this.#seed, this.#nextFreshIndex++);
    return schnorrAddressFromPublicKey(this.secp256k1.schnorrPublicKey(key), this.prefix);
  }

  /** The HD wallet's next address of a chain, tracked from now on; null once its budget is spent. */
  nextHdAddress(chain: 'receive' | 'change'): string | null {
    const wallet = this.hd.next(chain);
    if (wallet === null) return null;
    this.#byScript.set(scriptKey(wallet.scriptPublicKey), wallet);
    return wallet.address;
  }

  #route(entries: readonly RpcUtxosByAddressesEntry[]): Map<Wallet, SpendableUtxo[]> {
    const routed = new Map<Wallet, SpendableUtxo[]>();
    for (const rpcEntry of entries) {
      const entry = utxoEntryFromRpc(rpcEntry.utxoEntry);
      const wallet = this.walletFor(entry.scriptPublicKey);
      if (!wallet) continue;
      const list = routed.get(wallet) ?? [];
      list.push({ outpoint: outpointFromRpc(rpcEntry.outpoint), entry });
      routed.set(wallet, list);
    }
    return routed;
  }

  /** A full getUtxosByAddresses answer for this set's addresses. */
  setUtxos(entries: readonly RpcUtxosByAddressesEntry[]): void {
    const routed = this.#route(entries);
    for (const wallet of this.#tracked()) wallet.setConfirmedUtxos(routed.get(wallet) ?? []);
  }

  applyUtxosChanged(notification: RpcNotifications['UtxosChanged']): void {
    const added = this.#route(notification.added);
    const removed = this.#route(notification.removed);
    for (const wallet of new Set([...added.keys(), ...removed.keys()])) {
      wallet.applyUtxoChanges(added.get(wallet) ?? [], (removed.get(wallet) ?? []).map((utxo) => utxo.outpoint));
    }
  }

  /** Applies the node's UtxosChanged notifications for this set's addresses as they come; resolves to unsubscribe. */
  followUtxosChanged(source: UtxosChangedSource): Promise<() => Promise<void>> {
    return source.subscribe('UtxosChanged', { addresses: this.addresses() }, (payload) => this.applyUtxosChanged(payload));
  }

  /** Reads the virtual DAA score and every wallet's UTXOs from the node. */
  async refresh(rpc: RpcCaller): Promise<void> {
    const info = await rpc.call('getBlockDagInfo', {});
    const utxos = await rpc.call('getUtxosByAddresses', { addresses: this.addresses() });
    this.#virtualDaaScore = BigInt(info.virtualDaaScore);
    this.setUtxos(utxos.entries);
  }
}

export function createWalletSet(options: WalletSetOptions): WalletSet {
  return new WalletSet(options);
}
