'use client';

import type { ReactNode } from 'react';
import { useLiveDag, useLiveMempool, useLiveStatus } from '@/components/live-provider';
import { Skeleton } from '@/components/ui';
import type { NodeDagInfo, NodeFeeEstimate, NodeFeerateBucket } from '@/lib/api/node-format';
import type { LiveDag, LiveMempool } from '@/lib/runtime/live';
import { formatFeeRate, formatHashrate, formatInteger, formatWait } from '@/lib/web/format';
import { useResource } from '@/lib/web/queries';
import { resources } from '@/lib/web/resources';

const FALLBACK_POLL_MS = 5_000;

function formatNumber(value: number, digits = 2): string {
  return new Intl.NumberFormat('en', {
    maximumFractionDigits: digits,
    notation: value >= 1e9 ? 'compact' : 'standard',
  }).format(value);
}

function Figure({ label, value, hint }: { label: string; value: ReactNode; hint?: string }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white px-3 py-2 dark:border-slate-800 dark:bg-slate-900">
      <dt className="text-xs text-slate-600 dark:text-slate-400" title={hint}>
        {label}
      </dt>
      <dd className="mt-0.5 h-7 truncate text-lg font-semibold tabular-nums">{value ?? <Skeleton className="mt-1 h-5 w-20" />}</dd>
    </div>
  );
}

function bucketText(bucket: NodeFeerateBucket | undefined): ReactNode {
  if (bucket === undefined) return undefined;
  return (
    <span title={`${bucket.feerate} sompi per gram, expected wait ${formatWait(bucket.estimatedSeconds)}`}>
      {formatFeeRate(bucket.feerate)}
      <span className="ml-1 text-xs font-normal text-slate-600 dark:text-slate-400">{formatWait(bucket.estimatedSeconds)}</span>
    </span>
  );
}

export interface NetworkFiguresProps {
  initialDagInfo: NodeDagInfo | null;
  initialFees: NodeFeeEstimate | null;
  initialDag: LiveDag | null;
  initialMempool: LiveMempool | null;
}

/** The network at a glance; every figure comes from the live stream, with a slow poll while the stream is down. */
export function NetworkFigures({ initialDagInfo, initialFees, initialDag, initialMempool }: NetworkFiguresProps) {
  const streaming = useLiveStatus() === 'live';
  const poll = streaming ? false : FALLBACK_POLL_MS;
  const { data: info } = useResource(resources.dagInfo, {}, { initialData: initialDagInfo ?? undefined, refetchInterval: poll });
  const { data: fees } = useResource(
    resources.feeEstimate,
    {},
    { initialData: initialFees === null ? undefined : { estimate: initialFees }, refetchInterval: poll },
  );
  const dag = useLiveDag(initialDag ?? undefined);
  const mempool = useLiveMempool(initialMempool ?? undefined);
  const estimate = fees?.estimate;
  const windowText = dag === undefined ? '' : ` over the last ${dag.windowSeconds.toFixed(0)} s`;

  return (
    <section aria-labelledby="network-figures">
      <h2 id="network-figures" className="sr-only">
        Network figures
      </h2>
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4 lg:grid-cols-6">
        <Figure label="Virtual DAA score" value={info && formatInteger(info.virtualDaaScore)} hint="The virtual block's difficulty-adjustment score: about one per block." />
        <Figure label="Blue score" value={dag && formatInteger(dag.blueScore)} hint="Blue score of the sink (the virtual's selected parent)." />
        <Figure label="Blocks / s" value={dag && formatNumber(dag.blocksPerSecond)} hint={`Blocks this server received${windowText}.`} />
        <Figure label="Transactions / s" value={dag && formatNumber(dag.txPerSecond)} hint={`Non-coinbase transactions in blocks received${windowText}.`} />
        <Figure label="Difficulty" value={info && formatNumber(info.difficulty, 3)} />
        <Figure
          label="Hashrate (est.)"
          value={dag && formatHashrate(dag.hashrate)}
          hint="Expected hashes per block at this difficulty (2 × difficulty) times the observed blocks per second."
        />
        <Figure label="Block count" value={info && formatInteger(info.blockCount)} />
        <Figure label="Mempool" value={mempool && `${formatInteger(mempool.size)} tx`} hint="Transactions waiting in the node's mempool." />
        <Figure label="Fee: priority" value={bucketText(estimate?.priorityBucket)} />
        <Figure label="Fee: normal" value={bucketText(estimate?.normalBuckets[0])} />
        <Figure label="Fee: low" value={bucketText(estimate?.lowBuckets[0])} />
        <Figure label="Tips" value={info && formatInteger(info.tipHashes.length)} hint="Blocks with no children yet: the DAG's current width." />
      </dl>
    </section>
  );
}
