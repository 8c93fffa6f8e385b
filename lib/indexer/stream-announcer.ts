/**
 * What the indexer announces in the stream event log (lib/db/stream-events.ts), built inside the write transaction
 * of the change it describes:
 *   block    a block stored for the first time
 *   chain    a virtual chain change: removed chain blocks, added ones with the transactions each accepted
 *   address  a transaction touching an address (paying it or spending from it): `included` when the transaction is
 *            first stored (in the block named), `accepted` by a chain block, `reverted` when its accepting block left
 *            the chain and no block of the same change accepted it again
 *   covenant a KIP-20 covenant's genesis, continuation or end `accepted` by a chain block, or `reverted` as above
 * History older than `windowMs` (a catch-up over old blocks) is not announced: it would be pruned at once.
 */
import {
  BLOCK_EVENT_LISTED_TRANSACTIONS,
  addressesOfTransactions,
  covenantStepsOfTransactions,
  storedAmong,
  type BlockEventData,
  type LostAcceptance,
  type NewStreamEvent,
  type Queryable,
  type TransactionRecord,
} from '../db';
import { bytesToHex, hexToBytes } from '../kaspa/bytes';
import type { ConvertedBlock } from './convert';

export interface AnnouncedChainStep {
  removed: readonly string[];
  added: readonly { hash: string; acceptedTransactionIds: readonly string[] }[];
  /** What applying the step took away (applyVirtualChainChange's result). */
  lost: readonly LostAcceptance[];
}

export interface StreamAnnouncer {
  /** Events for a batch about to be stored; call before inserting it (it checks what is stored already). */
  blocks(tx: Queryable, converted: readonly ConvertedBlock[], resolved: readonly TransactionRecord[]): Promise<NewStreamEvent[]>;
  /** Events for applied chain steps whose newest block has `timestamp` (ms). */
  chain(tx: Queryable, steps: readonly AnnouncedChainStep[], timestamp: bigint): Promise<NewStreamEvent[]>;
}

function blockEventData(block: ConvertedBlock['block'], transactions: readonly TransactionRecord[]): BlockEventData {
  const paying = transactions.slice(1);
  return {
    hash: bytesToHex(block.hash),
    daaScore: block.header.daaScore.toString(),
    blueScore: block.header.blueScore.toString(),
    timestamp: block.header.timestamp.toString(),
    selectedParent: block.selectedParentHash && bytesToHex(block.selectedParentHash),
    parents: (block.header.parentsByLevel[0] ?? []).map(bytesToHex),
    transactionCount: transactions.length,
    transactions: paying.slice(0, BLOCK_EVENT_LISTED_TRANSACTIONS).map((transaction) => ({
      id: bytesToHex(transaction.transactionId),
      outputSompi: transaction.outputs.reduce((sum, output) => sum + output.amount, 0n).toString(),
    })),
    versionOneTransactions: paying.filter((transaction) => transaction.version >= 1).length,
    covenantTransactions: paying.filter((transaction) => transaction.outputs.some((output) => output.covenantId !== null)).length,
    mergeSetBlues: block.mergeSetBlues.map(bytesToHex),
    mergeSetReds: block.mergeSetReds.map(bytesToHex),
    isChainBlock: block.isChainBlock,
  };
}

function addressesOf(record: TransactionRecord): string[] {
  const addresses = new Set<string>();
  for (const output of record.outputs) if (output.address !== null) addresses.add(output.address);
  for (const input of record.inputs) {
    const address = input.previousOutput?.address;
    if (address !== undefined && address !== null) addresses.add(address);
  }
  return [...addresses].sort();
}

export function createStreamAnnouncer(options: { windowMs: number; clock: () => number }): StreamAnnouncer {
  const recent = (timestamp: bigint) => timestamp >= BigInt(Math.floor(options.clock() - options.windowMs));

  return {
    async blocks(tx, converted, resolved) {
      const candidates = converted.filter((item) => recent(item.block.header.timestamp));
      if (candidates.length === 0) return [];
      const storedBlocks = await storedAmong(
        tx,
        'blocks',
        candidates.map((item) => item.block.hash),
      );
      const fresh = candidates.filter((item) => !storedBlocks.has(bytesToHex(item.block.hash)));
      const transactionIds = fresh.flatMap((item) => item.transactions.map((transaction) => transaction.transactionId));
      const storedTransactions = await storedAmong(tx, 'transactions', transactionIds);
      const resolvedById = new Map(resolved.map((record) => [bytesToHex(record.transactionId), record]));
      const events: NewStreamEvent[] = [];
      const announced = new Set<string>();
      for (const { block, transactions } of fresh) {
        const hash = bytesToHex(block.hash);
        events.push({ topic: 'block', address: null, data: blockEventData(block, transactions) });
        for (const transaction of transactions) {
          const id = bytesToHex(transaction.transactionId);
          if (storedTransactions.has(id) || announced.has(id)) continue;
          announced.add(id);
          for (const address of addressesOf(resolvedById.get(id) ?? transaction)) {
            events.push({ topic: 'address', address, data: { address, transactionId: id, status: 'included', blockHash: hash } });
          }
        }
      }
      return events;
    },

    async chain(tx, steps, timestamp) {
      if (!recent(timestamp) || steps.length === 0) return [];
      const reverted = steps.map((step) => {
        const again = new Set(step.added.flatMap((added) => added.acceptedTransactionIds));
        return step.lost.filter((entry) => !again.has(bytesToHex(entry.transactionId)));
      });
      const ids = new Map<string, Uint8Array>();
      for (const entry of reverted.flat()) ids.set(bytesToHex(entry.transactionId), entry.transactionId);
      for (const step of steps) {
        for (const added of step.added) for (const id of added.acceptedTransactionIds) ids.set(id, hexToBytes(id));
      }
      const addresses = await addressesOfTransactions(tx, [...ids.values()]);
      const covenants = await covenantStepsOfTransactions(tx, [...ids.values()]);
      const covenantEvents = (transactionId: string, status: 'accepted' | 'reverted', blockHash: string): NewStreamEvent[] =>
        (covenants.get(transactionId) ?? []).map(({ covenantId, kind }) => ({
          topic: 'covenant',
          address: null,
          subject: covenantId,
          data: { covenantId, transactionId, kind, status, blockHash },
        }));
      const events: NewStreamEvent[] = [];
      steps.forEach((step, position) => {
        events.push({
          topic: 'chain',
          address: null,
          data: {
            removed: [...step.removed],
            added: step.added.map((added) => ({ hash: added.hash, acceptedTransactionIds: [...added.acceptedTransactionIds] })),
          },
        });
        for (const entry of reverted[position]!) {
          const id = bytesToHex(entry.transactionId);
          const blockHash = bytesToHex(entry.acceptingBlockHash);
          for (const address of addresses.get(id) ?? []) {
            events.push({ topic: 'address', address, data: { address, transactionId: id, status: 'reverted', blockHash } });
          }
          events.push(...covenantEvents(id, 'reverted', blockHash));
        }
        for (const added of step.added) {
          for (const id of added.acceptedTransactionIds) {
            for (const address of addresses.get(id) ?? []) {
              events.push({ topic: 'address', address, data: { address, transactionId: id, status: 'accepted', blockHash: added.hash } });
            }
            events.push(...covenantEvents(id, 'accepted', added.hash));
          }
        }
      });
      return events;
    },
  };
}
