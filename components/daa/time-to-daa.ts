/**
 * Maps a wall-clock time to a DAA score. The DAA score counts blocks at a steady target rate, so a first estimate
 * goes back from the current virtual DAA score by (now − time) × blocks per second. Block timestamps then correct it:
 * look at the chain blocks around the estimate, and either pick the last one stamped at or before the time, or, when
 * the time lies outside them, estimate again from the nearest block's own timestamp. Pure: the caller supplies the
 * block lookup.
 */

export interface StampedBlock {
  daaScore: bigint;
  /** Epoch ms. */
  timestamp: number;
}

export interface TimeToDaaInput {
  /** Epoch ms to find. */
  time: number;
  /** The current virtual DAA score and the moment it was read (epoch ms). */
  virtualDaaScore: bigint;
  now: number;
  blocksPerSecond: number;
  /** Blocks with DAA scores in [start, end] (any order; may be empty). */
  blocksBetween(start: bigint, end: bigint): Promise<StampedBlock[]>;
  /** Half the width of each lookup window. */
  halfWidth?: bigint;
  maxLookups?: number;
}

export interface TimeToDaaResult {
  /** The estimate from the virtual DAA score and the block rate alone. */
  estimate: bigint;
  /** The DAA score after correction by block timestamps. */
  score: bigint;
  /** How many block lookups the correction took. */
  lookups: number;
  /** True when a block stamped at or before the time, with the next one after it, was found. */
  exact: boolean;
  /** Where the time falls outside what the node has: after its tip, or before its oldest block. */
  clamped: 'future' | 'past' | null;
}

const DEFAULT_HALF_WIDTH = 100n;
const DEFAULT_MAX_LOOKUPS = 4;

function scoresFor(milliseconds: number, blocksPerSecond: number): bigint {
  return BigInt(Math.round((milliseconds * blocksPerSecond) / 1000));
}

function clamp(value: bigint, low: bigint, high: bigint): bigint {
  return value < low ? low : value > high ? high : value;
}

export async function timeToDaaScore(input: TimeToDaaInput): Promise<TimeToDaaResult> {
  const { time, virtualDaaScore, now, blocksPerSecond } = input;
  const halfWidth = input.halfWidth ?? DEFAULT_HALF_WIDTH;
  const maxLookups = input.maxLookups ?? DEFAULT_MAX_LOOKUPS;
  if (time >= now) return { estimate: virtualDaaScore, score: virtualDaaScore, lookups: 0, exact: false, clamped: 'future' };

  const estimate = clamp(virtualDaaScore - scoresFor(now - time, blocksPerSecond), 0n, virtualDaaScore);
  let guess = estimate;
  let lookups = 0;
  /** The nearest blocks seen so far stamped before and after the time: once both exist, interpolate between them. */
  let below: StampedBlock | null = null;
  let above: StampedBlock | null = null;
  while (lookups < maxLookups) {
    const start = guess > halfWidth ? guess - halfWidth : 0n;
    const end = guess + halfWidth;
    const blocks = [...(await input.blocksBetween(start, end))].sort((a, b) => (a.daaScore < b.daaScore ? -1 : a.daaScore > b.daaScore ? 1 : 0));
    lookups++;
    const first = blocks[0];
    const last = blocks.at(-1);
    if (first === undefined || last === undefined) {
      if (start === 0n) return { estimate, score: guess, lookups, exact: false, clamped: 'past' };
      break;
    }
    if (time >= first.timestamp && time <= last.timestamp) {
      let best = first;
      for (const block of blocks) if (block.timestamp <= time) best = block;
      return { estimate, score: best.daaScore, lookups, exact: true, clamped: null };
    }
    if (time < first.timestamp) {
      if (start === 0n) return { estimate, score: first.daaScore, lookups, exact: false, clamped: 'past' };
      if (above === null || first.daaScore < above.daaScore) above = first;
    } else {
      if (end >= virtualDaaScore) return { estimate, score: last.daaScore, lookups, exact: false, clamped: 'future' };
      if (below === null || last.daaScore > below.daaScore) below = last;
    }
    let next: bigint;
    if (below !== null && above !== null && above.timestamp > below.timestamp) {
      const span = Number(above.daaScore - below.daaScore);
      next = below.daaScore + BigInt(Math.round((span * (time - below.timestamp)) / (above.timestamp - below.timestamp)));
    } else if (time < first.timestamp) {
      next = first.daaScore - scoresFor(first.timestamp - time, blocksPerSecond);
    } else {
      next = last.daaScore + scoresFor(time - last.timestamp, blocksPerSecond);
    }
    if (next >= start && next <= end) next = time < first.timestamp ? start - 1n : end + 1n;
    guess = clamp(next, 0n, virtualDaaScore);
  }
  return { estimate, score: guess, lookups, exact: false, clamped: null };
}
