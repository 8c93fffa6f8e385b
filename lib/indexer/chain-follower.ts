/**
 * Following the node's selected chain from the checkpoint. A catch-up pages getBlocks from the checkpoint to the sink,
 * fetches the pages' blocks with getBlock ahead of the batches being written, then applies getVirtualChainFromBlock's
 * removed and added chain blocks with their accepted ids. Live chain changes are applied as steps that continue each
 * other. Invariant: the checkpoint never passes a block the index lacks: a chain block is applied only once it and its
 * whole merge set are stored, and the checkpoint commits in the same transaction as the acceptance it covers.
 */
import { applyVirtualChainChange, writeCheckpoint, type ChainBlockAcceptance, type Checkpoint } from '../db';
import { bytesToHex, hexToBytes } from '../kaspa/bytes';
import type { RpcBlock, RpcClient, RpcNotifications } from '../rpc';
import type { BlockWriter } from './block-writer';
import type { CheckpointRecovery } from './checkpoint-recovery';
import type { IndexWrites } from './index-writes';
import type { KnownBlocks } from './known-blocks';
import { nodeKnowsBlock } from './recover';
import type { AnnouncedChainStep } from './stream-announcer';

export interface ChainStep {
  removed: string[];
  added: string[];
  accepted: Map<string, string[]>;
}

export interface ChainFollower {
  /**
   * Recovers a checkpoint the node does not know, then stores blocks and applies the chain from the checkpoint until
   * the node reports nothing new; throws after `maxRounds` rounds that keep reaching unstored blocks.
   */
  catchUp(): Promise<void>;
  /** The longest prefix of `added` whose blocks and merge sets are all stored. */
  applicablePrefix(added: readonly string[]): Promise<string[]>;
  /** Whether a chain change continues the chain ending at `tip`. */
  continues(change: RpcNotifications['VirtualChainChanged'], tip: string): Promise<boolean>;
  /** Applies steps that continue each other, with the new checkpoint, in one transaction. */
  apply(steps: readonly ChainStep[]): Promise<void>;
  /** Chain notifications numbered up to this were answered by the last catch-up's state (skip them). */
  coveredNotifications(): number;
}

export interface ChainFollowerOptions {
  rpc: RpcClient;
  writes: IndexWrites;
  known: KnownBlocks;
  writer: BlockWriter;
  recovery: CheckpointRecovery;
  checkpointName: string;
  maxBlocks: number;
  /** Blocks requested ahead of the batch being stored. */
  fetchAhead: number;
  maxRounds: number;
  /** How many chain notifications have been received so far. */
  notificationsReceived: () => number;
}

export const acceptedByBlock = (change: RpcNotifications['VirtualChainChanged']) =>
  new Map(change.acceptedTransactionIds.map((entry) => [entry.acceptingBlockHash, entry.acceptedTransactionIds]));

