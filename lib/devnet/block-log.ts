/**
 * The devnet's persistence: everything the node needs to come back after a restart, under one directory.
 *
 * Format (both files UTF-8 text, u64 values as bare JSON integers, hashes and bytes as lowercase hex):
 * - `genesis.json`: `{"format":1,"networkId":"devnet","timestamp":<ms>,"bits":<u32>}`, written once, fsync'd. The
 *   genesis depends on the node's start time and hash rate, so it is recorded rather than recomputed.
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

export const BLOCK_LOG_FORMAT = 1;
const GENESIS_FILE = 'genesis.json';
const BLOCKS_FILE = 'blocks.jsonl';
const DEFAULT_FLUSH_INTERVAL_MS = 250;

export interface GenesisRecord {
  networkId: string;
  /** Milliseconds since the Unix epoch. */
  timestamp: bigint;
  bits: number;
}

export interface BlockLogOptions {
  dir: string;
  flushIntervalMs?: number;
}

export interface BlockLog {
  readonly dir: string;
  /** The recorded genesis, or undefined for a new directory. */
  readonly genesis: GenesisRecord | undefined;
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
  const { networkId, timestamp, bits } = parsed;
  if (typeof networkId !== 'string' || (typeof timestamp !== 'bigint' && typeof timestamp !== 'number') || typeof bits !== 'number') {
    throw new BlockLogError(`${path} lacks networkId, timestamp or bits`);
  }
  return { networkId, timestamp: BigInt(timestamp), bits };
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
    writeGenesis(record) {
      if (genesis !== undefined) throw new BlockLogError(`${genesisPath} already records a genesis`);
      writeDurably(
        genesisPath,
        `${stringifyJson({ format: BLOCK_LOG_FORMAT, networkId: record.networkId, timestamp: record.timestamp, bits: record.bits })}\n`,
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
