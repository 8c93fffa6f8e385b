import {
  appendStreamEvents,
  applyVirtualChainChange,
  commitAsynchronously,
  getStoredBlockLinks,
  insertBlocks,
  insertIndexGap,
  insertTransactions,
  readChainBlockAtDepth,
  readChainBlocksAbove,
  readCheckpoint,
  readIndexGaps,
  setChainBlockFlags,
  writeCheckpoint,
  type ChainBlockAcceptance,
  type Checkpoint,
  type Db,
  type IndexGap,
  type NewStreamEvent,
  type Queryable,
  DEFAULT_CHECKPOINT_NAME,
} from '../db';
import type { AddressPrefix } from '../kaspa/address';
import { bytesToHex, hexToBytes } from '../kaspa/bytes';
import type { RpcBlock, RpcClient, RpcNotifications, Unsubscribe } from '../rpc';
import { addressPrefixOf, convertBlock, type ConvertedBlock } from './convert';
import { newestKnownChainBlock, nodeKnowsBlock } from './recover';
import { createInputResolver } from './resolve';
import { createStreamAnnouncer, type AnnouncedChainStep } from './stream-announcer';

export interface IndexerBatchSettings {
  /** Blocks written per database transaction. */
  maxBlocks: number;
  /**
   * Batches committing at once, each on its own connection: while PostgreSQL writes one, the next is converted and
   * sent. Block rows carry no checkpoint, so their commit order is free; the checkpoint moves only after all commit.
   */
  parallelWrites: number;
  /**
   * PostgreSQL only: commit batches with `synchronous_commit = off`. Safe for the index: a batch and its checkpoint
   * commit together, so a crash loses at most the last batches, which the next start fetches again.
   */
  asynchronousCommit: boolean;
}

export interface IndexerOptions {
  rpc: RpcClient;
  db: Db;
  log?: (line: string) => void;
  /** Milliseconds since the Unix epoch (lastBatchAt). */
  clock?: () => number;
  batch?: Partial<IndexerBatchSettings>;
  /** How often the node's virtual DAA score and sink are polled for the lag. */
  nodePollIntervalMs?: number;
  /** Wait after a failed round before catching up again; doubles with each further failure, up to 30 s. */
  retryDelayMs?: number;
  /** Several indexes could share one database under different names (tests use this). */
  checkpointName?: string;
  /** Called after each batch of blocks commits, with their hashes (hex); bench/indexer.ts measures lag with it. */
  onBlocksStored?: (hashes: string[]) => void;
  /**
   * The stream event log (stream-announcer.ts): changes to blocks younger than this many ms are announced; null
   * announces nothing. One hour unless set.
   */
  streamEventWindowMs?: number | null;
  /** Called after a transaction that wrote stream events commits (in-process subscribers poll at once). */
  onStreamEvents?: () => void;
}

export interface IndexerStatus {
  /** Caught up with the node and following its notifications. */
  ready: boolean;
  phase: 'stopped' | 'starting' | 'catching-up' | 'following' | 'retrying';
  nodeVirtualDaaScore: bigint | null;
  /** DAA score of the last chain block whose acceptance is stored (the checkpoint). */
  indexedDaaScore: bigint | null;
  /** Node sink's timestamp minus the checkpoint block's timestamp, in seconds; null until both are known. */
  lagSeconds: number | null;
  /** Milliseconds since the Unix epoch. */
  lastBatchAt: number | null;
  lastError: string | null;
  /** Times the node did not know the checkpoint and the index walked back to a chain block it knows. */
  recoveries: number;
  /** Stretches of the chain the index lacks (the node knew none of the stored chain), oldest first. */
  gaps: IndexGap[];
  /** What the operator should know about the last recovery or gap, with the remedy; null when there is nothing. */
  notice: string | null;
}

export interface Indexer {
  start(): Promise<void>;
  stop(): Promise<void>;
  status(): IndexerStatus;
  /** Resolves once the indexer has caught up (or rejects after `timeoutMs`). */
  whenReady(timeoutMs?: number): Promise<void>;
}

export const DEFAULT_STREAM_EVENT_WINDOW_MS = 3_600_000;

