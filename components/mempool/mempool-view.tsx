'use client';

import { useMemo } from 'react';
import type { NodeMempoolEntry } from '@/lib/api/node-format';
import { formatFeeRate, formatInteger } from '@/lib/web/format';
import { feeRateHistogram, mempoolRows, projectNextBlocks, type HistogramBin, type MempoolRow } from '@/lib/web/mempool-stats';
import { useResource } from '@/lib/web/queries';
import { resources } from '@/lib/web/resources';
import { Card, EmptyState, ErrorState, Kas, LoadingRows, TimeAgo, TransactionLink } from '../ui';

const REFRESH_MS = 2_000;
const FIRST_SEEN_KEPT = 20_000;

/** When this browser tab first saw each transaction (the node does not report arrival times). */
const firstSeenAt = new Map<string, number>();

function stampFirstSeen(rows: readonly MempoolRow[], now: number): ReadonlyMap<string, number> {
  const stamped = new Map<string, number>();
  for (const row of rows) {
    const seen = firstSeenAt.get(row.transactionId) ?? now;
    firstSeenAt.set(row.transactionId, seen);
    stamped.set(row.transactionId, seen);
  }
  if (firstSeenAt.size > FIRST_SEEN_KEPT) {
    for (const id of firstSeenAt.keys()) if (!stamped.has(id)) firstSeenAt.delete(id);
  }
  return stamped;
}
const ROWS_SHOWN = 200;
const NEXT_BLOCKS = 3;

function binLabel(bin: HistogramBin): string {
  return bin.to === null ? `≥ ${bin.from}` : `${bin.from}–${bin.to}`;
}

function Histogram({ rows }: { rows: MempoolRow[] }) {
  const bins = feeRateHistogram(rows);
  const largest = Math.max(1, ...bins.map((bin) => bin.count));
  return (
    <figure>
      <figcaption className="mb-2 text-sm text-slate-600 dark:text-slate-400">Transactions by fee rate (sompi per gram)</figcaption>
      <ol className="space-y-1" data-testid="fee-histogram">
        {bins.map((bin) => (
          <li key={bin.from} className="grid grid-cols-[5rem_1fr_3rem] items-center gap-2 text-xs">
            <span className="text-right tabular-nums text-slate-600 dark:text-slate-400">{binLabel(bin)}</span>
            <span className="h-3 rounded bg-slate-100 dark:bg-slate-800" aria-hidden="true">
              <span className="block h-3 rounded bg-teal-600" style={{ width: `${(bin.count / largest) * 100}%` }} />
            </span>
            <span className="tabular-nums">{bin.count}</span>
          </li>
        ))}
      </ol>
    </figure>
  );
}

function NextBlocks({ rows }: { rows: MempoolRow[] }) {
  const blocks = projectNextBlocks(rows, NEXT_BLOCKS);
  if (blocks.length === 0) {
    return (
      <div data-testid="next-blocks-empty">
        <EmptyState>No transaction is waiting for a block: the next block would carry only its coinbase.</EmptyState>
      </div>
    );
  }
  return (
    <ol className="grid gap-3 sm:grid-cols-3" data-testid="next-blocks">
      {blocks.map((block, index) => (
        <li key={index} className="rounded-md border border-slate-200 p-3 text-sm dark:border-slate-700">
          <p className="font-medium">{index === 0 ? 'Next block' : `Block +${index + 1}`}</p>
          <p>{formatInteger(block.transactions)} transactions</p>
          <p>
            {formatFeeRate(block.minFeeRate)} – {formatFeeRate(block.maxFeeRate)}
          </p>
          <p>
            fees <Kas sompi={block.fees} digits={8} />
          </p>
          <p className="text-slate-600 dark:text-slate-400">{formatInteger(block.mass)} grams</p>
        </li>
      ))}
    </ol>
  );
}

