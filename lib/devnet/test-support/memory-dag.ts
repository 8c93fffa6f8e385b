/**
 * An in-memory block DAG wiring GHOSTDAG, reachability and the DAA window together the way rusty-kaspa's
 * `TestConsensus::build_header_with_parents` does (consensus/src/consensus/test_consensus.rs): each new header gets
 * the DAA score and bits its window requires and, unless the test sets one, the timestamp past median time + 1.
 */
import { calcWork } from '../../kaspa/pow';
import { DifficultyManager, type DaaParams, type DaaStore } from '../consensus/difficulty';
import { GhostdagManager, blockIdOf, type BlockId, type GhostdagData, type GhostdagStore } from '../consensus/ghostdag';
import { Reachability } from '../consensus/reachability';

export interface BlockFields {
  timestamp: bigint;
  bits: number;
  daaScore: bigint;
}

export interface MemoryDagOptions {
  genesis: BlockId;
  k: number;
  /** 'unit': every block has work 1; 'bits': `calcWork(bits)` as in a node; or any work function. */
  work: 'unit' | 'bits' | ((block: BlockId) => bigint);
  genesisFields?: BlockFields;
  /** Without DAA params every header keeps the genesis bits, a zero timestamp and a zero DAA score. */
  daaParams?: DaaParams;
  windowCacheCapacity?: number;
}

const DEFAULT_GENESIS_FIELDS: BlockFields = { timestamp: 0n, bits: 0x207fffff, daaScore: 0n };

export class MemoryDag implements GhostdagStore, DaaStore {
  readonly genesis: BlockId;
  readonly reachability: Reachability;
  readonly ghostdagManager: GhostdagManager;
  readonly difficultyManager: DifficultyManager | undefined;
  /** Every block in insertion order, genesis first. */
  readonly blocks: BlockId[];
  private readonly parentsById = new Map<BlockId, readonly BlockId[]>();
  private readonly dataById = new Map<BlockId, GhostdagData>();
  private readonly fieldsById = new Map<BlockId, BlockFields>();

  constructor(options: MemoryDagOptions) {
    this.genesis = options.genesis;
    this.blocks = [options.genesis];
    const genesisFields = options.genesisFields ?? DEFAULT_GENESIS_FIELDS;
    this.reachability = new Reachability(options.genesis);
    this.ghostdagManager = new GhostdagManager({
      genesis: options.genesis,
      k: options.k,
      store: this,
      workOf:
        options.work === 'unit'
          ? () => 1n
          : options.work === 'bits'
            ? (block) => calcWork(this.bits(block))
            : options.work,
    });
    this.difficultyManager =
      options.daaParams === undefined
        ? undefined
        : new DifficultyManager({
            params: options.daaParams,
            genesis: { id: options.genesis, bits: genesisFields.bits },
            store: this,
            windowCacheCapacity: options.windowCacheCapacity,
          });
    this.parentsById.set(options.genesis, []);
    this.dataById.set(options.genesis, this.ghostdagManager.genesisGhostdagData());
    this.fieldsById.set(options.genesis, genesisFields);
  }

  addBlock(block: BlockId, parents: readonly BlockId[], timestamp?: bigint): GhostdagData {
    if (this.dataById.has(block)) throw new Error(`block ${block} already exists`);
    const data = this.ghostdagManager.ghostdag(parents);
    const fields = this.nextFields(data, timestamp);
    this.reachability.addBlock(block, data.selectedParent, [...data.mergesetBlues.slice(1), ...data.mergesetReds]);
    this.parentsById.set(block, [...parents]);
    this.dataById.set(block, data);
    this.fieldsById.set(block, fields);
    this.blocks.push(block);
    return data;
  }

  private nextFields(data: GhostdagData, timestamp: bigint | undefined): BlockFields {
    const manager = this.difficultyManager;
    if (manager === undefined) {
      return { ...DEFAULT_GENESIS_FIELDS, bits: this.bits(this.genesis), timestamp: timestamp ?? 0n };
    }
    const daaWindow = manager.blockDaaWindow(data);
    return {
      timestamp: timestamp ?? manager.pastMedianTime(data) + 1n,
      bits: manager.calculateDifficultyBits(data, daaWindow.window),
      daaScore: daaWindow.daaScore,
    };
  }

  parents(block: BlockId): readonly BlockId[] {
    return lookup(this.parentsById, block);
  }

  ghostdagData(block: BlockId): GhostdagData {
    return lookup(this.dataById, block);
  }

  isDagAncestorOf(ancestor: BlockId, block: BlockId): boolean {
    return this.reachability.isDagAncestorOf(ancestor, block);
  }

  fields(block: BlockId): BlockFields {
    return lookup(this.fieldsById, block);
  }

  timestamp(block: BlockId): bigint {
    return this.fields(block).timestamp;
  }

  bits(block: BlockId): number {
    return this.fields(block).bits;
  }

  daaScore(block: BlockId): bigint {
    return this.fields(block).daaScore;
  }
}

function lookup<T>(map: ReadonlyMap<BlockId, T>, block: BlockId): T {
  const value = map.get(block);
  if (value === undefined) throw new Error(`unknown block ${block}`);
  return value;
}

/** rusty-kaspa's test `string_to_hash`: the ASCII bytes of the id, right-padded with zeros to 32 bytes. */
export function idFromLabel(label: string): BlockId {
  const bytes = new TextEncoder().encode(label);
  if (bytes.length > 32) throw new Error(`label ${label} exceeds 32 bytes`);
  const hash = new Uint8Array(32);
  hash.set(bytes);
  return blockIdOf(hash);
}

/** rusty-kaspa's `Hash::from_u64_word`, how `new_unique()` names test blocks: the word little-endian in the last 8 bytes. */
export function idFromCounter(counter: number): BlockId {
  const hash = new Uint8Array(32);
  new DataView(hash.buffer).setBigUint64(24, BigInt(counter), true);
  return blockIdOf(hash);
}
