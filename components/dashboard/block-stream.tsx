'use client';

import { useState } from 'react';
import { BlockLink, Card, EmptyState, TimeAgo } from '@/components/ui';
import type { LiveBlock } from '@/lib/web/live-types';
import { formatInteger } from '@/lib/web/format';
import type { BlockSnapshot } from '@/components/block-store';
import { blockStatus, StatusBadge } from './block-status';

const ROWS = 12;

interface Paused {
  rows: readonly LiveBlock[];
  received: number;
}

function newestRows(snapshot: BlockSnapshot): LiveBlock[] {
  return snapshot.blocks.slice(-ROWS).reverse();
}

/**
 * The newest blocks, newest first, in a fixed number of fixed-height rows so arrivals never move the page. Pausing
 * freezes the rows exactly as shown (statuses included) and counts what arrived meanwhile.
 */
export function BlockStream({ snapshot }: { snapshot: BlockSnapshot }) {
  const [paused, setPaused] = useState<Paused | null>(null);
  const rows = paused?.rows ?? newestRows(snapshot);
  const waiting = paused === null ? 0 : snapshot.received - paused.received;

  const toggle =
    paused === null ? (
      <button
        type="button"
        onClick={() => setPaused({ rows: newestRows(snapshot), received: snapshot.received })}
        className="rounded border border-slate-300 px-2 py-1 text-sm hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-teal-600 dark:border-slate-700 dark:hover:bg-slate-800"
      >
        Pause
      </button>
    ) : (
      <button
        type="button"
        onClick={() => setPaused(null)}
        className="rounded bg-teal-700 px-2 py-1 text-sm text-white hover:bg-teal-800 focus-visible:outline-2 focus-visible:outline-teal-600 dark:bg-teal-600 dark:hover:bg-teal-500"
      >
        Resume{waiting > 0 ? ` · ${formatInteger(waiting)} new block${waiting === 1 ? '' : 's'}` : ''}
      </button>
    );

  return (
    <Card title="Latest blocks" actions={toggle}>
      <p className="sr-only" aria-live="polite">
        {paused === null ? 'Updating live.' : 'Paused.'}
      </p>
      {rows.length === 0 ? (
        <EmptyState>Waiting for the next block…</EmptyState>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full table-fixed text-sm" aria-label="Latest blocks" data-paused={paused !== null}>
            <thead className="text-left text-xs text-slate-600 dark:text-slate-400">
              <tr>
                <th scope="col" className="w-[38%] py-1 font-medium sm:w-[30%]">Block</th>
                <th scope="col" className="hidden py-1 font-medium sm:table-cell">Age</th>
                <th scope="col" className="py-1 font-medium">DAA score</th>
                <th scope="col" className="hidden py-1 text-right font-medium sm:table-cell">Txs</th>
                <th scope="col" className="py-1 text-right font-medium">Status</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((block) => (
                <tr key={block.hash} data-block-hash={block.hash} className="h-9 border-t border-slate-100 dark:border-slate-800">
                  <td className="truncate">
                    <BlockLink hash={block.hash} />
                  </td>
                  <td className="hidden text-slate-600 sm:table-cell dark:text-slate-400">
                    <TimeAgo time={block.timestamp} />
                  </td>
                  <td className="tabular-nums">{formatInteger(block.daaScore)}</td>
                  <td className="hidden text-right tabular-nums sm:table-cell">{block.txCount}</td>
                  <td className="text-right">
                    <StatusBadge status={blockStatus(block)} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
