/**
 * Covenant traffic for the devnet: a few concurrent covenant lineages (lib/kaspa/covenant-templates.ts) driven from
 * genesis through continuations to a split or an end, so the chain always holds active and ended covenants.
 *
 * Kinds rotate vault → counter → split. A vault continues to its `endAfter` count and ends (its value back to the
 * owner); a counter continues a seeded number of times and is then retired (left unspent, still active on chain); a
 * split continues once, splits into two successors of the same covenant id, and each branch continues on its own a few
 * times and is then retired like a counter. A branch never splits again: every split halves the value, and repeated
 * halving ends in outputs whose storage-mass fee exceeds the template's `maxFee`, a step that cannot be built.
 * Retired and ended lineages are replaced by new geneses, keeping `MAX_ACTIVE` lineages.
 *
 * Invariant: a lineage only spends a covenant output the node's UTXO set has shown (`refresh`), so every step spends
 * a confirmed state and pacing follows the chain. A submitted step stays pending until its successor appears in the
 * UTXO set; if it is rejected, or the successor has not appeared while the spent state is still unspent after
 * `STALE_REFRESHES` refreshes (dropped by a reorganisation or evicted), the lineage falls back to that state and
 * builds the step again; if neither appears for longer, the lineage is abandoned, as is one whose step cannot be built.
 * Nothing here ever waits, so the generator cannot stall on a covenant.
 */
import { scriptHashAddress } from '../../kaspa/address';
import { bytesToHex } from '../../kaspa/bytes';
import {
  buildCovenantContinuation,
  buildCovenantEnd,
  buildCovenantGenesis,
  counterTemplate,
  covenantRedeemScript,
  splitTemplate,
  vaultTemplate,
  type CovenantKind,
  type CovenantTemplate,
  type CovenantUtxo,
} from '../../kaspa/covenant-templates';
import { computeMass, transientMass } from '../../kaspa/mass';
import { schnorrPublicKey } from '../../kaspa/signing';
import { transactionId } from '../../kaspa/transaction';
import type { Transaction } from '../../kaspa/types';
import { outpointFromRpc, utxoEntryFromRpc, type RpcCaller } from '../../rpc/convert-transaction';
import { deriveWalletPrivateKey, requiredFee, type BuiltTransaction, type SpendableUtxo, type Wallet, type WalletSet } from './wallet';

const KAS = 100_000_000n;
/** Lineages driven at once. */
export const MAX_ACTIVE = 3;
/** The most a step may pay in fees (the templates' `maxFee`); far above the relay floor of a covenant step. */
const MAX_FEE = KAS / 100n;
const GENESIS_AMOUNT = 10n * KAS;
const STALE_REFRESHES = 20;
const ABANDON_REFRESHES = 120;
const KINDS: readonly CovenantKind[] = ['vault', 'counter', 'split'];

export type CovenantStep = 'genesis' | 'continuation' | 'split' | 'end';

export interface CovenantSubmission {
  wallet: Wallet;
  built: BuiltTransaction;
  /** The wallet funds it (a genesis): track it in the wallet. */
  walletFunded: boolean;
  step: CovenantStep;
  onAccepted(): void;
  onRejected(): void;
}

export interface CovenantTrafficStats {
  /** Steps whose result the node's UTXO set has shown. */
  confirmed: Record<CovenantStep, number>;
  active: number;
  abandoned: number;
}

export interface CovenantTrafficOptions {
  wallets: WalletSet;
  seed: Uint8Array | string;
  random: () => number;
  now: () => number;
  /** Least time between two steps of one lineage; default 10 s. */
  stepIntervalMs?: number;
  usable?: (wallet: Wallet) => SpendableUtxo[];
}

export interface CovenantTraffic {
  /** The next due step, or null when no lineage is due. */
  next(): CovenantSubmission | null;
  /** Re-derives every lineage's state from the node's UTXO set. */
  refresh(rpc: RpcCaller): Promise<void>;
  stats(): CovenantTrafficStats;
}

interface Pending {
  id: string;
  step: CovenantStep;
  /** The successors this lineage follows (empty for an end). */
  successors: CovenantUtxo[];
  accepted: boolean;
  refreshes: number;
}

interface Lineage {
  kind: CovenantKind;
  template: CovenantTemplate;
  wallet: Wallet;
  privateKey: Uint8Array;
  covenantId: string | null;
  /** The confirmed state to spend next (null before the genesis confirms). */
  tip: CovenantUtxo | null;
  pending: Pending | null;
  /** Continuations left before the lineage retires, or splits when `splits`. */
  stepsLeft: number;
  splits: boolean;
  dueAt: number;
  unseen: number;
  done: boolean;
}

const masses = (tx: Transaction) => ({ compute: computeMass(tx), transient: transientMass(tx), storage: tx.storageMass });

