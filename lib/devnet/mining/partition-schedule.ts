/**
 * When simulated miners go dark (miner.ts, "Partitions"): the seeded schedule of partitions and its defaults.
 *
 * Invariant: a schedule draws only from its own `random`, three numbers per partition, so seeding it reproduces the
 * same partitions whatever the miners' hashing, network delays or the node's block rate do meanwhile.
 */

export interface PartitionSchedule {
  /** Milliseconds from the start (or the previous partition's end) to the next partition, drawn uniformly. */
  gapMs: { min: number; max: number };
  /** How long a partition lasts, drawn uniformly. */
  durationMs: { min: number; max: number };
  /**
   * A partition also lasts until the node has announced this many blocks meanwhile (up to three times its drawn
   * duration), so its blocks get an anticone larger than k even when blocks come slower than planned. Default 0.
   */
  minBlocksMissed?: number;
  /**
   * Blocks a dark miner keeps for delivery; later finds are discarded (stale work, as a real miner's blocks on a
   * superseded template are). All held blocks share the stale template's parents, so a cap keeps the burst of reds
   * a partition causes plausible. Default: no cap.
   */
  maxHeldBlocks?: number;
  /** Uniform in [0, 1): the gaps, the durations and which miner goes dark; seed it for a reproducible schedule. */
  random: () => number;
}

export interface Partition {
  /** Index into the swarm's miners. */
  miner: number;
  /** Milliseconds after the previous partition ended (or the swarm started). */
  startsAfterMs: number;
  durationMs: number;
}

/**
 * About once a minute, one miner dark for 15–25 s: long enough for its blocks to be red at k = 124 and 10 blocks/s
 * (more than k blues in their anticone), short and rare enough that the rate lost meanwhile is a few percent, which
 * the difficulty adjustment makes up.
 */
export const DEFAULT_PARTITION_GAP_MS: Readonly<{ min: number; max: number }> = Object.freeze({ min: 30_000, max: 90_000 });
export const DEFAULT_PARTITION_DURATION_MS: Readonly<{ min: number; max: number }> = Object.freeze({ min: 15_000, max: 25_000 });
/** Room in one parent list of the template that merges them (maxBlockParents is 16; the other tips need some too). */
export const DEFAULT_PARTITION_MAX_HELD_BLOCKS = 12;

/** The next partition of a schedule over `minerCount` miners (draws three numbers from the schedule's random). */
export function nextPartition(schedule: PartitionSchedule, minerCount: number): Partition {
  const { gapMs, durationMs, random } = schedule;
  const startsAfterMs = gapMs.min + random() * (gapMs.max - gapMs.min);
  const duration = durationMs.min + random() * (durationMs.max - durationMs.min);
  const miner = Math.min(minerCount - 1, Math.floor(random() * minerCount));
  return { miner, startsAfterMs, durationMs: duration };
}
