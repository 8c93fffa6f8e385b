/**
 * An in-memory stand-in for the devnet node behind the RpcCaller boundary, for wallet and traffic tests: a UTXO set,
 * a mempool with an orphan pool and replace-by-fee, and `mineBlock()`. It checks what the mempool checks for the
 * transactions our wallets build (wire form, signatures, sig-op counts, coinbase maturity, fee, masses, double
 * spends) and rejects with kaspad-style messages. Every request goes through the JSON codec and the request decoders
 * the real server uses.
 */
import { bytesToHex } from '../../kaspa/bytes';
import { computeMass, transactionStorageMass, transientMass } from '../../kaspa/mass';
import { SigHashReusedValues } from '../../kaspa/sighash';
import { isGasAllowed, isSubnetworkAllowed } from '../../kaspa/subnetwork';
import { executeInputScripts } from '../../kaspa/script-engine';
import { verifyP2pkInput } from '../../kaspa/signing';
import { transactionId } from '../../kaspa/transaction';
import type { Outpoint, Transaction, UtxoEntry } from '../../kaspa/types';
import { RpcRejectedError, RpcTimeoutError } from '../../rpc/errors';
import { stringifyJson } from '../../rpc/json';
import { parseWireMessage } from '../../rpc/protocol';
import { requestSchemas } from '../../rpc/request-schemas';
import type { RpcMethodName, RpcRequest, RpcResponse, RpcUtxosByAddressesEntry } from '../../rpc/types';
import { transactionFromRpc, transactionToRpc, type RpcCaller } from '../../rpc/convert-transaction';
import { MAXIMUM_STANDARD_TRANSACTION_MASS_PRE_TOCCATA as STANDARD_MASS_CAP, relayFeeFloor } from '../mempool/mempool-policy';
import { COINBASE_MATURITY, outpointKey, P2PK_V1_COMPUTE_BUDGET, type WalletSet } from '../traffic/wallet';

export interface SubmissionRecord {
  /** Fake-clock time of the call. */
  at: number;
  method: 'submitTransaction' | 'submitTransactionReplacement';
  allowOrphan: boolean;
  transaction: Transaction;
  id: string;
  outcome: 'accepted' | 'orphaned' | 'rejected' | 'timeout';
}

interface MempoolEntry {
  tx: Transaction;
  entries: UtxoEntry[];
  fee: bigint;
  largestMass: bigint;
}

interface Confirmed {
  outpoint: Outpoint;
  entry: UtxoEntry;
}

export interface FakeRpcNodeOptions {
  now: () => number;
  virtualDaaScore: bigint;
  /** Reject every n-th submission with a policy message. */
  rejectEvery?: number;
  /** Time out every n-th submission (the transaction is not taken). */
  timeoutEvery?: number;
  /** Check every input's signature (slow: a Schnorr verification each); default true. */
  verifySignatures?: boolean;
}

/** P2PK and P2SH(P2PK) through the signing module; other P2SH spends (KRC-20 reveals) through the script engine. */
function inputVerifies(tx: Transaction, index: number, entries: readonly UtxoEntry[], reusedValues: SigHashReusedValues): boolean {
  const verification = verifyP2pkInput(tx, index, entries, reusedValues);
  if (verification.status !== 'unsupported') return verification.status === 'valid';
  return executeInputScripts({ tx, inputIndex: index, entries, reusedValues }).status === 'valid';
}

export class FakeRpcNode {
  readonly confirmed = new Map<string, Confirmed>();
  readonly mempool = new Map<string, MempoolEntry>();
  readonly orphans = new Map<string, Transaction>();
  readonly submissions: SubmissionRecord[] = [];
  replacements = 0;
  unorphaned = 0;
  virtualDaaScore: bigint;
  readonly rpc: RpcCaller;
  #calls = 0;

  constructor(
    private readonly wallets: WalletSet,
    private readonly options: FakeRpcNodeOptions,
  ) {
    this.virtualDaaScore = options.virtualDaaScore;
    this.rpc = {
      call: <M extends RpcMethodName>(method: M, params: RpcRequest<M>) =>
        this.#handle(method, params) as Promise<RpcResponse<M>>,
    };
  }

  addUtxo(outpoint: Outpoint, entry: UtxoEntry): void {
    this.confirmed.set(outpointKey(outpoint), { outpoint, entry });
  }

