/**
 * Consensus-state snapshots at the pruning point: what a devnet node restarts from instead of replaying its whole
 * chain (kaspad keeps the same state in its database: the pruning point's UTXO set and multiset, the headers and
 * GHOSTDAG data its successors still read, and the pruning samples).
 *
 * Content (Consensus.snapshot): every stored block outside the pruning point's strict future, ascending blue work,
 * with its GHOSTDAG data and derived header data, so nothing is recomputed from pruned blocks; the pruning point's
 * UTXO set with the MuHash multiset its header's UTXO commitment finalizes (checked on loading), its KIP-21 active
 * lanes and its pinned difficulty and past-median-time windows. The pruning point's strict future replays from the
 * block log on top of it.
 *
 * Files: `snapshots/snapshot-<blue score>.json` under the node's directory, two lines: a head
 * `{"format":1,"pruningPoint":<hex>,"blueScore":"<n>","sha256":<hex of the body line>}` and the body. Each is written
 * to a temporary file, fsync'd, renamed into place and the directory fsync'd, so a crash leaves either the old set or
 * the new one; a file whose checksum or content does not hold is skipped for the next older one. The newest
 * `SNAPSHOTS_KEPT` stay; the block log keeps everything above the oldest kept one, so falling back to it still works.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { bytesToHex, hexToBytes } from '../../kaspa/bytes';
import type { LaneRecord } from '../../kaspa/lanes-tree';
import type { UtxoEntry } from '../../kaspa/types';
import { blockFromRpc, blockToRpcSubmission } from '../../rpc/convert-block';
import { stringifyJson } from '../../rpc/json';
import { parseWireMessage } from '../../rpc/protocol';
import type { RpcRawBlockInputForm } from '../../rpc/types';
import type { BlockStatus } from './consensus';
import type { PinnedWindows } from './difficulty';
import type { Block } from './genesis';
import type { BlockId, GhostdagData } from './ghostdag';
import type { OutpointKey } from './utxo-diff';

export const SNAPSHOT_FORMAT = 1;
export const SNAPSHOTS_KEPT = 2;
const SNAPSHOT_FILE = /^snapshot-(\d+)\.json$/;

export interface SnapshotBlock {
  block: Block;
  /** Stored parents (pruned ones left out). */
  parents: BlockId[];
  ghostdag: GhostdagData;
  level: number;
  pruningSample: BlockId;
  mergeDepthRoot: BlockId;
  finalityPoint: BlockId;
  mergesetNonDaa: BlockId[];
  status: BlockStatus;
  disqualificationReason?: string;
  /** In the pruning point's strict past: header only, pruned for callers. */
  pastPruningPoint: boolean;
  /** Kept only for the pinned windows and pruning samples: no reachability data. */
  windowOnly: boolean;
}

export interface ConsensusSnapshot {
  pruningPoint: Uint8Array;
  blocks: SnapshotBlock[];
  utxoSet: Map<OutpointKey, UtxoEntry>;
  /** The pruning point's serialized MuHash (lib/kaspa/muhash.ts). */
  multiset: Uint8Array;
  lanes: LaneRecord[];
  windows: PinnedWindows;
}

export class SnapshotError extends Error {
  override name = 'SnapshotError';
}

function ghostdagToJson(ghostdag: GhostdagData) {
  return {
    blueScore: ghostdag.blueScore.toString(),
    blueWork: ghostdag.blueWork.toString(),
    selectedParent: ghostdag.selectedParent,
    mergesetBlues: ghostdag.mergesetBlues,
    mergesetReds: ghostdag.mergesetReds,
    bluesAnticoneSizes: [...ghostdag.bluesAnticoneSizes],
  };
}

function ghostdagFromJson(json: ReturnType<typeof ghostdagToJson>): GhostdagData {
  return {
    blueScore: BigInt(json.blueScore),
    blueWork: BigInt(json.blueWork),
    selectedParent: json.selectedParent,
    mergesetBlues: json.mergesetBlues,
    mergesetReds: json.mergesetReds,
    bluesAnticoneSizes: new Map(json.bluesAnticoneSizes),
  };
}

function entryToJson(entry: UtxoEntry) {
  return {
    amount: entry.amount.toString(),
    version: entry.scriptPublicKey.version,
    script: bytesToHex(entry.scriptPublicKey.script),
    blockDaaScore: entry.blockDaaScore.toString(),
    isCoinbase: entry.isCoinbase,
    ...(entry.covenantId === undefined ? {} : { covenantId: entry.covenantId === null ? null : bytesToHex(entry.covenantId) }),
  };
}

function entryFromJson(json: ReturnType<typeof entryToJson>): UtxoEntry {
  return {
    amount: BigInt(json.amount),
    scriptPublicKey: { version: json.version, script: hexToBytes(json.script) },
    blockDaaScore: BigInt(json.blockDaaScore),
    isCoinbase: json.isCoinbase,
    ...(json.covenantId === undefined ? {} : { covenantId: json.covenantId === null ? null : hexToBytes(json.covenantId) }),
  };
}

function windowToJson(window: PinnedWindows['difficulty']) {
  return window.map(({ id, blueWork }) => [id, blueWork.toString()] as const);
}

