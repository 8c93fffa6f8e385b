'use client';

import { useId, useState } from 'react';
import { CopyButton } from '@/components/ui';
import { SNIPPET_LANGUAGES, type SnippetLanguage, type SnippetRequest } from '@/lib/web/request-snippets';

/** The current request as curl, JavaScript fetch and Python requests; the key only when the user ticks the box. */
export function CodeSnippets({ request, apiKey }: { request: Omit<SnippetRequest, 'apiKey'>; apiKey: string }) {
  const [language, setLanguage] = useState<SnippetLanguage>('curl');
  const [includeKey, setIncludeKey] = useState(false);
  const id = useId();
  const chosen = SNIPPET_LANGUAGES.find((candidate) => candidate.id === language) ?? SNIPPET_LANGUAGES[0];
  const code = chosen.generate({ ...request, ...(includeKey && apiKey !== '' ? { apiKey } : {}) });
  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={`${id}-heading`} className="text-sm font-semibold text-slate-900 dark:text-slate-100">
          Copy as code
        </h2>
        <div role="tablist" aria-label="Language" className="flex gap-1">
          {SNIPPET_LANGUAGES.map((candidate) => (
            <button
              key={candidate.id}
              type="button"
              role="tab"
              aria-selected={candidate.id === language}
              aria-controls={`${id}-code`}
              onClick={() => setLanguage(candidate.id)}
              className="rounded px-2 py-1 text-xs text-slate-700 hover:bg-slate-200 focus:outline-none focus-visible:ring-2 focus-visible:ring-teal-500 aria-selected:bg-teal-700 aria-selected:text-white dark:text-slate-200 dark:hover:bg-slate-700 dark:aria-selected:bg-teal-600"
            >
              {candidate.label}
            </button>
          ))}
        </div>
      </div>
      <label className="flex items-center gap-2 text-xs text-slate-700 dark:text-slate-300">
        <input
          type="checkbox"
          checked={includeKey}
          onChange={(event) => setIncludeKey(event.target.checked)}
          className="focus:ring-2 focus:ring-teal-500"
        />
        Include my key (otherwise read from <code>$DAGBOARD_API_KEY</code>)
      </label>
      <div className="overflow-hidden rounded bg-slate-900">
        <div className="flex items-center justify-between gap-2 border-b border-slate-700 px-3 py-1 text-xs text-slate-300">
          <span>{chosen.label}</span>
          <span className="text-slate-300 [&_button]:text-slate-300 [&_button:hover]:bg-slate-700 [&_button:hover]:text-white">
            <CopyButton text={code} label={`Copy as ${chosen.label}`} />
          </span>
        </div>
        <pre
          id={`${id}-code`}
          role="tabpanel"
          aria-label={`${chosen.label} code`}
          tabIndex={0}
          data-language={chosen.id}
          data-scroll-container=""
          className="max-h-72 overflow-auto p-3 font-mono text-xs text-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-teal-500"
        >
          {code}
        </pre>
      </div>
    </section>
  );
}