/** Blocks requested ahead of the batch being stored during a catch-up. */
const FETCH_AHEAD = 100;

const DEFAULTS = {
  maxBlocks: 100,
  parallelWrites: 2,
  nodePollIntervalMs: 2_000,
  retryDelayMs: 1_000,
  maxRetryDelayMs: 30_000,
  knownBlocks: 50_000,
  /** A catch-up that keeps finding chain blocks it has not stored gives up after this many rounds and retries. */
  maxCatchUpRounds: 20,
} as const;

/** What the indexer needs to know about a stored block to follow the chain through it. */
interface StoredBlock {
  selectedParent: string | null;
  blueScore: bigint;
  daaScore: bigint;
  timestamp: bigint;
  /** Blue and red merge set, selected parent included. */
  mergeSet: string[];
}

type IndexerEvent =
  | { kind: 'block'; block: RpcBlock }
  | { kind: 'chain'; change: RpcNotifications['VirtualChainChanged']; received: number }
  | { kind: 'resync' };

interface ChainStep {
  removed: string[];
  added: string[];
  accepted: Map<string, string[]>;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function createIndexer(options: IndexerOptions): Indexer {
  const { rpc, db } = options;
  const log = options.log ?? (() => undefined);
  const clock = options.clock ?? Date.now;
  const settings: IndexerBatchSettings = {
    maxBlocks: options.batch?.maxBlocks ?? DEFAULTS.maxBlocks,
    parallelWrites: options.batch?.parallelWrites ?? DEFAULTS.parallelWrites,
    asynchronousCommit: options.batch?.asynchronousCommit ?? true,
  };
  const checkpointName = options.checkpointName ?? DEFAULT_CHECKPOINT_NAME;
  const resolver = createInputResolver();
  const eventWindowMs = options.streamEventWindowMs === undefined ? DEFAULT_STREAM_EVENT_WINDOW_MS : options.streamEventWindowMs;
  const announcer = eventWindowMs === null ? null : createStreamAnnouncer({ windowMs: eventWindowMs, clock });
  /** Appends the events in `tx`; returns whether there were any (the caller tells onStreamEvents after the commit). */
  const announce = async (tx: Queryable, events: readonly NewStreamEvent[]): Promise<boolean> => {
    await appendStreamEvents(tx, events, clock());
    return events.length > 0;
  };
  const announced = (wrote: boolean) => {
    if (wrote) options.onStreamEvents?.();
  };
  /** A chain change made in `tx`, announced when its newest block is recent. */
  const announceChain = async (tx: Queryable, steps: readonly AnnouncedChainStep[], timestamp: bigint): Promise<boolean> =>
    announcer === null ? false : announce(tx, await announcer.chain(tx, steps, timestamp));

  /** Recently stored blocks (bounded, oldest evicted); misses are looked up in the database. */
  const known = new Map<string, StoredBlock>();
  let prefix: AddressPrefix | undefined;
  let checkpoint: Checkpoint | null = null;
  let checkpointTimestamp: bigint | null = null;
  let nodeVirtualDaaScore: bigint | null = null;
  let nodeSinkTimestamp: bigint | null = null;
  let lastBatchAt: number | null = null;
  let lastError: string | null = null;
  let phase: IndexerStatus['phase'] = 'stopped';
  let caughtUp = false;
  let recoveries = 0;
  let gaps: IndexGap[] = [];
  let notice: string | null = null;

  let running = false;
  let queue: IndexerEvent[] = [];
  let wake: (() => void) | undefined;
  let loop: Promise<void> | undefined;
  let pollTimer: NodeJS.Timeout | undefined;
  let unsubscribes: Unsubscribe[] = [];
  let stopStateListener: (() => void) | undefined;
  const readyWaiters = new Set<() => void>();

  /** Count of chain notifications received; a catch-up covers those received before its last chain request. */
  let chainNotifications = 0;
  let coveredChainNotifications = 0;

  const push = (event: IndexerEvent) => {
    queue.push(event);
    wake?.();
  };

  const remember = (hash: string, block: StoredBlock) => {
    known.delete(hash);
    known.set(hash, block);
    while (known.size > DEFAULTS.knownBlocks) {
      const oldest = known.keys().next();
      if (oldest.done) break;
      known.delete(oldest.value);
    }
  };

  const storedBlockOf = ({ block }: ConvertedBlock): StoredBlock => ({
    selectedParent: block.selectedParentHash && bytesToHex(block.selectedParentHash),
    blueScore: block.header.blueScore,
    daaScore: block.header.daaScore,
    timestamp: block.header.timestamp,
    mergeSet: [...block.mergeSetBlues, ...block.mergeSetReds].map(bytesToHex),
  });

  /** The stored blocks among `hashes` (from memory, else from the database). */
  const lookUp = async (hashes: readonly string[]): Promise<Map<string, StoredBlock>> => {
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
      const block: StoredBlock = {
        selectedParent: row.selectedParentHash && bytesToHex(row.selectedParentHash),
        blueScore: row.blueScore,
        daaScore: row.daaScore,
        timestamp: row.timestamp,
        mergeSet: [...row.mergeSetBlues, ...row.mergeSetReds].map(bytesToHex),
      };
      remember(hash, block);
      found.set(hash, block);
    }
    return found;
  };

