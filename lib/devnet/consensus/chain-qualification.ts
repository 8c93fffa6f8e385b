/**
 * Chain qualification, after rusty-kaspa v2.0.1 consensus/src/pipeline/virtual_processor: the UTXO state of a chain
 * block relative to another (processor.rs `calculate_utxo_state_relatively`), its acceptance and the checks of its UTXO
 * commitment, accepted-id root, coinbase, pruning point and own transactions against that state (utxo_validation.rs).
 *
 * A stored block that would join the selected chain but does not match its UTXO state is marked disqualified from the
 * chain (kaspad's StatusDisqualifiedFromChain): it stays in the DAG, can be merged, and never becomes a chain block.
 *
 * Invariants: a block's acceptance is computed once, the first time a walk reaches it, and kept with its record, as a
 * disqualification is; and a walk only moves an overlay over the sink's set (the store's `sinkUtxo`), never the set
 * itself, so a sink search can try candidates and the template builder side branches without undoing anything.
 */
import { bytesToHex, compareBytes } from '../../kaspa/bytes';
import { decodeCoinbasePayload } from '../../kaspa/coinbase';
import type { Secp256k1Backend } from '../../kaspa/signing';
import { transactionHash } from '../../kaspa/transaction';
import { calculateAcceptance, expectedCoinbaseTransaction, type AcceptanceState, type MultisetElementCache } from './acceptance';
import type { ConsensusRules } from './consensus-rules';
import type { BlockRecord, ConsensusStore } from './consensus-store';
import { blockIdOf, consensusOrderedMergeset, type BlockId, type GhostdagData } from './ghostdag';
import type { HeaderProcessor } from './header-processing';
import { seqCommitContext, type SeqCommitStore } from './seq-commit-state';
import { txHashOf } from './transaction-facts';
import { validateTransactionInUtxoContext, type ScriptVerificationCache } from './tx-validation';
import type { UtxoDiff, UtxoView } from './utxo-diff';

/** What a block mined from the current virtual's template shares with the virtual. */
export interface TemplateBasis {
  readonly parents: readonly BlockId[];
  readonly daaScore: bigint;
  readonly acceptance: AcceptanceState;
}

export interface ChainQualifierOptions {
  store: ConsensusStore;
  rules: ConsensusRules;
  headerProcessor: HeaderProcessor;
  scriptCache: ScriptVerificationCache;
  multisetCache: MultisetElementCache;
  secp256k1: Secp256k1Backend | undefined;
  /** The current virtual, whose acceptance a block built from its template reuses. */
  templateBasis: () => TemplateBasis;
}

export class ChainQualifier {
  private readonly store: ConsensusStore;
  private readonly rules: ConsensusRules;
  private readonly headerProcessor: HeaderProcessor;
  private readonly scriptCache: ScriptVerificationCache;
  private readonly multisetCache: MultisetElementCache;
  private readonly secp256k1: Secp256k1Backend | undefined;
  private readonly templateBasis: () => TemplateBasis;
  private readonly seqCommitStore: SeqCommitStore;

  constructor(options: ChainQualifierOptions) {
    this.store = options.store;
    this.rules = options.rules;
    this.headerProcessor = options.headerProcessor;
    this.scriptCache = options.scriptCache;
    this.multisetCache = options.multisetCache;
    this.secp256k1 = options.secp256k1;
    this.templateBasis = options.templateBasis;
    const finalityDepth = this.rules.params.finalityDepth;
    this.seqCommitStore = {
      record: (id) => this.store.record(id),
      genesisId: this.store.genesisId,
      finalityDepth,
      toccataActiveAt: (daaScore) => this.rules.toccataActiveAt(daaScore),
      finalityPointOf: (ghostdag) =>
        this.headerProcessor.blockAtDepth(ghostdag, finalityDepth, this.store.record(ghostdag.selectedParent).finalityPoint),
    };
  }

  /**
   * `calculate_utxo_state_relatively`: moves `overlay` (a diff over the sink's set, currently describing the state of
   * `from`) to the state of `to`, verifying chain blocks on the way. Returns the last UTXO-valid block reached: `to`
   * itself unless a block on its chain is disqualified.
   */
  moveOverlay(overlay: UtxoDiff, from: BlockId, to: BlockId): BlockId {
    const store = this.store;
    if (store.record(to).status === 'disqualifiedFromChain') return from;
    let splitPoint = from;
    while (!store.isChainAncestorOf(splitPoint, to)) {
      overlay.applyReversed(store.record(splitPoint).acceptance!.diff);
      splitPoint = store.record(splitPoint).ghostdag.selectedParent;
    }
    let diffPoint = splitPoint;
    for (const current of store.forwardChain(splitPoint, to)) {
      const record = store.record(current);
      if (record.ghostdag.selectedParent !== diffPoint) {
        if (record.status !== 'disqualifiedFromChain') {
          record.status = 'disqualifiedFromChain';
          record.disqualificationReason = 'its selected parent is disqualified from the chain';
        }
        continue;
      }
      if (record.status === 'disqualifiedFromChain') continue;
      if (record.acceptance === undefined) {
        const parentView = overlay.over(store.sinkView);
        const acceptance = this.reusableVirtualAcceptance(record, diffPoint) ?? this.acceptanceOf(record.ghostdag, record.header.daaScore, parentView);
        const error = this.utxoStateError(record, acceptance, parentView);
        if (error !== undefined) {
          record.status = 'disqualifiedFromChain';
          record.disqualificationReason = error;
          continue;
        }
        record.acceptance = acceptance;
        record.status = 'utxoValid';
      }
      overlay.applyDiff(record.acceptance.diff);
      diffPoint = current;
    }
    return diffPoint;
  }

