'use client';

import type { OperationGroup, OperationSummary } from '@/lib/web/api-operations';
import { familyOfProblemCode } from '@/lib/api/http/problem-families';
import { DocTable } from './doc-table';
import { ReferenceEndpoints } from './endpoint-section';
import { InlineMarkup, PathText, Prose } from './prose';

/** The parts of the OpenAPI document the reference's overview shows, read on the server. */
export interface ReferenceOverview {
  scheme: { name: string; in: string; description: string };
  limits: { perSecond: string; perMonth: string };
  headers: { name: string; description: string }[];
  problemDescription: string;
  problemFields: { name: string; type: string; description: string }[];
  problemExamples: { code: string; status: number; title: string }[];
  /** The first error example, formatted. */
  problemExample: string | null;
}

/**
 * The reference below its header: authentication, costs and limits, errors, pagination and every endpoint. A client
 * component so that the page carries the document's content once as data (and once as the server-rendered HTML),
 * not a second copy of its markup.
 */
export function ApiReference({
  overview,
  groups,
  origin,
}: {
  overview: ReferenceOverview;
  groups: OperationGroup<OperationSummary>[];
  origin: string;
}) {
  const operations = groups.flatMap((group) => group.operations);
  const paged = operations.filter((operation) => operation.parameters.some((parameter) => parameter.name === 'starting_after'));
  return (
    <>
      <section id="authentication" aria-labelledby="authentication-heading" className="scroll-mt-20 space-y-3">
        <h2 id="authentication-heading" className="doc-h2">Authentication</h2>
        <p className="doc-prose">
          Send the key in the <code className="font-mono">{overview.scheme.name}</code> {overview.scheme.in}.{' '}
          <InlineMarkup text={overview.scheme.description} />
        </p>
      </section>

      <section id="costs" aria-labelledby="costs-heading" className="scroll-mt-20 space-y-3">
        <h2 id="costs-heading" className="doc-h2">RU costs and limits</h2>
        <p className="doc-prose">
          Each keyed call is charged its operation&apos;s cost in request units (RU). A new key may spend{' '}
          {overview.limits.perSecond} RU per second and {overview.limits.perMonth} RU per month unless the operator sets other
          limits. Every answer reports the budget in these headers:
        </p>
        <DocTable caption="Response headers" captionHidden columns={[{ label: 'Header' }, { label: 'Meaning' }]}>
          {overview.headers.map(({ name, description }) => (
            <tr key={name}>
              <td className="font-mono">{name}</td>
              <td>
                <InlineMarkup text={description} />
              </td>
            </tr>
          ))}
        </DocTable>
        {/* Column styles on the table, not on each of its cells: the page stays under its HTML budget as routes are added. */}
        <DocTable
          caption="Cost per call"
          columns={[{ label: 'Operation' }, { label: 'Endpoint' }, { label: 'RU', numeric: true }]}
          className="[&_td:nth-child(2)]:font-mono [&_td:nth-child(2)]:text-xs [&_td:nth-child(3)]:text-right [&_td:nth-child(3)]:font-mono"
        >
          {operations.map((operation) => (
            <tr key={operation.operationId}>
              <td>
                <a href={`#${operation.operationId}`} className="doc-link">
                  {operation.operationId}
                </a>
              </td>
              <td>
                {`${operation.method} `}
                <PathText path={operation.path} />
              </td>
              <td>{operation.public ? 'free' : operation.costRu}</td>
            </tr>
          ))}
        </DocTable>
      </section>

      <section id="errors" aria-labelledby="errors-heading" className="scroll-mt-20 space-y-3">
        <h2 id="errors-heading" className="doc-h2">Errors</h2>
        <Prose text={overview.problemDescription} />
        <DocTable caption="Fields of every error body" columns={[{ label: 'Field' }, { label: 'Type' }, { label: 'Description' }]}>
          {overview.problemFields.map((field) => (
            <tr key={field.name}>
              <td className="font-mono">{field.name}</td>
              <td className="font-mono text-xs">{field.type}</td>
              <td>
                <InlineMarkup text={field.description} />
              </td>
            </tr>
          ))}
        </DocTable>
        {overview.problemExample !== null && (
          <pre tabIndex={0} aria-label="Example error body" className="doc-code" data-scroll-container="">
            {overview.problemExample}
          </pre>
        )}
        <DocTable
          caption="Error codes"
          columns={[{ label: 'Status' }, { label: 'code' }, { label: 'title' }, { label: 'Answered by' }]}
        >
          {overview.problemExamples.map((example) => (
            <tr key={example.code} id={`error-${example.code}`}>
              <td className="font-mono">{example.status}</td>
              <td className="font-mono">{example.code}</td>
              <td>{example.title}</td>
              <td>{familyOfProblemCode(example.code)?.label ?? 'the calls that name it'}</td>
            </tr>
          ))}
        </DocTable>
      </section>

      <section id="pagination" aria-labelledby="pagination-heading" className="scroll-mt-20 space-y-3">
        <h2 id="pagination-heading" className="doc-h2">Pagination</h2>
        <p className="doc-prose">
          Lists answer <code>metadata.hasMore</code>; the next page starts after the last item of this one (its cursor in{' '}
          <code>starting_after</code>), the previous one ends before the first (<code>ending_before</code>); sending both is
          an error. The paged endpoints:
        </p>
        <ul className="list-disc space-y-2 pl-5">
          {paged.map((operation) => (
            <li key={operation.operationId}>
              <a href={`#${operation.operationId}`} className="doc-link font-mono text-sm">
                {`${operation.method} `}
                <PathText path={operation.path} />
              </a>{' '}
              <span className="text-sm">{operation.summary}</span>
            </li>
          ))}
        </ul>
      </section>

      <ReferenceEndpoints groups={groups} origin={origin} />
    </>
  );
}
