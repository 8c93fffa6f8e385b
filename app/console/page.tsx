import type { Metadata } from 'next';
import { Suspense } from 'react';
import { ApiConsole } from '@/components/console/api-console';
import { StreamConsole } from '@/components/console/stream-console';
import { LoadingRows } from '@/components/ui';
import { getRuntime } from '@/lib/runtime';
import { shareMetadata } from '@/lib/serving/page-support';
import { operationSummaries } from '@/lib/web/api-operations';
import { pages, parseConsoleRequest } from '@/lib/web/urls';
import { loadLiveOperations } from './live-examples';

export const dynamic = 'force-dynamic';

interface Props {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export async function generateMetadata(): Promise<Metadata> {
  return shareMetadata({
    path: pages.console(),
    title: 'API console',
    description: 'Try every dagboard /v1 endpoint from the browser with your API key: live examples, costs, code snippets.',
  });
}

function searchOf(values: Record<string, string | string[] | undefined>): URLSearchParams {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) search.set(name, first);
  }
  return search;
}

async function LiveConsole({ search }: { search: URLSearchParams }) {
  const [{ groups }, runtime] = await Promise.all([loadLiveOperations(), getRuntime()]);
  if (groups.length === 0) return <p role="alert">The API description could not be loaded; try again in a moment.</p>;
  const routes = groups.flatMap((group) => group.operations.map((operation) => operation.route));
  const initialRequest = parseConsoleRequest(search, routes);
  return (
    <>
      <ApiConsole
        key={JSON.stringify(initialRequest)}
        groups={operationSummaries(groups)}
        initialRequest={initialRequest}
        demoApiKey={runtime.api.demoApiKey}
      />
      <StreamConsole demoApiKey={runtime.api.demoApiKey} />
    </>
  );
}

/**
 * The "try it" console: the operations of the OpenAPI document with live examples; calls go from the browser
 * straight to /v1 with the visitor's key. The demo key (embedded devnet only) is meant for visitors. The form streams
 * in once the live examples are read, after the page's head.
 */
export default async function ConsolePage({ searchParams }: Props) {
  const search = searchOf(await searchParams);
  return (
    <main className="mx-auto max-w-7xl space-y-6 px-4 py-6">
      <h1 className="text-xl font-semibold">API console</h1>
      <p className="max-w-3xl text-sm text-slate-700 dark:text-slate-300">
        Pick an endpoint, fill in its parameters (prefilled from the live chain) and send it to <code>/v1</code> with
        your API key. Each call is metered like any other client&apos;s.
      </p>
      <Suspense fallback={<LoadingRows rows={10} label="Loading the console" />}>
        <LiveConsole search={search} />
      </Suspense>
    </main>
  );
}
