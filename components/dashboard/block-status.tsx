import type { LiveBlock } from '@/lib/web/live-types';

export type BlockStatus = 'chain' | 'blue' | 'red' | 'pending';

export function blockStatus(block: LiveBlock): BlockStatus {
  if (block.isChainBlock === true) return 'chain';
  return block.color ?? 'pending';
}

export const STATUS_LABEL: Record<BlockStatus, string> = {
  chain: 'Chain',
  blue: 'Blue',
  red: 'Red',
  pending: 'Not merged yet',
};

export const STATUS_HINT: Record<BlockStatus, string> = {
  chain: 'On the selected chain: its merge set is accepted in order.',
  blue: 'Merged by a chain block as blue: its transactions are considered for acceptance and its miner is rewarded.',
  red: 'Merged by a chain block as red (outside the blue k-cluster): its miner gets no reward; its non-conflicting transactions are still accepted.',
  pending: 'No chain block has merged it yet.',
};

/** SVG fill classes, light and dark. */
export const STATUS_FILL: Record<BlockStatus, string> = {
  chain: 'fill-teal-600 dark:fill-teal-400',
  blue: 'fill-sky-500 dark:fill-sky-400',
  red: 'fill-red-600 dark:fill-red-400',
  pending: 'fill-slate-400 dark:fill-slate-500',
};

const BADGE: Record<BlockStatus, string> = {
  chain: 'bg-teal-100 text-teal-900 dark:bg-teal-900/60 dark:text-teal-100',
  blue: 'bg-sky-100 text-sky-900 dark:bg-sky-900/60 dark:text-sky-100',
  red: 'bg-red-100 text-red-900 dark:bg-red-900/60 dark:text-red-100',
  pending: 'bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-200',
};

export function StatusBadge({ status }: { status: BlockStatus }) {
  return (
    <span title={STATUS_HINT[status]} className={`inline-block rounded px-1.5 py-0.5 text-xs font-medium whitespace-nowrap ${BADGE[status]}`}>
      {STATUS_LABEL[status]}
    </span>
  );
}