  const batchTransaction = <T>(fn: (tx: Queryable) => Promise<T>): Promise<T> =>
    db.transaction(async (tx) => {
      if (db.kind === 'postgres' && settings.asynchronousCommit) await commitAsynchronously(tx);
      return fn(tx);
    });

  const setCheckpoint = (next: Checkpoint, timestamp: bigint) => {
    checkpoint = next;
    checkpointTimestamp = timestamp;
    lastBatchAt = clock();
  };

  /** Batches of blocks still committing (at most `parallelWrites`); `flushWrites` waits for all of them. */
  let writes: Promise<void>[] = [];
  /** Blocks of the batches in `writes`: written already as far as the next batches are concerned. */
  const writing = new Set<string>();
  /**
   * Transactions the batches in `writes` carry, with how many of those carry each. A batch carrying one of them
   * waits for them all: the two would upsert the same rows, and a statement's snapshot would not show it the other's
   * rows (a block time moved earlier, a spender completed) until that one commits.
   */
  const writingTransactions = new Map<string, number>();

  const flushWrites = async (): Promise<void> => {
    const pending = writes;
    writes = [];
    const failed = (await Promise.allSettled(pending)).find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
  };

  /**
   * Stores the blocks not known to be stored, in batches of `maxBlocks` (a block stored before an eviction from
   * `known` is simply written again: every write is idempotent), up to `parallelWrites` batches committing at once.
   * Inputs resolve against the batches before them and the index. Callers flush before reading what was stored.
   */
  const storeBlocks = async (blocks: readonly RpcBlock[]): Promise<void> => {
    const seen = new Set<string>();
    const toStore = blocks.filter((block) => {
      const hash = block.header.hash;
      if (seen.has(hash) || known.has(hash) || writing.has(hash)) return false;
      seen.add(hash);
      return true;
    });
    for (let start = 0; start < toStore.length; start += settings.maxBlocks) {
      const converted = toStore.slice(start, start + settings.maxBlocks).map((block) => convertBlock(block, prefix!));
      const transactions = await resolver.resolve(db, converted.flatMap((item) => item.transactions));
      const hashes = converted.map((item) => bytesToHex(item.block.hash));
      const transactionIds = transactions.map((transaction) => bytesToHex(transaction.transactionId));
      if (transactionIds.some((id) => writingTransactions.has(id))) await Promise.allSettled(writes);
      if (writes.length >= settings.parallelWrites) await Promise.race(writes);
      for (const hash of hashes) writing.add(hash);
      for (const id of transactionIds) writingTransactions.set(id, (writingTransactions.get(id) ?? 0) + 1);
      const write = batchTransaction(async (tx) => {
        const events = announcer === null ? [] : await announcer.blocks(tx, converted, transactions);
        await insertBlocks(tx, converted.map((item) => item.block));
        await insertTransactions(tx, transactions);
        return announce(tx, events);
      })
        .then((wrote) => {
          converted.forEach((item, position) => remember(hashes[position]!, storedBlockOf(item)));
          lastBatchAt = clock();
          options.onBlocksStored?.(hashes);
          announced(wrote);
        })
        .finally(() => {
          for (const hash of hashes) writing.delete(hash);
          for (const id of transactionIds) {
            const count = writingTransactions.get(id)! - 1;
            if (count === 0) writingTransactions.delete(id);
            else writingTransactions.set(id, count);
          }
          writes = writes.filter((pending) => pending !== write);
        });
      write.catch(() => undefined);
      writes.push(write);
    }
  };

