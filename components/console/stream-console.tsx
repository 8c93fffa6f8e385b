'use client';

import { useEffect, useId, useRef, useState } from 'react';
import { CopyButton } from '@/components/ui';
import { formatRu, STREAM_COSTS } from '@/lib/api/keys/costs';
import { STREAM_TOPICS, type StreamTopic } from '@/lib/db/stream-events';
import { storeKey } from '@/lib/web/console-call';
import { readSse, type SseMessage } from '@/lib/web/sse-reader';
import { STREAM_SSE_PATH } from '@/lib/web/urls';
import { useOrigin } from './api-console';
import { useConsoleKey } from './api-key-field';

/** Events kept on screen, newest first; the count goes on past it. */
const SHOWN_EVENTS = 100;

interface ReceivedEvent {
  id: string;
  topic: string;
  receivedAt: number;
  data: string;
}

type Connection =
  | { status: 'idle' }
  | { status: 'connecting' }
  | { status: 'open'; cursor: string }
  | { status: 'stopped'; cursor: string | null }
  | { status: 'ended'; detail: string; cursor: string | null };

const BUTTON =
  'rounded px-3 py-1.5 text-sm font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-teal-500 focus-visible:ring-offset-1 disabled:opacity-50';
const INPUT =
  'w-full min-w-0 rounded border border-slate-300 bg-white px-2 py-1 font-mono text-sm text-slate-900 focus:border-teal-600 focus:outline-none focus:ring-2 focus:ring-teal-500 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100';

/** The keyed filters: the query parameter, the topic it narrows and what its field is called. */
const KEY_FILTERS = [
  { name: 'addresses', topic: 'address', label: 'Addresses' },
  { name: 'covenants', topic: 'covenant', label: 'Covenant ids' },
  { name: 'tickers', topic: 'token', label: 'Tickers' },
] as const satisfies readonly { name: string; topic: StreamTopic; label: string }[];

type KeyFilterName = (typeof KEY_FILTERS)[number]['name'];

function streamQuery(topics: ReadonlySet<StreamTopic>, keys: Record<KeyFilterName, string>, since: string): string {
  const search = new URLSearchParams({ topics: STREAM_TOPICS.filter((topic) => topics.has(topic)).join(',') });
  for (const { name, topic } of KEY_FILTERS) {
    const list = keys[name]
      .split(/[\s,]+/)
      .map((key) => key.trim())
      .filter((key) => key !== '');
    if (topics.has(topic) && list.length > 0) search.set(name, list.join(','));
  }
  if (since.trim() !== '') search.set('since', since.trim());
  return search.toString();
}

/** One line a reader can scan: what the event is about. */
function summaryOf(topic: string, data: string): string {
  try {
    const value = JSON.parse(data) as Record<string, unknown>;
    const short = (text: unknown) => (typeof text === 'string' && text.length > 16 ? `${text.slice(0, 8)}…${text.slice(-6)}` : String(text));
    switch (topic) {
      case 'block':
        return `block ${short(value.hash)} · DAA ${String(value.daaScore)} · ${String(value.transactionCount)} transactions`;
      case 'chain':
        return `chain +${(value.added as unknown[]).length} −${(value.removed as unknown[]).length} blocks`;
      case 'address':
        return `${String(value.status)} ${short(value.transactionId)} for ${short(value.address)}`;
      case 'covenant':
        return `${String(value.kind)} ${String(value.status)} · covenant ${short(value.covenantId)}`;
      case 'token':
        return `${String(value.op)} ${String(value.ticker)}${value.reverted === true ? ' (reverted)' : ''}`;
      case 'fees':
        return `priority ${String((value.priority as { feerate: number }).feerate)} sompi/gram`;
      default:
        return data.slice(0, 80);
    }
  } catch {
    return data.slice(0, 80);
  }
}

/**
 * The console's live subscription: opens GET /v1/stream with the console's key (over fetch, since EventSource cannot
 * send a header) and shows the events as they arrive, the cursor to resume from, and what the stream has cost.
 */
