'use client';

import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { useId, useMemo, useState, useSyncExternalStore, type FormEvent } from 'react';
import { InlineMarkup } from '@/components/docs/prose';
import { CopyButton } from '@/components/ui';
import type { FieldSpec, OperationGroup, OperationSummary } from '@/lib/web/api-operations';
import { consoleCall, sendConsoleCall, shareableRequest, type ConsoleCall, type ConsoleResult } from '@/lib/web/console-call';
import { formatJson, nextPageCursor } from '@/lib/web/json-view';
import { parseJson, type JsonObject } from '@/lib/rpc/json';
import { absoluteUrl, pages, type ConsoleRequest } from '@/lib/web/urls';
import type { RouteId } from '@/lib/api/keys/costs';
import { ApiKeyField, useConsoleKey } from './api-key-field';
import { CodeSnippets } from './code-snippets';
import { JsonTree } from './json-tree';

interface FormState {
  route: RouteId;
  params: Record<string, string>;
  query: Record<string, string>;
  body: string;
}

function examplesOf(operation: OperationSummary): FormState {
  const params: Record<string, string> = {};
  const query: Record<string, string> = {};
  for (const parameter of operation.parameters) {
    if (parameter.in === 'path') params[parameter.name] = parameter.example ?? '';
    else if (parameter.example !== undefined) query[parameter.name] = parameter.example;
  }
  const body = operation.body === undefined ? '' : formatJson(operation.body.example ?? {});
  return { route: operation.route, params, query, body };
}

function stateOf(operation: OperationSummary, request: ConsoleRequest | null): FormState {
  const examples = examplesOf(operation);
  if (request === null) return examples;
  return {
    route: operation.route,
    params: { ...examples.params, ...request.params },
    query: request.query ?? {},
    body: request.body === undefined ? examples.body : formatJson(request.body),
  };
}

export const useOrigin = () =>
  useSyncExternalStore(
    () => () => {},
    () => window.location.origin,
    () => '',
  );

const INPUT =
  'w-full min-w-0 rounded border border-slate-300 bg-white px-2 py-1 font-mono text-sm text-slate-900 focus:border-teal-600 focus:outline-none focus:ring-2 focus:ring-teal-500 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100';
const BUTTON =
  'rounded px-3 py-1.5 text-sm font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-teal-500 focus-visible:ring-offset-1 disabled:opacity-50';

function FieldInput({
  field,
  value,
  onChange,
  disabled = false,
}: {
  field: FieldSpec;
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
}) {
  const id = useId();
  const choices = field.enum ?? (field.type === 'boolean' ? ['true', 'false'] : undefined);
  return (
    <div className="space-y-0.5">
      <label htmlFor={id} className="flex flex-wrap items-baseline gap-x-2 text-sm">
        <span className="font-mono text-slate-900 dark:text-slate-100">
          {field.name}
          {field.required && (
            <span className="text-rose-700 dark:text-rose-400" title="required">
              {' '}
              *<span className="sr-only">(required)</span>
            </span>
          )}
        </span>
        <span className="text-xs text-slate-500 dark:text-slate-400">
          {field.in} · {field.type}
          {field.default !== undefined && ` · default ${field.default}`}
        </span>
      </label>
      {choices === undefined ? (
        <input
          id={id}
          name={`${field.in}.${field.name}`}
          value={value}
          disabled={disabled}
          required={field.required && field.in === 'path'}
          spellCheck={false}
          placeholder={field.example ?? field.default ?? ''}
          onChange={(event) => onChange(event.target.value)}
          className={INPUT}
        />
      ) : (
        <select
          id={id}
          name={`${field.in}.${field.name}`}
          value={value}
          disabled={disabled}
          onChange={(event) => onChange(event.target.value)}
          className={INPUT}
        >
          <option value="">{field.required ? '(choose)' : '(not sent)'}</option>
          {choices.map((choice) => (
            <option key={choice} value={choice}>
              {choice}
            </option>
          ))}
        </select>
      )}
      {field.description !== undefined && (
        <p className="text-xs text-slate-600 dark:text-slate-400">
          <InlineMarkup text={field.description} />
        </p>
      )}
    </div>
  );
}