  /**
   * Stores the node's pruning point as a chain block and makes it the checkpoint, with `alongside` in the same
   * transaction. Returns the pruning point's converted block.
   */
  const startAtPruningPoint = async (
    pruningPointHash: string,
    alongside: (tx: Queryable, pruningPoint: ConvertedBlock) => Promise<void> = async () => undefined,
  ): Promise<ConvertedBlock> => {
    const { block } = await rpc.call('getBlock', { hash: pruningPointHash, includeTransactions: true });
    const converted = convertBlock(block, prefix!);
    converted.block.isChainBlock = true;
    const next: Checkpoint = {
      name: checkpointName,
      blockHash: converted.block.hash,
      blueScore: converted.block.header.blueScore,
      daaScore: converted.block.header.daaScore,
    };
    await batchTransaction(async (tx) => {
      await alongside(tx, converted);
      await insertBlocks(tx, [converted.block]);
      // A pruning point stored before as a block off the chain keeps its row: only its flag changes.
      await setChainBlockFlags(tx, [converted.block.hash], true);
      await insertTransactions(tx, await resolver.resolve(tx, converted.transactions));
      await writeCheckpoint(tx, next);
    });
    remember(pruningPointHash, storedBlockOf(converted));
    setCheckpoint(next, converted.block.header.timestamp);
    return converted;
  };

  /** The first start on an empty index begins at the node's pruning point (genesis on a young network). */
  const bootstrap = async (): Promise<void> => {
    const dag = await rpc.call('getBlockDagInfo', {});
    await startAtPruningPoint(dag.pruningPointHash);
    log(`indexing from the pruning point ${dag.pruningPointHash}`);
  };

