/**
 * What each transaction of a covenant's lineage (KIP-20) did to it, and where it sits on the page's timeline.
 * A lineage transaction either spends an output bound to the covenant or creates the first ones (its genesis):
 *   - genesis: binds outputs to the covenant and spends none of its outputs;
 *   - continuation: spends the covenant's outputs and binds exactly one new one;
 *   - split: spends them and binds two or more;
 *   - end: spends them and binds none, so the lineage stops there unless other outputs remain.
 */

export interface LineageTransactionShape {
  transactionId: string;
  blockTime: number;
  inputs: readonly { previousOutput: { covenantId?: string | null } }[];
  outputs: readonly { index: number; amount: string; covenant?: { covenantId: string } | null }[];
}

export type LineageStepKind = 'genesis' | 'continuation' | 'split' | 'end';

export interface LineageStep {
  kind: LineageStepKind;
  /** Indexes of the outputs this transaction binds to the covenant. */
  boundOutputs: number[];
  /** Sompi the bound outputs carry. */
  boundAmount: bigint;
  /** How many of the covenant's outputs it spends. */
  spentStates: number;
}

export function lineageStep(transaction: LineageTransactionShape, covenantId: string): LineageStep {
  const id = covenantId.toLowerCase();
  const bound = transaction.outputs.filter((output) => output.covenant?.covenantId.toLowerCase() === id);
  const spentStates = transaction.inputs.filter((input) => input.previousOutput.covenantId?.toLowerCase() === id).length;
  const kind: LineageStepKind =
    spentStates === 0 ? 'genesis' : bound.length === 0 ? 'end' : bound.length === 1 ? 'continuation' : 'split';
  return {
    kind,
    boundOutputs: bound.map((output) => output.index),
    boundAmount: bound.reduce((sum, output) => sum + BigInt(output.amount), 0n),
    spentStates,
  };
}

export interface TimelinePoint {
  transactionId: string;
  kind: LineageStepKind;
  /** Position from the timeline's start (0) to its end (1). */
  at: number;
}

/**
 * The loaded lineage on a time axis from `start` (the genesis time) to `end` (the last activity, or now while the
 * covenant is active), oldest first. Times outside the axis are clamped to it; an axis of no length puts every point
 * at its end.
 */
export function lineageTimeline(
  steps: readonly { transactionId: string; blockTime: number; kind: LineageStepKind }[],
  start: number,
  end: number,
): TimelinePoint[] {
  const span = end - start;
  return [...steps]
    .sort((a, b) => a.blockTime - b.blockTime)
    .map((step) => ({
      transactionId: step.transactionId,
      kind: step.kind,
      at: span <= 0 ? 1 : Math.min(1, Math.max(0, (step.blockTime - start) / span)),
    }));
}
