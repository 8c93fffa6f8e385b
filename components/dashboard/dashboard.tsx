'use client';

import Link from 'next/link';
import { useState, useSyncExternalStore } from 'react';
import { useLiveEvents } from '@/components/live-provider';
import type { LiveBlock } from '@/lib/web/live-types';
import { pages } from '@/lib/web/urls';
import { BlockStream } from './block-stream';
import { CovenantActivity } from './covenant-activity';
import { createBlockStore } from '@/components/block-store';
import { DagView } from './dag-view';
import { LatestTransactions } from './latest-transactions';
import { NetworkFigures, type NetworkFiguresProps } from './network-figures';

export interface DashboardProps extends NetworkFiguresProps {
  network: string | null;
  initialBlocks: LiveBlock[];
}

export function Dashboard({ network, initialBlocks, ...figures }: DashboardProps) {
  const [store] = useState(() => createBlockStore(initialBlocks));
  useLiveEvents((event) => store.apply(event));
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  return (
    <main className="mx-auto max-w-7xl space-y-4 px-4 py-6">
      <div className="flex flex-wrap items-baseline gap-x-3">
        <h1 className="text-2xl font-semibold tracking-tight">Network dashboard</h1>
        {network !== null && <p className="text-sm text-slate-600 dark:text-slate-400">Kaspa {network}</p>}
      </div>
      <NetworkFigures {...figures} />
      <DagView
        snapshot={snapshot}
        controls={
          <Link href={pages.dag()} className="text-teal-700 underline-offset-2 hover:underline dark:text-teal-400">
            Full-screen live view
          </Link>
        }
      />
      <div className="grid min-w-0 gap-4 lg:grid-cols-2">
        <BlockStream snapshot={snapshot} />
        <LatestTransactions snapshot={snapshot} />
      </div>
      <CovenantActivity />
    </main>
  );
}