  /**
   * The node does not know the checkpoint. A synced node that knows a stored chain block below it: everything above
   * that block leaves the chain exactly as in a reorganisation, and the catch-up continues from it. A synced node
   * that knows none: the gap is recorded and indexing resumes at its pruning point; stored chain blocks at or above
   * the pruning point's position (a different chain) leave the chain, those below stay served. A node still syncing
   * is waited for (its chain may yet reach the checkpoint): the round fails and retries with backoff.
   */
  const recoverCheckpoint = async (): Promise<void> => {
    const lost = checkpoint!;
    const lostHash = bytesToHex(lost.blockHash);
    const info = await rpc.call('getInfo', {});
    if (!info.isSynced) throw new Error(`the node does not know the checkpoint ${lostHash} and is not synced; waiting for it to sync`);
    const known = await newestKnownChainBlock(rpc, db, lost);
    if (known !== null) {
      const removed = await readChainBlocksAbove(db, known.block);
      const next: Checkpoint = {
        name: checkpointName,
        blockHash: known.block.hash,
        blueScore: known.block.blueScore,
        daaScore: known.block.daaScore,
      };
      const wrote = await batchTransaction(async (tx) => {
        const removedHashes = removed.map((block) => block.hash);
        const dropped = await applyVirtualChainChange(tx, { removedChainBlockHashes: removedHashes, added: [] });
        await writeCheckpoint(tx, next);
        return announceChain(tx, [{ removed: removedHashes.map(bytesToHex), added: [], lost: dropped }], BigInt(clock()));
      });
      announced(wrote);
      setCheckpoint(next, known.block.timestamp);
      recoveries += 1;
      notice =
        `the node did not know the checkpoint ${lostHash} (DAA score ${lost.daaScore}); the index walked back to ` +
        `chain block ${bytesToHex(known.block.hash)} (DAA score ${known.block.daaScore}), undid ${removed.length} ` +
        `chain block(s) above it as a reorganisation and caught up from there`;
      log(`indexer: ${notice}`);
      return;
    }
    const dag = await rpc.call('getBlockDagInfo', {});
    let gap: Omit<IndexGap, 'detectedAt'> | undefined;
    let wroteEvents = false;
    const pruningPoint = await startAtPruningPoint(dag.pruningPointHash, async (tx, { block }) => {
      const position = { daaScore: block.header.daaScore, blueScore: block.header.blueScore };
      const replaced = await readChainBlocksAbove(tx, position, true);
      const replacedHashes = replaced.map((stored) => stored.hash);
      const dropped = await applyVirtualChainChange(tx, { removedChainBlockHashes: replacedHashes, added: [] });
      wroteEvents = await announceChain(tx, [{ removed: replacedHashes.map(bytesToHex), added: [], lost: dropped }], BigInt(clock()));
      const lastKept = await readChainBlockAtDepth(tx, position, 0);
      gap = {
        reason: position.daaScore > lost.daaScore ? 'pruned' : 'different-chain',
        lostCheckpointHash: lost.blockHash,
        lostCheckpointDaaScore: lost.daaScore,
        lastKeptHash: lastKept?.hash ?? null,
        lastKeptDaaScore: lastKept?.daaScore ?? null,
        resumedHash: block.hash,
        resumedDaaScore: block.header.daaScore,
        replacedChainBlocks: replaced.length,
      };
      await insertIndexGap(tx, checkpointName, gap);
    });
    announced(wroteEvents);
    gaps = await readIndexGaps(db, checkpointName);
    const resumed = `${bytesToHex(pruningPoint.block.hash)} (DAA score ${pruningPoint.block.header.daaScore})`;
    notice =
      gap!.reason === 'pruned'
        ? `the node no longer knows any indexed chain block (its pruning point passed the index at DAA score ` +
          `${lost.daaScore}); indexing resumed at its pruning point ${resumed}, and the index lacks the chain between. ` +
          'Stored history stays served. To fill the gap, index from an archival node into an empty database.'
        : `the node knows none of the indexed chain blocks (a different chain, or a node resynced from scratch); ` +
          `indexing resumed at its pruning point ${resumed}, and ${gap!.replacedChainBlocks} stored chain block(s) at ` +
          'or above it left the chain. To index this node alone, point the app at an empty database.';
    log(`indexer: ${notice}`);
  };

  /**
   * getBlocks (hashes and verbose data only) from the checkpoint until the sink: each page holds the merge sets of the
   * chain blocks after `lowHash` and ends with the highest chain block reached (plus the sink's anticone on the last
   * page). The next page is requested while the current one's blocks are fetched and written.
   */
  const storeBlocksFromCheckpoint = async (): Promise<void> => {
    try {
      await fetchAndStorePages();
    } finally {
      await flushWrites();
    }
  };

  const fetchAndStorePages = async (): Promise<void> => {
    let lowHash = bytesToHex(checkpoint!.blockHash);
    const fetchPage = (low: string) => rpc.call('getBlocks', { lowHash: low, includeBlocks: true, includeTransactions: false });
    let next = fetchPage(lowHash);
    for (;;) {
      const page = await next;
      const highest = page.blocks.filter((block) => block.verboseData?.isChainBlock === true).at(-1)?.header.hash;
      const advanced = highest !== undefined && highest !== lowHash;
      if (advanced) {
        next = fetchPage(highest);
        next.catch(() => undefined);
      }
      await fetchAndStoreBlocks(page.blocks.map((block) => block.header.hash).filter((hash) => !known.has(hash) && !writing.has(hash)));
      if (!advanced) return;
      lowHash = highest;
    }
  };

  /**
   * A page names up to a merge set limit of blocks (tens of thousands of transactions at mainnet peaks): read whole,
   * the node's encoding, the decoding here and the database writes would take turns. Fetched block by block with
   * `FETCH_AHEAD` requests in flight, each batch is stored while the next ones travel.
   */
  const fetchAndStoreBlocks = async (hashes: readonly string[]): Promise<void> => {
    const requests: Promise<RpcBlock>[] = [];
    const requestUpTo = (end: number) => {
      for (let index = requests.length; index < Math.min(end, hashes.length); index++) {
        const request = rpc.call('getBlock', { hash: hashes[index]!, includeTransactions: true }).then(({ block }) => block);
        request.catch(() => undefined);
        requests.push(request);
      }
    };
    for (let start = 0; start < hashes.length; start += settings.maxBlocks) {
      requestUpTo(start + settings.maxBlocks + FETCH_AHEAD);
      await storeBlocks(await Promise.all(requests.slice(start, start + settings.maxBlocks)));
    }
  };

