/**
 * The devnet's persistence: everything the node needs to come back after a restart, under one directory.
 *
 * Format (both files UTF-8 text, u64 values as bare JSON integers, hashes and bytes as lowercase hex):
 * - `genesis.json`: `{"format":1,"networkId":"devnet","timestamp":<ms>,"bits":<u32>,"toccataActivation":<u64|"never">}`,
 *   written once, fsync'd. The genesis depends on the node's start time and hash rate, so it is recorded rather than
 *   recomputed. A record without `toccataActivation` predates Toccata support: its chain ran Crescendo rules (never).
 *   `"bootstrap":[{"amount":<sompi>,"scriptVersion":<u16>,"script":<hex>}…]` lists the devnet bootstrap outputs its
 *   genesis commits (bootstrap.ts); a record without it predates the bootstrap, and its chain replays with none.
 *
 * A chain only replays under the rules it was mined with. When the node opens a directory whose recorded Toccata
 * activation differs from its own, both files (and its snapshots) move into `superseded-<ms>/` beside them (nothing is deleted) and the
 * node starts a fresh chain; `superseded` says so, for the node's log line.
 * - `blocks.jsonl`: one accepted block per line, in acceptance order (so every block's parents come before it), as
 *   the submitBlock form (`RpcRawBlock`: raw header plus transactions), each line prefixed with the CRC-32 of its JSON
 *   (8 lowercase hex digits and a space; lines of older logs start with the JSON itself and carry none). Appended
 *   only: each line is written to the file as its block is accepted, before the node announces the block (so a killed
 *   process loses nothing it announced), and fsync'd in batches (every `flushIntervalMs`, and on close), so a power
 *   loss loses at most the last batch.
 *
 * Crash consistency: reading stops at the first record that is torn (no newline), fails its checksum or does not
 * decode as a block, and so does the node's replay at the first block consensus rejects. That record and everything
 * after it are dropped (later blocks may build on it): the bytes move to `dropped-<ms>.jsonl` beside the log (nothing
 * is deleted), the log is cut there, and `recovery` says what happened. The node's state is the replay of exactly
 * what the log keeps, so state and log agree. Once the node keeps snapshots (consensus-snapshot.ts), the blocks at or
 * below the oldest kept snapshot's pruning point are compacted away (`dropThrough`).
 *
 * Everything else (GHOSTDAG data, UTXO set, indexes) is derived state: the node rebuilds it by replaying the blocks
 * through consensus validation. The mempool is not persisted; wallets re-submit.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { stringifyJson } from '../rpc/json';
import { isJsonObject, parseWireMessage } from '../rpc/protocol';
import type { RpcRawBlockInputForm } from '../rpc/types';
import type { Block } from './consensus/genesis';
import { blockFromRpc, blockToRpcSubmission } from '../rpc/convert-block';
import { FORK_NEVER } from './consensus/params';
import { bytesToHex, hexToBytes } from '../kaspa/bytes';
import type { BootstrapOutput } from './mining/bootstrap';

export const BLOCK_LOG_FORMAT = 1;
const GENESIS_FILE = 'genesis.json';
const BLOCKS_FILE = 'blocks.jsonl';
/** consensus-snapshot.ts keeps its files here; they belong to the chain and move with it when it is set aside. */
export const SNAPSHOTS_DIR = 'snapshots';
const DEFAULT_FLUSH_INTERVAL_MS = 250;
/** The header's blue score in a logged line (the raw header precedes the transactions, which have no such field). */
const BLUE_SCORE_FIELD = /"blueScore":(\d+)/;

export interface GenesisRecord {
  networkId: string;
  /** Milliseconds since the Unix epoch. */
  timestamp: bigint;
  bits: number;
  /** DAA score from which the chain runs Toccata (params.ts `FORK_NEVER`: never). */
  toccataActivation: bigint;
  /** The bootstrap outputs genesis commits (bootstrap.ts); a record written before the bootstrap existed has none. */
  bootstrap?: BootstrapOutput[];
}

export interface BlockLogOptions {
  dir: string;
  flushIntervalMs?: number;
  /** The activation the node runs; a chain recorded under another one is set aside. Unchecked when absent. */
  toccataActivation?: bigint;
}

export type BlockLogDropReason = 'torn' | 'checksum' | 'unreadable' | 'rejected';

/** What opening the log (or replaying it) dropped from its tail. */
export interface BlockLogRecovery {
  reason: BlockLogDropReason;
  /** 1-based line of the first dropped record. */
  line: number;
  keptRecords: number;
  /** Complete records dropped (the first bad one and every one after it), a torn tail included. */
  droppedRecords: number;
  droppedBytes: number;
  /** Where the dropped bytes were saved. */
  savedTo: string;
  detail: string;
}

export interface SupersededChain {
  recordedActivation: bigint;
  /** Where genesis.json and blocks.jsonl moved. */
  archivedTo: string;
}

