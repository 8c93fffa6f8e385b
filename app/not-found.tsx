import type { Metadata } from 'next';
import { NotFoundPage } from '@/components/not-found-page';

export const metadata: Metadata = { title: 'Page not found' };

/** Any path the explorer has no page for. */
export default function NotFound() {
  return (
    <NotFoundPage heading="Page not found">
      <p>
        dagboard has no page at this address. Blocks live under <code className="font-mono">/blocks/…</code>, transactions under{' '}
        <code className="font-mono">/tx/…</code>, addresses under <code className="font-mono">/address/…</code>; the search box
        finds any of them, a DAA score or a token.
      </p>
    </NotFoundPage>
  );
}
