'use client';

import Link from 'next/link';
import { ShowApiCall } from '@/components/show-api-call';
import { BlockLink, Card, EmptyState, Kas, ScrollArea, TimeAgo, TransactionLink } from '@/components/ui';
import { absoluteTime, formatInteger } from '@/lib/web/format';
import { useResource } from '@/lib/web/queries';
import { resources, type ResultOf } from '@/lib/web/resources';
import { pages } from '@/lib/web/urls';

export type TimeJump =
  | { error: string }
  | { time: number; estimate: string; found: string; exact: boolean; clamped: 'future' | 'past' | null };

/** A range whose newest block is this recent (or that has none yet) may still be filling in: refresh it. */
const FILLING_WINDOW_MS = 60_000;
const FILLING_REFRESH_MS = 5_000;

function isFilling(range: ResultOf<typeof resources.daaRange>, now: number): boolean {
  const newest = range.blocks.reduce((latest, block) => Math.max(latest, Date.parse(block.timestamp)), 0);
  return range.blocks.length === 0 || now - newest < FILLING_WINDOW_MS;
}

const LINK = 'text-teal-700 hover:underline focus:outline-none focus:ring-2 focus:ring-teal-500 dark:text-teal-400';
const FIELD =
  'min-w-0 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm focus:outline-none focus:ring-2 focus:ring-teal-500 dark:border-slate-700 dark:bg-slate-900';
const BUTTON = 'rounded-md bg-teal-700 px-3 py-1 text-sm font-medium text-white hover:bg-teal-800 focus:outline-none focus:ring-2 focus:ring-teal-500';

function TimeJumpNote({ jump, blocksPerSecond }: { jump: TimeJump; blocksPerSecond: number }) {
  if ('error' in jump) {
    return (
      <p role="alert" className="rounded-md border border-amber-400 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-600 dark:bg-amber-950 dark:text-amber-50">
        {jump.error}
      </p>
    );
  }
  return (
    <section aria-label="Time jump" className="rounded-md border border-sky-400 bg-sky-50 p-3 text-sm text-sky-950 dark:border-sky-600 dark:bg-sky-950 dark:text-sky-50" data-testid="time-jump">
      <p>
        <strong>{absoluteTime(jump.time)}</strong> maps to DAA score <strong>{formatInteger(jump.found)}</strong>.
      </p>
      <p className="mt-1">
        First estimate: {formatInteger(jump.estimate)} — the current virtual DAA score minus {blocksPerSecond} scores for each
        second since then (the network&apos;s target block rate).{' '}
        {jump.clamped === 'future'
          ? 'The time is after the newest block, so this is the tip.'
          : jump.clamped === 'past'
            ? 'The time is before the oldest block the node keeps, so this is the oldest one.'
            : jump.exact
              ? 'Corrected by the chain blocks’ own timestamps: the score is that of the last chain block stamped at or before the time.'
              : 'The chain blocks’ timestamps did not bracket the time within a few lookups, so this is the closest estimate.'}
      </p>
    </section>
  );
}

