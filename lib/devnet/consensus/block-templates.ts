/**
 * Block templates: the virtual's header fields and transactions (or those of a block over other parents), and the
 * same template for other miner data (mining/src/block_template/builder.rs `modify_block_template`).
 *
 * Invariant: a template is built from the same context, acceptance and fork rules the header, body and virtual
 * processors check a block against, so solving its nonce yields a block this node accepts.
 */
import { hexToBytes } from '../../kaspa/bytes';
import type { Secp256k1Backend } from '../../kaspa/signing';
import { merkleRoot } from '../../kaspa/merkle';
import type { Hash, Header, ScriptPublicKey, Transaction } from '../../kaspa/types';
import { expectedCoinbaseTransaction, type ExpectedCoinbaseInput } from './acceptance';
import type { ChainQualifier } from './chain-qualification';
import type { ConsensusRules } from './consensus-rules';
import type { ConsensusStore } from './consensus-store';
import type { Block } from './genesis';
import { blockIdOf, type BlockId, type GhostdagManager } from './ghostdag';
import type { HeaderProcessor } from './header-processing';
import { calcBlockParents } from './parents-builder';
import { selectTemplateTransactions } from './template-transactions';
import { txHashOf } from './transaction-facts';
import type { ScriptVerificationCache } from './tx-validation';
import { UtxoDiff } from './utxo-diff';
import type { VirtualProcessor, VirtualState } from './virtual-processing';

export interface TemplateRequest {
  payScriptPublicKey: ScriptPublicKey;
  extraData?: Uint8Array;
  /** Candidates in priority order; invalid or conflicting ones are left out and reported. */
  transactions?: readonly Transaction[];
  /** Build on these parents instead of the virtual's (a side branch, e.g. to force a reorganisation). */
  parents?: readonly Hash[];
}

export interface BlockTemplate {
  block: Block;
  rejectedTransactions: { transactionId: Hash; message: string }[];
}

export interface BlockTemplateBuilderOptions {
  store: ConsensusStore;
  rules: ConsensusRules;
  ghostdagManager: GhostdagManager;
  headerProcessor: HeaderProcessor;
  chainQualifier: ChainQualifier;
  virtualProcessor: VirtualProcessor;
  scriptCache: ScriptVerificationCache;
  secp256k1: Secp256k1Backend | undefined;
  /** Milliseconds since the Unix epoch. */
  clock: () => number;
  maxBlockLevel: number;
}

export class BlockTemplateBuilder {
  private readonly options: BlockTemplateBuilderOptions;
  /** What modify needs of each template handed out. */
  private readonly templateBases = new WeakMap<
    BlockTemplate,
    { state: VirtualState; coinbaseBasis: Omit<ExpectedCoinbaseInput, 'minerScriptPublicKey' | 'extraData'>; selectedHashes: Hash[] }
  >();

  constructor(options: BlockTemplateBuilderOptions) {
    this.options = options;
  }

