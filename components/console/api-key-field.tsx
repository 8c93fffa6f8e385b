'use client';

import { useId, useState, useSyncExternalStore } from 'react';
import { readStoredKey, storeKey, subscribeStoredKey } from '@/lib/web/console-call';

/** The key the console sends, kept in sessionStorage (this tab only). */
export function useConsoleKey(): string {
  return useSyncExternalStore(subscribeStoredKey, readStoredKey, () => '');
}

const BUTTON =
  'rounded border border-slate-300 px-2 py-1 text-xs text-slate-700 hover:border-teal-600 hover:text-teal-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-teal-500 dark:border-slate-600 dark:text-slate-200 dark:hover:text-teal-300';

export function ApiKeyField({ demoApiKey }: { demoApiKey: string | null }) {
  const key = useConsoleKey();
  const [visible, setVisible] = useState(false);
  const id = useId();
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800 dark:text-slate-200">
        API key
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <input
          id={id}
          type={visible ? 'text' : 'password'}
          value={key}
          onChange={(event) => storeKey(event.target.value.trim())}
          autoComplete="off"
          spellCheck={false}
          placeholder="dgb_…"
          aria-describedby={`${id}-note`}
          className="min-w-0 flex-1 rounded border border-slate-300 bg-white px-2 py-1 font-mono text-sm text-slate-900 focus:border-teal-600 focus:outline-none focus:ring-2 focus:ring-teal-500 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
        />
        <button type="button" className={BUTTON} onClick={() => setVisible((shown) => !shown)} aria-pressed={visible}>
          {visible ? 'Hide' : 'Show'}
        </button>
        {demoApiKey !== null && (
          <button type="button" className={BUTTON} onClick={() => storeKey(demoApiKey)}>
            Use the demo key
          </button>
        )}
        {key !== '' && (
          <button type="button" className={BUTTON} onClick={() => storeKey('')}>
            Forget
          </button>
        )}
      </div>
      <p id={`${id}-note`} className="text-xs text-slate-600 dark:text-slate-400">
        Kept in this browser tab only (sessionStorage) and sent only in the <code>x-api-key</code> header of the requests
        you send from here.
        {demoApiKey !== null && ' This devnet offers a shared demo key with the default limits.'}
      </p>
    </div>
  );
}
