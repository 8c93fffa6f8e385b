/**
 * Distinct-address counts that can be merged: a HyperLogLog sketch (Flajolet et al. 2007, with the small-range
 * correction) of 2^10 one-byte registers, about 3% standard error. The statistics keep one per window and per hour,
 * so a day's or a month's active addresses are the merge of its hours' sketches instead of a scan of its history.
 * The database fills the registers (chain-statistics.ts): register = hashtext(address) & 1023, rank = the position of
 * the first set bit in the next 22 bits (23 when none is set). Invariant: a sketch is exactly REGISTERS bytes.
 */
export const SKETCH_INDEX_BITS = 10;
export const SKETCH_RANK_BITS = 22;
export const REGISTERS = 1 << SKETCH_INDEX_BITS;

export function emptySketch(): Uint8Array {
  return new Uint8Array(REGISTERS);
}

/** A sketch from the database's (register, rank) pairs. */
export function sketchOf(registers: Iterable<{ register: number; rank: number }>): Uint8Array {
  const sketch = emptySketch();
  for (const { register, rank } of registers) {
    if (rank > sketch[register]!) sketch[register] = rank;
  }
  return sketch;
}

/** The union's sketch (register-wise maximum). */
export function mergeSketches(sketches: Iterable<Uint8Array>): Uint8Array {
  const merged = emptySketch();
  for (const sketch of sketches) {
    if (sketch.length !== REGISTERS) throw new RangeError(`an address sketch has ${REGISTERS} registers, not ${sketch.length}`);
    for (let register = 0; register < REGISTERS; register++) {
      if (sketch[register]! > merged[register]!) merged[register] = sketch[register]!;
    }
  }
  return merged;
}

/** The estimated number of distinct addresses; exact-ish (linear counting) while most registers are empty. */
export function estimateDistinct(sketch: Uint8Array): number {
  const alpha = 0.7213 / (1 + 1.079 / REGISTERS);
  let sum = 0;
  let empty = 0;
  for (const rank of sketch) {
    sum += 2 ** -rank;
    if (rank === 0) empty += 1;
  }
  const raw = (alpha * REGISTERS * REGISTERS) / sum;
  if (raw <= 2.5 * REGISTERS && empty > 0) return Math.round(REGISTERS * Math.log(REGISTERS / empty));
  return Math.round(raw);
}
