'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import type { BlockSnapshot } from '@/components/block-store';
import { useRecentBlocks } from '@/components/live-provider';
import { blockStatus } from '@/components/dashboard/block-status';
import { DagView, type DagGeometry } from '@/components/dashboard/dag-view';
import { formatInteger } from '@/lib/web/format';
import { DAG_SPANS, pages, type DagSpan } from '@/lib/web/urls';

/**
 * The full-screen live BlockDAG: the dashboard's drawing at its own pixel size (large dots a finger can hit, a frame
 * that scrolls sideways on a phone and opens at the newest blocks), over a chosen span, with pause. Paused, the
 * drawing holds the moment it was paused while the store keeps following the stream, so resuming jumps to now.
 * The blocks come from the live connection's own store, never from the server's first paint: a span at 10 blocks/s
 * would make the page's HTML hundreds of kilobytes, and the stream's connect replay delivers them a moment later.
 */

/** Each span draws 1,080 to 1,200 px wide, so it fits a laptop's screen whole; narrower screens scroll. */
const GEOMETRY: Record<DagSpan, DagGeometry> = {
  15: { windowMs: 15_000, pxPerSecond: 72, lanes: 12, laneHeight: 34, radius: 8 },
  30: { windowMs: 30_000, pxPerSecond: 40, lanes: 12, laneHeight: 34, radius: 7 },
  60: { windowMs: 60_000, pxPerSecond: 20, lanes: 12, laneHeight: 30, radius: 6 },
};

function figures(snapshot: BlockSnapshot, windowMs: number) {
  const start = snapshot.newest - windowMs;
  const blocks = snapshot.blocks.filter((block) => block.timestamp >= start);
  const count = (status: ReturnType<typeof blockStatus>) => blocks.filter((block) => blockStatus(block) === status).length;
  return { blocks: blocks.length, chain: count('chain'), red: count('red'), perSecond: blocks.length / (windowMs / 1_000) };
}

export function LiveDag({ span }: { span: DagSpan }) {
  const router = useRouter();
  const live = useRecentBlocks();
  const [paused, setPaused] = useState<BlockSnapshot | null>(null);
  const shown = paused ?? live;
  const geometry = GEOMETRY[span];
  const counts = figures(shown, geometry.windowMs);

  const controls = (
    <>
      <div role="group" aria-label="Span" className="inline-flex overflow-hidden rounded border border-slate-300 dark:border-slate-700">
        {DAG_SPANS.map((choice) => (
          <button
            key={choice}
            type="button"
            aria-pressed={choice === span}
            onClick={() => router.replace(pages.dag(choice))}
            className="px-2.5 py-1 aria-pressed:bg-teal-700 aria-pressed:text-white dark:aria-pressed:bg-teal-600"
          >
            {choice} s
          </button>
        ))}
      </div>
      <button
        type="button"
        aria-pressed={paused !== null}
        onClick={() => setPaused(paused === null ? live : null)}
        className="rounded border border-slate-300 px-3 py-1 aria-pressed:bg-amber-100 dark:border-slate-700 dark:aria-pressed:bg-amber-900"
      >
        {paused === null ? 'Pause' : 'Resume'}
      </button>
      <p className="text-slate-600 dark:text-slate-400" data-testid="dag-figures" aria-live="off">
        {formatInteger(counts.blocks)} blocks ({counts.perSecond.toFixed(1)}/s), {formatInteger(counts.chain)} on the selected chain,{' '}
        {formatInteger(counts.red)} red{paused !== null && ' · paused'}
      </p>
    </>
  );

  return <DagView key={span} snapshot={shown} geometry={geometry} title={`Live BlockDAG, last ${span} seconds`} controls={controls} actualSize />;
}