export function createChainFollower(options: ChainFollowerOptions): ChainFollower {
  const { rpc, writes, known, writer } = options;
  const { progress } = writes;
  let coveredNotifications = 0;
  const checkpointHash = () => bytesToHex(progress.checkpoint!.blockHash);

  /**
   * A page names up to a merge set limit of blocks (tens of thousands of transactions at mainnet peaks): read whole,
   * the node's encoding, the decoding here and the database writes would take turns. Fetched block by block with
   * `fetchAhead` requests in flight, each batch is stored while the next ones travel.
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
    for (let start = 0; start < hashes.length; start += options.maxBlocks) {
      requestUpTo(start + options.maxBlocks + options.fetchAhead);
      await writer.store(await Promise.all(requests.slice(start, start + options.maxBlocks)));
    }
  };

  /**
   * getBlocks (hashes and verbose data only) from the checkpoint until the sink: each page holds the merge sets of the
   * chain blocks after `lowHash` and ends with the highest chain block reached (plus the sink's anticone on the last
   * page). The next page is requested while the current one's blocks are fetched and written.
   */
  const fetchAndStorePages = async (): Promise<void> => {
    let lowHash = checkpointHash();
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
      await fetchAndStoreBlocks(page.blocks.map((block) => block.header.hash).filter((hash) => !writer.stored(hash)));
      if (!advanced) return;
      lowHash = highest;
    }
  };

  const storeBlocksFromCheckpoint = async (): Promise<void> => {
    try {
      await fetchAndStorePages();
    } finally {
      await writer.flush();
    }
  };

  const applicablePrefix = async (added: readonly string[]): Promise<string[]> => {
    const blocks = await known.lookUp(added);
    const mergeSets = await known.lookUp(added.flatMap((hash) => blocks.get(hash)?.mergeSet ?? []));
    const prefixLength = added.findIndex((hash) => {
      const block = blocks.get(hash);
      return block === undefined || !block.mergeSet.every((member) => mergeSets.has(member));
    });
    return prefixLength < 0 ? [...added] : added.slice(0, prefixLength);
  };

  const apply = async (steps: readonly ChainStep[]): Promise<void> => {
    const last = steps.at(-1)?.added.at(-1);
    if (last === undefined) return;
    const lastBlock = (await known.lookUp([last])).get(last)!;
    const next: Checkpoint = { name: options.checkpointName, blockHash: hexToBytes(last), blueScore: lastBlock.blueScore, daaScore: lastBlock.daaScore };
    const wrote = await writes.transaction(async (tx) => {
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
      return writes.announceChain(tx, applied, lastBlock.timestamp);
    });
    writes.announced(wrote);
    writes.moveCheckpoint(next, lastBlock.timestamp);
  };

  /**
   * getVirtualChainFromBlock from the checkpoint until it reports nothing new. Returns false when the node's chain
   * reaches blocks not stored yet (they arrived after the blocks were fetched): the caller fetches blocks again.
   * On success, every chain notification received before the last request is covered: the node answered it from a
   * state at least as new, so those notifications are skipped instead of each starting another catch-up.
   */
  const followChainFromCheckpoint = async (): Promise<boolean> => {
    for (;;) {
      const receivedBefore = options.notificationsReceived();
      const change = await rpc.call('getVirtualChainFromBlock', { startHash: checkpointHash(), includeAcceptedTransactionIds: true });
      const accepted = acceptedByBlock(change);
      const withAcceptance = change.addedChainBlockHashes.filter((hash) => accepted.has(hash));
      if (withAcceptance.length === 0) {
        if (change.addedChainBlockHashes.length > 0) return false;
        coveredNotifications = receivedBefore;
        return true;
      }
      const applicable = await applicablePrefix(withAcceptance);
      if (applicable.length === 0) return false;
      await apply([{ removed: change.removedChainBlockHashes, added: applicable, accepted }]);
      if (applicable.length < withAcceptance.length) return false;
    }
  };

  return {
    applicablePrefix,
    apply,
    coveredNotifications: () => coveredNotifications,
    async catchUp() {
      if (!(await nodeKnowsBlock(rpc, checkpointHash()))) await options.recovery.recover();
      for (let round = 0; round < options.maxRounds; round++) {
        await storeBlocksFromCheckpoint();
        if (await followChainFromCheckpoint()) return;
      }
      throw new Error(`the node's chain kept reaching unstored blocks for ${options.maxRounds} rounds`);
    },
    /**
     * A notification continues the chain ending at `tip` when it removes from `tip` down and its first added block
     * sits on what remains; anything else (a notification older than a catch-up, or one after a lost notification)
     * is answered by a catch-up instead.
     */
    async continues(change, tip) {
      const first = change.addedChainBlockHashes[0];
      const removed = change.removedChainBlockHashes;
      const lowestRemoved = removed.at(-1);
      if (first === undefined || (lowestRemoved !== undefined && removed[0] !== tip)) return false;
      const blocks = await known.lookUp(lowestRemoved === undefined ? [first] : [first, lowestRemoved]);
      const base = lowestRemoved === undefined ? tip : blocks.get(lowestRemoved)?.selectedParent;
      return base !== undefined && blocks.get(first)?.selectedParent === base;
    },
  };
}
