'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useState } from 'react';
import type { FieldSpec, OperationGroup, OperationSummary } from '@/lib/web/api-operations';
import { abbreviateArrays, formatJson } from '@/lib/web/json-view';
import { ApiProblem, fetchResource } from '@/lib/web/queries';
import type { AnyResource } from '@/lib/web/resources';
import { curlSnippet } from '@/lib/web/request-snippets';
import { absoluteUrl, pages, v1Path, type ConsoleRequest } from '@/lib/web/urls';
import { useHydrated } from '../ui';
import { DocTable } from './doc-table';
import { InlineMarkup, PathText, Prose } from './prose';
import { DOCUMENT_EXAMPLE_ONLY, familyLabel, groupAnchor, listText } from './reference';

const EXAMPLE_ARRAY_ITEMS = 2;

type ReferenceOperation = OperationSummary;

/** Parameters and body fields: a table from 640 px, one block per field (name, where, type, description) below. */
function FieldTable({ fields, caption }: { fields: FieldSpec[]; caption: string }) {
  return (
    <DocTable caption={caption} className="doc-fields" columns={[{ label: 'Name' }, { label: 'In' }, { label: 'Type' }, { label: 'Description' }]}>
      {fields.map((field) => (
        <tr key={`${field.in}-${field.name}`}>
          <td className="font-mono font-medium">
            {field.name}
            {field.required && <span className="font-sans font-normal text-rose-700 dark:text-rose-400"> (required)</span>}
          </td>
          <td data-label="in">{field.in}</td>
          <td className="font-mono text-xs" data-label="type">
            {field.enum === undefined ? field.type : field.enum.join(' | ')}
            {field.pattern !== undefined && <div className="text-slate-500 [overflow-wrap:anywhere] dark:text-slate-400">{field.pattern}</div>}
            {field.default !== undefined && <div>default {field.default}</div>}
          </td>
          <td>
            <InlineMarkup text={field.description ?? ''} />
          </td>
        </tr>
      ))}
    </DocTable>
  );
}

function exampleRequest(operation: ReferenceOperation): ConsoleRequest {
  const pick = (where: FieldSpec['in']) =>
    Object.fromEntries(
      operation.parameters.flatMap((parameter) =>
        parameter.in === where && parameter.example !== undefined ? [[parameter.name, parameter.example]] : [],
      ),
    );
  const body = operation.body?.example;
  return { route: operation.route, params: pick('path'), query: pick('query'), ...(body === undefined ? {} : { body }) };
}

function exampleCurl(operation: ReferenceOperation, request: ConsoleRequest, origin: string): string {
  const bodyText = operation.method === 'POST' ? formatJson(request.body ?? {}) : undefined;
  return curlSnippet({
    method: operation.method,
    url: absoluteUrl(origin, v1Path(operation.route, request.params, request.query)),
    ...(bodyText === undefined ? {} : { body: bodyText }),
    withKey: !operation.public,
  });
}

function shortenedJson(value: unknown): { text: string; shortened: boolean } {
  const shortened = abbreviateArrays(value, EXAMPLE_ARRAY_ITEMS);
  return { text: formatJson(shortened.value), shortened: shortened.shortened };
}

/**
 * The example answer, fetched when the reader opens it: through the explorer's same-origin path (the call is
 * charged to the reader's per-client allowance like any page's), or the document's example for calls that change
 * the chain. Not part of the page's HTML, which keeps the reference small and quick to serve.
 */
