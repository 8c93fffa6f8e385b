'use client';

import { useState } from 'react';
import type { WalletSource } from '@/lib/web/wallet-input';
import { absoluteUrl, pages } from '@/lib/web/urls';
import { CopyButton } from '../ui';

/** A share link only on request, after saying what it reveals; the wallet rides in the fragment, never the query. */
export function WalletShare({ source }: { source: WalletSource }) {
  const [open, setOpen] = useState(false);
  const isKey = 'extendedPublicKey' in source;
  return (
    <div className="text-sm">
      <button
        type="button"
        onClick={() => setOpen((current) => !current)}
        aria-expanded={open}
        className="rounded-md border border-slate-300 px-2 py-1 hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
        data-testid="wallet-share-toggle"
      >
        Share link…
      </button>
      {open && (
        <div
          className="mt-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
          data-testid="wallet-share"
        >
          <p className="font-medium">Anyone with this link sees this wallet.</p>
          <p className="mt-1">
            {isKey
              ? 'The link contains the extended public key: whoever opens it sees every address, balance and transaction of the account, including those it makes in the future. It cannot spend.'
              : 'The link contains these addresses: whoever opens it sees that they belong together, with their balances and transactions.'}{' '}
            It is carried after the “#”, which browsers do not send to servers, but it stays in the recipient’s history.
          </p>
          <p className="mt-2 flex items-start font-mono text-xs break-all">
            <span data-testid="wallet-share-link">{absoluteUrl(window.location.origin, pages.wallet(source))}</span>
            <CopyButton text={absoluteUrl(window.location.origin, pages.wallet(source))} label="Copy share link" />
          </p>
        </div>
      )}
    </div>
  );
}
