'use client';

import Link from 'next/link';
import { absoluteTime, shortHash } from '@/lib/web/format';
import { lineageTimeline, type LineageStepKind } from '@/lib/web/covenant-lineage';
import { pages } from '@/lib/web/urls';

const KIND_STYLE: Record<LineageStepKind, { fill: string; label: string }> = {
  genesis: { fill: 'fill-teal-600 dark:fill-teal-400', label: 'genesis' },
  continuation: { fill: 'fill-violet-600 dark:fill-violet-400', label: 'continuation' },
  split: { fill: 'fill-amber-500 dark:fill-amber-400', label: 'split' },
  end: { fill: 'fill-slate-700 dark:fill-slate-200', label: 'end' },
};

const WIDTH = 1000;
const HEIGHT = 56;
const MARGIN = 12;
const AXIS_Y = 28;

/**
 * The lineage on a time axis: genesis at the left, the last activity (ended) or now (active) at the right, one mark
 * per loaded transaction. The drawing scales to the card's width; each mark links to its transaction.
 */
export function CovenantTimeline({
  steps,
  start,
  end,
  active,
}: {
  steps: readonly { transactionId: string; blockTime: number; kind: LineageStepKind }[];
  start: number;
  end: number;
  active: boolean;
}) {
  const points = lineageTimeline(steps, start, end);
  const x = (at: number) => MARGIN + at * (WIDTH - 2 * MARGIN);
  return (
    <figure className="space-y-2" data-testid="covenant-timeline">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className="h-14 w-full" role="group" aria-label="Lineage over time, oldest at the left">
        <line x1={MARGIN} x2={WIDTH - MARGIN} y1={AXIS_Y} y2={AXIS_Y} className="stroke-slate-300 dark:stroke-slate-600" strokeWidth={2} />
        {active && (
          <line
            x1={WIDTH - MARGIN}
            x2={WIDTH - MARGIN}
            y1={AXIS_Y - 12}
            y2={AXIS_Y + 12}
            className="stroke-teal-600 dark:stroke-teal-400"
            strokeWidth={2}
            strokeDasharray="3 3"
          />
        )}
        {points.map((point) => (
          <Link
            key={point.transactionId}
            href={pages.transaction(point.transactionId)}
            aria-label={`${KIND_STYLE[point.kind].label} ${shortHash(point.transactionId)}`}
          >
            <circle cx={x(point.at)} cy={AXIS_Y} r={point.kind === 'continuation' ? 6 : 9} className={KIND_STYLE[point.kind].fill}>
              <title>{`${KIND_STYLE[point.kind].label} ${shortHash(point.transactionId)}`}</title>
            </circle>
          </Link>
        ))}
      </svg>
      <figcaption className="flex flex-wrap justify-between gap-2 text-xs text-slate-600 dark:text-slate-400">
        <span>{absoluteTime(start)}</span>
        <span className="flex flex-wrap gap-3">
          {(Object.keys(KIND_STYLE) as LineageStepKind[]).map((kind) => (
            <span key={kind} className="inline-flex items-center gap-1">
              <svg width="10" height="10" aria-hidden="true">
                <circle cx="5" cy="5" r="5" className={KIND_STYLE[kind].fill} />
              </svg>
              {KIND_STYLE[kind].label}
            </span>
          ))}
        </span>
        <span>{active ? 'now' : absoluteTime(end)}</span>
      </figcaption>
    </figure>
  );
}

export function kindLabel(kind: LineageStepKind): string {
  return KIND_STYLE[kind].label;
}
