import type { Metadata } from 'next';
import Link from 'next/link';
import { CELL, CODE_BLOCK, EndpointSection, TABLE, type EndpointExample } from '@/components/docs/endpoint-section';
import { Prose } from '@/components/docs/prose';
import { DEFAULT_KEY_LIMITS } from '@/lib/api/keys';
import { formatRu } from '@/lib/api/costs';
import { pageV1, requestOrigin, shareMetadata } from '@/lib/runtime/page-support';
import { operationGroups, withLiveExamples, type OperationSpec } from '@/lib/web/api-operations';
import { abbreviateArrays, formatJson } from '@/lib/web/json-view';
import { curlSnippet } from '@/lib/web/request-snippets';
import { absoluteUrl, pages, v1Path } from '@/lib/web/urls';
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

/** Calls that change the chain (or are the document itself) are shown with the document's example answer. */
const DOCUMENT_EXAMPLE_ONLY = new Set([
  'submitBlock',
  'submitTransaction',
  'submitTransactionReplacement',
  'getOpenApiDocument',
]);
const EXAMPLE_ARRAY_ITEMS = 2;

async function exampleOf(operation: OperationSpec, origin: string): Promise<EndpointExample> {
  const params = Object.fromEntries(
    operation.parameters.flatMap((parameter) =>
      parameter.in === 'path' && parameter.example !== undefined ? [[parameter.name, parameter.example]] : [],
    ),
  );
  const query = Object.fromEntries(
    operation.parameters.flatMap((parameter) =>
      parameter.in === 'query' && parameter.example !== undefined ? [[parameter.name, parameter.example]] : [],
    ),
  );
  const body = operation.body?.example;
  const bodyText = operation.method === 'POST' ? formatJson(body ?? {}) : undefined;
  const curl = curlSnippet({
    method: operation.method,
    url: absoluteUrl(origin, v1Path(operation.route, params, query)),
    ...(bodyText === undefined ? {} : { body: bodyText }),
    withKey: !operation.public,
  });
  const request = { route: operation.route, params, query, ...(body === undefined ? {} : { body }) };
  let answer: { status: number; body: unknown; source: 'live' | 'document' } = {
    status: 200,
    body: operation.responseExample,
    source: 'document',
  };
  if (!DOCUMENT_EXAMPLE_ONLY.has(operation.operationId)) {
    const live = await pageV1(operation.route, {
      params: operation.route.startsWith('GET /v1/tokens/') ? { standard: 'tk20', ...params } : params,
      query,
      ...(body === undefined ? {} : { body }),
    });
    // A mempool entry may be mined between sampling and the call; the document's example stands in then.
    if (live.status === 200) answer = { status: live.status, body: live.body, source: 'live' };
  }
  const shortened = abbreviateArrays(answer.body, EXAMPLE_ARRAY_ITEMS);
  return {
    request,
    curl,
    response: { status: answer.status, text: formatJson(shortened.value), source: answer.source, shortened: shortened.shortened },
  };
}