/** The node's mempool, refreshed every 2 s. Ages count from when this page first saw a transaction. */
export function MempoolView({ initialEntries }: { initialEntries: NodeMempoolEntry[] | null }) {
  const mempool = useResource(
    resources.mempoolEntries,
    { query: { includeOrphanPool: true, filterTransactionPool: false } },
    { refetchInterval: REFRESH_MS, initialData: initialEntries === null ? undefined : { mempoolEntries: initialEntries } },
  );
  const rows = useMemo(() => mempoolRows(mempool.data?.mempoolEntries ?? []), [mempool.data]);
  const now = mempool.dataUpdatedAt;
  const seen = useMemo(() => stampFirstSeen(rows, now), [rows, now]);

  if (mempool.isError) return <ErrorState error={mempool.error} onRetry={() => void mempool.refetch()} />;
  if (mempool.isPending) return <LoadingRows rows={8} label="Loading the mempool" />;
  const orphans = rows.filter((row) => row.isOrphan).length;
  const totalMass = rows.reduce((sum, row) => sum + row.mass, 0n);
  const totalFees = rows.reduce((sum, row) => sum + row.fee, 0n);

  return (
    <div className="space-y-6">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="mempool-summary">
        {[
          ['Transactions', formatInteger(rows.length - orphans)],
          ['Orphans', formatInteger(orphans)],
          ['Total mass', `${formatInteger(totalMass)} g`],
          ['Total fees', <Kas key="fees" sompi={totalFees} digits={8} />],
        ].map(([label, value]) => (
          <div key={String(label)} className="rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900">
            <dt className="text-xs text-slate-500 dark:text-slate-400">{label}</dt>
            <dd className="text-lg font-semibold tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      <div className="grid gap-6 lg:grid-cols-2">
        <Card title="Fee rates">
          <Histogram rows={rows} />
        </Card>
        <Card title="What the next blocks would take">
          <NextBlocks rows={rows} />
        </Card>
      </div>
      <Card title={`Entries${rows.length > ROWS_SHOWN ? ` (top ${ROWS_SHOWN} by fee rate)` : ''}`}>
        {rows.length === 0 ? (
          <EmptyState>The mempool is empty: every transaction the node knows is in a block.</EmptyState>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-sm" data-testid="mempool-entries">
              <thead>
                <tr className="text-left text-xs uppercase tracking-wide text-slate-500 dark:text-slate-400">
                  <th scope="col" className="py-2 pr-3 font-medium">Transaction</th>
                  <th scope="col" className="py-2 pr-3 text-right font-medium">Fee</th>
                  <th scope="col" className="py-2 pr-3 text-right font-medium">Fee rate</th>
                  <th scope="col" className="hidden py-2 pr-3 text-right font-medium sm:table-cell">Mass</th>
                  <th scope="col" className="hidden py-2 pr-3 font-medium sm:table-cell">Seen</th>
                  <th scope="col" className="py-2 font-medium">State</th>
                </tr>
              </thead>
              <tbody>
                {rows.slice(0, ROWS_SHOWN).map((row) => (
                  <tr key={row.transactionId} className="border-t border-slate-200 dark:border-slate-800" data-testid="mempool-row">
                    <td className="py-2 pr-3">
                      <TransactionLink id={row.transactionId} />
                    </td>
                    <td className="py-2 pr-3 text-right">
                      <Kas sompi={row.fee} digits={8} />
                    </td>
                    <td className="py-2 pr-3 text-right tabular-nums">{formatFeeRate(row.feeRate)}</td>
                    <td className="hidden py-2 pr-3 text-right tabular-nums sm:table-cell">{formatInteger(row.mass)}</td>
                    <td className="hidden py-2 pr-3 sm:table-cell">
                      <TimeAgo time={seen.get(row.transactionId) ?? now} />
                    </td>
                    <td className="py-2">{row.isOrphan ? <span className="text-amber-700 dark:text-amber-400">orphan</span> : 'pending'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </div>
  );
}