export interface BlockLog {
  readonly dir: string;
  /** The recorded genesis, or undefined for a new directory. */
  readonly genesis: GenesisRecord | undefined;
  /** Set when a chain recorded under another Toccata activation was set aside on opening. */
  readonly superseded: SupersededChain | undefined;
  /** Records the genesis of a new directory; throws if one is already recorded. */
  writeGenesis(genesis: GenesisRecord): void;
  /** The logged blocks in order, decoded, up to the first bad record (dropped, see `recovery`); call once, before appending. */
  readBlocks(): Block[];
  /** Drops the block at `index` of what readBlocks returned and every block after it (replay rejected it). */
  dropFrom(index: number, detail: string): void;
  /** Set when readBlocks or dropFrom dropped a tail. */
  readonly recovery: BlockLogRecovery | undefined;
  append(block: Block): void;
  /** Writes and fsyncs buffered blocks now. */
  flush(): void;
  /**
   * Compaction below a snapshot: rewrites the log (temporary file, fsync, rename) without the blocks whose blue score
   * is at most `blueScore`, and returns how many it kept.
   */
  dropThrough(blueScore: bigint): number;
  /** Flushes, stops the timer and closes the file. */
  close(): void;
}

export class BlockLogError extends Error {
  override name = 'BlockLogError';
}

function readGenesis(path: string): GenesisRecord | undefined {
  if (!existsSync(path)) return undefined;
  const parsed = parseWireMessage(readFileSync(path, 'utf8'));
  if (!isJsonObject(parsed) || parsed.format !== BLOCK_LOG_FORMAT) {
    throw new BlockLogError(`${path} is not a format ${BLOCK_LOG_FORMAT} devnet genesis record`);
  }
  const { networkId, timestamp, bits, toccataActivation, bootstrap } = parsed;
  if (typeof networkId !== 'string' || (typeof timestamp !== 'bigint' && typeof timestamp !== 'number') || typeof bits !== 'number') {
    throw new BlockLogError(`${path} lacks networkId, timestamp or bits`);
  }
  return {
    networkId,
    timestamp: BigInt(timestamp),
    bits,
    toccataActivation: activationFromJson(path, toccataActivation),
    ...(bootstrap === undefined ? {} : { bootstrap: bootstrapFromJson(path, bootstrap) }),
  };
}

function bootstrapFromJson(path: string, value: unknown): BootstrapOutput[] {
  const invalid = () => new BlockLogError(`${path} has an invalid bootstrap list`);
  if (!Array.isArray(value)) throw invalid();
  return value.map((output) => {
    if (!isJsonObject(output)) throw invalid();
    const { amount, scriptVersion, script } = output;
    if ((typeof amount !== 'bigint' && typeof amount !== 'number') || typeof scriptVersion !== 'number' || typeof script !== 'string') {
      throw invalid();
    }
    if (!/^(?:[0-9a-f]{2})*$/.test(script)) throw invalid();
    return { amount: BigInt(amount), scriptPublicKey: { version: scriptVersion, script: hexToBytes(script) } };
  });
}

function activationFromJson(path: string, value: unknown): bigint {
  if (value === undefined || value === 'never') return FORK_NEVER;
  if ((typeof value === 'bigint' || typeof value === 'number') && BigInt(value) >= 0n) return BigInt(value);
  throw new BlockLogError(`${path} has an invalid toccataActivation`);
}

function activationToJson(activation: bigint): bigint | 'never' {
  return activation === FORK_NEVER ? 'never' : activation;
}

function setAside(dir: string, files: readonly string[]): string {
  const archive = join(dir, `superseded-${Date.now()}`);
  mkdirSync(archive, { recursive: true });
  for (const file of files) {
    if (existsSync(join(dir, file))) renameSync(join(dir, file), join(archive, file));
  }
  return archive;
}

const CHECKSUM_DIGITS = 8;
const NEWLINE = 0x0a;

const checksumOf = (json: string | Uint8Array) => crc32(json).toString(16).padStart(CHECKSUM_DIGITS, '0');

/** One record's line: checksum, space, JSON, newline. */
export function blockLogLine(json: string): string {
  return `${checksumOf(json)} ${json}\n`;
}

type DecodedLine = { ok: true; block: Block } | { ok: false; reason: 'checksum' | 'unreadable'; detail: string };

function decodeLine(line: Buffer): DecodedLine {
  let json = line;
  if (line[0] !== 0x7b) {
    const expected = line.subarray(0, CHECKSUM_DIGITS).toString('latin1');
    json = line.subarray(CHECKSUM_DIGITS + 1);
    if (line[CHECKSUM_DIGITS] !== 0x20 || checksumOf(json) !== expected) {
      return { ok: false, reason: 'checksum', detail: 'the record does not match its checksum' };
    }
  }
  try {
    return { ok: true, block: blockFromRpc(parseWireMessage(json.toString('utf8')) as unknown as RpcRawBlockInputForm) };
  } catch (error) {
    return { ok: false, reason: 'unreadable', detail: `not a block: ${error instanceof Error ? error.message : String(error)}` };
  }
}

function writeDurably(path: string, text: string): void {
  const temporary = `${path}.tmp`;
  const fd = openSync(temporary, 'w');
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
}