export function DaaRangeView({
  start,
  end,
  allBlocks,
  maxWidth,
  timeJump,
  blocksPerSecond,
  initialData,
}: {
  start: string;
  end: string;
  allBlocks: boolean;
  maxWidth: string;
  timeJump: TimeJump | null;
  blocksPerSecond: number;
  initialData: ResultOf<typeof resources.daaRange>;
}) {
  const call = {
    params: { daa_score_start: start, daa_score_end: end },
    query: { chain_blocks_only: !allBlocks, include_transactions: true },
  };
  const query = useResource(resources.daaRange, call, {
    initialData,
    staleTime: FILLING_REFRESH_MS,
    refetchInterval: (current) => (isFilling(current.state.data ?? initialData, Date.now()) ? FILLING_REFRESH_MS : false),
  });
  const { blocks, transactions } = query.data ?? initialData;
  const low = BigInt(start);
  const high = BigInt(end);
  const width = high - low;
  const allQuery = allBlocks ? { all: 1 } : undefined;
  const previous = low > 0n ? { start: low > width ? low - width - 1n : 0n, end: low - 1n } : null;
  const next = { start: high + 1n, end: high + 1n + width };
  const sortedBlocks = [...blocks].sort((a, b) => b.daaScore - a.daaScore);

  return (
    <main className="mx-auto max-w-7xl space-y-4 px-4 py-6">
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="text-2xl font-semibold tracking-tight">
          DAA scores {formatInteger(start)} – {formatInteger(end)}
        </h1>
        <span className="ml-auto">
          <ShowApiCall
            request={{
              route: resources.daaRange.route,
              params: call.params,
              query: { chain_blocks_only: String(!allBlocks), include_transactions: 'true' },
            }}
          />
        </span>
      </div>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        The DAA score counts the blocks in a block&apos;s past at the network&apos;s target rate (about {blocksPerSecond} a second),
        so a range of {formatInteger(width + 1n)} scores covers roughly {formatInteger((width + 1n) / BigInt(Math.max(1, blocksPerSecond)))} seconds.
      </p>

      <nav aria-label="Range" className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
        {previous === null ? (
          <span className="text-slate-500 dark:text-slate-400">← Previous range</span>
        ) : (
          <Link href={pages.daaRange(previous.start, previous.end, allQuery)} className={LINK} rel="prev">
            ← Previous range
          </Link>
        )}
        <Link href={pages.daaRange(next.start, next.end, allQuery)} className={LINK} rel="next">
          Next range →
        </Link>
        <span className="flex gap-1 rounded-md border border-slate-300 p-0.5 dark:border-slate-700">
          <Link
            href={pages.daaRange(start, end)}
            aria-current={allBlocks ? undefined : 'page'}
            className={`rounded px-2 py-0.5 ${allBlocks ? '' : 'bg-teal-700 text-white'} focus:outline-none focus:ring-2 focus:ring-teal-500`}
          >
            Chain blocks only
          </Link>
          <Link
            href={pages.daaRange(start, end, { all: 1 })}
            aria-current={allBlocks ? 'page' : undefined}
            className={`rounded px-2 py-0.5 ${allBlocks ? 'bg-teal-700 text-white' : ''} focus:outline-none focus:ring-2 focus:ring-teal-500`}
          >
            All blocks
          </Link>
        </span>
      </nav>

      <div className="grid gap-3 md:grid-cols-2">
        <form action={pages.daaRange(start, end)} method="get" className="flex flex-wrap items-end gap-2" aria-label="Jump to a DAA score">
          {allBlocks && <input type="hidden" name="all" value="1" />}
          <label className="flex min-w-0 flex-1 flex-col text-sm">
            <span className="text-slate-600 dark:text-slate-400">Jump to DAA score</span>
            <input name="score" inputMode="numeric" pattern="[0-9]+" required className={FIELD} placeholder="e.g. 12345" />
          </label>
          <button type="submit" className={BUTTON}>
            Go
          </button>
        </form>
        <form action={pages.daaRange(start, end)} method="get" className="flex flex-wrap items-end gap-2" aria-label="Jump to a time">
          {allBlocks && <input type="hidden" name="all" value="1" />}
          <label className="flex min-w-0 flex-1 flex-col text-sm">
            <span className="text-slate-600 dark:text-slate-400">Jump to a time (UTC)</span>
            <input name="at" type="datetime-local" step="1" required className={FIELD} />
          </label>
          <button type="submit" className={BUTTON}>
            Go
          </button>
        </form>
      </div>
      {timeJump !== null && <TimeJumpNote jump={timeJump} blocksPerSecond={blocksPerSecond} />}

      <Card title={`${allBlocks ? 'Blocks' : 'Chain blocks'} (${blocks.length})`}>
        {blocks.length === 0 ? (
          <EmptyState>
            No {allBlocks ? 'blocks' : 'chain blocks'} in this range. It may lie beyond the tip (the newest DAA scores are
            still being mined) or before the oldest block the node keeps. At most {formatInteger(maxWidth)} scores fit in
            one range.
          </EmptyState>
        ) : (
          <ScrollArea label="Blocks in the range">
            <table className="w-full text-left text-sm whitespace-nowrap">
              <caption className="sr-only">Blocks in the range, newest first</caption>
              <thead className="text-xs uppercase text-slate-500 dark:text-slate-400">
                <tr>
                  <th scope="col" className="py-1 pr-3 font-medium">Block</th>
                  <th scope="col" className="py-1 pr-3 text-right font-medium">DAA score</th>
                  <th scope="col" className="py-1 pr-3 text-right font-medium">Blue score</th>
                  <th scope="col" className="py-1 pr-3 font-medium">Time</th>
                  {allBlocks && <th scope="col" className="py-1 pr-3 font-medium">Chain</th>}
                  <th scope="col" className="py-1 text-right font-medium">Txs</th>
                </tr>
              </thead>
              <tbody>
                {sortedBlocks.map((block) => (
                  <tr key={block.hash} className="border-t border-slate-100 dark:border-slate-800" data-testid="range-block">
                    <td className="py-1 pr-3">
                      <BlockLink hash={block.hash} />
                    </td>
                    <td className="py-1 pr-3 text-right tabular-nums">{formatInteger(block.daaScore)}</td>
                    <td className="py-1 pr-3 text-right tabular-nums">{formatInteger(block.blueScore)}</td>
                    <td className="py-1 pr-3">
                      <TimeAgo time={Date.parse(block.timestamp)} />
                    </td>
                    {allBlocks && <td className="py-1 pr-3">{block.isChainBlock ? 'yes' : 'no'}</td>}
                    <td className="py-1 text-right tabular-nums">{block.transactionIds.length}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollArea>
        )}
      </Card>

      <Card title={`Transactions (${transactions.length})`}>
        {transactions.length === 0 ? (
          <EmptyState>No transactions in these blocks.</EmptyState>
        ) : (
          <ScrollArea label="Transactions of the blocks in the range">
            <table className="w-full text-left text-sm whitespace-nowrap">
              <caption className="sr-only">Transactions of the blocks in the range</caption>
              <thead className="text-xs uppercase text-slate-500 dark:text-slate-400">
                <tr>
                  <th scope="col" className="py-1 pr-3 font-medium">Transaction</th>
                  <th scope="col" className="py-1 pr-3 font-medium">Time</th>
                  <th scope="col" className="py-1 pr-3 font-medium">Status</th>
                  <th scope="col" className="py-1 text-right font-medium">Output total</th>
                </tr>
              </thead>
              <tbody>
                {transactions.map((transaction) => (
                  <tr key={transaction.transactionId} className="border-t border-slate-100 dark:border-slate-800" data-testid="range-transaction">
                    <td className="py-1 pr-3">
                      <TransactionLink id={transaction.transactionId} />
                    </td>
                    <td className="py-1 pr-3">
                      <TimeAgo time={transaction.blockTime} />
                    </td>
                    <td className="py-1 pr-3">{transaction.isAccepted ? 'accepted' : 'not accepted'}</td>
                    <td className="py-1 text-right">
                      <Kas sompi={transaction.outputs.reduce((sum, output) => sum + BigInt(output.amount), 0n)} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollArea>
        )}
      </Card>
    </main>
  );
}
