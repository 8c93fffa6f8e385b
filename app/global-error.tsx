'use client';

import { ErrorPage } from '@/components/error-page';
import { THEME_BOOT_SCRIPT } from '@/components/theme-toggle';
import './globals.css';

/** A failure of the root layout itself: the page is rebuilt from here, with the reader's theme. */
export default function GlobalError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <title>Error · dagboard</title>
        <script dangerouslySetInnerHTML={{ __html: THEME_BOOT_SCRIPT }} />
      </head>
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased dark:bg-slate-950 dark:text-slate-100">
        <header className="border-b border-slate-200 px-4 py-3 text-lg font-semibold tracking-tight text-teal-700 dark:border-slate-800 dark:text-teal-400">
          dagboard
        </header>
        <ErrorPage error={error} onRetry={reset} />
      </body>
    </html>
  );
}
