'use client';

import { useMemo, useState } from 'react';
import type { NodeMempoolEntry } from '@/lib/api/endpoints/node-format';
import { counted, formatDuration, formatFeeRate, formatInteger } from '@/lib/web/format';
import { feeRateHistogram, mempoolRows, projectNextBlocks, type HistogramBin, type MempoolRow } from '@/lib/web/mempool-stats';
import { useResource } from '@/lib/web/queries';
import { resources } from '@/lib/web/resources';
import { Card, EmptyState, ErrorState, Kas, LoadingRows, ScrollArea, TransactionLink, useNow } from '../ui';

const REFRESH_MS = 2_000;
const ROWS_SHOWN = 200;
const NEXT_BLOCKS = 3;
/** Sightings kept for transactions that left the pool, so one that comes back (a reorg) keeps its first sighting. */
const SIGHTINGS_KEPT = 20_000;

const MUTED = 'text-slate-600 dark:text-slate-400';

/**
 * When this page first saw a transaction. kaspad reports no arrival time, so for the transactions already in the pool
 * when the page opened the page knows only that they have waited at least since then (`sinceOpened`).
 */
interface Sighting {
  at: number;
  sinceOpened: boolean;
}

function binLabel(bin: HistogramBin): string {
  return bin.to === null ? `≥ ${bin.from}` : `${bin.from}–${bin.to}`;
}

function Histogram({ rows }: { rows: MempoolRow[] }) {
  const bins = feeRateHistogram(rows);
  if (bins.length === 0) return <EmptyState>No transaction with a known fee is waiting.</EmptyState>;
  const largest = Math.max(1, ...bins.map((bin) => bin.count));
  return (
    <figure>
      <figcaption className={`mb-2 text-sm ${MUTED}`}>
        Transactions by fee rate (sompi per gram of mass), from the lowest to the highest rate waiting
      </figcaption>
      <ol className="space-y-1" data-testid="fee-histogram">
        {bins.map((bin) => (
          <li key={bin.from} className="grid grid-cols-[6rem_1fr_3rem] items-center gap-2 text-xs" data-testid="fee-histogram-bin">
            <span className={`text-right tabular-nums ${MUTED}`}>{binLabel(bin)}</span>
            <span className="h-3 rounded bg-slate-100 dark:bg-slate-800" aria-hidden="true">
              <span className="block h-3 rounded bg-teal-600" style={{ width: `${(bin.count / largest) * 100}%` }} />
            </span>
            <span className="tabular-nums" title={`${formatInteger(bin.mass)} grams`}>
              {bin.count}
            </span>
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
          <p>{counted(block.transactions, 'transaction')}</p>
          <p>
            {formatFeeRate(block.minFeeRate)} – {formatFeeRate(block.maxFeeRate)}
          </p>
          <p>
            fees <Kas sompi={block.fees} digits={8} />
          </p>
          <p className={MUTED}>{formatInteger(block.mass)} g</p>
        </li>
      ))}
    </ol>
  );
}

function Waiting({ sighting, now }: { sighting: Sighting; now: number | null }) {
  if (now === null) return null;
  const waited = formatDuration(now - sighting.at);
  return sighting.sinceOpened ? (
    <span title="In the pool already when this page opened: at least this long">≥ {waited}</span>
  ) : (
    <span title="First seen by this page this long ago">{waited}</span>
  );
}

/** Records first sightings in `sightings` (this view's own map): a pure function of the entries and their fetch time. */
function sight(
  sightings: Map<string, Sighting>,
  rows: readonly MempoolRow[],
  fetchedAt: number,
  openedAt: number,
): ReadonlyMap<string, Sighting> {
  for (const row of rows) {
    if (!sightings.has(row.transactionId)) {
      sightings.set(row.transactionId, { at: Math.max(fetchedAt, openedAt), sinceOpened: fetchedAt <= openedAt });
    }
  }
  if (sightings.size > SIGHTINGS_KEPT) {
    const current = new Set(rows.map((row) => row.transactionId));
    for (const id of sightings.keys()) if (!current.has(id)) sightings.delete(id);
  }
  return sightings;
}

/**
 * The node's mempool, refreshed every 2 s. Masses and fee rates as lib/web/mempool-stats.ts defines them; waiting
 * times count from when this page (opened at `openedAt`, the server's clock) first saw a transaction.
 */
