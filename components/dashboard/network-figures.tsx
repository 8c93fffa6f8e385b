'use client';

import type { ReactNode } from 'react';
import { useLiveDag, useLiveMempool, useLiveStatus } from '@/components/live-provider';
import { Skeleton } from '@/components/ui';
import type { NodeDagInfo, NodeFeeEstimate, NodeFeerateBucket } from '@/lib/api/endpoints/node-format';
import type { LiveDag, LiveMempool } from '@/lib/web/live-types';
import { formatDuration, formatFeeRate, formatHashrate, formatInteger, formatWait } from '@/lib/web/format';
import { useResource } from '@/lib/web/queries';
import { resources } from '@/lib/web/resources';

const FALLBACK_POLL_MS = 5_000;
/** The supply grows by a block reward ten times a second; the figures show it to a few digits, so a slow poll does. */
const SUPPLY_POLL_MS = 10_000;
const SOMPI_PER_KAS = 100_000_000;

function kasAmount(sompi: string): string {
  return `${formatNumber(Number(sompi) / SOMPI_PER_KAS)} KAS`;
}

function formatNumber(value: number, digits = 2): string {
  return new Intl.NumberFormat('en', {
    maximumFractionDigits: digits,
    notation: value >= 1e9 ? 'compact' : 'standard',
  }).format(value);
}

function formatPercent(share: number): string {
  return new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 0 }).format(share);
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
  const { data: supply } = useResource(resources.supply, {}, { refetchInterval: SUPPLY_POLL_MS });
  const reduction = supply?.nextReduction;
  const dag = useLiveDag(initialDag ?? undefined);
  const mempool = useLiveMempool(initialMempool ?? undefined);
  const estimate = fees?.estimate;
  const windowText = dag === undefined ? '' : ` over the last ${dag.windowSeconds.toFixed(0)} s`;

  return (
    <section aria-labelledby="network-figures">
      <h2 id="network-figures" className="sr-only">
        Network figures
      </h2>
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3 md:grid-cols-6">
        <Figure label="Virtual DAA score" value={info && formatInteger(info.virtualDaaScore)} hint="The virtual block's difficulty-adjustment score: about one per block." />
        <Figure label="Blue score" value={dag && formatInteger(dag.blueScore)} hint="Blue score of the sink (the virtual's selected parent)." />
        <Figure label="Blocks / s" value={dag && formatNumber(dag.blocksPerSecond)} hint={`Blocks this server received${windowText}.`} />
        <Figure label="Transactions / s" value={dag && formatNumber(dag.txPerSecond)} hint={`Non-coinbase transactions in blocks received${windowText}.`} />
        <Figure
          label="Version 1 share"
          value={dag && (dag.versionOneShare === null ? '—' : formatPercent(dag.versionOneShare))}
          hint={`Share of those transactions with version 1 (Toccata: compute budgets, covenants)${windowText}.`}
        />
        <Figure
          label="Covenant tx / min"
          value={dag && formatNumber(dag.covenantTxPerMinute, 1)}
          hint={`Transactions creating a covenant-bound output (KIP-20: a genesis or a continuation) in blocks received${windowText}.`}
        />
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
        <Figure
          label="Circulating supply"
          value={supply && kasAmount(supply.circulatingSompi)}
          hint="Coins in existence: the node's sum of the rewards paid so far."
        />
        <Figure label="Max supply" value={supply && kasAmount(supply.maxSompi)} hint="The most coins there will ever be." />
        <Figure
          label="Block reward"
          value={supply && (supply.blockRewardSompi === null ? '—' : kasAmount(supply.blockRewardSompi))}
          hint="The subsidy of a block at the virtual DAA score, before fees (the network's schedule)."
        />
        <Figure
          label="Next reward reduction"
          value={supply && (reduction == null ? '—' : `in ${formatDuration(reduction.estimatedSeconds * 1000)}`)}
          hint={
            reduction == null
              ? 'The reward no longer changes, or the schedule of this network is not known.'
              : `At DAA score ${formatInteger(reduction.daaScore)} the block reward becomes ${kasAmount(reduction.blockRewardSompi)}; it falls every month, halving each year.`
          }
        />
      </dl>
    </section>
  );
}