export function StreamConsole({ demoApiKey }: { demoApiKey: string | null }) {
  const apiKey = useConsoleKey();
  const origin = useOrigin();
  const [topics, setTopics] = useState<ReadonlySet<StreamTopic>>(() => new Set<StreamTopic>(['block', 'address']));
  const [keys, setKeys] = useState<Record<KeyFilterName, string>>({ addresses: '', covenants: '', tickers: '' });
  const [since, setSince] = useState('');
  const [connection, setConnection] = useState<Connection>({ status: 'idle' });
  const [events, setEvents] = useState<ReceivedEvent[]>([]);
  const [delivered, setDelivered] = useState(0);
  const controller = useRef<AbortController | null>(null);
  const idPrefix = useId();
  const sinceId = useId();
  useEffect(() => () => controller.current?.abort(), []);

  const query = streamQuery(topics, keys, since);
  const running = connection.status === 'connecting' || connection.status === 'open';
  const lastCursor = 'cursor' in connection ? connection.cursor : null;

  async function start(key: string) {
    const abort = new AbortController();
    controller.current = abort;
    setEvents([]);
    setDelivered(0);
    setConnection({ status: 'connecting' });
    let cursor: string | null = null;
    const onMessage = (message: SseMessage) => {
      if (abort.signal.aborted) return;
      if (message.id !== null) cursor = message.id;
      if (message.event === 'ready') {
        cursor = (JSON.parse(message.data) as { cursor: string }).cursor;
        setConnection({ status: 'open', cursor });
      } else if (message.event === 'error' || message.event === 'dropped' || message.event === 'resync_required') {
        const body = JSON.parse(message.data) as { detail?: string; reason?: string };
        const detail = `${message.event}: ${body.detail ?? body.reason ?? message.data}`;
        if (message.event === 'resync_required') setEvents((shown) => [{ id: cursor ?? '', topic: 'resync_required', receivedAt: Date.now(), data: message.data }, ...shown].slice(0, SHOWN_EVENTS));
        else setConnection({ status: 'ended', detail, cursor });
      } else if (message.id !== null) {
        const event = { id: message.id, topic: message.event, receivedAt: Date.now(), data: message.data };
        setEvents((shown) => [event, ...shown].slice(0, SHOWN_EVENTS));
        setDelivered((count) => count + 1);
        setConnection({ status: 'open', cursor: message.id });
      }
    };
    try {
      const response = await fetch(`${STREAM_SSE_PATH}?${query}`, { headers: { 'x-api-key': key }, signal: abort.signal, cache: 'no-store' });
      if (!response.ok || response.body === null) {
        const problem = (await response.json().catch(() => ({}))) as { detail?: string };
        setConnection({ status: 'ended', detail: `${response.status}: ${problem.detail ?? response.statusText}`, cursor: null });
        return;
      }
      await readSse(response.body, onMessage, abort.signal);
      if (!abort.signal.aborted) setConnection((current) => (current.status === 'ended' ? current : { status: 'ended', detail: 'the server closed the stream', cursor }));
    } catch (error) {
      if (!abort.signal.aborted) setConnection({ status: 'ended', detail: error instanceof Error ? error.message : String(error), cursor });
    }
  }

  function stop() {
    controller.current?.abort();
    setConnection({ status: 'stopped', cursor: lastCursor });
  }

  const curl = `curl -N -H "x-api-key: $KEY" "${origin}${STREAM_SSE_PATH}?${query}"`;

  return (
    <section aria-labelledby="stream-console-heading" className="space-y-4 border-t border-slate-200 pt-6 dark:border-slate-700">
      <div className="space-y-1">
        <h2 id="stream-console-heading" className="text-lg font-semibold">
          Live subscription
        </h2>
        <p className="max-w-3xl text-sm text-slate-700 dark:text-slate-300">
          Follow the event log as <code>GET {STREAM_SSE_PATH}</code> serves it: opening costs {formatRu(STREAM_COSTS.connection)} RU, each event{' '}
          {formatRu(STREAM_COSTS.event)} RU. Resume from the last cursor to miss nothing.
        </p>
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <form
          aria-label="Subscription"
          className="min-w-0 space-y-3"
          onSubmit={(event) => {
            event.preventDefault();
            if (!running) void start(apiKey);
          }}
        >
          <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="stream-key-note">
            {apiKey === '' ? 'No API key yet: set one in the request form above.' : 'Sent with the API key of the request form above, in the x-api-key header.'}{' '}
            {apiKey === '' && demoApiKey !== null && (
              <button
                type="button"
                disabled={topics.size === 0}
                onClick={() => {
                  storeKey(demoApiKey);
                  void start(demoApiKey);
                }}
                className={`${BUTTON} border border-slate-300 dark:border-slate-600`}>
                Subscribe with the demo key
              </button>
            )}
          </p>
          <fieldset className="flex flex-wrap gap-x-4 gap-y-1 rounded border border-slate-200 p-3 dark:border-slate-700">
            <legend className="px-1 text-sm font-medium text-slate-800 dark:text-slate-200">Topics</legend>
            {STREAM_TOPICS.map((topic) => (
              <label key={topic} className="flex items-center gap-1.5 font-mono text-sm">
                <input
                  type="checkbox"
                  checked={topics.has(topic)}
                  disabled={running}
                  onChange={(event) => {
                    const next = new Set(topics);
                    if (event.target.checked) next.add(topic);
                    else next.delete(topic);
                    setTopics(next);
                  }}
                />
                {topic}
              </label>
            ))}
          </fieldset>
          {KEY_FILTERS.filter(({ topic }) => topics.has(topic)).map(({ name, topic, label }) => (
            <div key={name} className="space-y-1">
              <label htmlFor={`${idPrefix}-${name}`} className="block text-sm text-slate-800 dark:text-slate-200">
                {label}{' '}
                <span className="text-xs text-slate-500 dark:text-slate-400">
                  ({topic} topic; empty: every {topic} event)
                </span>
              </label>
              <textarea
                id={`${idPrefix}-${name}`}
                rows={name === 'addresses' ? 2 : 1}
                value={keys[name]}
                disabled={running}
                onChange={(event) => setKeys({ ...keys, [name]: event.target.value })}
                spellCheck={false}
                className={`${INPUT} text-xs`}
              />
            </div>
          ))}
          <div className="space-y-1">
            <label htmlFor={sinceId} className="block text-sm text-slate-800 dark:text-slate-200">
              Resume after cursor <span className="text-xs text-slate-500 dark:text-slate-400">(empty: from now)</span>
            </label>
            <input id={sinceId} value={since} disabled={running} onChange={(event) => setSince(event.target.value)} inputMode="numeric" className={INPUT} />
          </div>
          <div className="flex flex-wrap items-center gap-2">
            {running ? (
              // Keyed apart: a reused node would turn into the submit button within Stop's click and submit the form.
              <button key="stop" type="button" onClick={stop} className={`${BUTTON} border border-teal-700 text-teal-800 dark:border-teal-400 dark:text-teal-200`}>
                Stop
              </button>
            ) : (
              <button
                key="subscribe"
                type="submit"
                disabled={topics.size === 0 || apiKey === ''}
                className={`${BUTTON} bg-teal-700 text-white hover:bg-teal-800 dark:bg-teal-600 dark:hover:bg-teal-500`}
              >
                Subscribe
              </button>
            )}
            {!running && lastCursor !== null && (
              <button type="button" onClick={() => setSince(lastCursor)} className={`${BUTTON} border border-slate-300 dark:border-slate-600`}>
                Resume from {lastCursor}
              </button>
            )}
          </div>
          <div className="space-y-1">
            <div className="flex items-center justify-between gap-2 text-xs text-slate-600 dark:text-slate-400">
              <span>curl</span>
              <CopyButton text={curl} label="Copy the curl command" />
            </div>
            <pre tabIndex={0} aria-label="curl command" className="overflow-x-auto rounded-md bg-slate-100 p-3 text-xs dark:bg-slate-900">
              {curl}
            </pre>
          </div>
        </form>

        <div className="min-w-0 space-y-2">
          <p role="status" data-testid="stream-status" className="text-sm text-slate-800 dark:text-slate-200">
            {connection.status === 'idle' && 'Not subscribed.'}
            {connection.status === 'connecting' && 'Connecting…'}
            {connection.status === 'open' && `Open · cursor ${connection.cursor}`}
            {connection.status === 'stopped' && `Stopped${connection.cursor === null ? '' : ` · last cursor ${connection.cursor}`}`}
            {connection.status === 'ended' && `Ended · ${connection.detail}`}
            {delivered > 0 && ` · ${delivered.toLocaleString('en-US')} events (${formatRu(STREAM_COSTS.connection + delivered * STREAM_COSTS.event)} RU)`}
          </p>
          <ol aria-label="Events received" tabIndex={0} className="max-h-[32rem] space-y-1 overflow-y-auto">
            {events.map((event) => (
              <li key={`${event.topic}-${event.id}`} className="rounded border border-slate-200 px-2 py-1 text-xs dark:border-slate-700">
                <details>
                  <summary className="cursor-pointer">
                    <span className="font-mono text-slate-500 dark:text-slate-400">#{event.id}</span>{' '}
                    <span className="font-medium" data-testid="stream-event-topic">
                      {event.topic}
                    </span>{' '}
                    {summaryOf(event.topic, event.data)}{' '}
                    <span className="text-slate-500 dark:text-slate-400">{new Date(event.receivedAt).toLocaleTimeString('en-GB')}</span>
                  </summary>
                  <pre className="mt-1 overflow-x-auto whitespace-pre-wrap break-all font-mono">{event.data}</pre>
                </details>
              </li>
            ))}
          </ol>
        </div>
      </div>
    </section>
  );
}