  /** Accepts the whole mempool in insertion order (parents precede children) and advances the DAA score. */
  mineBlock(): void {
    for (const [id, { tx }] of this.mempool) {
      for (const input of tx.inputs) this.confirmed.delete(outpointKey(input.previousOutpoint));
      tx.outputs.forEach((output, index) => {
        this.addUtxo(
          { transactionId: transactionId(tx), index },
          { amount: output.value, scriptPublicKey: output.scriptPublicKey, blockDaaScore: this.virtualDaaScore, isCoinbase: false },
        );
      });
      this.mempool.delete(id);
    }
    this.virtualDaaScore += 1n;
  }

  async #handle(method: RpcMethodName, params: unknown): Promise<unknown> {
    await Promise.resolve();
    const wire = parseWireMessage(stringifyJson(params));
    switch (method) {
      case 'getBlockDagInfo':
        return { virtualDaaScore: this.virtualDaaScore };
      case 'getUtxosByAddresses': {
        const { addresses } = requestSchemas.getUtxosByAddresses.parse(wire);
        const wanted = new Set(addresses);
        const entries: RpcUtxosByAddressesEntry[] = [];
        for (const { outpoint, entry } of this.confirmed.values()) {
          const owner = this.wallets.walletFor(entry.scriptPublicKey);
          if (!owner || !wanted.has(owner.address)) continue;
          entries.push({
            address: owner.address,
            outpoint: { transactionId: bytesToHex(outpoint.transactionId), index: outpoint.index },
            utxoEntry: {
              amount: entry.amount,
              scriptPublicKey: `0000${bytesToHex(entry.scriptPublicKey.script)}`,
              blockDaaScore: entry.blockDaaScore,
              isCoinbase: entry.isCoinbase,
              covenantId: null,
            },
          });
        }
        return parseWireMessage(stringifyJson({ entries }));
      }
      case 'submitTransaction': {
        const request = requestSchemas.submitTransaction.parse(wire);
        return this.#submit(method, transactionFromRpc(request.transaction), request.allowOrphan);
      }
      case 'submitTransactionReplacement': {
        const request = requestSchemas.submitTransactionReplacement.parse(wire);
        return this.#submit(method, transactionFromRpc(request.transaction), false);
      }
      default:
        throw new RpcRejectedError(method, 'RPC method not found');
    }
  }

  #submit(method: SubmissionRecord['method'], tx: Transaction, allowOrphan: boolean): unknown {
    const id = bytesToHex(transactionId(tx));
    const record: SubmissionRecord = { at: this.options.now(), method, allowOrphan, transaction: tx, id, outcome: 'rejected' };
    this.submissions.push(record);
    this.#calls += 1;
    const { rejectEvery, timeoutEvery } = this.options;
    if (timeoutEvery && this.#calls % timeoutEvery === 0) {
      record.outcome = 'timeout';
      throw new RpcTimeoutError(method, 5000);
    }
    if (rejectEvery && this.#calls % rejectEvery === 0) {
      throw new RpcRejectedError(method, `Rejected transaction ${id}: simulated policy rejection`);
    }
    const reject = (reason: string) => new RpcRejectedError(method, `Rejected transaction ${id}: ${reason}`);

    const conflicts = new Set<string>();
    for (const input of tx.inputs) {
      for (const [otherId, other] of this.mempool) {
        if (other.tx.inputs.some((spent) => outpointKey(spent.previousOutpoint) === outpointKey(input.previousOutpoint))) {
          conflicts.add(otherId);
        }
      }
    }
    if (method === 'submitTransactionReplacement' && conflicts.size !== 1) {
      throw reject(`replace by fee found ${conflicts.size} double spending transactions, expected 1`);
    }
    if (method === 'submitTransaction' && conflicts.size > 0) {
      throw reject(`transaction ${id} double spends an output of a mempool transaction`);
    }

    const entries = tx.inputs.map((input) => this.#entryFor(input.previousOutpoint));
    if (entries.some((entry) => entry === undefined)) {
      if (!allowOrphan) throw reject(`transaction ${id} is an orphan where orphan is disallowed`);
      this.orphans.set(id, tx);
      record.outcome = 'orphaned';
      return { transactionId: id };
    }
    const entry = this.#validate(tx, entries as UtxoEntry[], reject);
    if (method === 'submitTransactionReplacement') {
      const [replacedId] = conflicts as Set<string>;
      const replaced = this.mempool.get(replacedId!)!;
      if (entry.fee * replaced.largestMass <= replaced.fee * entry.largestMass) {
        throw reject('replace by fee: the feerate does not exceed that of the replaced transaction');
      }
      this.mempool.delete(replacedId!);
      this.replacements += 1;
      this.mempool.set(id, entry);
      record.outcome = 'accepted';
      return { transactionId: id, replacedTransaction: transactionToRpc(replaced.tx) };
    }
    this.mempool.set(id, entry);
    record.outcome = 'accepted';
    this.#processOrphans();
    return { transactionId: id };
  }

  #entryFor(outpoint: Outpoint): UtxoEntry | undefined {
    const confirmed = this.confirmed.get(outpointKey(outpoint));
    if (confirmed) return confirmed.entry;
    const parent = this.mempool.get(bytesToHex(outpoint.transactionId));
    const output = parent?.tx.outputs[outpoint.index];
    if (!output) return undefined;
    return { amount: output.value, scriptPublicKey: output.scriptPublicKey, blockDaaScore: this.virtualDaaScore, isCoinbase: false };
  }

  #validate(tx: Transaction, entries: UtxoEntry[], reject: (reason: string) => Error): MempoolEntry {
    if (tx.version > 1) throw reject(`transaction version ${tx.version} is not standard`);
    if (!isSubnetworkAllowed(tx.subnetworkId, tx.version)) throw reject('subnetwork not allowed');
    if (tx.gas > 0n && !isGasAllowed(tx.subnetworkId, tx.version)) throw reject('gas not allowed');
    const reusedValues = new SigHashReusedValues(tx);
    const verifySignatures = this.options.verifySignatures ?? true;
    entries.forEach((entry, index) => {
      if (entry.isCoinbase && entry.blockDaaScore + COINBASE_MATURITY > this.virtualDaaScore) {
        throw reject(`input ${index} spends an immature coinbase output`);
      }
      const input = tx.inputs[index]!;
      const budgetFits = tx.version === 0 ? input.sigOpCount === 1 : input.sigOpCount === 0 && input.computeBudget === P2PK_V1_COMPUTE_BUDGET;
      if (!budgetFits) throw reject(`input ${index} has a wrong sig op count or compute budget`);
      if (verifySignatures && !inputVerifies(tx, index, entries, reusedValues)) {
        throw reject(`input ${index} has an invalid signature`);
      }
    });
    const totalIn = entries.reduce((sum, entry) => sum + entry.amount, 0n);
    const totalOut = tx.outputs.reduce((sum, output) => sum + output.value, 0n);
    if (totalOut > totalIn) throw reject('spends more than its inputs');
    const fee = totalIn - totalOut;
    const compute = computeMass(tx);
    const transient = transientMass(tx);
    const storage = transactionStorageMass(tx, entries);
    if (storage === null || storage > STANDARD_MASS_CAP) throw reject(`storage mass ${storage} is too high`);
    if (compute > STANDARD_MASS_CAP || transient > STANDARD_MASS_CAP) {
      throw reject('compute or transient mass is too high');
    }
    if (tx.storageMass !== storage) throw reject(`wrong storage mass commitment ${tx.storageMass}, expected ${storage}`);
    const floor = relayFeeFloor({ compute, transient });
    if (fee < floor.minimumFee) throw reject(`insufficient fee ${fee} for the relay fee floor ${floor.minimumFee}`);
    const largestMass = [compute, transient, storage].reduce((a, b) => (a > b ? a : b));
    return { tx, entries, fee, largestMass };
  }

  #processOrphans(): void {
    let progress = true;
    while (progress) {
      progress = false;
      for (const [id, tx] of this.orphans) {
        const entries = tx.inputs.map((input) => this.#entryFor(input.previousOutpoint));
        if (entries.some((entry) => entry === undefined)) continue;
        this.orphans.delete(id);
        try {
          this.mempool.set(id, this.#validate(tx, entries as UtxoEntry[], (reason) => new Error(reason)));
          this.unorphaned += 1;
          progress = true;
        } catch {
          // An orphan that fails validation once its parents arrive is dropped, as the mempool does.
        }
      }
    }
  }
}