  /**
   * The longest prefix of `added` that can be applied: each block stored, and its merge set stored, so that the
   * checkpoint never passes a block the index lacks.
   */
  const applicablePrefix = async (added: readonly string[]): Promise<string[]> => {
    const blocks = await lookUp(added);
    const mergeSets = await lookUp(added.flatMap((hash) => blocks.get(hash)?.mergeSet ?? []));
    const prefixLength = added.findIndex((hash) => {
      const block = blocks.get(hash);
      return block === undefined || !block.mergeSet.every((member) => mergeSets.has(member));
    });
    return prefixLength < 0 ? [...added] : added.slice(0, prefixLength);
  };

  /** Applies removals and additions with the new checkpoint in one transaction (all steps continue each other). */
  const applyChainSteps = async (steps: readonly ChainStep[]): Promise<void> => {
    const last = steps.at(-1)?.added.at(-1);
    if (last === undefined) return;
    const lastBlock = (await lookUp([last])).get(last)!;
    const next: Checkpoint = {
      name: checkpointName,
      blockHash: hexToBytes(last),
      blueScore: lastBlock.blueScore,
      daaScore: lastBlock.daaScore,
    };
    const wrote = await batchTransaction(async (tx) => {
      const applied: AnnouncedChainStep[] = [];
      for (const step of steps) {
        const added: ChainBlockAcceptance[] = step.added.map((hash) => ({
          acceptingBlockHash: hexToBytes(hash),
          acceptedTransactionIds: (step.accepted.get(hash) ?? []).map(hexToBytes),
        }));
        const lost = await applyVirtualChainChange(tx, { removedChainBlockHashes: step.removed.map(hexToBytes), added });
        applied.push({
          removed: step.removed,
          added: step.added.map((hash) => ({ hash, acceptedTransactionIds: step.accepted.get(hash) ?? [] })),
          lost,
        });
      }
      await writeCheckpoint(tx, next);
      return announceChain(tx, applied, lastBlock.timestamp);
    });
    announced(wrote);
    setCheckpoint(next, lastBlock.timestamp);
  };

  const acceptedByBlock = (change: RpcNotifications['VirtualChainChanged']) =>
    new Map(change.acceptedTransactionIds.map((entry) => [entry.acceptingBlockHash, entry.acceptedTransactionIds]));

  /**
   * getVirtualChainFromBlock from the checkpoint until it reports nothing new. Returns false when the node's chain
   * reaches blocks not stored yet (they arrived after the blocks were fetched): the caller fetches blocks again.
   * On success, every chain notification received before the last request is covered: the node answered it from a
   * state at least as new, so those notifications are skipped instead of each starting another catch-up.
   */
  const followChainFromCheckpoint = async (): Promise<boolean> => {
    for (;;) {
      const receivedBefore = chainNotifications;
      const change = await rpc.call('getVirtualChainFromBlock', {
        startHash: bytesToHex(checkpoint!.blockHash),
        includeAcceptedTransactionIds: true,
      });
      const accepted = acceptedByBlock(change);
      const withAcceptance = change.addedChainBlockHashes.filter((hash) => accepted.has(hash));
      if (withAcceptance.length === 0) {
        if (change.addedChainBlockHashes.length > 0) return false;
        coveredChainNotifications = receivedBefore;
        return true;
      }
      const applicable = await applicablePrefix(withAcceptance);
      if (applicable.length === 0) return false;
      await applyChainSteps([{ removed: change.removedChainBlockHashes, added: applicable, accepted }]);
      if (applicable.length < withAcceptance.length) return false;
    }
  };

