'use client';

import { useRouter } from 'next/navigation';
import { memo, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { Card, ScrollArea } from '@/components/ui';
import type { LiveBlock } from '@/lib/web/live-types';
import { absoluteTime, formatInteger, shortHash } from '@/lib/web/format';
import { pages } from '@/lib/web/urls';
import type { BlockSnapshot } from '@/components/block-store';
import { blockStatus, STATUS_FILL, STATUS_LABEL, type BlockStatus } from './block-status';

/**
 * The BlockDAG of the latest blocks as SVG (the dashboard's last minute, or the full-screen view's span): x by header
 * timestamp, blocks packed into lanes, an edge to each direct parent still in view (the selected parent's stronger). A block's position is fixed when first seen, so the view
 * scrolls by moving one group's transform; nodes are memoised and re-render only when their block changes, and all
 * edges are two <path> elements (to selected parents, to other parents), so the DOM holds one element per block.
 * One node is in the tab order at a time (roving focus): arrow keys move through time, Enter opens the block.
 */

/** The drawing's scale: how much time it shows, how wide a second is, and its lanes. */
export interface DagGeometry {
  windowMs: number;
  pxPerSecond: number;
  lanes: number;
  laneHeight: number;
  radius: number;
}

/** The dashboard's strip: the last minute in seven lanes. */
export const DASHBOARD_DAG: DagGeometry = { windowMs: 60_000, pxPerSecond: 30, lanes: 7, laneHeight: 24, radius: 4.5 };

const PADDING = 14;
/** Beyond this many blocks in the window (faster than 8 blocks/s over a minute) only the newest are drawn. */
const MAX_NODES = 480;

const spanText = (ms: number) => (ms === 60_000 ? 'minute' : `${ms / 1_000} seconds`);
const widthOf = (geometry: DagGeometry) => (geometry.windowMs / 1_000) * geometry.pxPerSecond;
const heightOf = (geometry: DagGeometry) => PADDING * 2 + (geometry.lanes - 1) * geometry.laneHeight;

interface Point {
  x: number;
  y: number;
}

interface Layout {
  origin: number;
  positions: Map<string, Point>;
  laneEnds: number[];
}

function place(layout: Layout, geometry: DagGeometry, block: LiveBlock): Point {
  const known = layout.positions.get(block.hash);
  if (known !== undefined) return known;
  const x = ((block.timestamp - layout.origin) / 1_000) * geometry.pxPerSecond;
  let lane = layout.laneEnds.findIndex((end) => end <= x - (geometry.radius * 2 + 2));
  if (lane < 0) lane = layout.laneEnds.indexOf(Math.min(...layout.laneEnds));
  layout.laneEnds[lane] = Math.max(layout.laneEnds[lane] ?? x, x);
  const point = { x, y: PADDING + lane * geometry.laneHeight };
  layout.positions.set(block.hash, point);
  return point;
}

interface PlacedBlock {
  block: LiveBlock;
  point: Point;
}

interface View {
  nodes: PlacedBlock[];
  offset: number;
  /** SVG path data: the edges to selected parents, and those to the other parents. */
  selectedEdges: string;
  otherEdges: string;
}

function segment(from: Point, to: Point): string {
  return `M${from.x.toFixed(1)} ${from.y}L${to.x.toFixed(1)} ${to.y}`;
}

/** Positions persist across renders (a block never moves); blocks that left the store are forgotten. */
function createLayout(geometry: DagGeometry): { view(snapshot: BlockSnapshot): View } {
  let layout: Layout | undefined;
  return {
    view(snapshot) {
      if (snapshot.blocks.length === 0) return { nodes: [], offset: 0, selectedEdges: '', otherEdges: '' };
      layout ??= { origin: snapshot.newest - geometry.windowMs, positions: new Map(), laneEnds: Array<number>(geometry.lanes).fill(-Infinity) };
      const current = layout;
      const start = snapshot.newest - geometry.windowMs;
      const nodes = snapshot.blocks
        .filter((block) => block.timestamp >= start)
        .sort((a, b) => a.timestamp - b.timestamp)
        .slice(-MAX_NODES)
        .map((block) => ({ block, point: place(current, geometry, block) }));
      const selected: string[] = [];
      const other: string[] = [];
      for (const { block, point } of nodes) {
        for (const parent of block.parents) {
          const target = current.positions.get(parent);
          if (target !== undefined) (parent === block.selectedParent ? selected : other).push(segment(point, target));
        }
      }
      const kept = new Set(snapshot.blocks.map((block) => block.hash));
      for (const hash of current.positions.keys()) {
        if (!kept.has(hash)) current.positions.delete(hash);
      }
      return {
        nodes,
        offset: ((snapshot.newest - current.origin) / 1_000) * geometry.pxPerSecond - widthOf(geometry) + PADDING,
        selectedEdges: selected.join(''),
        otherEdges: other.join(''),
      };
    },
  };
}

interface NodeProps {
  block: LiveBlock;
  status: BlockStatus;
  point: Point;
  radius: number;
  focusable: boolean;
  onSelect: (hash: string) => void;
  onOpen: (event: MouseEvent<Element>, hash: string) => void;
}

const Node = memo(function Node({ block, status, point, radius, focusable, onSelect, onOpen }: NodeProps) {
  const label = `Block ${shortHash(block.hash)}, ${STATUS_LABEL[status]}, DAA score ${block.daaScore}, ${block.txCount} transactions`;
  return (
    <a
      href={pages.block(block.hash)}
      data-hash={block.hash}
      data-status={status}
      tabIndex={focusable ? 0 : -1}
      aria-label={label}
      onClick={(event) => onOpen(event, block.hash)}
      onMouseEnter={() => onSelect(block.hash)}
      onFocus={() => onSelect(block.hash)}
      className="group outline-none"
    >
      <circle
        cx={point.x}
        cy={point.y}
        r={radius}
        className={`${STATUS_FILL[status]} stroke-white stroke-1 group-hover:stroke-slate-900 group-focus-visible:stroke-amber-500 group-focus-visible:stroke-2 dark:stroke-slate-900 dark:group-hover:stroke-white`}
      />
    </a>
  );
});

function Details({ block }: { block: LiveBlock | undefined }) {
  if (block === undefined) {
    return <p className="text-slate-600 dark:text-slate-400">Hover or focus a block to see its details; click or press Enter to open it.</p>;
  }
  const status = blockStatus(block);
  return (
    <dl className="grid grid-cols-2 gap-x-4 gap-y-0.5 sm:grid-cols-4">
      <div className="col-span-2 min-w-0">
        <dt className="sr-only">Hash</dt>
        <dd className="truncate font-mono" title={block.hash}>
          {block.hash}
        </dd>
      </div>
      <div>
        <dt className="inline text-slate-600 dark:text-slate-400">Status </dt>
        <dd className="inline">{STATUS_LABEL[status]}</dd>
      </div>
      <div>
        <dt className="inline text-slate-600 dark:text-slate-400">Txs </dt>
        <dd className="inline tabular-nums">{block.txCount}</dd>
      </div>
      <div>
        <dt className="inline text-slate-600 dark:text-slate-400">DAA </dt>
        <dd className="inline tabular-nums">{formatInteger(block.daaScore)}</dd>
      </div>
      <div>
        <dt className="inline text-slate-600 dark:text-slate-400">Blue score </dt>
        <dd className="inline tabular-nums">{formatInteger(block.blueScore)}</dd>
      </div>
      <div className="col-span-2">
        <dt className="inline text-slate-600 dark:text-slate-400">Time </dt>
        <dd className="inline">{absoluteTime(block.timestamp)}</dd>
      </div>
    </dl>
  );
}

const LEGEND: BlockStatus[] = ['chain', 'blue', 'red', 'pending'];

export interface DagViewProps {
  snapshot: BlockSnapshot;
  geometry?: DagGeometry;
  title?: string;
  /** Controls shown in a row above the drawing. */
  controls?: ReactNode;
  /**
   * Draw at the geometry's own pixel size in a horizontally scrolling frame that starts at the newest blocks (the
   * full-screen view), instead of scaling the drawing to the card's width (the dashboard's strip).
   */
  actualSize?: boolean;
}

export function DagView({ snapshot, geometry = DASHBOARD_DAG, title = 'BlockDAG, last minute', controls, actualSize = false }: DagViewProps) {
  const router = useRouter();
  const [layout] = useState(() => createLayout(geometry));
  const svgRef = useRef<SVGSVGElement>(null);
  const [selected, setSelected] = useState<string | undefined>();
  const [focusHash, setFocusHash] = useState<string | undefined>();

  const visible = useMemo(() => layout.view(snapshot), [layout, snapshot]);

  const byHash = useMemo(() => new Map(visible.nodes.map((node) => [node.block.hash, node.block])), [visible]);
  const rovingHash = focusHash !== undefined && byHash.has(focusHash) ? focusHash : visible.nodes.at(-1)?.block.hash;

  const onOpen = useMemo(
    () => (event: MouseEvent<Element>, hash: string) => {
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
      event.preventDefault();
      router.push(pages.block(hash));
    },
    [router],
  );

  const onKeyDown = (event: KeyboardEvent<SVGSVGElement>) => {
    if (event.key === 'Enter' || event.key === ' ') {
      const hash = (event.target as Element).closest('a[data-hash]')?.getAttribute('data-hash');
      if (hash === null || hash === undefined) return;
      event.preventDefault();
      router.push(pages.block(hash));
      return;
    }
    const order = visible.nodes.map((node) => node.block.hash);
    const current = order.indexOf(rovingHash ?? '');
    const target =
      event.key === 'ArrowLeft' ? current - 1 : event.key === 'ArrowRight' ? current + 1 : event.key === 'Home' ? 0 : event.key === 'End' ? order.length - 1 : null;
    if (target === null) return;
    event.preventDefault();
    const hash = order[Math.max(0, Math.min(order.length - 1, target))];
    if (hash === undefined) return;
    setFocusHash(hash);
    svgRef.current?.querySelector<SVGAElement>(`a[data-hash="${hash}"]`)?.focus();
  };

  const width = widthOf(geometry);
  const height = heightOf(geometry);
  const legend = (
    <ul className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-700 dark:text-slate-300" aria-label="Legend">
      {LEGEND.map((status) => (
        <li key={status} className="inline-flex items-center gap-1">
          <svg width="10" height="10" aria-hidden="true">
            <circle cx="5" cy="5" r="4" className={STATUS_FILL[status]} />
          </svg>
          {STATUS_LABEL[status]}
        </li>
      ))}
    </ul>
  );

  const drawing = (
    <svg
      ref={svgRef}
      viewBox={`0 0 ${width + PADDING * 2} ${height}`}
      width={actualSize ? width + PADDING * 2 : undefined}
      height={actualSize ? height : undefined}
      className={actualSize ? 'block max-w-none' : 'block h-auto w-full'}
      role="group"
      aria-label={`BlockDAG of the last ${spanText(geometry.windowMs)}: ${visible.nodes.length} blocks, newest on the right. Use the arrow keys to move between blocks.`}
      onKeyDown={onKeyDown}
      onMouseLeave={() => setSelected(undefined)}
    >
      <g transform={`translate(${(-visible.offset).toFixed(1)} 0)`}>
        <path d={visible.otherEdges} fill="none" strokeWidth={0.7} className="stroke-slate-300 dark:stroke-slate-700" />
        <path d={visible.selectedEdges} fill="none" strokeWidth={1.2} className="stroke-slate-500 dark:stroke-slate-400" />
        {visible.nodes.map(({ block, point }) => (
          <Node
            key={block.hash}
            block={block}
            status={blockStatus(block)}
            point={point}
            radius={geometry.radius}
            focusable={block.hash === rovingHash}
            onSelect={setSelected}
            onOpen={onOpen}
          />
        ))}
      </g>
    </svg>
  );

  return (
    <Card title={title} actions={legend}>
      {controls !== undefined && <div className="mb-2 flex flex-wrap items-center gap-2 text-sm">{controls}</div>}
      <div className="overflow-hidden rounded border border-slate-100 bg-slate-50 dark:border-slate-800 dark:bg-slate-950">
        {actualSize ? (
          <ScrollArea label="BlockDAG drawing" startAtEnd>
            {drawing}
          </ScrollArea>
        ) : (
          drawing
        )}
      </div>
      <div className="mt-2 h-14 overflow-hidden text-xs sm:h-10" aria-live="off">
        <Details block={selected === undefined ? undefined : byHash.get(selected)} />
      </div>
    </Card>
  );
}