export function MempoolView({ initialEntries, openedAt }: { initialEntries: NodeMempoolEntry[] | null; openedAt: number }) {
  const mempool = useResource(
    resources.mempoolEntries,
    { query: { includeOrphanPool: true, filterTransactionPool: false } },
    {
      refetchInterval: REFRESH_MS,
      initialData: initialEntries === null ? undefined : { mempoolEntries: initialEntries },
      initialDataUpdatedAt: openedAt,
    },
  );
  const rows = useMemo(() => mempoolRows(mempool.data?.mempoolEntries ?? []), [mempool.data]);
  const [sightingStore] = useState(() => new Map<string, Sighting>());
  const fetchedAt = mempool.dataUpdatedAt;
  const sightings = useMemo(() => sight(sightingStore, rows, fetchedAt, openedAt), [sightingStore, rows, fetchedAt, openedAt]);
  const now = useNow();

  if (mempool.isError) return <ErrorState error={mempool.error} onRetry={() => void mempool.refetch()} />;
  if (mempool.isPending) return <LoadingRows rows={8} label="Loading the mempool" />;
  const pool = rows.filter((row) => !row.isOrphan);
  const orphans = rows.length - pool.length;
  const waitingMass = pool.reduce((sum, row) => sum + row.mass, 0n);
  const totalFees = pool.reduce((sum, row) => sum + (row.fee ?? 0n), 0n);

  return (
    <div className="space-y-6">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="mempool-summary">
        {[
          { label: 'Transactions', value: formatInteger(pool.length), hint: 'Waiting for a block, orphans not counted' },
          { label: 'Orphans', value: formatInteger(orphans), hint: 'Waiting for a transaction they spend from' },
          { label: 'Mass waiting', value: `${formatInteger(waitingMass)} g`, hint: 'Block space the waiting transactions take' },
          { label: 'Fees waiting', value: <Kas key="fees" sompi={totalFees} digits={8} />, hint: 'Orphans’ fees are not known yet' },
        ].map(({ label, value, hint }) => (
          <div key={label} className="rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900">
            <dt className="text-xs text-slate-500 dark:text-slate-400" title={hint}>
              {label}
            </dt>
            <dd className="text-lg font-semibold tabular-nums" data-testid={`mempool-${label.toLowerCase().replace(' ', '-')}`}>
              {value}
            </dd>
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
          <>
            <ScrollArea label="Mempool entries">
              <table className="w-full text-sm whitespace-nowrap" data-testid="mempool-entries">
                <thead>
                  <tr className="text-left text-xs uppercase tracking-wide text-slate-500 dark:text-slate-400">
                    <th scope="col" className="py-2 pr-3 font-medium">Transaction</th>
                    <th scope="col" className="py-2 pr-3 text-right font-medium" title="Fee ÷ the larger of compute and storage mass">
                      Fee rate
                    </th>
                    <th scope="col" className="py-2 pr-3 text-right font-medium">Fee</th>
                    <th scope="col" className="py-2 pr-3 text-right font-medium" title="Compute mass (kaspad's verboseData.computeMass)">
                      Compute mass
                    </th>
                    <th scope="col" className="py-2 pr-3 text-right font-medium" title="Storage mass (kaspad's storageMass, also sent as mass)">
                      Storage mass
                    </th>
                    <th scope="col" className="py-2 pr-3 text-right font-medium">Waiting</th>
                    <th scope="col" className="py-2 font-medium">State</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.slice(0, ROWS_SHOWN).map((row) => (
                    <tr
                      key={row.transactionId}
                      className="border-t border-slate-200 dark:border-slate-800"
                      data-testid="mempool-row"
                      data-transaction-id={row.transactionId}
                    >
                      <td className="py-2 pr-3">
                        <TransactionLink id={row.transactionId} />
                      </td>
                      <td className="py-2 pr-3 text-right tabular-nums" data-field="fee-rate">
                        {row.feeRate === null ? <span className={MUTED}>unknown</span> : formatFeeRate(row.feeRate)}
                      </td>
                      <td className="py-2 pr-3 text-right" data-field="fee">
                        {row.fee === null ? <span className={MUTED}>unknown</span> : <Kas sompi={row.fee} digits={8} />}
                      </td>
                      <td className="py-2 pr-3 text-right tabular-nums" data-field="compute-mass">
                        {formatInteger(row.computeMass)} g
                      </td>
                      <td className={`py-2 pr-3 text-right tabular-nums ${row.storageMass > row.computeMass ? '' : MUTED}`} data-field="storage-mass">
                        {formatInteger(row.storageMass)} g
                      </td>
                      <td className="py-2 pr-3 text-right tabular-nums">
                        <Waiting sighting={sightings.get(row.transactionId) ?? { at: openedAt, sinceOpened: true }} now={now} />
                      </td>
                      <td className="py-2">{row.isOrphan ? <span className="text-amber-700 dark:text-amber-400">orphan</span> : 'pending'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollArea>
            <p className={`mt-3 text-xs ${MUTED}`}>
              Fee rate is the fee divided by the larger of the compute and storage masses, the block space a transaction
              takes. kaspad reports no arrival time: waiting counts from when this page first saw a transaction, and ≥
              marks those already in the pool when the page opened. An orphan&apos;s fee is unknown until the
              transactions it spends from arrive.
            </p>
          </>
        )}
      </Card>
    </div>
  );
}
