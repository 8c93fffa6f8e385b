'use client';

import { ErrorPage } from '@/components/error-page';

/** A page that failed to render, inside the site's header and theme. */
export default function PageError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return <ErrorPage error={error} onRetry={reset} />;
}
