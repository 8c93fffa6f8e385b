import Link from 'next/link';
import { NotFoundPage } from '@/components/not-found-page';
import { pages } from '@/lib/web/urls';

export default function TokenNotFound() {
  return (
    <NotFoundPage heading="Token not found">
      <p>
        No KRC-20 token with this ticker is deployed on this network. Tickers are 4 to 6 letters in any case; an
        issue-mode token is named by its 64-character contract address. A token appears here once its deploy is
        accepted.{' '}
        <Link href={pages.tokens()} className="text-teal-700 hover:underline dark:text-teal-400">
          All tokens
        </Link>
      </p>
    </NotFoundPage>
  );
}
