/**
 * The rules in force at a DAA score, following rusty-kaspa v2.0.1 (10 BPS, k = 124): the consensus parameters, the
 * block subsidy, and the fork: Crescendo's rules below `params.toccataActivation` (block version 1, transaction
 * version 0) and Toccata's from it (block version 2, v0 and v1 transactions, covenants, the KIP-21 seq commit as the
 * accepted-id root over persistent per-block lanes, the first parent the selected parent as a chain rule).
 *
 * Invariant: every processor and the template builder ask here, so a block, the virtual and a template at the same
 * DAA score are always judged by the same rules.
 */
import { BLOCK_VERSION, BLOCK_VERSION_TOCCATA } from '../../kaspa/header';
import { blockMassLimits, type BlockMassLimits } from '../../kaspa/mass';
import { blockSubsidy, type SubsidyParams } from '../../kaspa/subsidy';
import type { ForkRules } from './body-validation';
import { isForkActive, type ConsensusParams } from './params';
import { transactionLimits, type TransactionLimits } from './transaction-validator';

export interface ConsensusRulesOptions {
  subsidyParams: SubsidyParams;
  /** Override the fork's limits (tests of the limits themselves). */
  massLimits: BlockMassLimits | undefined;
  transactionLimits: TransactionLimits | undefined;
}

export class ConsensusRules {
  constructor(
    readonly params: ConsensusParams,
    private readonly options: ConsensusRulesOptions,
  ) {}

  toccataActiveAt(daaScore: bigint): boolean {
    return isForkActive(this.params.toccataActivation, daaScore);
  }

  blockVersionAt(daaScore: bigint): number {
    return this.toccataActiveAt(daaScore) ? BLOCK_VERSION_TOCCATA : BLOCK_VERSION;
  }

  subsidyAt(daaScore: bigint): bigint {
    return blockSubsidy(daaScore, this.options.subsidyParams);
  }

  /** The transaction and block limits in force at a DAA score (the options' overrides, else the fork's). */
  rulesAt(daaScore: bigint): ForkRules {
    const toccata = this.toccataActiveAt(daaScore);
    return {
      toccata,
      transactionLimits: this.options.transactionLimits ?? transactionLimits(toccata),
      massLimits: this.options.massLimits ?? blockMassLimits(toccata),
      isolation: { toccata, ghostdagK: this.params.ghostdagK },
    };
  }
}
