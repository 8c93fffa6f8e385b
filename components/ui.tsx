'use client';

import Link from 'next/link';
import { createContext, useContext, useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { copyOutcomeText, copyText, type CopyOutcome } from '@/lib/web/clipboard';
import { absoluteTime, compactTime, kasDisplay, kasExact, relativeTime, shortAddress, shortHash } from '@/lib/web/format';
import { pages } from '@/lib/web/urls';
import { ApiProblem } from '@/lib/web/queries';

/** Shared building blocks of the explorer's pages: links to entities, amounts, times, copy, loading and error states. */

function CopyIcon({ done }: { done: boolean }) {
  return (
    <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.5">
      {done ? (
        <path d="M3 8.5l3 3 7-7" strokeLinecap="round" strokeLinejoin="round" />
      ) : (
        <>
          <rect x="5.5" y="5.5" width="8" height="8" rx="1.5" />
          <path d="M10.5 3.5v-.5a1.5 1.5 0 0 0-1.5-1.5H4A1.5 1.5 0 0 0 2.5 3v5A1.5 1.5 0 0 0 4 9.5h.5" />
        </>
      )}
    </svg>
  );
}

const COPY_MESSAGE_MS = 2500;

/**
 * Copies `text` and says how it went next to the button: through the clipboard API, through the browser's copy
 * command where the page has no clipboard access (plain http on a LAN address), or, when both are blocked, with the
 * text selected in a field for the reader to copy by hand.
 */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [outcome, setOutcome] = useState<CopyOutcome | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  async function handleClick() {
    const result = await copyText(text);
    setOutcome(result);
    clearTimeout(timer.current);
    if (result !== 'blocked') timer.current = setTimeout(() => setOutcome(null), COPY_MESSAGE_MS);
  }
  return (
    <span className="relative ml-1 inline-flex items-center">
      <button
        type="button"
        onClick={handleClick}
        className="inline-flex h-6 w-6 items-center justify-center rounded text-slate-500 hover:bg-slate-200 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-teal-600 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-slate-100"
        aria-label={label}
        title={label}
        data-testid="copy-button"
      >
        <CopyIcon done={outcome === 'copied' || outcome === 'copied-by-fallback'} />
      </button>
      <span role="status" aria-live="polite" data-copy-outcome={outcome ?? undefined}>
        {outcome !== null && (
          <span className="absolute top-full right-0 z-30 mt-1 w-max max-w-[min(18rem,80vw)] rounded bg-slate-900 px-2 py-1 text-left font-sans text-xs font-normal whitespace-normal text-white shadow dark:bg-slate-700">
            {copyOutcomeText(outcome)}
            {outcome === 'blocked' && (
              <input
                readOnly
                value={text}
                aria-label="Text to copy"
                ref={(input) => input?.select()}
                onBlur={() => setOutcome(null)}
                className="mt-1 block w-full rounded bg-white px-1 font-mono text-slate-900"
              />
            )}
          </span>
        )}
      </span>
    </span>
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

/** A covenant (KIP-20 lineage) by its id, marked as one so a covenant-bound output stands out in any list. */
export function CovenantLink({ id, full = false, copy = false }: { id: string; full?: boolean; copy?: boolean }) {
  return (
    <span className="inline-flex min-w-0 items-center gap-1" data-testid="covenant-link">
      <span className="rounded bg-violet-100 px-1 text-xs font-medium text-violet-900 dark:bg-violet-950 dark:text-violet-200">covenant</span>
      <Link href={pages.covenant(id)} className={`${LINK_CLASS} break-all`} title={id}>
        {full ? id : shortHash(id)}
      </Link>
      {copy && <CopyButton text={id} label="Copy covenant id" />}
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

/** While nothing subscribes, the current second, so that repeated reads within a render agree. */
function clockSnapshot(): number {
  return clockTimer === undefined ? Math.floor(Date.now() / 1000) * 1000 : clockNow;
}

/**
 * The server's clock when it rendered the page (set once by the root layout). Relative times are rendered against it
 * on the server and while hydrating, so the server's text and the first client render agree; the live clock takes
 * over right after.
 */
const ServerNowContext = createContext<number | null>(null);

export function ServerNowProvider({ now, children }: { now: number; children: ReactNode }) {
  return <ServerNowContext.Provider value={now}>{children}</ServerNowContext.Provider>;
}

/** Epoch ms, ticking each second; the server's render time on the server and while hydrating (null without one). */
export function useNow(): number | null {
  const serverNow = useContext(ServerNowContext);
  return useSyncExternalStore(subscribeClock, clockSnapshot, () => serverNow);
}

const subscribeNever = () => () => undefined;

/** False on the server and while hydrating, true once the page runs in the browser. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  );
}

/** Relative time that keeps itself current, the absolute UTC time on hover. */
export function TimeAgo({ time }: { time: number }) {
  const now = useNow();
  return (
    <time dateTime={new Date(time).toISOString()} title={absoluteTime(time)} className="whitespace-nowrap">
      {now === null ? compactTime(time) : relativeTime(time, now)}
    </time>
  );
}

type Overflow = { left: boolean; right: boolean };

/**
 * A horizontally scrolling region for content wider than a phone (tables). It is marked `data-scroll-container`
 * (the page-wide overflow test allows wide content only inside such a region) and, while content is hidden to a
 * side, fades that edge and says that it scrolls. `startAtEnd` opens it scrolled to the right end (where a timeline
 * puts its newest items).
 */
export function ScrollArea({ label, children, startAtEnd = false }: { label: string; children: ReactNode; startAtEnd?: boolean }) {
  const region = useRef<HTMLDivElement>(null);
  const [overflow, setOverflow] = useState<Overflow>({ left: false, right: false });
  useEffect(() => {
    const element = region.current;
    if (element === null) return;
    if (startAtEnd) element.scrollLeft = element.scrollWidth;
    const measure = () => {
      const hidden = element.scrollWidth - element.clientWidth;
      const next = { left: hidden > 1 && element.scrollLeft > 1, right: hidden > 1 && element.scrollLeft < hidden - 1 };
      setOverflow((current) => (current.left === next.left && current.right === next.right ? current : next));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild !== null) observer.observe(element.firstElementChild);
    element.addEventListener('scroll', measure, { passive: true });
    return () => {
      observer.disconnect();
      element.removeEventListener('scroll', measure);
    };
  }, [startAtEnd]);
  const scrolls = overflow.left || overflow.right;
  return (
    <div className="relative">
      {scrolls && (
        <p className="mb-1 text-right text-xs text-slate-500 dark:text-slate-400" data-testid="scroll-cue">
          <span aria-hidden="true">{overflow.left ? '← ' : ''}</span>
          scroll sideways for more
          <span aria-hidden="true">{overflow.right ? ' →' : ''}</span>
        </p>
      )}
      <div
        ref={region}
        data-scroll-container=""
        role={scrolls ? 'region' : undefined}
        aria-label={scrolls ? label : undefined}
        tabIndex={scrolls ? 0 : undefined}
        className="overflow-x-auto overscroll-x-contain focus-visible:outline-2 focus-visible:outline-teal-600"
      >
        {children}
      </div>
      {overflow.left && (
        <span aria-hidden="true" className="pointer-events-none absolute bottom-0 left-0 top-5 w-6 bg-gradient-to-r from-white dark:from-slate-900" />
      )}
      {overflow.right && (
        <span aria-hidden="true" className="pointer-events-none absolute bottom-0 right-0 top-5 w-6 bg-gradient-to-l from-white dark:from-slate-900" />
      )}
    </div>
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
