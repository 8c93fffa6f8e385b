import type { Metadata } from 'next';
import Link from 'next/link';
import { Suspense } from 'react';
import { ApiReference, type ReferenceOverview } from '@/components/docs/api-reference';
import { LiveAndCompatibility } from '@/components/docs/live-and-compatibility';
import { DOCUMENT_EXAMPLE_ONLY, groupAnchor } from '@/components/docs/reference';
import { Prose } from '@/components/docs/prose';
import { LoadingRows } from '@/components/ui';
import { DEFAULT_KEY_LIMITS } from '@/lib/api/keys/keys';
import { formatRu } from '@/lib/api/keys/costs';
import { pageV1, requestOrigin, shareMetadata } from '@/lib/serving/page-support';
import { operationGroups, withLiveExamples, operationSummaries, type OperationGroup } from '@/lib/web/api-operations';
import { formatJson } from '@/lib/web/json-view';
import { pages, v1Path } from '@/lib/web/urls';
import { liveReplacements, loadLiveValues } from '../console/live-examples';

export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  return shareMetadata({
    path: pages.docs(),
    title: 'API reference',
    description: 'The dagboard /v1 API: authentication, RU costs and limits, errors, pagination and every endpoint.',
  });
}

type Json = Record<string, unknown>;
const asObject = (value: unknown): Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};


function overviewOf(document: Json): ReferenceOverview {
  const components = asObject(document.components);
  const scheme = asObject(Object.values(asObject(components.securitySchemes))[0]);
  const problem = asObject(asObject(components.schemas).Problem);
  const problemExamples = Object.entries(asObject(components.examples)).map(([code, value]) => {
    const example = asObject(asObject(value).value);
    return { code, status: Number(example.status), title: String(asObject(value).summary ?? '') };
  });
  problemExamples.sort((a, b) => a.status - b.status || a.code.localeCompare(b.code));
  const firstExample = Object.values(asObject(components.examples))[0];
  return {
    scheme: {
      name: String(scheme.name ?? 'x-api-key'),
      in: String(scheme.in ?? 'header'),
      description: String(scheme.description ?? ''),
    },
    limits: { perSecond: formatRu(DEFAULT_KEY_LIMITS.milliRuPerSecond), perMonth: formatRu(DEFAULT_KEY_LIMITS.milliRuPerMonth) },
    headers: Object.entries(asObject(components.headers)).map(([name, value]) => ({
      name,
      description: String(asObject(value).description ?? ''),
    })),
    problemDescription: String(problem.description ?? ''),
    problemFields: Object.entries(asObject(problem.properties)).map(([name, value]) => ({
      name,
      type: String(asObject(value).type ?? ''),
      description: String(asObject(value).description ?? ''),
    })),
    problemExamples,
    problemExample: firstExample === undefined ? null : formatJson(asObject(firstExample).value),
  };
}

/** The reference with live ids in its examples; the document's example answer only where it is shown. */
async function LiveReference({
  overview,
  documentGroups,
  origin,
}: {
  overview: ReferenceOverview;
  documentGroups: OperationGroup[];
  origin: string;
}) {
  const values = await loadLiveValues();
  const groups = operationSummaries(withLiveExamples(documentGroups, liveReplacements(documentGroups, values)), (operation) =>
    DOCUMENT_EXAMPLE_ONLY.has(operation.operationId),
  );
  return <ApiReference overview={overview} groups={groups} origin={origin} />;
}

/**
 * The API reference, rendered on the server from GET /v1/openapi.json. The endpoints, whose examples name live ids,
 * stream in after the overview; example answers are fetched when the reader opens them.
 */
export default async function DocsPage() {
  const [documentResult, origin] = await Promise.all([pageV1('GET /v1/openapi.json'), requestOrigin()]);
  if (documentResult.status !== 200) {
    return (
      <main className="mx-auto max-w-5xl px-4 py-6">
        <h1 className="text-xl font-semibold">API reference</h1>
        <p role="alert">The API description could not be loaded; try again in a moment.</p>
      </main>
    );
  }
  const document = asObject(documentResult.body);
  const info = asObject(document.info);
  const documentGroups = operationGroups(document);

  const overview = overviewOf(document);

  return (
    <main className="mx-auto max-w-5xl space-y-8 px-4 py-6">
      <header className="space-y-2">
        <h1 className="text-xl font-semibold">
          {String(info.title ?? 'API')} reference <span className="text-sm font-normal text-slate-500">version {String(info.version ?? '')}</span>
        </h1>
        <Prose text={String(info.description ?? '')} />
        <p className="doc-prose">
          Rendered from{' '}
          <a href={v1Path('GET /v1/openapi.json')} className="doc-link">
            {v1Path('GET /v1/openapi.json')}
          </a>{' '}
          (OpenAPI {String(document.openapi)}). Try any call in the{' '}
          <Link href={pages.console()} className="doc-link">
            API console
          </Link>
          .
        </p>
        <nav aria-label="Reference contents">
          <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
            {[
              ['authentication', 'Authentication'],
              ['costs', 'Costs and limits'],
              ['errors', 'Errors'],
              ['pagination', 'Pagination'],
              ...documentGroups.map((group) => [groupAnchor(group.tag), group.tag]),
              ['streams', 'Streams'],
              ['webhooks-signing', 'Webhook signatures'],
              ['kaspa-rest', 'api.kaspa.org interface'],
            ].map(([anchor, label]) => (
              <li key={anchor}>
                <a href={`#${anchor}`} className="doc-link">
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </header>

      <Suspense fallback={<LoadingRows rows={12} label="Loading the endpoints" />}>
        <LiveReference overview={overview} documentGroups={documentGroups} origin={origin} />
      </Suspense>
      <LiveAndCompatibility origin={origin} />
    </main>
  );
}
