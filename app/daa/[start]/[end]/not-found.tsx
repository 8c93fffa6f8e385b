import Link from 'next/link';
import { NotFoundPage } from '@/components/not-found-page';
import { pages } from '@/lib/web/urls';

export default function DaaRangeNotFound() {
  return (
    <NotFoundPage heading="No such DAA range">
      <p>
        A DAA range is written <code className="font-mono">/daa/start/end</code>: two whole numbers, the end not below the
        start.{' '}
        <Link href={pages.daaRange(0n, 100n)} className="text-teal-700 hover:underline dark:text-teal-400">
          Open the first range
        </Link>
      </p>
    </NotFoundPage>
  );
}
