'use client';

import Link from 'next/link';
import { shortHash } from '@/lib/web/format';
import { pages } from '@/lib/web/urls';

/**
 * The block's place in the DAG, drawn small: its parents on the left (the selected parent marked, the others coloured
 * blue or red as this block's merge set judged them), the block in the middle, its children on the right. Edges point
 * from a block to its parents, as in the DAG. Long lists draw their first MAX_DRAWN and say how many more.
 */

const MAX_DRAWN = 6;
const ROW = 30;
const TOP = 18;
const COLUMN_X = { parents: 50, block: 180, children: 310 } as const;
const WIDTH = 360;

type Tone = 'selected' | 'blue' | 'red' | 'self' | 'child';

const FILL: Record<Tone, string> = {
  selected: 'fill-teal-600 dark:fill-teal-400',
  blue: 'fill-sky-500 dark:fill-sky-400',
  red: 'fill-red-600 dark:fill-red-400',
  self: 'fill-amber-500 dark:fill-amber-400',
  child: 'fill-slate-400 dark:fill-slate-500',
};

interface Placed {
  hash: string;
  tone: Tone;
  y: number;
}

function column(hashes: readonly string[], toneOf: (hash: string) => Tone, height: number): { placed: Placed[]; more: number } {
  const drawn = hashes.slice(0, MAX_DRAWN);
  const span = (drawn.length - 1) * ROW;
  const start = (height - span) / 2;
  return { placed: drawn.map((hash, index) => ({ hash, tone: toneOf(hash), y: start + index * ROW })), more: hashes.length - drawn.length };
}

function Node({ hash, tone, x, y }: { hash: string; tone: Tone; x: number; y: number }) {
  const dot = <circle cx={x} cy={y} r={tone === 'self' ? 9 : 7} className={`${FILL[tone]} stroke-white dark:stroke-slate-900`} strokeWidth={1.5} />;
  const label = (
    <text x={x} y={y + 19} textAnchor="middle" className="fill-slate-600 font-mono text-[9px] dark:fill-slate-400">
      {shortHash(hash, 4)}
    </text>
  );
  if (tone === 'self') return <g data-testid="neighbourhood-self">{dot}{label}</g>;
  return (
    // The name starts with the text drawn (the short hash), as the label-in-name rule asks, then the whole hash.
    <Link href={pages.block(hash)} aria-label={`${shortHash(hash, 4)}, block ${hash}`} data-hash={hash} data-tone={tone}>
      {dot}
      {label}
    </Link>
  );
}

export interface BlockNeighbourhoodProps {
  hash: string;
  parents: readonly string[];
  selectedParent: string | undefined;
  mergeSetReds: readonly string[];
  childBlocks: readonly string[];
}

export function BlockNeighbourhood({ hash, parents, selectedParent, mergeSetReds, childBlocks }: BlockNeighbourhoodProps) {
  const reds = new Set(mergeSetReds);
  const ordered = selectedParent === undefined ? parents : [selectedParent, ...parents.filter((parent) => parent !== selectedParent)];
  const rows = Math.max(1, Math.min(MAX_DRAWN, Math.max(ordered.length, childBlocks.length)));
  const height = TOP * 2 + (rows - 1) * ROW + 10;
  const middle = (height - 10) / 2;
  const left = column(ordered, (parent) => (parent === selectedParent ? 'selected' : reds.has(parent) ? 'red' : 'blue'), height - 10);
  const right = column(childBlocks, () => 'child', height - 10);
  return (
    <figure>
      <svg
        viewBox={`0 0 ${WIDTH} ${height}`}
        className="h-auto w-full max-w-md"
        role="group"
        aria-label={`The block with its ${parents.length} parents and ${childBlocks.length} children`}
        data-testid="block-neighbourhood"
      >
        {left.placed.map((parent) => (
          <line
            key={`edge-${parent.hash}`}
            x1={COLUMN_X.block}
            y1={middle}
            x2={COLUMN_X.parents}
            y2={parent.y}
            strokeWidth={parent.tone === 'selected' ? 2 : 1}
            className={parent.tone === 'selected' ? 'stroke-slate-600 dark:stroke-slate-300' : 'stroke-slate-300 dark:stroke-slate-600'}
          />
        ))}
        {right.placed.map((child) => (
          <line
            key={`edge-${child.hash}`}
            x1={COLUMN_X.children}
            y1={child.y}
            x2={COLUMN_X.block}
            y2={middle}
            strokeWidth={1}
            className="stroke-slate-300 dark:stroke-slate-600"
          />
        ))}
        {left.placed.map((parent) => (
          <Node key={parent.hash} hash={parent.hash} tone={parent.tone} x={COLUMN_X.parents} y={parent.y} />
        ))}
        <Node hash={hash} tone="self" x={COLUMN_X.block} y={middle} />
        {right.placed.map((child) => (
          <Node key={child.hash} hash={child.hash} tone="child" x={COLUMN_X.children} y={child.y} />
        ))}
        {left.more > 0 && (
          <text x={COLUMN_X.parents} y={height - 2} textAnchor="middle" className="fill-slate-500 text-[10px]">
            +{left.more} more
          </text>
        )}
        {right.more > 0 && (
          <text x={COLUMN_X.children} y={height - 2} textAnchor="middle" className="fill-slate-500 text-[10px]">
            +{right.more} more
          </text>
        )}
      </svg>
      <figcaption className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        Parents on the left (the selected parent in teal, the others blue or red as this block&apos;s merge set judged
        them), children on the right; the thicker edge is the selected parent.
      </figcaption>
    </figure>
  );
}