export function createCovenantTraffic(options: CovenantTrafficOptions): CovenantTraffic {
  const { wallets, random, now } = options;
  const stepIntervalMs = options.stepIntervalMs ?? 10_000;
  const usable = options.usable ?? ((wallet: Wallet) => wallet.spendableUtxos());
  const keys = new Map<Wallet, Uint8Array>(wallets.wallets.map((wallet) => [wallet, deriveWalletPrivateKey(options.seed, wallet.index)]));
  const lineages: Lineage[] = [];
  const confirmed: Record<CovenantStep, number> = { genesis: 0, continuation: 0, split: 0, end: 0 };
  let abandoned = 0;
  let started = 0;

  const templateFor = (kind: CovenantKind, owner: Uint8Array): CovenantTemplate =>
    kind === 'vault'
      ? vaultTemplate(owner, { maxFee: MAX_FEE, endAfter: 3 + Math.floor(random() * 3) })
      : kind === 'counter'
        ? counterTemplate(owner, { maxFee: MAX_FEE })
        : splitTemplate(owner, { maxFee: MAX_FEE });

  /** Builds twice: once to measure, once with the fee that measurement requires. */
  const withFee = <T extends { tx: Transaction }>(build: (fee: bigint) => T): { result: T; fee: bigint } => {
    const fee = requiredFee(masses(build(MAX_FEE).tx), wallets.feePolicy);
    return { result: build(fee), fee };
  };

  const builtOf = (tx: Transaction, fee: bigint, inputs: SpendableUtxo[] = []): BuiltTransaction => ({
    transaction: tx,
    id: bytesToHex(transactionId(tx)),
    inputs,
    payments: tx.outputs.map((output) => ({ scriptPublicKey: output.scriptPublicKey, amount: output.value })),
    payload: tx.payload,
    fee,
    masses: masses(tx),
    change: null,
  });

  const submission = (lineage: Lineage, built: BuiltTransaction, step: CovenantStep, successors: CovenantUtxo[], walletFunded = false): CovenantSubmission => {
    const pending: Pending = { id: built.id, step, successors, accepted: false, refreshes: 0 };
    lineage.pending = pending;
    return {
      wallet: lineage.wallet,
      built,
      walletFunded,
      step,
      onAccepted: () => {
        pending.accepted = true;
      },
      onRejected: () => {
        if (lineage.pending === pending) lineage.pending = null;
        if (step === 'genesis') lineage.done = true;
      },
    };
  };

  const startLineage = (): CovenantSubmission | null => {
    const kind = KINDS[started % KINDS.length]!;
    const candidates = wallets.wallets
      .map((wallet) => ({ wallet, funding: usable(wallet).find((utxo) => utxo.entry.amount >= GENESIS_AMOUNT + 2n * MAX_FEE) }))
      .filter((candidate) => candidate.funding);
    if (!candidates.length) return null;
    const { wallet, funding } = candidates[Math.floor(random() * candidates.length)]!;
    const privateKey = keys.get(wallet)!;
    const template = templateFor(kind, schnorrPublicKey(privateKey));
    const { result, fee } = withFee((fee) => buildCovenantGenesis({ template, funding: funding!, amount: GENESIS_AMOUNT, fee, privateKey }));
    started += 1;
    const lineage: Lineage = {
      kind,
      template,
      wallet,
      privateKey,
      covenantId: bytesToHex(result.covenantId),
      tip: null,
      pending: null,
      stepsLeft: kind === 'counter' ? 3 + Math.floor(random() * 4) : kind === 'split' ? 1 : Number.POSITIVE_INFINITY,
      splits: kind === 'split',
      dueAt: 0,
      unseen: 0,
      done: false,
    };
    lineages.push(lineage);
    const built = builtOf(result.tx, fee, [funding!]);
    const change = result.tx.outputs[1];
    if (change) built.change = { outpoint: { transactionId: result.utxo.outpoint.transactionId, index: 1 }, entry: { ...result.utxo.entry, amount: change.value, scriptPublicKey: change.scriptPublicKey, covenantId: null } };
    return submission(lineage, built, 'genesis', [result.utxo], true);
  };

  const stepOf = (lineage: Lineage): CovenantSubmission | null => {
    const { template, privateKey } = lineage;
    const utxo = lineage.tip!;
    if (template.kind === 'vault' && utxo.count >= (template.endAfter ?? 0)) {
      const { result, fee } = withFee((fee) => buildCovenantEnd({ template, utxo, fee, privateKey }));
      return submission(lineage, builtOf(result.tx, fee), 'end', []);
    }
    if (lineage.stepsLeft <= 0) {
      if (!lineage.splits) {
        lineage.done = true;
        return null;
      }
      const half = utxo.entry.amount / 2n - MAX_FEE;
      const { result, fee } = withFee((fee) => buildCovenantContinuation({ template, utxo, fee, privateKey, amounts: [half, utxo.entry.amount - half - fee] }));
      lineage.stepsLeft = 2;
      lineage.splits = false;
      // The second branch continues as a lineage of its own under the same covenant id.
      const branch: Lineage = { ...lineage, tip: null, pending: null, stepsLeft: 2, dueAt: 0, unseen: 0, done: false };
      branch.pending = { id: '', step: 'split', successors: [result.utxos[1]!], accepted: true, refreshes: 0 };
      const item = submission(lineage, builtOf(result.tx, fee), 'split', [result.utxos[0]!]);
      branch.pending.id = item.built.id;
      lineages.push(branch);
      const rejected = item.onRejected;
      item.onRejected = () => {
        rejected();
        branch.done = true;
        lineage.stepsLeft = 0;
        lineage.splits = true;
      };
      return item;
    }
    const { result, fee } = withFee((fee) => buildCovenantContinuation({ template, utxo, fee, privateKey }));
    lineage.stepsLeft -= 1;
    return submission(lineage, builtOf(result.tx, fee), 'continuation', [result.utxos[0]!]);
  };

  const sweep = () => {
    for (let index = lineages.length - 1; index >= 0; index -= 1) if (lineages[index]!.done) lineages.splice(index, 1);
  };

  return {
    next() {
      sweep();
      const time = now();
      for (const lineage of lineages) {
        if (lineage.pending || !lineage.tip || lineage.dueAt > time) continue;
        let item: CovenantSubmission | null;
        try {
          item = stepOf(lineage);
        } catch (error) {
          // Left in place it would throw again on every call, ahead of every other lineage and every new genesis.
          lineage.done = true;
          abandoned += 1;
          throw error;
        }
        if (item) return item;
      }
      sweep();
      const roots = new Set(lineages.map((lineage) => lineage.covenantId));
      return roots.size < MAX_ACTIVE ? startLineage() : null;
    },

    async refresh(rpc) {
      const watched = lineages.filter((lineage) => !lineage.done && (lineage.pending || lineage.tip));
      if (!watched.length) return;
      const addressOf = (lineage: Lineage, count: number) => scriptHashAddress(covenantRedeemScript(lineage.template, count), wallets.prefix);
      const addresses = new Set<string>();
      for (const lineage of watched) {
        if (lineage.tip) addresses.add(addressOf(lineage, lineage.tip.count));
        for (const successor of lineage.pending?.successors ?? []) addresses.add(addressOf(lineage, successor.count));
      }
      const answer = await rpc.call('getUtxosByAddresses', { addresses: [...addresses] });
      const unspent = new Map<string, { amount: bigint; blockDaaScore: bigint }>();
      for (const entry of answer.entries) {
        const outpoint = outpointFromRpc(entry.outpoint);
        const utxo = utxoEntryFromRpc(entry.utxoEntry);
        unspent.set(`${bytesToHex(outpoint.transactionId)}:${outpoint.index}`, { amount: utxo.amount, blockDaaScore: utxo.blockDaaScore });
      }
      const keyOf = (utxo: CovenantUtxo) => `${bytesToHex(utxo.outpoint.transactionId)}:${utxo.outpoint.index}`;
      const time = now();
      for (const lineage of watched) {
        const pending = lineage.pending;
        const tipUnspent = lineage.tip ? unspent.has(keyOf(lineage.tip)) : false;
        if (pending) {
          const successor = pending.successors[0];
          const landed = successor ? unspent.get(keyOf(successor)) : lineage.tip && !tipUnspent ? {} : undefined;
          if (landed) {
            if (!successor || pending.step !== 'split' || lineage.tip) confirmed[pending.step] += 1;
            lineage.pending = null;
            lineage.unseen = 0;
            lineage.dueAt = time + stepIntervalMs;
            if (successor) lineage.tip = { ...successor, entry: { ...successor.entry, blockDaaScore: (landed as { blockDaaScore: bigint }).blockDaaScore } };
            else lineage.done = true;
            continue;
          }
          pending.refreshes += 1;
          if (tipUnspent && pending.refreshes >= STALE_REFRESHES) lineage.pending = null;
          else if (pending.refreshes >= ABANDON_REFRESHES) {
            lineage.done = true;
            abandoned += 1;
          }
          continue;
        }
        if (!tipUnspent) {
          lineage.unseen += 1;
          if (lineage.unseen >= ABANDON_REFRESHES) {
            lineage.done = true;
            abandoned += 1;
          }
        } else lineage.unseen = 0;
      }
    },

    stats() {
      return { confirmed: { ...confirmed }, active: lineages.filter((lineage) => !lineage.done).length, abandoned };
    },
  };
}
