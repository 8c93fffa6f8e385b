/**
 * The node's chain across restarts (block-log.ts, consensus-snapshot.ts): the block log and the genesis record a chain
 * starts from, consensus built from the newest snapshot that loads, the replay of the blocks the log holds past it, and
 * from then on a snapshot at every new pruning point with the log compacted below it.
 *
 * Invariants: a recorded chain keeps its genesis record (timestamp, bits, bootstrap), so its blocks replay whatever
 * the node's options say now; the log is compacted only below a snapshot just written, so the newest snapshot and the
 * log always rebuild the chain; replayed blocks were validated when first accepted, so their timestamps are not held
 * against the clock again.
 *
 * Restart cost: the log replay re-validates every block (the virtual update, and the PoW matrix, which the replay
 * cannot take from the miners' cache) plus one signature verification (under a millisecond) per transaction input,
 * so an hour of 10 blocks/s history (36,000 blocks) takes minutes to come back.
 */
import { join } from 'node:path';
import { bytesToHex } from '../kaspa/bytes';
import { headerHash } from '../kaspa/header';
import type { PowMatrixCache } from '../kaspa/pow';
import { openBlockLog, SNAPSHOTS_DIR, type BlockLog, type BlockLogRecovery, type GenesisRecord } from './block-log';
import { createConsensus, type Consensus } from './consensus/consensus';
import { openSnapshotStore, type ConsensusSnapshot } from './consensus/consensus-snapshot';
import { createDevnetGenesis } from './consensus/genesis';
import type { ConsensusParams } from './consensus/params';
import { wasmSecp256k1 } from './consensus/secp256k1-wasm';
import { createDevnetBootstrap, type DevnetBootstrap } from './mining/bootstrap';
import type { DevnetNodeEvent } from './node';

export interface DevnetRestoreReport {
  replayedBlocks: number;
  milliseconds: number;
  /** Set when a torn, corrupt or rejected tail of the block log was dropped. */
  recovery: BlockLogRecovery | null;
}

export interface NodeChainOptions {
  /** null: memory only. */
  persistence: { dir: string } | null;
  params: ConsensusParams;
  /** Milliseconds since the Unix epoch. */
  clock: () => number;
  random: () => number;
  powMatrixCache: PowMatrixCache;
  /** The genesis record of a chain the log does not hold yet (or of a node without persistence). */
  newGenesisRecord: () => GenesisRecord;
  report: (event: DevnetNodeEvent) => void;
}

export interface NodeChain {
  readonly consensus: Consensus;
  /** The bootstrap outputs the chain's genesis commits. */
  readonly bootstrap: DevnetBootstrap;
  readonly log: BlockLog | null;
  /**
   * Replays the log's blocks into consensus (null without persistence), then snapshots now if the pruning point moved
   * past the snapshot the replay started from, and at every later pruning point. Called once.
   */
  replay(): DevnetRestoreReport | null;
}

/** Opens the log and builds consensus at the newest snapshot that loads (at genesis without one). */
export function openNodeChain(options: NodeChainOptions): NodeChain {
  const { params, clock, random, powMatrixCache, report } = options;
  const log: BlockLog | null = options.persistence
    ? openBlockLog({ dir: options.persistence.dir, toccataActivation: params.toccataActivation })
    : null;
  if (log?.superseded) {
    const { recordedActivation, archivedTo } = log.superseded;
    report({ type: 'chainSuperseded', recordedActivation, activation: params.toccataActivation, archivedTo });
  }

  const genesisRecord = log?.genesis ?? options.newGenesisRecord();
  if (log && log.genesis === undefined) log.writeGenesis(genesisRecord);
  const bootstrap = createDevnetBootstrap(genesisRecord.bootstrap ?? []);
  const genesis = createDevnetGenesis({
    timestamp: genesisRecord.timestamp,
    bits: genesisRecord.bits,
    utxoCommitment: bootstrap.utxoCommitment,
  });

  let replaying = false;
  const snapshots = log ? openSnapshotStore(join(log.dir, SNAPSHOTS_DIR)) : null;
  const consensusFrom = (snapshot?: ConsensusSnapshot) =>
    createConsensus({
      params,
      genesis,
      // Replayed blocks were validated against the clock when first accepted; the future-timestamp bound is not re-applied.
      clock: () => (replaying ? Number.MAX_SAFE_INTEGER : clock()),
      random,
      secp256k1: wasmSecp256k1,
      powMatrixCache,
      genesisUtxoSet: bootstrap.utxos,
      ...(snapshot === undefined ? {} : { snapshot }),
    });
  const restoreStarted = performance.now();
  /** The newest snapshot that loads; a torn or altered one is reported and the next older one tried. */
  const fromSnapshot = ((): { consensus: Consensus; blueScore: bigint } | undefined => {
    for (const file of snapshots?.list() ?? []) {
      try {
        return { consensus: consensusFrom(snapshots!.read(file)), blueScore: file.blueScore };
      } catch (error) {
        report({ type: 'error', source: `snapshot:${file.path}`, error });
      }
    }
    return undefined;
  })();
  const consensus = fromSnapshot?.consensus ?? consensusFrom();

  const replay = (): DevnetRestoreReport | null => {
    let restored: DevnetRestoreReport | null = null;
    let replayedBlocks = 0;
    if (log) {
      replaying = true;
      try {
        const blocks = log.readBlocks();
        for (const [index, block] of blocks.entries()) {
          // Blocks at or below the snapshot's pruning point are in it (or pruned); its strict future has higher blue scores.
          if (fromSnapshot !== undefined && block.header.blueScore <= fromSnapshot.blueScore) continue;
          const result = consensus.validateAndInsertBlock(block, { allowNonDaaBlocks: true, trusted: true, deferVirtual: true });
          if (result.type !== 'success') {
            log.dropFrom(index, `block ${bytesToHex(headerHash(block.header))} was rejected on replay: ${result.message}`);
            break;
          }
          replayedBlocks++;
        }
        consensus.resolveVirtualNow();
      } finally {
        replaying = false;
      }
      restored = { replayedBlocks, milliseconds: performance.now() - restoreStarted, recovery: log.recovery ?? null };
      if (log.recovery) report({ type: 'logRecovered', recovery: log.recovery });
      report({
        type: 'replayed',
        blocks: restored.replayedBlocks,
        milliseconds: restored.milliseconds,
        snapshotBlueScore: fromSnapshot?.blueScore ?? null,
      });
    }

    /** Snapshot at the new pruning point, then compact the log below the oldest snapshot kept. */
    const persistSnapshot = () => {
      if (log === null || snapshots === null) return;
      try {
        log.flush();
        const pruningPoint = consensus.getBlock(consensus.pruningPoint())!;
        log.dropThrough(snapshots.write(consensus.snapshot(), pruningPoint.ghostdag.blueScore));
      } catch (error) {
        report({ type: 'error', source: 'snapshot', error });
      }
    };
    // The replay moved the pruning point past the snapshot it started from (or from genesis): snapshot it now, which also
    // replaces a newer file that failed to load.
    if (consensus.getBlock(consensus.pruningPoint())!.ghostdag.blueScore !== (fromSnapshot?.blueScore ?? 0n)) persistSnapshot();
    consensus.events.on('pruningPointMoved', persistSnapshot);
    return restored;
  };

  return { consensus, bootstrap, log, replay };
}
