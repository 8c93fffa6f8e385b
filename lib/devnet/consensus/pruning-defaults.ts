/** Devnet pruning depth bounds in blue score, apart from params.ts so lib/env.ts reads them without consensus code. */

/** 40 s of chain at 10 blocks/s (env DEVNET_PRUNING_DEPTH): a restart replays 40–56 s of chain. */
export const DEFAULT_DEVNET_PRUNING_DEPTH = 400;
/** Below this the finality and merge depths derived from it drop under the reorganisations the simulated miners cause. */
export const MIN_DEVNET_PRUNING_DEPTH = 100;
