/**
 * The devnet's persistence: everything the node needs to come back after a restart, under one directory.
 *
 * Format (both files UTF-8 text, u64 values as bare JSON integers, hashes and bytes as lowercase hex):
 * - `genesis.json`: `{"format":1,"networkId":"devnet","timestamp":<ms>,"bits":<u32>,"toccataActivation":<u64|"never">}`,
 *   written once, fsync'd. The genesis depends on the node's start time and hash rate, so it is recorded rather than
 *   recomputed. A record without `toccataActivation` predates Toccata support: its chain ran Crescendo rules (never).
 *
 * A chain only replays under the rules it was mined with. When the node opens a directory whose recorded Toccata
 * activation differs from its own, both files move into `superseded-<ms>/` beside them (nothing is deleted) and the
 * node starts a fresh chain; `superseded` says so, for the node's log line.
 * - `blocks.jsonl`: one accepted block per line, in acceptance order (so every block's parents come before it), as
 *   the submitBlock form (`RpcRawBlock`: raw header plus transactions). Appended only; lines are buffered and written
 *   and fsync'd in batches (every `flushIntervalMs`, and on close), so a crash loses at most the last batch. A torn
 *   last line (no newline) is cut off when the log is opened.
 *
 * Everything else (GHOSTDAG data, UTXO set, indexes) is derived state: the node rebuilds it by replaying the blocks
 * through consensus validation. The mempool is not persisted; wallets re-submit.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, truncateSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { stringifyJson } from '../rpc/json';
import { isJsonObject, parseWireMessage } from '../rpc/protocol';
import type { RpcRawBlockInputForm } from '../rpc/types';
import type { Block } from './genesis';
import { blockFromRpc, blockToRpcSubmission } from '../rpc/convert-block';
import { FORK_NEVER } from './params';

export const BLOCK_LOG_FORMAT = 1;
const GENESIS_FILE = 'genesis.json';
const BLOCKS_FILE = 'blocks.jsonl';
const DEFAULT_FLUSH_INTERVAL_MS = 250;

export interface GenesisRecord {
  networkId: string;
  /** Milliseconds since the Unix epoch. */
  timestamp: bigint;
  bits: number;
  /** DAA score from which the chain runs Toccata (params.ts `FORK_NEVER`: never). */
  toccataActivation: bigint;
}

export interface BlockLogOptions {
  dir: string;
  flushIntervalMs?: number;
  /** The activation the node runs; a chain recorded under another one is set aside. Unchecked when absent. */
  toccataActivation?: bigint;
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
  /** The logged blocks in order, decoded; call once, before appending. */
  readBlocks(): Block[];
  append(block: Block): void;
  /** Writes and fsyncs buffered blocks now. */
  flush(): void;
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
  const { networkId, timestamp, bits, toccataActivation } = parsed;
  if (typeof networkId !== 'string' || (typeof timestamp !== 'bigint' && typeof timestamp !== 'number') || typeof bits !== 'number') {
    throw new BlockLogError(`${path} lacks networkId, timestamp or bits`);
  }
  return { networkId, timestamp: BigInt(timestamp), bits, toccataActivation: activationFromJson(path, toccataActivation) };
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
    superseded = { recordedActivation: genesis.toccataActivation, archivedTo: setAside(dir, [GENESIS_FILE, BLOCKS_FILE]) };
    genesis = undefined;
  }
  let pending: string[] = [];
  let fd: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const flush = () => {
    if (pending.length === 0 || fd === undefined) return;
    const text = pending.join('');
    pending = [];
    writeSync(fd, text);
    fsyncSync(fd);
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
        })}\n`,
      );
      genesis = { ...record };
    },
    readBlocks() {
      if (!existsSync(blocksPath)) return [];
      const text = readFileSync(blocksPath, 'utf8');
      const complete = text.lastIndexOf('\n') + 1;
      if (complete < text.length) truncateSync(blocksPath, Buffer.byteLength(text.slice(0, complete)));
      const blocks: Block[] = [];
      let lineNumber = 0;
      for (const line of text.slice(0, complete).split('\n')) {
        lineNumber++;
        if (line === '') continue;
        try {
          blocks.push(blockFromRpc(parseWireMessage(line) as unknown as RpcRawBlockInputForm));
        } catch (error) {
          throw new BlockLogError(`${blocksPath}:${lineNumber} is not a block: ${error instanceof Error ? error.message : error}`);
        }
      }
      return blocks;
    },
    append(block) {
      ensureOpen();
      pending.push(`${stringifyJson(blockToRpcSubmission(block))}\n`);
    },
    flush,
    close() {
      if (closed) return;
      flush();
      if (timer !== undefined) clearInterval(timer);
      if (fd !== undefined) closeSync(fd);
      closed = true;
    },
  };
}
