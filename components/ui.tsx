'use client';

import Link from 'next/link';
import { useState, useSyncExternalStore, type ReactNode } from 'react';
import { absoluteTime, kasDisplay, kasExact, relativeTime, shortAddress, shortHash } from '@/lib/web/format';
import { pages } from '@/lib/web/urls';
import { ApiProblem } from '@/lib/web/queries';

/** Shared building blocks of the explorer's pages: links to entities, amounts, times, copy, loading and error states. */

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  async function handleClick() {
    await navigator.clipboard.writeText(text);
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  }
  return (
    <button
      type="button"
      onClick={handleClick}
      className="ml-1 inline-flex items-center rounded px-1 text-xs text-slate-500 hover:bg-slate-200 hover:text-slate-900 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-slate-100"
      aria-label={`${label}: ${text}`}
      title={copied ? 'Copied' : label}
    >
      {copied ? '✓' : '⧉'}
    </button>
  );
}

const LINK_CLASS = 'font-mono text-teal-700 hover:underline dark:text-teal-400';

export function BlockLink({ hash, full = false, copy = false }: { hash: string; full?: boolean; copy?: boolean }) {
  return (
    <span className="inline-flex items-center">
      <Link href={pages.block(hash)} className={LINK_CLASS} title={hash}>
        {full ? hash : shortHash(hash)}
      </Link>
      {copy && <CopyButton text={hash} label="Copy block hash" />}
    </span>
  );
}

export function TransactionLink({ id, full = false, copy = false }: { id: string; full?: boolean; copy?: boolean }) {
  return (
    <span className="inline-flex items-center">
      <Link href={pages.transaction(id)} className={LINK_CLASS} title={id}>
        {full ? id : shortHash(id)}
      </Link>
      {copy && <CopyButton text={id} label="Copy transaction id" />}
    </span>
  );
}

export function AddressLink({ address, full = false, copy = false }: { address: string; full?: boolean; copy?: boolean }) {
  return (
    <span className="inline-flex min-w-0 items-center">
      <Link href={pages.address(address)} className={`${LINK_CLASS} break-all`} title={address}>
        {full ? address : shortAddress(address)}
      </Link>
      {copy && <CopyButton text={address} label="Copy address" />}
    </span>
  );
}

/** KAS rounded for reading, exact KAS and sompi on hover. */
export function Kas({ sompi, digits = 4, signed = false }: { sompi: string | bigint; digits?: number; signed?: boolean }) {
  const value = BigInt(sompi);
  const sign = signed && value > 0n ? '+' : '';
  return (
    <span className="tabular-nums" title={kasExact(value)}>
      {sign}
      {kasDisplay(value, digits)}
    </span>
  );
}

const clockListeners = new Set<() => void>();
let clockNow = 0;
let clockTimer: ReturnType<typeof setInterval> | undefined;

/** One shared one-second clock for every TimeAgo on the page. */
function subscribeClock(listener: () => void): () => void {
  clockListeners.add(listener);
  if (clockTimer === undefined) {
    clockNow = Date.now();
    clockTimer = setInterval(() => {
      clockNow = Date.now();
      for (const notify of clockListeners) notify();
    }, 1000);
  }
  return () => {
    clockListeners.delete(listener);
    if (clockListeners.size === 0 && clockTimer !== undefined) {
      clearInterval(clockTimer);
      clockTimer = undefined;
    }
  };
}

function useNow(): number | null {
  return useSyncExternalStore(
    subscribeClock,
    () => clockNow || Date.now(),
    () => null,
  );
}

/** Relative time that keeps itself current, the absolute UTC time on hover. Renders the absolute time until mounted. */
export function TimeAgo({ time }: { time: number }) {
  const now = useNow();
  return (
    <time dateTime={new Date(time).toISOString()} title={absoluteTime(time)} className="whitespace-nowrap">
      {now === null ? absoluteTime(time) : relativeTime(time, now)}
    </time>
  );
}

export function Skeleton({ className = 'h-4 w-full' }: { className?: string }) {
  return <span aria-hidden="true" className={`block animate-pulse rounded bg-slate-200 dark:bg-slate-800 ${className}`} />;
}

export function LoadingRows({ rows = 5, label = 'Loading' }: { rows?: number; label?: string }) {
  return (
    <div role="status" aria-label={label} className="space-y-2 py-2">
      {Array.from({ length: rows }, (_, index) => (
        <Skeleton key={index} className="h-5 w-full" />
      ))}
    </div>
  );
}

/** A failure with retry. Server components pass `title` and `detail` (an Error cannot cross to the browser intact). */
export function ErrorState({
  error,
  title,
  detail,
  onRetry,
}: {
  error?: Error;
  title?: string;
  detail?: string;
  onRetry?: () => void;
}) {
  const problem = error instanceof ApiProblem ? error.problem : undefined;
  return (
    <div
      role="alert"
      data-testid="error-state"
      className="rounded-md border border-red-300 bg-red-50 p-4 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
    >
      <p className="font-medium">{title ?? problem?.title ?? 'Something went wrong'}</p>
      <p className="mt-1">{detail ?? problem?.detail ?? error?.message}</p>
      {onRetry && (
        <button type="button" onClick={onRetry} className="mt-2 rounded border border-current px-2 py-0.5 hover:bg-red-100 dark:hover:bg-red-900">
          Retry
        </button>
      )}
    </div>
  );
}

export function EmptyState({ children }: { children: ReactNode }) {
  return <p className="rounded-md border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400">{children}</p>;
}

export function Card({ title, children, actions }: { title?: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900">
      {(title !== undefined || actions !== undefined) && (
        <div className="mb-3 flex items-center justify-between gap-2">
          {title !== undefined && <h2 className="text-base font-semibold">{title}</h2>}
          {actions}
        </div>
      )}
      {children}
    </section>
  );
}

/** A label/value list for entity headers. */
export function Facts({ items }: { items: { label: string; value: ReactNode; hint?: string }[] }) {
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[12rem_1fr]">
      {items.map((item) => (
        <div key={item.label} className="contents">
          <dt className="text-slate-500 dark:text-slate-400" title={item.hint}>
            {item.label}
          </dt>
          <dd className="min-w-0 break-words">{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}