const H2 = 'text-lg font-semibold text-slate-900 dark:text-slate-100';
const SECTION = 'scroll-mt-20 space-y-3';
const LINK = 'text-teal-700 underline dark:text-teal-300';
const groupAnchor = (tag: string) => `group-${tag.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

/** The API reference, rendered on the server from GET /v1/openapi.json with examples answered by the live chain. */
export default async function DocsPage() {
  const [documentResult, values, origin] = await Promise.all([pageV1('GET /v1/openapi.json'), loadLiveValues(), requestOrigin()]);
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
  const components = asObject(document.components);
  const documentGroups = operationGroups(document);
  const groups = withLiveExamples(documentGroups, liveReplacements(documentGroups, values));
  const operations = groups.flatMap((group) => group.operations);
  // All together they cost a few RU of the server key's per-second budget (pageV1 waits out a 429).
  const examples = new Map(
    await Promise.all(operations.map(async (operation) => [operation.operationId, await exampleOf(operation, origin)] as const)),
  );

  const scheme = asObject(Object.values(asObject(components.securitySchemes))[0]);
  const headers = Object.entries(asObject(components.headers)).map(([name, value]) => [name, String(asObject(value).description ?? '')]);
  const problem = asObject(asObject(components.schemas).Problem);
  const problemFields = Object.entries(asObject(problem.properties)).map(([name, value]) => ({
    name,
    type: String(asObject(value).type ?? ''),
    description: String(asObject(value).description ?? ''),
  }));
  const problemExamples = Object.entries(asObject(components.examples)).map(([code, value]) => {
    const example = asObject(asObject(value).value);
    return { code, status: Number(example.status), title: String(asObject(value).summary ?? '') };
  });
  problemExamples.sort((a, b) => a.status - b.status || a.code.localeCompare(b.code));
  const firstExample = Object.values(asObject(components.examples))[0];
  const paged = operations.filter((operation) => operation.parameters.some((parameter) => parameter.name === 'starting_after'));

  return (
    <main className="mx-auto max-w-5xl space-y-8 px-4 py-6">
      <header className="space-y-2">
        <h1 className="text-xl font-semibold">
          {String(info.title ?? 'API')} reference <span className="text-sm font-normal text-slate-500">version {String(info.version ?? '')}</span>
        </h1>
        <Prose text={String(info.description ?? '')} />
        <p className="text-sm text-slate-700 dark:text-slate-300">
          Rendered from{' '}
          <a href={v1Path('GET /v1/openapi.json')} className={LINK}>
            {v1Path('GET /v1/openapi.json')}
          </a>{' '}
          (OpenAPI {String(document.openapi)}). Try any call in the{' '}
          <Link href={pages.console()} className={LINK}>
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
              ...groups.map((group) => [groupAnchor(group.tag), group.tag]),
            ].map(([anchor, label]) => (
              <li key={anchor}>
                <a href={`#${anchor}`} className={LINK}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </header>

      <section id="authentication" aria-labelledby="authentication-heading" className={SECTION}>
        <h2 id="authentication-heading" className={H2}>Authentication</h2>
        <p className="text-sm text-slate-700 dark:text-slate-300">
          Send the key in the <code className="font-mono">{String(scheme.name ?? 'x-api-key')}</code> {String(scheme.in ?? 'header')}.{' '}
          {String(scheme.description ?? '')}
        </p>
      </section>

      <section id="costs" aria-labelledby="costs-heading" className={SECTION}>
        <h2 id="costs-heading" className={H2}>RU costs and limits</h2>
        <p className="text-sm text-slate-700 dark:text-slate-300">
          Each keyed call is charged its operation&apos;s cost in request units (RU). A new key may spend{' '}
          {formatRu(DEFAULT_KEY_LIMITS.milliRuPerSecond)} RU per second and {formatRu(DEFAULT_KEY_LIMITS.milliRuPerMonth)} RU per
          month unless the operator sets other limits. Every answer reports the budget in these headers:
        </p>
        <div className="overflow-x-auto">
          <table className={TABLE}>
            <caption className="sr-only">Response headers</caption>
            <thead>
              <tr>
                <th scope="col" className={CELL}>Header</th>
                <th scope="col" className={CELL}>Meaning</th>
              </tr>
            </thead>
            <tbody>
              {headers.map(([name, description]) => (
                <tr key={name}>
                  <td className={`${CELL} font-mono`}>{name}</td>
                  <td className={CELL}>{description}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div className="overflow-x-auto">
          <table className={TABLE}>
            <caption className="py-1 text-left text-xs font-medium text-slate-600 dark:text-slate-400">Cost per call</caption>
            <thead>
              <tr>
                <th scope="col" className={CELL}>Operation</th>
                <th scope="col" className={CELL}>Endpoint</th>
                <th scope="col" className={`${CELL} text-right`}>RU</th>
              </tr>
            </thead>
            <tbody>
              {operations.map((operation) => (
                <tr key={operation.operationId}>
                  <td className={CELL}>
                    <a href={`#${operation.operationId}`} className={LINK}>
                      {operation.operationId}
                    </a>
                  </td>
                  <td className={`${CELL} break-all font-mono text-xs`}>
                    {operation.method} {operation.path}
                  </td>
                  <td className={`${CELL} text-right font-mono`}>{operation.public ? 'free' : operation.costRu}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section id="errors" aria-labelledby="errors-heading" className={SECTION}>
        <h2 id="errors-heading" className={H2}>Errors</h2>
        <Prose text={String(problem.description ?? '')} />
        <div className="overflow-x-auto">
          <table className={TABLE}>
            <caption className="py-1 text-left text-xs font-medium text-slate-600 dark:text-slate-400">Fields of every error body</caption>
            <thead>
              <tr>
                <th scope="col" className={CELL}>Field</th>
                <th scope="col" className={CELL}>Type</th>
                <th scope="col" className={CELL}>Description</th>
              </tr>
            </thead>
            <tbody>
              {problemFields.map((field) => (
                <tr key={field.name}>
                  <td className={`${CELL} font-mono`}>{field.name}</td>
                  <td className={`${CELL} font-mono text-xs`}>{field.type}</td>
                  <td className={CELL}>{field.description}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {firstExample !== undefined && (
          <pre tabIndex={0} aria-label="Example error body" className={CODE_BLOCK}>
            {formatJson(asObject(firstExample).value)}
          </pre>
        )}
        <div className="overflow-x-auto">
          <table className={TABLE}>
            <caption className="py-1 text-left text-xs font-medium text-slate-600 dark:text-slate-400">Error codes</caption>
            <thead>
              <tr>
                <th scope="col" className={CELL}>Status</th>
                <th scope="col" className={CELL}>code</th>
                <th scope="col" className={CELL}>title</th>
              </tr>
            </thead>
            <tbody>
              {problemExamples.map((example) => (
                <tr key={example.code} id={`error-${example.code}`}>
                  <td className={`${CELL} font-mono`}>{example.status}</td>
                  <td className={`${CELL} font-mono`}>{example.code}</td>
                  <td className={CELL}>{example.title}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section id="pagination" aria-labelledby="pagination-heading" className={SECTION}>
        <h2 id="pagination-heading" className={H2}>Pagination</h2>
        <p className="text-sm text-slate-700 dark:text-slate-300">
          Lists answer <code>metadata.hasMore</code>; the next page starts after the last item of this one (its cursor in{' '}
          <code>starting_after</code>), the previous one ends before the first (<code>ending_before</code>); sending both is
          an error. The paged endpoints:
        </p>
        <ul className="list-disc space-y-2 pl-5">
          {paged.map((operation) => (
            <li key={operation.operationId} className="space-y-1">
              <a href={`#${operation.operationId}`} className={`${LINK} font-mono text-sm`}>
                {operation.method} {operation.path}
              </a>
              <Prose text={operation.description} />
            </li>
          ))}
        </ul>
      </section>

      {groups.map((group) => (
        <section key={group.tag} id={groupAnchor(group.tag)} aria-labelledby={`${groupAnchor(group.tag)}-heading`} className={SECTION}>
          <h2 id={`${groupAnchor(group.tag)}-heading`} className={H2}>
            {group.tag}
          </h2>
          <Prose text={group.description} />
          {group.operations.map((operation) => (
            <EndpointSection key={operation.operationId} operation={operation} example={examples.get(operation.operationId)!} />
          ))}
        </section>
      ))}
    </main>
  );
}
