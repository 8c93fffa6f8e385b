'use client';

import { useId, useState, type FormEvent } from 'react';
import { parseWalletInput, walletInputText, type WalletSource } from '@/lib/web/wallet-input';

const BUTTON = 'rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800';

interface Props {
  source: WalletSource | null;
  gapLimit: number | undefined;
  demoLoading: boolean;
  onShow: (source: WalletSource, gapLimit: number | undefined) => void;
  onDemo: () => void;
  onForget: () => void;
}

/** The reader's wallet: a pasted extended public key or address list, the gap limit for a key, the demo wallet. */
export function WalletForm({ source, gapLimit, demoLoading, onShow, onDemo, onForget }: Props) {
  const [text, setText] = useState(source === null ? '' : walletInputText(source));
  const [gapText, setGapText] = useState(gapLimit === undefined ? '' : String(gapLimit));
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const gapId = useId();
  const errorId = useId();

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const input = parseWalletInput(text);
    if ('error' in input) {
      setError(input.error);
      return;
    }
    setError(null);
    const gap = gapText.trim() === '' ? undefined : Number(gapText);
    onShow(input.source, gap === undefined || Number.isNaN(gap) ? undefined : gap);
  }

  return (
    <form onSubmit={handleSubmit} className="space-y-3" data-testid="wallet-form">
      <div>
        <label htmlFor={inputId} className="mb-1 block text-sm font-medium">
          Extended public key or addresses
        </label>
        <textarea
          id={inputId}
          value={text}
          onChange={(event) => setText(event.target.value)}
          rows={3}
          spellCheck={false}
          autoComplete="off"
          placeholder="kpub… / xpub…, or kaspa:… addresses, one per line"
          aria-invalid={error !== null}
          aria-describedby={error === null ? undefined : errorId}
          className="w-full rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-sm break-all dark:border-slate-700 dark:bg-slate-900"
          data-testid="wallet-input"
        />
        <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          The key stays in this tab (its memory and session storage) and goes to the server only inside request bodies,
          never in an address bar or a log. An extended public key cannot spend, but it reveals every address and
          transaction of the account.
        </p>
        {error !== null && (
          <p id={errorId} role="alert" className="mt-1 text-sm text-red-700 dark:text-red-400">
            {error}
          </p>
        )}
      </div>
      <div className="flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor={gapId} className="mb-1 block text-xs text-slate-600 dark:text-slate-400">
            Gap limit (for a key)
          </label>
          <input
            id={gapId}
            type="number"
            inputMode="numeric"
            min={1}
            value={gapText}
            onChange={(event) => setGapText(event.target.value)}
            placeholder="20"
            className="w-24 rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900"
          />
        </div>
        <button type="submit" className="rounded-md bg-teal-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-teal-800">
          Show wallet
        </button>
        <button type="button" onClick={onDemo} disabled={demoLoading} className={BUTTON} data-testid="wallet-demo">
          {demoLoading ? 'Loading the demo wallet…' : 'Try the demo wallet'}
        </button>
        {source !== null && (
          <button type="button" onClick={onForget} className={BUTTON}>
            Forget this wallet
          </button>
        )}
      </div>
    </form>
  );
}