function windowFromJson(json: ReturnType<typeof windowToJson>): PinnedWindows['difficulty'] {
  return json.map(([id, blueWork]) => ({ id, blueWork: BigInt(blueWork) }));
}

function snapshotBody(snapshot: ConsensusSnapshot) {
  return {
    pruningPoint: bytesToHex(snapshot.pruningPoint),
    blocks: snapshot.blocks.map(({ block, ghostdag, ...plain }) => ({
      ...plain,
      block: stringifyJson(blockToRpcSubmission(block)),
      ghostdag: ghostdagToJson(ghostdag),
    })),
    utxoSet: [...snapshot.utxoSet].map(([key, entry]) => [key, entryToJson(entry)] as const),
    multiset: bytesToHex(snapshot.multiset),
    lanes: snapshot.lanes.map(({ laneKey, entry }) => [bytesToHex(laneKey), bytesToHex(entry.tip), entry.blueScore.toString()] as const),
    windows: { difficulty: windowToJson(snapshot.windows.difficulty), pastMedianTime: windowToJson(snapshot.windows.pastMedianTime) },
  };
}

type SnapshotBody = ReturnType<typeof snapshotBody>;

/** The two-line file text of a snapshot. */
export function encodeSnapshot(snapshot: ConsensusSnapshot, pruningPointBlueScore: bigint): string {
  const body = JSON.stringify(snapshotBody(snapshot));
  const head = {
    format: SNAPSHOT_FORMAT,
    pruningPoint: bytesToHex(snapshot.pruningPoint),
    blueScore: pruningPointBlueScore.toString(),
    sha256: createHash('sha256').update(body).digest('hex'),
  };
  return `${JSON.stringify(head)}\n${body}\n`;
}

/** Throws SnapshotError when the text is torn, altered or of another format. */
export function decodeSnapshot(text: string): ConsensusSnapshot {
  const newline = text.indexOf('\n');
  if (newline < 0 || !text.endsWith('\n')) throw new SnapshotError('the snapshot is incomplete');
  let head: { format?: unknown; sha256?: unknown };
  try {
    head = JSON.parse(text.slice(0, newline)) as typeof head;
  } catch {
    throw new SnapshotError('the snapshot head is not JSON');
  }
  if (head.format !== SNAPSHOT_FORMAT) throw new SnapshotError(`the snapshot is not format ${SNAPSHOT_FORMAT}`);
  const body = text.slice(newline + 1, -1);
  if (createHash('sha256').update(body).digest('hex') !== head.sha256) throw new SnapshotError('the snapshot checksum does not match');
  const json = JSON.parse(body) as SnapshotBody;
  return {
    pruningPoint: hexToBytes(json.pruningPoint),
    blocks: json.blocks.map(({ block, ghostdag, ...plain }) => ({
      ...plain,
      block: blockFromRpc(parseWireMessage(block) as unknown as RpcRawBlockInputForm),
      ghostdag: ghostdagFromJson(ghostdag),
    })),
    utxoSet: new Map(json.utxoSet.map(([key, entry]) => [key, entryFromJson(entry)])),
    multiset: hexToBytes(json.multiset),
    lanes: json.lanes.map(([laneKey, tip, blueScore]) => ({ laneKey: hexToBytes(laneKey), entry: { tip: hexToBytes(tip), blueScore: BigInt(blueScore) } })),
    windows: { difficulty: windowFromJson(json.windows.difficulty), pastMedianTime: windowFromJson(json.windows.pastMedianTime) },
  };
}

export interface SnapshotFile {
  path: string;
  /** The pruning point's blue score. */
  blueScore: bigint;
}

export interface SnapshotStore {
  readonly dir: string;
  /** Snapshot files, newest first. */
  list(): SnapshotFile[];
  /** Writes durably, then removes all but the newest SNAPSHOTS_KEPT; returns the blue score the block log must keep above. */
  write(snapshot: ConsensusSnapshot, pruningPointBlueScore: bigint): bigint;
  read(file: SnapshotFile): ConsensusSnapshot;
}

function fsyncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export function openSnapshotStore(dir: string): SnapshotStore {
  mkdirSync(dir, { recursive: true });
  const list = (): SnapshotFile[] =>
    readdirSync(dir)
      .flatMap((name) => {
        const match = SNAPSHOT_FILE.exec(name);
        return match === null ? [] : [{ path: join(dir, name), blueScore: BigInt(match[1]!) }];
      })
      .sort((a, b) => (a.blueScore > b.blueScore ? -1 : a.blueScore < b.blueScore ? 1 : 0));
  return {
    dir,
    list,
    write(snapshot, pruningPointBlueScore) {
      const path = join(dir, `snapshot-${pruningPointBlueScore}.json`);
      const temporary = `${path}.tmp`;
      const fd = openSync(temporary, 'w');
      try {
        writeSync(fd, encodeSnapshot(snapshot, pruningPointBlueScore));
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, path);
      fsyncDirectory(dir);
      const kept = list();
      for (const stale of kept.slice(SNAPSHOTS_KEPT)) rmSync(stale.path);
      return kept.slice(0, SNAPSHOTS_KEPT).at(-1)!.blueScore;
    },
    read(file) {
      if (!existsSync(file.path)) throw new SnapshotError(`${file.path} is gone`);
      return decodeSnapshot(readFileSync(file.path, 'utf8'));
    },
  };
}