const SIMPLE_TYPES = new Set(['string', 'boolean', 'integer', 'number']);

function parsedBody(text: string): JsonObject | null {
  try {
    const value = parseJson(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

function bodyFieldText(body: JsonObject | null, name: string): string {
  const value = body?.[name];
  if (value === undefined || value === null || typeof value === 'object') return '';
  return String(value);
}

function withBodyField(body: JsonObject, field: FieldSpec, text: string): JsonObject {
  const next: JsonObject = { ...body };
  if (text === '') delete next[field.name];
  else if (field.type === 'boolean') next[field.name] = text === 'true';
  else if (field.type === 'integer' && /^-?\d+$/.test(text)) next[field.name] = BigInt(text);
  else if (field.type === 'number' && text.trim() !== '' && Number.isFinite(Number(text))) next[field.name] = Number(text);
  else next[field.name] = text;
  return next;
}

function ResultView({ result, call }: { result: ConsoleResult; call: ConsoleCall }) {
  const ok = result.status < 400;
  return (
    <section aria-labelledby="console-result-heading" className="space-y-3">
      <h2 id="console-result-heading" className="text-sm font-semibold text-slate-900 dark:text-slate-100">
        Response
      </h2>
      <p
        role="status"
        data-testid="console-status"
        className={`flex flex-wrap items-baseline gap-x-3 rounded px-3 py-2 text-sm font-medium ${
          ok
            ? 'bg-emerald-50 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200'
            : 'bg-rose-50 text-rose-900 dark:bg-rose-950 dark:text-rose-200'
        }`}
      >
        <span>
          {result.status} {result.statusText}
        </span>
        <span className="min-w-0 font-mono text-xs font-normal [overflow-wrap:anywhere]" data-testid="console-request-line">
          {call.method} {call.path}
        </span>
        <span className="text-xs font-normal">{result.durationMs.toFixed(0)} ms</span>
      </p>
      {result.headers.length > 0 && (
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs" aria-label="Response headers">
          {result.headers.map(([name, value]) => (
            <div key={name} className="contents">
              <dt className="font-mono text-slate-600 dark:text-slate-400">{name}</dt>
              <dd className="break-all font-mono text-slate-900 dark:text-slate-100" data-header={name}>
                {value}
              </dd>
            </div>
          ))}
        </dl>
      )}
      <div
        data-testid="console-body"
        className={`rounded border p-3 ${
          ok ? 'border-slate-200 dark:border-slate-700' : 'border-rose-300 bg-rose-50/40 dark:border-rose-800 dark:bg-rose-950/40'
        }`}
      >
        {result.json === undefined ? (
          <pre className="whitespace-pre-wrap break-all font-mono text-xs">{result.text === '' ? '(empty body)' : result.text}</pre>
        ) : (
          <JsonTree value={result.json} label={ok ? 'Response body' : 'Error body'} />
        )}
      </div>
      <details className="text-xs">
        <summary className="cursor-pointer text-slate-600 focus:outline-none focus-visible:ring-2 focus-visible:ring-teal-500 dark:text-slate-400">
          Raw body
        </summary>
        <div className="mt-1 rounded bg-slate-100 dark:bg-slate-900">
          <div className="flex justify-end border-b border-slate-200 px-1 dark:border-slate-800">
            <CopyButton text={result.text} label="Copy the response body" />
          </div>
          <pre data-testid="console-raw-body" className="max-h-96 overflow-auto whitespace-pre-wrap break-all p-2 font-mono">
            {result.text}
          </pre>
        </div>
      </details>
    </section>
  );
}

export interface ApiConsoleProps {
  groups: OperationGroup<OperationSummary>[];
  initialRequest: ConsoleRequest | null;
  demoApiKey: string | null;
}

export function ApiConsole({ groups, initialRequest, demoApiKey }: ApiConsoleProps) {
  const operations = useMemo(() => groups.flatMap((group) => group.operations), [groups]);
  const [form, setForm] = useState<FormState>(() => {
    const first = operations.find((operation) => operation.route === initialRequest?.route) ?? operations[0];
    if (first === undefined) throw new Error('the API document lists no operations');
    return stateOf(first, initialRequest);
  });
  const operation = operations.find((candidate) => candidate.route === form.route) ?? operations[0]!;
  const apiKey = useConsoleKey();
  const origin = useOrigin();
  const send = useMutation({
    mutationFn: ({ call, key }: { call: ConsoleCall; key: string }) => sendConsoleCall(call, key),
  });
  const ids = { endpoint: useId(), body: useId() };

  let call: ConsoleCall | null = null;
  let callError: string | null = null;
  try {
    call = consoleCall(form.route, form.params, form.query, form.body);
  } catch (error) {
    callError = error instanceof Error ? error.message : String(error);
  }
  const shared = shareableRequest(form.route, form.params, form.query, form.body);
  const shareLink = pages.console(shared);
  const body = operation.body === undefined ? null : parsedBody(form.body);
  const result = send.data;
  const cursor = result === undefined || send.variables === undefined ? null : nextPageCursor(send.variables.call.route, result.json);

  function submit(state: FormState) {
    const next = consoleCall(state.route, state.params, state.query, state.body);
    window.history.replaceState(null, '', pages.console(shareableRequest(state.route, state.params, state.query, state.body)));
    send.mutate({ call: next, key: apiKey });
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (call !== null) submit(form);
  }

  function nextPage() {
    if (cursor === null) return;
    const query: Record<string, string> = { ...form.query, starting_after: cursor };
    delete query.ending_before;
    const state = { ...form, query };
    setForm(state);
    submit(state);
  }

  const pathFields = operation.parameters.filter((parameter) => parameter.in === 'path');
  const queryFields = operation.parameters.filter((parameter) => parameter.in === 'query');
  const bodyFields = operation.body?.fields.filter((field) => SIMPLE_TYPES.has(field.type)) ?? [];

  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <form onSubmit={onSubmit} className="min-w-0 space-y-4" aria-label="Request">
        <div className="space-y-1">
          <label htmlFor={ids.endpoint} className="block text-sm font-medium text-slate-800 dark:text-slate-200">
            Endpoint
          </label>
          <select
            id={ids.endpoint}
            name="route"
            value={form.route}
            onChange={(event) => {
              const chosen = operations.find((candidate) => candidate.route === event.target.value);
              if (chosen !== undefined) setForm(examplesOf(chosen));
              send.reset();
            }}
            className={INPUT}
          >
            {groups.map((group) => (
              <optgroup key={group.tag} label={group.tag}>
                {group.operations.map((candidate) => (
                  <option key={candidate.route} value={candidate.route}>
                    {candidate.method} {candidate.path} · {candidate.costRu} RU
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
          <p className="text-sm text-slate-700 dark:text-slate-300">
            <span className="font-medium">{operation.summary}</span>
            {' · '}
            <span data-testid="console-cost">
              {operation.public ? 'free, no key needed' : operation.costRu === 0 ? 'free' : `${operation.costRu} RU per call`}
            </span>
            {' · '}
            <Link href={pages.docs(operation.operationId)} className="text-teal-700 underline dark:text-teal-300">
              reference
            </Link>
          </p>
        </div>

        {!operation.public && <ApiKeyField demoApiKey={demoApiKey} />}

        {pathFields.length + queryFields.length > 0 && (
          <fieldset className="space-y-2 rounded border border-slate-200 p-3 dark:border-slate-700">
            <legend className="px-1 text-sm font-medium text-slate-800 dark:text-slate-200">Parameters</legend>
            {pathFields.map((field) => (
              <FieldInput
                key={`path-${field.name}`}
                field={field}
                value={form.params[field.name] ?? ''}
                onChange={(value) => setForm({ ...form, params: { ...form.params, [field.name]: value } })}
              />
            ))}
            {queryFields.map((field) => (
              <FieldInput
                key={`query-${field.name}`}
                field={field}
                value={form.query[field.name] ?? ''}
                onChange={(value) => setForm({ ...form, query: { ...form.query, [field.name]: value } })}
              />
            ))}
          </fieldset>
        )}

        {operation.body !== undefined && (
          <fieldset className="space-y-2 rounded border border-slate-200 p-3 dark:border-slate-700">
            <legend className="px-1 text-sm font-medium text-slate-800 dark:text-slate-200">Body</legend>
            {bodyFields.map((field) => (
              <FieldInput
                key={`body-${field.name}`}
                field={field}
                value={bodyFieldText(body, field.name)}
                disabled={body === null}
                onChange={(value) => body !== null && setForm({ ...form, body: formatJson(withBodyField(body, field, value)) })}
              />
            ))}
            <label htmlFor={ids.body} className="block text-sm text-slate-800 dark:text-slate-200">
              JSON body
              {operation.body.limitBytes !== undefined && (
                <span className="text-xs text-slate-500 dark:text-slate-400"> · at most {operation.body.limitBytes} bytes</span>
              )}
            </label>
            <textarea
              id={ids.body}
              name="body"
              value={form.body}
              onChange={(event) => setForm({ ...form, body: event.target.value })}
              spellCheck={false}
              rows={Math.min(18, Math.max(4, form.body.split('\n').length))}
              className={`${INPUT} text-xs`}
              aria-invalid={body === null}
            />
            {body === null && (
              <p className="text-xs text-amber-800 dark:text-amber-300">
                Not a JSON object; it is sent as typed (the API answers with its error).
              </p>
            )}
          </fieldset>
        )}

        {callError !== null && (
          <p role="alert" className="text-sm text-rose-800 dark:text-rose-300">
            {callError}
          </p>
        )}
        <div className="flex flex-wrap items-center gap-2">
          <button
            type="submit"
            disabled={call === null || send.isPending}
            className={`${BUTTON} bg-teal-700 text-white hover:bg-teal-800 dark:bg-teal-600 dark:hover:bg-teal-500`}
          >
            {send.isPending ? 'Sending…' : 'Send'}
          </button>
          {cursor !== null && (
            <button
              type="button"
              onClick={nextPage}
              disabled={send.isPending}
              className={`${BUTTON} border border-teal-700 text-teal-800 hover:bg-teal-50 dark:border-teal-400 dark:text-teal-200 dark:hover:bg-teal-950`}
            >
              Next page
            </button>
          )}
          <Link href={shareLink} className="text-sm text-teal-700 underline dark:text-teal-300" data-testid="console-share-link">
            Link to this request
          </Link>
          {origin !== '' && <CopyButton text={absoluteUrl(origin, shareLink)} label="Copy the link to this request" />}
        </div>
      </form>

      <div className="min-w-0 space-y-6">
        {send.isError && (
          <p role="alert" className="rounded bg-rose-50 px-3 py-2 text-sm text-rose-900 dark:bg-rose-950 dark:text-rose-200">
            The request did not complete: {send.error.message}
          </p>
        )}
        {result !== undefined && send.variables !== undefined && <ResultView result={result} call={send.variables.call} />}
        {call !== null && (
          <CodeSnippets
            request={{
              method: call.method,
              url: origin === '' ? call.path : absoluteUrl(origin, call.path),
              ...(call.body === undefined ? {} : { body: call.body }),
              withKey: !operation.public,
            }}
            apiKey={apiKey}
          />
        )}
      </div>
    </div>
  );
}
