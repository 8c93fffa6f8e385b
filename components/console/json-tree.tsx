'use client';

import Link from 'next/link';
import { useState } from 'react';
import type { JsonValue } from '@/lib/rpc/json';
import { explorerLinkFor } from '@/lib/web/json-view';

/** Nodes deeper than this start collapsed, so a block with hundreds of transactions stays readable. */
const OPEN_DEPTH = 3;
/** Items of a long array rendered before a "show more" button. */
const ARRAY_PAGE = 100;

function Scalar({ name, value }: { name: string | number | null; value: Exclude<JsonValue, object> | bigint }) {
  if (typeof value === 'string') {
    const href = explorerLinkFor(name, value);
    const text = JSON.stringify(value);
    return href === null ? (
      <span className="break-all text-emerald-700 dark:text-emerald-400">{text}</span>
    ) : (
      <Link href={href} className="break-all text-teal-700 underline decoration-dotted hover:decoration-solid dark:text-teal-300">
        {text}
      </Link>
    );
  }
  if (value === null) return <span className="text-slate-500 dark:text-slate-400">null</span>;
  if (typeof value === 'boolean') return <span className="text-fuchsia-700 dark:text-fuchsia-300">{String(value)}</span>;
  return <span className="text-sky-700 dark:text-sky-300">{value.toString()}</span>;
}

function Key({ name }: { name: string | number | null }) {
  if (name === null) return null;
  return (
    <span className="text-slate-700 dark:text-slate-300">
      {typeof name === 'number' ? name : JSON.stringify(name)}
      <span className="text-slate-400">: </span>
    </span>
  );
}

function Node({ name, value, depth }: { name: string | number | null; value: JsonValue; depth: number }) {
  const [open, setOpen] = useState(depth < OPEN_DEPTH);
  const [limit, setLimit] = useState(ARRAY_PAGE);
  if (value === null || typeof value !== 'object') {
    return (
      <div className="pl-4">
        <Key name={name} />
        <Scalar name={name} value={value} />
      </div>
    );
  }
  const entries: [string | number, JsonValue][] = Array.isArray(value)
    ? value.map((item, index) => [index, item])
    : Object.entries(value);
  const [opening, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) {
    return (
      <div className="pl-4">
        <Key name={name} />
        <span className="text-slate-500">{`${opening}${close}`}</span>
      </div>
    );
  }
  return (
    <details open={open} onToggle={(event) => setOpen(event.currentTarget.open)} className="pl-4" data-json-node={open ? 'open' : 'collapsed'}>
      <summary className="-ml-4 cursor-pointer list-none rounded pl-4 hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-teal-500 dark:hover:bg-slate-800 [&::-webkit-details-marker]:hidden">
        <svg
          viewBox="0 0 16 16"
          width="10"
          height="10"
          aria-hidden="true"
          className={`-ml-3.5 mr-1 inline-block align-[-1px] text-slate-400 transition-transform ${open ? 'rotate-90' : ''}`}
          fill="currentColor"
        >
          <path d="M5 2.5 12 8l-7 5.5z" />
        </svg>
        <Key name={name} />
        <span className="text-slate-500">{opening}</span>
        {!open && (
          <>
            <span className="mx-1 rounded bg-slate-100 px-1 text-[0.7rem] text-slate-600 dark:bg-slate-800 dark:text-slate-300">
              {entries.length} {Array.isArray(value) ? (entries.length === 1 ? 'item' : 'items') : entries.length === 1 ? 'key' : 'keys'}
            </span>
            <span className="text-slate-500">{close}</span>
          </>
        )}
      </summary>
      {open &&
        entries.slice(0, limit).map(([key, item]) => <Node key={key} name={key} value={item} depth={depth + 1} />)}
      {open && entries.length > limit && (
        <button
          type="button"
          onClick={() => setLimit((shown) => shown + ARRAY_PAGE * 10)}
          className="ml-4 rounded px-1 text-teal-700 underline hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-teal-500 dark:text-teal-300 dark:hover:bg-slate-800"
        >
          Show more ({entries.length - limit} left)
        </button>
      )}
      <div className="text-slate-500">{close}</div>
    </details>
  );
}

/** A JSON value as a tree of collapsible nodes; hashes, addresses and tickers link to their explorer pages. */
export function JsonTree({ value, label }: { value: JsonValue; label: string }) {
  return (
    <div role="group" aria-label={label} data-scroll-container="" className="-ml-4 overflow-x-auto font-mono text-xs leading-5">
      <Node name={null} value={value} depth={0} />
    </div>
  );
}
