'use client';

import type { NodeFeeEstimate, NodeFeerateBucket } from '@/lib/api/endpoints/node-format';
import { formatFeeRate, formatWait } from '@/lib/web/format';
import { useFeeHistory, useResource } from '@/lib/web/queries';
import { resources } from '@/lib/web/resources';
import { Card, EmptyState, ErrorState, LoadingRows } from '../ui';
import { FeeChart } from './fee-chart';

const REFRESH_MS = 2_000;
/** A standard one-input, two-output payment weighs about 2,036 grams of compute mass. */
const TYPICAL_MASS = 2_036;

function BucketRow({ label, bucket }: { label: string; bucket: NodeFeerateBucket }) {
  return (
    <tr className="border-t border-slate-200 dark:border-slate-800" data-testid="fee-bucket">
      <th scope="row" className="py-2 pr-3 text-left font-medium">
        {label}
      </th>
      <td className="py-2 pr-3 text-right tabular-nums">{formatFeeRate(bucket.feerate)}</td>
      <td className="py-2 pr-3 text-right tabular-nums">{Math.ceil(bucket.feerate * TYPICAL_MASS).toLocaleString('en')} sompi</td>
      <td className="py-2 text-right tabular-nums">{formatWait(bucket.estimatedSeconds)}</td>
    </tr>
  );
}

export function FeesView({ initialEstimate }: { initialEstimate: NodeFeeEstimate | null }) {
  const estimate = useResource(
    resources.feeEstimate,
    {},
    { refetchInterval: REFRESH_MS, initialData: initialEstimate === null ? undefined : { estimate: initialEstimate } },
  );
  const history = useFeeHistory();

  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card title="Fee estimate now">
        {estimate.isError ? (
          <ErrorState error={estimate.error} onRetry={() => void estimate.refetch()} />
        ) : estimate.isPending ? (
          <LoadingRows rows={4} label="Loading the fee estimate" />
        ) : (
          <table className="w-full text-sm" data-testid="fee-buckets">
            <thead>
              <tr className="text-left text-xs uppercase tracking-wide text-slate-500 dark:text-slate-400">
                <th scope="col" className="py-2 pr-3 font-medium">Bucket</th>
                <th scope="col" className="py-2 pr-3 text-right font-medium">Fee rate</th>
                <th scope="col" className="py-2 pr-3 text-right font-medium" title={`For a typical payment of ${TYPICAL_MASS} grams`}>
                  Typical fee
                </th>
                <th scope="col" className="py-2 text-right font-medium">Expected wait</th>
              </tr>
            </thead>
            <tbody>
              <BucketRow label="Priority" bucket={estimate.data.estimate.priorityBucket} />
              {estimate.data.estimate.normalBuckets.map((bucket, index) => (
                <BucketRow key={`normal-${index}`} label={`Normal ${index + 1}`} bucket={bucket} />
              ))}
              {estimate.data.estimate.lowBuckets.map((bucket, index) => (
                <BucketRow key={`low-${index}`} label={`Low ${index + 1}`} bucket={bucket} />
              ))}
            </tbody>
          </table>
        )}
      </Card>
      <Card title="Recent history">
        {history.isError ? (
          <ErrorState error={history.error} onRetry={() => void history.refetch()} />
        ) : history.isPending ? (
          <LoadingRows rows={4} label="Loading fee history" />
        ) : history.data.samples.length === 0 ? (
          <EmptyState>Sampling has just started; the first points appear within seconds.</EmptyState>
        ) : (
          <FeeChart samples={history.data.samples} />
        )}
      </Card>
    </div>
  );
}