  const catchUp = async (): Promise<void> => {
    phase = 'catching-up';
    if (!(await nodeKnowsBlock(rpc, bytesToHex(checkpoint!.blockHash)))) await recoverCheckpoint();
    for (let round = 0; round < DEFAULTS.maxCatchUpRounds; round++) {
      await storeBlocksFromCheckpoint();
      if (await followChainFromCheckpoint()) {
        caughtUp = true;
        phase = 'following';
        for (const resolve of readyWaiters) resolve();
        readyWaiters.clear();
        return;
      }
    }
    throw new Error(`the node's chain kept reaching unstored blocks for ${DEFAULTS.maxCatchUpRounds} rounds`);
  };

  /**
   * A notification continues the chain ending at `tip` when it removes from `tip` down and its first added block
   * sits on what remains; anything else (a notification older than a catch-up, or one after a lost notification)
   * is answered by a catch-up instead.
   */
  const continues = async (change: RpcNotifications['VirtualChainChanged'], tip: string): Promise<boolean> => {
    const first = change.addedChainBlockHashes[0];
    const removed = change.removedChainBlockHashes;
    const lowestRemoved = removed.at(-1);
    if (first === undefined || (lowestRemoved !== undefined && removed[0] !== tip)) return false;
    const blocks = await lookUp(lowestRemoved === undefined ? [first] : [first, lowestRemoved]);
    const base = lowestRemoved === undefined ? tip : blocks.get(lowestRemoved)?.selectedParent;
    return base !== undefined && blocks.get(first)?.selectedParent === base;
  };

  /** Live batches: the blocks of every queued BlockAdded, then the queued chain changes with one checkpoint. */
  const processEvents = async (events: readonly IndexerEvent[]): Promise<void> => {
    try {
      await storeBlocks(events.flatMap((event) => (event.kind === 'block' ? [event.block] : [])));
    } finally {
      await flushWrites();
    }
    if (events.some((event) => event.kind === 'resync')) {
      await catchUp();
      return;
    }
    const steps: ChainStep[] = [];
    let tip = bytesToHex(checkpoint!.blockHash);
    for (const event of events) {
      if (event.kind !== 'chain' || event.received <= coveredChainNotifications) continue;
      const { change } = event;
      // kaspad notifies every virtual resolution, also one that left the selected chain as it was.
      if (change.addedChainBlockHashes.length === 0 && change.removedChainBlockHashes.length === 0) continue;
      if (change.addedChainBlockHashes.at(-1) === tip) continue;
      const added = await applicablePrefix(change.addedChainBlockHashes);
      if (added.length < change.addedChainBlockHashes.length || !(await continues(change, tip))) {
        await applyChainSteps(steps);
        await catchUp();
        return;
      }
      steps.push({ removed: change.removedChainBlockHashes, added, accepted: acceptedByBlock(change) });
      tip = added.at(-1)!;
    }
    await applyChainSteps(steps);
  };

  /** The checkpoint at the previous poll, while the node's sink was elsewhere. */
  let stalledAt: string | undefined;

  /**
   * Polls the node for the lag. A node whose sink moves on while the checkpoint stays put over a whole poll interval
   * with nothing queued is not notifying this indexer (a lost subscription): it catches up instead.
   */
  const pollNode = async (): Promise<void> => {
    try {
      const dag = await rpc.call('getBlockDagInfo', {});
      nodeVirtualDaaScore = dag.virtualDaaScore;
      const current = checkpoint && bytesToHex(checkpoint.blockHash);
      const behind = caughtUp && queue.length === 0 && current !== null && current !== dag.sink;
      if (behind && stalledAt === current) {
        log(`indexer: no notification moved the index past ${current} while the node's sink moved; catching up`);
        push({ kind: 'resync' });
      }
      stalledAt = behind ? (current ?? undefined) : undefined;
      const { block } = await rpc.call('getBlock', { hash: dag.sink, includeTransactions: false });
      nodeSinkTimestamp = block.header.timestamp;
    } catch (error) {
      lastError = describe(error);
    }
  };

  const observeBlock = (block: RpcBlock) => {
    if (nodeVirtualDaaScore === null || block.header.daaScore > nodeVirtualDaaScore) {
      nodeVirtualDaaScore = block.header.daaScore;
    }
    if (nodeSinkTimestamp === null || block.header.timestamp > nodeSinkTimestamp) {
      nodeSinkTimestamp = block.header.timestamp;
    }
  };

