/**
 * What the indexer knows of stored blocks to follow the chain through them: selected parent, scores, timestamp and
 * merge set. Recently stored blocks stay in memory (bounded; the oldest is evicted first); a miss is read from the
 * database. Invariant: a block is remembered only once its row has committed, so a known block is a stored block.
 */
import { getStoredBlockLinks, type Queryable, type StoredBlockLinks } from '../db';
import { bytesToHex, hexToBytes } from '../kaspa/bytes';
import type { ConvertedBlock } from './convert';

export interface StoredBlock {
  selectedParent: string | null;
  blueScore: bigint;
  daaScore: bigint;
  timestamp: bigint;
  /** Blue and red merge set, selected parent included. */
  mergeSet: string[];
}

export interface KnownBlocks {
  /** Whether `hash` is in memory (a miss says nothing: it may be stored and evicted). */
  has(hash: string): boolean;
  /** Records a block whose row has committed. */
  remember(hash: string, block: StoredBlock): void;
  /** The stored blocks among `hashes` (from memory, else from the database). */
  lookUp(hashes: readonly string[]): Promise<Map<string, StoredBlock>>;
}

/** The one mapping to a StoredBlock, from a block's links as stored or as about to be stored. */
function storedBlockFrom(links: Omit<StoredBlockLinks, 'hash'>): StoredBlock {
  return {
    selectedParent: links.selectedParentHash && bytesToHex(links.selectedParentHash),
    blueScore: links.blueScore,
    daaScore: links.daaScore,
    timestamp: links.timestamp,
    mergeSet: [...links.mergeSetBlues, ...links.mergeSetReds].map(bytesToHex),
  };
}

export function storedBlockOf({ block }: ConvertedBlock): StoredBlock {
  const { header, selectedParentHash, mergeSetBlues, mergeSetReds } = block;
  return storedBlockFrom({ ...header, selectedParentHash, mergeSetBlues, mergeSetReds });
}

export function createKnownBlocks(db: Queryable, capacity: number): KnownBlocks {
  const known = new Map<string, StoredBlock>();

  const remember = (hash: string, block: StoredBlock) => {
    known.delete(hash);
    known.set(hash, block);
    while (known.size > capacity) {
      const oldest = known.keys().next();
      if (oldest.done) break;
      known.delete(oldest.value);
    }
  };

  return {
    has: (hash) => known.has(hash),
    remember,
    async lookUp(hashes) {
      const found = new Map<string, StoredBlock>();
      const missing: string[] = [];
      for (const hash of new Set(hashes)) {
        const block = known.get(hash);
        if (block) found.set(hash, block);
        else missing.push(hash);
      }
      if (missing.length === 0) return found;
      for (const row of await getStoredBlockLinks(db, missing.map(hexToBytes))) {
        const hash = bytesToHex(row.hash);
        const block = storedBlockFrom(row);
        remember(hash, block);
        found.set(hash, block);
      }
      return found;
    },
  };
}