  /**
   * A block mined from the current virtual's template has the virtual's parents, hence its GHOSTDAG data, DAA score
   * and selected-parent state: the acceptance already computed for the virtual is its own.
   */
  private reusableVirtualAcceptance(record: BlockRecord, selectedParentState: BlockId): AcceptanceState | undefined {
    const virtual = this.templateBasis();
    const sinkId = this.store.sinkId;
    if (selectedParentState !== sinkId || record.ghostdag.selectedParent !== sinkId) return undefined;
    if (record.header.daaScore !== virtual.daaScore || record.parents.length !== virtual.parents.length) return undefined;
    const parents = new Set(virtual.parents);
    return record.parents.every((parent) => parents.has(parent)) ? virtual.acceptance : undefined;
  }

  acceptanceOf(ghostdag: GhostdagData, povDaaScore: bigint, selectedParentView: UtxoView): AcceptanceState {
    const store = this.store;
    const selectedParent = store.record(ghostdag.selectedParent);
    const orderedMergeset = consensusOrderedMergeset(ghostdag, store);
    return calculateAcceptance({
      orderedMergeset,
      transactionsOf: (block) => store.record(block).transactions,
      transactionIdsOf: (block) => store.record(block).transactionIds,
      selectedParentMultiset: selectedParent.acceptance!.multiset,
      selectedParentAcceptedIdMerkleRoot: selectedParent.header.acceptedIdMerkleRoot,
      selectedParentView,
      povDaaScore,
      coinbaseMaturity: BigInt(this.rules.params.coinbaseMaturity),
      scriptCache: this.scriptCache,
      secp256k1: this.secp256k1,
      multisetCache: this.multisetCache,
      toccataActiveFor: (block) => this.rules.toccataActiveAt(store.record(block).header.daaScore),
      seqCommit: this.rules.toccataActiveAt(povDaaScore) ? seqCommitContext(ghostdag, povDaaScore, orderedMergeset, this.seqCommitStore) : undefined,
    });
  }

  /** `verify_expected_utxo_state`. */
  private utxoStateError(record: BlockRecord, acceptance: AcceptanceState, parentView: UtxoView): string | undefined {
    const { header } = record;
    const commitment = acceptance.multiset.finalize();
    if (compareBytes(commitment, header.utxoCommitment) !== 0) {
      return `bad UTXO commitment: header has ${bytesToHex(header.utxoCommitment)}, expected ${bytesToHex(commitment)}`;
    }
    if (compareBytes(acceptance.acceptedIdMerkleRoot, header.acceptedIdMerkleRoot) !== 0) {
      return `bad accepted id merkle root: expected ${bytesToHex(acceptance.acceptedIdMerkleRoot)}`;
    }
    const payload = decodeCoinbasePayload(record.transactions[0]!.payload);
    const expectedCoinbase = expectedCoinbaseTransaction({
      toccataActive: this.rules.toccataActiveAt(header.daaScore),
      ghostdag: record.ghostdag,
      daaScore: header.daaScore,
      subsidy: this.rules.subsidyAt(header.daaScore),
      rewards: acceptance.rewards,
      mergesetNonDaa: record.mergesetNonDaa,
      minerScriptPublicKey: payload.scriptPublicKey,
      extraData: payload.extraData,
    });
    if (compareBytes(transactionHash(expectedCoinbase), txHashOf(record.transactions[0]!)) !== 0) {
      return 'bad coinbase transaction';
    }
    const expectedPruningPoint = this.headerProcessor.expectedPruningPoint(record.ghostdag).pruningPoint;
    if (blockIdOf(header.pruningPoint) !== expectedPruningPoint) {
      return `wrong header pruning point: expected ${expectedPruningPoint}`;
    }
    // Toccata's chain-qualification rule: the first direct parent is the selected parent.
    const firstParent = record.parents[0]!;
    if (this.rules.toccataActiveAt(header.daaScore) && firstParent !== record.ghostdag.selectedParent) {
      return `block ${record.id} first direct parent is ${firstParent} but selected parent is ${record.ghostdag.selectedParent}`;
    }
    const view = acceptance.diff.over(parentView);
    for (const [index, tx] of record.transactions.entries()) {
      if (index === 0) continue;
      const result = validateTransactionInUtxoContext(tx, view, header.daaScore, {
        coinbaseMaturity: BigInt(this.rules.params.coinbaseMaturity),
        checkScripts: true,
        scriptCache: this.scriptCache,
        secp256k1: this.secp256k1,
        transactionHash: txHashOf(tx),
        toccata: this.rules.toccataActiveAt(header.daaScore),
      });
      if (!result.ok) return `transaction ${bytesToHex(record.transactionIds[index]!)} is invalid in its UTXO context: ${result.message}`;
    }
    return undefined;
  }
}