function ExampleResponse({ operation, request }: { operation: ReferenceOperation; request: ConsoleRequest }) {
  const [opened, setOpened] = useState(false);
  const fromDocument = DOCUMENT_EXAMPLE_ONLY.has(operation.operationId);
  const live = useQuery({
    queryKey: ['docs-example', operation.operationId],
    queryFn: ({ signal }) => fetchResource({ route: operation.route } as AnyResource, request, signal),
    enabled: opened && !fromDocument,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  let content: { text: string; status: number; source: 'live' | 'document'; shortened: boolean } | null = null;
  if (fromDocument) content = { ...shortenedJson(operation.responseExample), status: 200, source: 'document' };
  else if (live.data !== undefined) content = { ...shortenedJson(live.data), status: 200, source: 'live' };
  const problem = live.error instanceof ApiProblem ? live.error.problem : null;
  return (
    <details className="min-w-0" onToggle={(event) => setOpened(event.currentTarget.open)}>
      <summary className="cursor-pointer text-xs font-medium text-slate-600 focus-visible:outline-2 focus-visible:outline-teal-600 dark:text-slate-400">
        Example response
        {fromDocument ? ' (from the OpenAPI document)' : ' (asked live from this deployment when opened)'}
      </summary>
      {live.isFetching && <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">Asking the API…</p>}
      {live.isError && (
        <p role="alert" className="mt-1 text-xs text-rose-800 dark:text-rose-300">
          The example call answered {problem === null ? live.error.message : `${problem.status} ${problem.title}`}.
        </p>
      )}
      {content !== null && (
        <>
          <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
            {content.status} · {content.source === 'live' ? 'answered by this deployment just now' : 'from the OpenAPI document'}
            {content.shortened && ' · arrays shortened to their first items'}
          </p>
          <pre
            tabIndex={0}
            aria-label={`Example response for ${operation.operationId}`}
            className="doc-code"
            data-scroll-container=""
            data-testid="docs-example-response"
            data-source={content.source}
          >
            {content.text}
          </pre>
        </>
      )}
    </details>
  );
}

function EndpointSection({ operation, origin, hydrated }: { operation: ReferenceOperation; origin: string; hydrated: boolean }) {
  const request = exampleRequest(operation);
  return (
    <section
      id={operation.operationId}
      aria-labelledby={`${operation.operationId}-heading`}
      className="doc-operation"
      data-operation={operation.operationId}
    >
      <h3 id={`${operation.operationId}-heading`} className="text-base font-semibold">
        <span className={`doc-method ${operation.method === 'GET' ? 'bg-sky-700' : 'bg-violet-700'}`}>
          {operation.method}
        </span>{' '}
        <span className="mr-2 font-mono text-sm" data-testid="operation-path">
          <PathText path={operation.path} />
        </span>{' '}
        <span className="font-normal text-slate-700 dark:text-slate-300">{operation.summary}</span>
      </h3>
      <p className="doc-note">
        <code>{operation.operationId}</code> · {operation.public ? 'public, free' : `${operation.costRu} RU per call · x-api-key`} ·{' '}
        <Link href={pages.console(request)} className="doc-link">
          Try it in the console
        </Link>
      </p>
      <Prose text={operation.description} />
      {hydrated && <EndpointDetails operation={operation} origin={origin} />}
    </section>
  );
}

/** Parameters, body, example request and answer, and error codes: drawn in the browser from the page's data. */
function EndpointDetails({ operation, origin }: { operation: ReferenceOperation; origin: string }) {
  const request = exampleRequest(operation);
  return (
    <>
      {operation.parameters.length > 0 && <FieldTable fields={operation.parameters} caption="Parameters" />}
      {operation.body !== undefined && (
        <FieldTable
          fields={operation.body.fields}
          caption={`Body (JSON object${operation.body.limitBytes === undefined ? '' : `, at most ${operation.body.limitBytes} bytes`})`}
        />
      )}
      <div className="min-w-0 space-y-1">
        <h4 className="doc-note font-medium">Example request</h4>
        <pre tabIndex={0} aria-label={`Example request for ${operation.operationId}`} className="doc-code" data-scroll-container="">
          {exampleCurl(operation, request, origin)}
        </pre>
      </div>
      <ExampleResponse operation={operation} request={request} />
      <p className="doc-note">
        <a href="#errors" className="doc-link">
          Error codes
        </a>
        : those of {listText(operation.problemFamilies.map((id) => familyLabel(id)))}
        {operation.ownProblemCodes.length > 0 && (
          <>
            , and <span className="font-mono">{operation.ownProblemCodes.join(', ')}</span>
          </>
        )}
      </p>
    </>
  );
}

/**
 * Every operation of the reference, grouped by the document's tags. A client component so that the page carries the
 * operations as data once; the server renders each operation's heading and description, the browser its details,
 * which keeps the reference's HTML small as operations are added.
 */
export function ReferenceEndpoints({ groups, origin }: { groups: OperationGroup<OperationSummary>[]; origin: string }) {
  const hydrated = useHydrated();
  useEffect(() => {
    // The details grew the page after the browser scrolled to the link's anchor: scroll to it again.
    if (hydrated && window.location.hash.length > 1) document.getElementById(decodeURIComponent(window.location.hash.slice(1)))?.scrollIntoView();
  }, [hydrated]);
  return (
    <>
      {groups.map((group) => (
        <section
          key={group.tag}
          id={groupAnchor(group.tag)}
          aria-labelledby={`${groupAnchor(group.tag)}-heading`}
          className="scroll-mt-20 space-y-3"
        >
          <h2 id={`${groupAnchor(group.tag)}-heading`} className="text-lg font-semibold text-slate-900 dark:text-slate-100">
            {group.tag}
          </h2>
          <Prose text={group.description} />
          {group.operations.map((operation) => (
            <EndpointSection key={operation.operationId} operation={operation} origin={origin} hydrated={hydrated} />
          ))}
        </section>
      ))}
    </>
  );
}