  build(request: TemplateRequest): BlockTemplate {
    const { store, rules, virtualProcessor } = this.options;
    const { state, overlay } =
      request.parents === undefined
        ? { state: virtualProcessor.virtual, overlay: new UtxoDiff() }
        : this.sideBranchState(request.parents.map(blockIdOf));
    const view = state.acceptance.diff.over(overlay.over(store.sinkView));

    const { selected, selectedHashes, rejectedTransactions } = selectTemplateTransactions(request.transactions ?? [], {
      daaScore: state.daaScore,
      pastMedianTime: state.pastMedianTime,
      view,
      rules: rules.rulesAt(state.daaScore),
      utxoOptions: { coinbaseMaturity: BigInt(rules.params.coinbaseMaturity), scriptCache: this.options.scriptCache, secp256k1: this.options.secp256k1 },
    });

    const coinbaseBasis = {
      toccataActive: rules.toccataActiveAt(state.daaScore),
      ghostdag: state.ghostdag,
      daaScore: state.daaScore,
      subsidy: rules.subsidyAt(state.daaScore),
      rewards: state.acceptance.rewards,
      mergesetNonDaa: state.mergesetNonDaa,
    };
    const coinbase = expectedCoinbaseTransaction({
      ...coinbaseBasis,
      minerScriptPublicKey: request.payScriptPublicKey,
      extraData: request.extraData ?? new Uint8Array(0),
    });
    const transactions = [coinbase, ...selected];
    const header: Header = {
      version: rules.blockVersionAt(state.daaScore),
      parentsByLevel: calcBlockParents(store, store.genesisId, this.options.maxBlockLevel, store.pruningPointId, state.parents).map((level) =>
        level.map(hexToBytes),
      ),
      hashMerkleRoot: merkleRoot([txHashOf(coinbase), ...selectedHashes]),
      acceptedIdMerkleRoot: state.acceptance.acceptedIdMerkleRoot,
      utxoCommitment: state.utxoCommitment,
      timestamp: this.templateTimestamp(state.pastMedianTime + 1n),
      bits: state.bits,
      nonce: 0n,
      daaScore: state.daaScore,
      blueScore: state.ghostdag.blueScore,
      blueWork: state.ghostdag.blueWork,
      pruningPoint: store.record(state.pruningPoint).hash,
    };
    const template = { block: { header, transactions }, rejectedTransactions };
    this.templateBases.set(template, { state, coinbaseBasis, selectedHashes });
    return template;
  }

  /** The later of `earliest` and now. */
  private templateTimestamp(earliest: bigint): bigint {
    const now = BigInt(this.options.clock());
    return earliest > now ? earliest : now;
  }

  /** Whether `template` (from build on the virtual) still builds on the current virtual state. */
  isCurrent(template: BlockTemplate): boolean {
    return this.templateBases.get(template)?.state === this.options.virtualProcessor.virtual;
  }

  /** The same template for other miner data (see Consensus.modifyBlockTemplate). */
  modify(template: BlockTemplate, miner: { payScriptPublicKey: ScriptPublicKey; extraData?: Uint8Array }): BlockTemplate {
    const basis = this.templateBases.get(template);
    if (basis === undefined) throw new Error('not a template built by this consensus');
    const coinbase = expectedCoinbaseTransaction({
      ...basis.coinbaseBasis,
      minerScriptPublicKey: miner.payScriptPublicKey,
      extraData: miner.extraData ?? new Uint8Array(0),
    });
    const { header, transactions } = template.block;
    const modified = {
      block: {
        header: {
          ...header,
          hashMerkleRoot: merkleRoot([txHashOf(coinbase), ...basis.selectedHashes]),
          timestamp: this.templateTimestamp(header.timestamp),
        },
        transactions: [coinbase, ...transactions.slice(1)],
      },
      rejectedTransactions: template.rejectedTransactions,
    };
    this.templateBases.set(modified, basis);
    return modified;
  }

  /** The virtual-like state of a block with the given parents (the selected parent must be chain-qualifiable). */
  private sideBranchState(parentIds: BlockId[]): { state: VirtualState; overlay: UtxoDiff } {
    const { store, ghostdagManager, headerProcessor, chainQualifier } = this.options;
    for (const parent of parentIds) store.record(parent);
    const ghostdag = ghostdagManager.ghostdag(parentIds);
    const parents = [ghostdag.selectedParent, ...parentIds.filter((id) => id !== ghostdag.selectedParent)];
    const context = headerProcessor.contextFor(parents, ghostdag);
    const overlay = new UtxoDiff();
    if (chainQualifier.moveOverlay(overlay, store.sinkId, ghostdag.selectedParent) !== ghostdag.selectedParent) {
      throw new Error(`block ${ghostdag.selectedParent} is disqualified from the chain and cannot be built on`);
    }
    const acceptance = chainQualifier.acceptanceOf(ghostdag, context.daaScore, overlay.over(store.sinkView));
    return { state: { ...context, acceptance, utxoCommitment: acceptance.multiset.finalize() }, overlay };
  }
}
