'use client';

import Link from 'next/link';
import { Card, CovenantLink, EmptyState, ErrorState, LoadingRows, TimeAgo } from '@/components/ui';
import { formatInteger } from '@/lib/web/format';
import { useResource } from '@/lib/web/queries';
import { resources } from '@/lib/web/resources';
import { pages } from '@/lib/web/urls';
import { CovenantStateBadge } from '../covenant/covenant-view';

const ROWS = 5;
const REFRESH_MS = 5_000;

/** The covenants with the most recent activity (GET /v1/covenants, newest activity first). */
export function CovenantActivity() {
  const list = useResource(resources.covenants, { query: { limit: ROWS } }, { refetchInterval: REFRESH_MS });
  const covenants = list.data?.covenants ?? [];
  return (
    <Card
      title="Covenant activity"
      actions={
        <Link href={pages.covenants()} className="text-sm text-teal-700 hover:underline dark:text-teal-400">
          All covenants
        </Link>
      }
    >
      {list.isPending ? (
        <LoadingRows rows={ROWS} label="Loading covenants" />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : covenants.length === 0 ? (
        <EmptyState>No covenant yet: one appears once a transaction binding an output to a new covenant is accepted.</EmptyState>
      ) : (
        <ul className="divide-y divide-slate-100 text-sm dark:divide-slate-800" data-testid="dashboard-covenants">
          {covenants.map((covenant) => (
            <li key={covenant.covenantId} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2">
              <CovenantLink id={covenant.covenantId} />
              <CovenantStateBadge state={covenant.state} />
              <span className="text-slate-600 dark:text-slate-400">
                {formatInteger(covenant.utxoCount)} UTXO{covenant.utxoCount === 1 ? '' : 's'}
              </span>
              <span className="ml-auto text-slate-600 dark:text-slate-400">
                <TimeAgo time={covenant.lastActivityAt} />
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
