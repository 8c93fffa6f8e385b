'use client';

import { useMemo } from 'react';
import { BlockLink, Card, EmptyState, Kas, TimeAgo, TransactionLink } from '@/components/ui';
import type { LiveBlock, LiveTransaction } from '@/lib/web/live-types';
import type { BlockSnapshot } from '@/components/block-store';

const ROWS = 10;

interface Row {
  transaction: LiveTransaction;
  block: LiveBlock;
}

/** Transactions of the newest blocks the selected chain has merged (chain blocks and their blue and red merge sets). */
export function LatestTransactions({ snapshot }: { snapshot: BlockSnapshot }) {
  const rows = useMemo(() => {
    const found: Row[] = [];
    const seen = new Set<string>();
    for (let index = snapshot.blocks.length - 1; index >= 0 && found.length < ROWS; index--) {
      const block = snapshot.blocks[index]!;
      if (block.isChainBlock !== true && block.color === null) continue;
      for (const transaction of block.transactions) {
        if (found.length >= ROWS || seen.has(transaction.id)) continue;
        seen.add(transaction.id);
        found.push({ transaction, block });
      }
    }
    return found;
  }, [snapshot]);

  return (
    <Card title="Latest transactions">
      <div className="min-h-[23rem]">
        {rows.length === 0 ? (
          <EmptyState>No transactions in the blocks merged during the last minute.</EmptyState>
        ) : (
          <table className="w-full table-fixed text-sm" aria-label="Latest transactions">
            <thead className="text-left text-xs text-slate-600 dark:text-slate-400">
              <tr>
                <th scope="col" className="w-[40%] py-1 font-medium">Transaction</th>
                <th scope="col" className="py-1 text-right font-medium">Output</th>
                <th scope="col" className="hidden py-1 pl-3 font-medium sm:table-cell">Block</th>
                <th scope="col" className="hidden py-1 font-medium md:table-cell">Age</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(({ transaction, block }) => (
                <tr key={transaction.id} data-transaction-id={transaction.id} className="h-9 border-t border-slate-100 dark:border-slate-800">
                  <td className="truncate">
                    <TransactionLink id={transaction.id} />
                  </td>
                  <td className="truncate text-right">
                    <Kas sompi={transaction.outputSompi} digits={2} />
                  </td>
                  <td className="hidden truncate pl-3 sm:table-cell">
                    <BlockLink hash={block.hash} />
                  </td>
                  <td className="hidden text-slate-600 md:table-cell dark:text-slate-400">
                    <TimeAgo time={block.timestamp} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </Card>
  );
}
