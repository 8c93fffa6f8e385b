'use client';

import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { parseJson } from '@/lib/rpc/json';
import { formatInteger } from '@/lib/web/format';
import { pages } from '@/lib/web/urls';
import {
  EXPORT_LAYOUTS,
  exportBody,
  exportFileName,
  readWithProgress,
  type ExportLayout,
  type ExportProgress,
} from '@/lib/web/wallet-export';
import type { WalletSource } from '@/lib/web/wallet-input';

type ExportState =
  | { phase: 'idle' }
  | { phase: 'running'; progress: ExportProgress }
  | { phase: 'done'; rows: number; fileName: string }
  | { phase: 'failed'; message: string };

const FIELD = 'rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900';

async function problemMessage(response: Response): Promise<string> {
  try {
    const problem = parseJson(await response.text()) as { title?: string; detail?: string };
    return [problem.title, problem.detail].filter(Boolean).join(': ') || `The export failed (${response.status}).`;
  } catch {
    return `The export failed (${response.status}).`;
  }
}

function saveFile(chunks: Uint8Array[], fileName: string): void {
  const url = URL.createObjectURL(new Blob(chunks as BlobPart[], { type: 'text/csv' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/**
 * The history as CSV over a date range (UTC days), streamed from POST /wallet/csv: rows and bytes are counted as they
 * arrive and, without a range, shown against the wallet's transaction count (an upper bound: a transaction touching
 * several of its addresses counts once per address there).
 */
export function WalletExport({
  source,
  gapLimit,
  transactionEstimate,
}: {
  source: WalletSource;
  gapLimit: number | undefined;
  transactionEstimate: number;
}) {
  const [fromDate, setFromDate] = useState('');
  const [toDate, setToDate] = useState('');
  const [layout, setLayout] = useState<ExportLayout>('generic');
  const [state, setState] = useState<ExportState>({ phase: 'idle' });
  const abort = useRef<AbortController | null>(null);
  const fromId = useId();
  const toId = useId();
  const layoutId = useId();
  useEffect(() => () => abort.current?.abort(), []);

  async function handleExport(event: FormEvent) {
    event.preventDefault();
    const controller = new AbortController();
    abort.current = controller;
    setState({ phase: 'running', progress: { bytes: 0, rows: 0 } });
    try {
      const response = await fetch(pages.walletCsv(), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/csv' },
        body: JSON.stringify(exportBody({ source, gapLimit, fromDate, toDate, layout })),
        signal: controller.signal,
      });
      if (!response.ok || response.body === null) {
        setState({ phase: 'failed', message: await problemMessage(response) });
        return;
      }
      let rows = 0;
      const chunks = await readWithProgress(response.body, (progress) => {
        rows = progress.rows;
        setState({ phase: 'running', progress });
      });
      const fileName = exportFileName(response.headers.get('content-disposition'), new Date().toISOString().slice(0, 10));
      saveFile(chunks, fileName);
      setState({ phase: 'done', rows, fileName });
    } catch (error) {
      setState({
        phase: 'failed',
        message: controller.signal.aborted ? 'Export cancelled.' : `The export failed: ${(error as Error).message}`,
      });
    } finally {
      abort.current = null;
    }
  }

  const ranged = fromDate !== '' || toDate !== '';
  return (
    <form onSubmit={handleExport} className="space-y-3" data-testid="wallet-export">
      <div className="flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor={fromId} className="mb-1 block text-xs text-slate-600 dark:text-slate-400">
            From (UTC day)
          </label>
          <input id={fromId} type="date" value={fromDate} max={toDate || undefined} onChange={(event) => setFromDate(event.target.value)} className={FIELD} />
        </div>
        <div>
          <label htmlFor={toId} className="mb-1 block text-xs text-slate-600 dark:text-slate-400">
            To (UTC day, included)
          </label>
          <input id={toId} type="date" value={toDate} min={fromDate || undefined} onChange={(event) => setToDate(event.target.value)} className={FIELD} />
        </div>
        <div>
          <label htmlFor={layoutId} className="mb-1 block text-xs text-slate-600 dark:text-slate-400">
            Layout
          </label>
          <select id={layoutId} value={layout} onChange={(event) => setLayout(event.target.value as ExportLayout)} className={FIELD}>
            {EXPORT_LAYOUTS.map((option) => (
              <option key={option.id} value={option.id}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        {state.phase === 'running' ? (
          <button
            type="button"
            onClick={() => abort.current?.abort()}
            className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
          >
            Cancel
          </button>
        ) : (
          <button type="submit" className="rounded-md bg-teal-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-teal-800">
            Export CSV
          </button>
        )}
      </div>
      <div aria-live="polite" className="text-sm" data-testid="wallet-export-status" data-phase={state.phase}>
        {state.phase === 'running' && (
          <div className="space-y-1">
            {ranged || transactionEstimate === 0 ? (
              <progress aria-label="Export progress" className="w-full max-w-md" />
            ) : (
              <progress
                aria-label="Export progress"
                className="w-full max-w-md"
                max={transactionEstimate}
                value={Math.min(state.progress.rows, transactionEstimate)}
              />
            )}
            <p className="text-slate-600 dark:text-slate-400">
              {formatInteger(state.progress.rows)} rows{ranged || transactionEstimate === 0 ? '' : ` of at most ${formatInteger(transactionEstimate)}`},{' '}
              {formatInteger(Math.round(state.progress.bytes / 1024))} KB
            </p>
          </div>
        )}
        {state.phase === 'done' && (
          <p className="text-emerald-700 dark:text-emerald-400">
            Saved {state.fileName}: {formatInteger(state.rows)} rows.
          </p>
        )}
        {state.phase === 'failed' && (
          <p role="alert" className="text-red-700 dark:text-red-400">
            {state.message}
          </p>
        )}
      </div>
    </form>
  );
}
