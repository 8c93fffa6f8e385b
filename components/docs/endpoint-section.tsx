import Link from 'next/link';
import type { FieldSpec, OperationSpec } from '@/lib/web/api-operations';
import { pages, type ConsoleRequest } from '@/lib/web/urls';
import { Prose } from './prose';

export const TABLE = 'w-full border-collapse text-left text-sm';
export const CELL = 'border-b border-slate-200 px-2 py-1 align-top dark:border-slate-700';
export const CODE_BLOCK =
  'max-h-96 overflow-auto rounded bg-slate-900 p-3 font-mono text-xs text-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-teal-500';

export function FieldTable({ fields, caption }: { fields: FieldSpec[]; caption: string }) {
  return (
    <div className="overflow-x-auto">
      <table className={TABLE}>
        <caption className="py-1 text-left text-xs font-medium text-slate-600 dark:text-slate-400">{caption}</caption>
        <thead>
          <tr>
            <th scope="col" className={CELL}>Name</th>
            <th scope="col" className={CELL}>In</th>
            <th scope="col" className={CELL}>Type</th>
            <th scope="col" className={CELL}>Description</th>
          </tr>
        </thead>
        <tbody>
          {fields.map((field) => (
            <tr key={`${field.in}-${field.name}`}>
              <td className={`${CELL} font-mono`}>
                {field.name}
                {field.required && <span className="text-rose-700 dark:text-rose-400"> (required)</span>}
              </td>
              <td className={CELL}>{field.in}</td>
              <td className={`${CELL} font-mono text-xs`}>
                {field.enum === undefined ? field.type : field.enum.join(' | ')}
                {field.pattern !== undefined && <div className="text-slate-500 dark:text-slate-400">{field.pattern}</div>}
                {field.default !== undefined && <div>default {field.default}</div>}
              </td>
              <td className={CELL}>{field.description ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export interface EndpointExample {
  request: ConsoleRequest;
  curl: string;
  response: { text: string; status: number; source: 'live' | 'document'; shortened: boolean };
}

/** One operation of the reference: what it does and costs, its parameters and body, an example call and answer. */
export function EndpointSection({ operation, example }: { operation: OperationSpec; example: EndpointExample }) {
  return (
    <section id={operation.operationId} aria-labelledby={`${operation.operationId}-heading`} className="scroll-mt-20 space-y-3 rounded border border-slate-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-900" data-operation={operation.operationId}>
      <h3 id={`${operation.operationId}-heading`} className="flex flex-wrap items-baseline gap-2 text-base font-semibold">
        <span className={`rounded px-1.5 py-0.5 font-mono text-xs text-white ${operation.method === 'GET' ? 'bg-sky-700' : 'bg-violet-700'}`}>
          {operation.method}
        </span>{' '}
        <span className="break-all font-mono text-sm">{operation.path}</span>{' '}
        <span className="font-normal text-slate-700 dark:text-slate-300">{operation.summary}</span>
      </h3>
      <p className="text-xs text-slate-600 dark:text-slate-400">
        <code>{operation.operationId}</code> · {operation.public ? 'public, free' : `${operation.costRu} RU per call · x-api-key`} ·{' '}
        <Link href={pages.console(example.request)} className="text-teal-700 underline dark:text-teal-300">
          Try it in the console
        </Link>
      </p>
      <Prose text={operation.description} />
      {operation.parameters.length > 0 && <FieldTable fields={operation.parameters} caption="Parameters" />}
      {operation.body !== undefined && (
        <>
          <FieldTable fields={operation.body.fields} caption={`Body (JSON object${operation.body.limitBytes === undefined ? '' : `, at most ${operation.body.limitBytes} bytes`})`} />
        </>
      )}
      <div className="grid gap-3 xl:grid-cols-2">
        <div className="min-w-0 space-y-1">
          <h4 className="text-xs font-medium text-slate-600 dark:text-slate-400">Example request</h4>
          <pre tabIndex={0} aria-label={`Example request for ${operation.operationId}`} className={CODE_BLOCK}>
            {example.curl}
          </pre>
        </div>
        <div className="min-w-0 space-y-1">
          <h4 className="text-xs font-medium text-slate-600 dark:text-slate-400">
            Example response ({example.response.status}) ·{' '}
            {example.response.source === 'live'
              ? 'answered by this deployment when the page was rendered'
              : 'from the OpenAPI document'}
            {example.response.shortened && ' · arrays shortened to their first items'}
          </h4>
          <pre
            tabIndex={0}
            aria-label={`Example response for ${operation.operationId}`}
            className={CODE_BLOCK}
            data-testid="docs-example-response"
            data-source={example.response.source}
          >
            {example.response.text}
          </pre>
        </div>
      </div>
      {operation.errorStatuses.length > 0 && (
        <p className="text-xs text-slate-600 dark:text-slate-400">
          Error codes:{' '}
          {operation.problemCodes.map((code, index) => (
            <span key={code}>
              {index > 0 && ', '}
              <a href={`#error-${code}`} className="font-mono text-teal-700 underline dark:text-teal-300">
                {code}
              </a>
            </span>
          ))}
        </p>
      )}
    </section>
  );
}
