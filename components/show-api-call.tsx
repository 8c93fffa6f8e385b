import Link from 'next/link';
import { v1Path, pages, type ConsoleRequest } from '@/lib/web/urls';

/** "Show API call": the /v1 request behind what a page shows, opened in the API console. */
export function ShowApiCall({ request }: { request: ConsoleRequest }) {
  const method = request.route.slice(0, request.route.indexOf(' '));
  const path = v1Path(request.route, request.params ?? {}, request.query);
  return (
    <Link
      href={pages.console(request)}
      className="inline-flex max-w-full items-center gap-1 rounded border border-slate-300 px-2 py-0.5 text-xs text-slate-700 hover:border-teal-600 hover:text-teal-800 focus:outline-none focus:ring-2 focus:ring-teal-500 dark:border-slate-700 dark:text-slate-300 dark:hover:text-teal-300"
      title={`${method} ${path}`}
    >
      <span aria-hidden="true">{'</>'}</span>
      <span>Show API call</span>
      <span className="sr-only">
        : {method} {path}
      </span>
    </Link>
  );
}
