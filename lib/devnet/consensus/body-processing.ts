/**
 * What consensus does with a block's body once its header passed, after rusty-kaspa v2.0.1
 * consensus/src/pipeline/body_processor: the checks of body-validation.ts in isolation, then in the header's context
 * (its past median time and the subsidy at its DAA score), under the rules of that DAA score.
 *
 * Invariant: the body is judged without the UTXO set. What depends on it (spent outputs, the UTXO commitment, the
 * coinbase's rewards) is the virtual processor's, and failing there only disqualifies the block from the chain.
 */
import type { Hash } from '../../kaspa/types';
import { validateBodyInContext, validateBodyInIsolation } from './body-validation';
import type { ConsensusRules } from './consensus-rules';
import type { Block } from './genesis';

export class BodyProcessor {
  constructor(private readonly rules: ConsensusRules) {}

  /** Throws BlockInvalid for a body consensus rejects; returns the transaction ids. */
  validateBody(block: Block, pastMedianTime: bigint): Hash[] {
    const { daaScore } = block.header;
    const rules = this.rules.rulesAt(daaScore);
    const transactionIds = validateBodyInIsolation(block, rules);
    validateBodyInContext(block, {
      ghostdagK: this.rules.params.ghostdagK,
      pastMedianTime,
      subsidy: this.rules.subsidyAt(daaScore),
      rules,
    });
    return transactionIds;
  }
}