export function openBlockLog(options: BlockLogOptions): BlockLog {
  const { dir } = options;
  mkdirSync(dir, { recursive: true });
  const genesisPath = join(dir, GENESIS_FILE);
  const blocksPath = join(dir, BLOCKS_FILE);
  let genesis = readGenesis(genesisPath);
  let superseded: SupersededChain | undefined;
  if (genesis !== undefined && options.toccataActivation !== undefined && genesis.toccataActivation !== options.toccataActivation) {
    superseded = { recordedActivation: genesis.toccataActivation, archivedTo: setAside(dir, [GENESIS_FILE, BLOCKS_FILE, SNAPSHOTS_DIR]) };
    genesis = undefined;
  }
  let unsynced = false;
  let fd: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let recovery: BlockLogRecovery | undefined;
  /** Byte offset of each record readBlocks returned, and the end of the last one. */
  let recordOffsets: number[] = [];

  const flush = () => {
    if (!unsynced || fd === undefined) return;
    unsynced = false;
    fsyncSync(fd);
  };

  /** Moves the bytes from `offset` to a side file, cuts the log there and records why. */
  const dropTail = (content: Buffer, offset: number, drop: Omit<BlockLogRecovery, 'droppedBytes' | 'savedTo' | 'droppedRecords'>) => {
    const tail = content.subarray(offset);
    const savedTo = join(dir, `dropped-${Date.now()}.jsonl`);
    writeFileSync(savedTo, tail);
    truncateSync(blocksPath, offset);
    const newlines = tail.reduce((count, byte) => count + (byte === NEWLINE ? 1 : 0), 0);
    const droppedRecords = newlines + (tail.at(-1) === NEWLINE ? 0 : 1);
    recovery = { ...drop, droppedRecords, droppedBytes: tail.length, savedTo };
  };

  const ensureOpen = () => {
    if (closed) throw new BlockLogError('the block log is closed');
    fd ??= openSync(blocksPath, 'a');
    timer ??= setInterval(flush, options.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS).unref();
  };

  return {
    dir,
    get genesis() {
      return genesis;
    },
    superseded,
    writeGenesis(record) {
      if (genesis !== undefined) throw new BlockLogError(`${genesisPath} already records a genesis`);
      writeDurably(
        genesisPath,
        `${stringifyJson({
          format: BLOCK_LOG_FORMAT,
          networkId: record.networkId,
          timestamp: record.timestamp,
          bits: record.bits,
          toccataActivation: activationToJson(record.toccataActivation),
          ...(record.bootstrap === undefined
            ? {}
            : {
                bootstrap: record.bootstrap.map(({ amount, scriptPublicKey }) => ({
                  amount,
                  scriptVersion: scriptPublicKey.version,
                  script: bytesToHex(scriptPublicKey.script),
                })),
              }),
        })}\n`,
      );
      genesis = { ...record };
    },
    get recovery() {
      return recovery;
    },
    readBlocks() {
      recordOffsets = [];
      if (!existsSync(blocksPath)) return [];
      const content = readFileSync(blocksPath);
      const blocks: Block[] = [];
      let offset = 0;
      let line = 1;
      while (offset < content.length) {
        const end = content.indexOf(NEWLINE, offset);
        if (end < 0) {
          dropTail(content, offset, { reason: 'torn', line, keptRecords: blocks.length, detail: 'the last record has no newline' });
          break;
        }
        if (end > offset) {
          const decoded = decodeLine(content.subarray(offset, end));
          if (!decoded.ok) {
            dropTail(content, offset, { reason: decoded.reason, line, keptRecords: blocks.length, detail: decoded.detail });
            break;
          }
          recordOffsets.push(offset);
          blocks.push(decoded.block);
        }
        offset = end + 1;
        line++;
      }
      recordOffsets.push(Math.min(offset, content.length));
      return blocks;
    },
    dropFrom(index, detail) {
      const offset = recordOffsets[index];
      if (offset === undefined || index >= recordOffsets.length - 1) throw new BlockLogError(`the log read no block ${index}`);
      const content = readFileSync(blocksPath);
      const line = content.subarray(0, offset).reduce((count, byte) => count + (byte === NEWLINE ? 1 : 0), 1);
      dropTail(content, offset, { reason: 'rejected', line, keptRecords: index, detail });
      recordOffsets = recordOffsets.slice(0, index + 1);
    },
    append(block) {
      ensureOpen();
      writeSync(fd!, blockLogLine(stringifyJson(blockToRpcSubmission(block))));
      unsynced = true;
    },
    flush,
    dropThrough(blueScore) {
      flush();
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
      if (!existsSync(blocksPath)) return 0;
      const kept = readFileSync(blocksPath, 'utf8')
        .split('\n')
        .filter((line) => line !== '' && BigInt(BLUE_SCORE_FIELD.exec(line)?.[1] ?? '0') > blueScore);
      writeDurably(blocksPath, kept.map((line) => `${line}\n`).join(''));
      return kept.length;
    },
    close() {
      if (closed) return;
      flush();
      if (timer !== undefined) clearInterval(timer);
      if (fd !== undefined) closeSync(fd);
      closed = true;
    },
  };
}