  /** Ends a retry wait early; only stop() does (notifications must not cut the backoff short). */
  let interruptSleep: (() => void) | undefined;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      interruptSleep = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  /** Consecutive failed rounds (e.g. a node that does not know the checkpoint: another network, or pruned past it). */
  let failures = 0;

  const run = async (): Promise<void> => {
    while (running) {
      if (queue.length === 0) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
        continue;
      }
      const events = queue;
      queue = [];
      try {
        await processEvents(events);
        lastError = null;
        failures = 0;
      } catch (error) {
        if (!running) return;
        lastError = describe(error);
        caughtUp = false;
        phase = 'retrying';
        const delay = Math.min(
          (options.retryDelayMs ?? DEFAULTS.retryDelayMs) * 2 ** failures,
          DEFAULTS.maxRetryDelayMs,
        );
        failures += 1;
        log(`indexer: ${lastError}; catching up again in ${delay} ms`);
        await sleep(delay);
        interruptSleep = undefined;
        queue.unshift({ kind: 'resync' });
      }
    }
  };

  const start = async (): Promise<void> => {
    if (running) return;
    running = true;
    phase = 'starting';
    try {
      const dag = await rpc.call('getBlockDagInfo', {});
      prefix = addressPrefixOf(dag.network);
      nodeVirtualDaaScore = dag.virtualDaaScore;
      stopStateListener = rpc.onStateChange((change) => {
        if (change.state === 'open' && change.previous !== 'open') push({ kind: 'resync' });
        if (change.state !== 'open') caughtUp = false;
      });
      unsubscribes = await Promise.all([
        rpc.subscribe('BlockAdded', {}, ({ block }) => {
          observeBlock(block);
          push({ kind: 'block', block });
        }),
        rpc.subscribe('VirtualChainChanged', { include_accepted_transaction_ids: true }, (change) =>
          push({ kind: 'chain', change, received: ++chainNotifications }),
        ),
      ]);
      checkpoint = await readCheckpoint(db, checkpointName);
      gaps = await readIndexGaps(db, checkpointName);
      if (checkpoint === null) await bootstrap();
      else {
        const stored = (await lookUp([bytesToHex(checkpoint.blockHash)])).get(bytesToHex(checkpoint.blockHash));
        checkpointTimestamp = stored?.timestamp ?? null;
      }
    } catch (error) {
      await stop();
      throw error;
    }
    queue.unshift({ kind: 'resync' });
    await pollNode();
    pollTimer = setInterval(() => void pollNode(), options.nodePollIntervalMs ?? DEFAULTS.nodePollIntervalMs);
    pollTimer.unref();
    loop = run();
  };

  const stop = async (): Promise<void> => {
    running = false;
    phase = 'stopped';
    caughtUp = false;
    clearInterval(pollTimer);
    stopStateListener?.();
    stopStateListener = undefined;
    const pending = unsubscribes;
    unsubscribes = [];
    await Promise.all(pending.map((unsubscribe) => unsubscribe().catch(() => undefined)));
    wake?.();
    interruptSleep?.();
    await loop;
    loop = undefined;
    queue = [];
  };

  const status = (): IndexerStatus => {
    const lag =
      nodeSinkTimestamp !== null && checkpointTimestamp !== null
        ? Math.max(0, Number(nodeSinkTimestamp - checkpointTimestamp)) / 1000
        : null;
    return {
      ready: running && caughtUp && rpc.state === 'open',
      phase,
      nodeVirtualDaaScore,
      indexedDaaScore: checkpoint?.daaScore ?? null,
      lagSeconds: lag,
      lastBatchAt,
      lastError,
      recoveries,
      gaps,
      notice,
    };
  };

  return {
    start,
    stop,
    status,
    whenReady(timeoutMs = 30_000) {
      if (caughtUp) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const done = () => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          readyWaiters.delete(done);
          reject(new Error(`the indexer did not catch up within ${timeoutMs} ms (${lastError ?? phase})`));
        }, timeoutMs);
        readyWaiters.add(done);
      });
    },
  };
}
