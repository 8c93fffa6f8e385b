import { formatRu, STREAM_COSTS, WEBHOOK_COSTS } from '@/lib/api/keys/costs';
import { KASPA_REST_OPENAPI_PATH, KASPA_REST_PREFIX, pages, STREAM_SSE_PATH, STREAM_WS_PATH } from '@/lib/web/urls';

const codeBlock = 'overflow-x-auto rounded-md bg-slate-100 p-3 text-xs dark:bg-slate-900';

/**
 * The interfaces the OpenAPI document does not describe as plain calls: the event streams (SSE and WebSocket), the
 * webhook signature recipe and the kaspa-rest-server compatibility API. Static prose; the README holds the details.
 */
export function LiveAndCompatibility({ origin }: { origin: string }) {
  const wsOrigin = origin.replace(/^http/, 'ws');
  return (
    <>
      <section id="streams" aria-labelledby="streams-heading" className="space-y-3">
        <h2 id="streams-heading" className="text-lg font-semibold">Streams</h2>
        <p className="doc-prose">
          The indexer writes an event log in the same database transaction as the data: <code className="doc-inline-code">block</code>,{' '}
          <code className="doc-inline-code">chain</code> (chain blocks removed and added, with the transactions each accepted),{' '}
          <code className="doc-inline-code">address</code> (a transaction entering the <em>mempool</em>, <em>included</em>,{' '}
          <em>accepted</em>, <em>reverted</em> or <em>dropped</em> from the mempool, for each address it touches), <code className="doc-inline-code">covenant</code> (a KIP-20 covenant&apos;s genesis, continuation or end,
          accepted or reverted), <code className="doc-inline-code">fees</code> (the node&apos;s fee estimate, when a bucket&apos;s rate
          changes) and <code className="doc-inline-code">token</code> (each KRC-20 op as the token indexer applied it, with its result, or
          took it back in a reorganisation). Every event has an id that orders it; resume from it within the retention window (an hour by default) and every
          missed event arrives once, in order, or a <code className="doc-inline-code">resync_required</code> event says what to re-read.
          Opening a stream costs {formatRu(STREAM_COSTS.connection)} RU, each event delivered {formatRu(STREAM_COSTS.event)} RU.
        </p>
        <p className="doc-prose">
          Server-sent events at <code className="doc-inline-code">GET {STREAM_SSE_PATH}?topics=…&amp;addresses=…</code> (also{' '}
          <code className="doc-inline-code">covenants=…</code> and <code className="doc-inline-code">tickers=…</code>), resumed with{' '}
          <code className="doc-inline-code">Last-Event-ID</code>:
        </p>
        <pre className={codeBlock}>{`curl -N -H "x-api-key: $KEY" "${origin}${STREAM_SSE_PATH}?topics=address&addresses=$ADDRESS"`}</pre>
        <p className="doc-prose">
          From JavaScript (Node 18+ or a browser; <code className="doc-inline-code">EventSource</code> cannot send the key header, so read
          the body); send the last id back as <code className="doc-inline-code">Last-Event-ID</code> to resume. The{' '}
          <a href={pages.console()} className="doc-link">
            console
          </a>{' '}
          opens such a subscription and shows its events as they arrive.
        </p>
        <pre className={codeBlock}>{`const response = await fetch('${origin}${STREAM_SSE_PATH}?topics=address&addresses=' + ADDRESS, { headers: { 'x-api-key': KEY } });
const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
for (let buffer = ''; ; ) {
  const { done, value } = await reader.read();
  if (done) break;
  const messages = (buffer += value).split('\n\n');
  buffer = messages.pop();
  for (const message of messages) console.log(message); // id: …, event: <topic>, data: <json>
}`}</pre>
        <p className="doc-prose">
          WebSocket at <code className="doc-inline-code">GET {STREAM_WS_PATH}[?since=id]</code>, JSON frames (subscribe, unsubscribe, ping;
          acknowledgements, events, errors in the problem shape, heartbeats):
        </p>
        <pre className={codeBlock}>{`const ws = new WebSocket('${wsOrigin}${STREAM_WS_PATH}', { headers: { 'x-api-key': KEY } }); // the ws package
ws.on('open', () => ws.send(JSON.stringify({ op: 'subscribe', id: 'mine', topic: 'address', addresses: [ADDRESS] })));
ws.on('message', (frame) => console.log(JSON.parse(frame)));`}</pre>
      </section>

      <section id="webhooks-signing" aria-labelledby="webhooks-signing-heading" className="space-y-3">
        <h2 id="webhooks-signing-heading" className="text-lg font-semibold">Verifying webhook deliveries</h2>
        <p className="doc-prose">
          Each delivery is a signed POST of the event; each attempt costs {formatRu(WEBHOOK_COSTS.attempt)} RU. Failed attempts are retried with
          exponential backoff for a day; deduplicate by <code className="doc-inline-code">x-dagboard-event-id</code>. Check the signature over the
          raw body before parsing it:
        </p>
        <pre className={codeBlock}>{`import { createHmac, timingSafeEqual } from 'node:crypto';
function verify(secret, headers, rawBody) {
  const timestamp = headers['x-dagboard-timestamp'];
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const expected = Buffer.from(\`v1=\${createHmac('sha256', secret).update(\`\${timestamp}.\${rawBody}\`).digest('hex')}\`);
  const given = Buffer.from(String(headers['x-dagboard-signature']));
  return given.length === expected.length && timingSafeEqual(given, expected);
}`}</pre>
      </section>

      <section id="kaspa-rest" aria-labelledby="kaspa-rest-heading" className="space-y-3">
        <h2 id="kaspa-rest-heading" className="text-lg font-semibold">The api.kaspa.org interface</h2>
        <p className="doc-prose">
          The REST interface of api.kaspa.org (kaspa-rest-server) is served from the same index under{' '}
          <code className="doc-inline-code">{KASPA_REST_PREFIX}</code>: <code className="doc-inline-code">https://api.kaspa.org/info/blockdag</code> is{' '}
          <code className="doc-inline-code">{`${origin}${KASPA_REST_PREFIX}/info/blockdag`}</code>. Same paths, parameters, field names, paging
          headers and <code className="doc-inline-code">{'{"detail": …}'}</code> errors, with CORS for browser clients such as kaspa-explorer-ng;
          keyless and metered per client IP unless the operator requires <code className="doc-inline-code">x-api-key</code>. Its description:{' '}
          <a href={KASPA_REST_OPENAPI_PATH} className="doc-link">
            {KASPA_REST_OPENAPI_PATH}
          </a>
          .
        </p>
      </section>
    </>
  );
}
