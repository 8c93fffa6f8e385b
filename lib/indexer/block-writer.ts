/**
 * Writes node blocks into the index in batches of `maxBlocks`, up to `parallelWrites` batches committing at once.
 * Inputs resolve against the batches before them and the index. Invariants: every write is idempotent (a block stored
 * before an eviction from the known blocks is simply written again); two batches carrying the same transaction never
 * commit at once (they would upsert the same rows, and a statement's snapshot would not show it the other's rows, a
 * block time moved earlier or a spender completed, until that one commits); callers flush before reading what was
 * stored.
 */
import { insertBlocks, insertTransactions, type Db } from '../db';
import type { AddressPrefix } from '../kaspa/address';
import { bytesToHex } from '../kaspa/bytes';
import type { RpcBlock } from '../rpc';
import { convertBlock } from './convert';
import type { IndexWrites } from './index-writes';
import { storedBlockOf, type KnownBlocks } from './known-blocks';
import type { InputResolver } from './resolve';

export interface BlockWriter {
  /** Starts writing the blocks not known to be stored; resolves once the last batch is on its way. */
  store(blocks: readonly RpcBlock[]): Promise<void>;
  /** Waits for every batch on its way; throws the first failure. */
  flush(): Promise<void>;
  /** Whether the block is known stored or in a batch on its way. */
  stored(hash: string): boolean;
}

export interface BlockWriterOptions {
  db: Db;
  writes: IndexWrites;
  known: KnownBlocks;
  resolver: InputResolver;
  maxBlocks: number;
  parallelWrites: number;
  /** The node's address prefix (known once the indexer has started). */
  prefix: () => AddressPrefix;
  /** Called after each batch commits, with its block hashes (hex). */
  onBlocksStored?: (hashes: string[]) => void;
}

export function createBlockWriter(options: BlockWriterOptions): BlockWriter {
  const { db, writes: indexWrites, known, resolver } = options;
  /** Batches still committing (at most `parallelWrites`). */
  let writes: Promise<void>[] = [];
  /** Blocks of the batches in `writes`: written already as far as the next batches are concerned. */
  const writing = new Set<string>();
  /** Transactions the batches in `writes` carry, with how many of those carry each. */
  const writingTransactions = new Map<string, number>();

  const release = (hashes: readonly string[], transactionIds: readonly string[]) => {
    for (const hash of hashes) writing.delete(hash);
    for (const id of transactionIds) {
      const count = writingTransactions.get(id)! - 1;
      if (count === 0) writingTransactions.delete(id);
      else writingTransactions.set(id, count);
    }
  };

  return {
    stored: (hash) => known.has(hash) || writing.has(hash),
    async flush() {
      const pending = writes;
      writes = [];
      const failed = (await Promise.allSettled(pending)).find((result) => result.status === 'rejected');
      if (failed) throw failed.reason;
    },
    async store(blocks) {
      const seen = new Set<string>();
      const toStore = blocks.filter((block) => {
        const hash = block.header.hash;
        if (seen.has(hash) || known.has(hash) || writing.has(hash)) return false;
        seen.add(hash);
        return true;
      });
      for (let start = 0; start < toStore.length; start += options.maxBlocks) {
        const converted = toStore.slice(start, start + options.maxBlocks).map((block) => convertBlock(block, options.prefix()));
        const transactions = await resolver.resolve(db, converted.flatMap((item) => item.transactions));
        const hashes = converted.map((item) => bytesToHex(item.block.hash));
        const transactionIds = transactions.map((transaction) => bytesToHex(transaction.transactionId));
        if (transactionIds.some((id) => writingTransactions.has(id))) await Promise.allSettled(writes);
        if (writes.length >= options.parallelWrites) await Promise.race(writes);
        for (const hash of hashes) writing.add(hash);
        for (const id of transactionIds) writingTransactions.set(id, (writingTransactions.get(id) ?? 0) + 1);
        const write = indexWrites
          .transaction(async (tx) => {
            const events = await indexWrites.blockEvents(tx, converted, transactions);
            await insertBlocks(tx, converted.map((item) => item.block));
            await insertTransactions(tx, transactions);
            return indexWrites.appendEvents(tx, events);
          })
          .then((wrote) => {
            converted.forEach((item, position) => known.remember(hashes[position]!, storedBlockOf(item)));
            indexWrites.markBatch();
            options.onBlocksStored?.(hashes);
            indexWrites.announced(wrote);
          })
          .finally(() => {
            release(hashes, transactionIds);
            writes = writes.filter((pending) => pending !== write);
          });
        write.catch(() => undefined);
        writes.push(write);
      }
    },
  };
}
