/**
 * `npm start`: Next's production server behind a node:http front that hands /v1 endpoint requests straight to their
 * route handlers (lib/runtime/v1-fast-path.ts says why and which requests); everything else goes to Next as under
 * `next start`. Options as `next start`: -p/--port (3000), -H/--hostname (all interfaces).
 */
import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import next from 'next';

const { values } = parseArgs({
  options: {
    port: { type: 'string', short: 'p', default: '3000' },
    hostname: { type: 'string', short: 'H' },
  },
});
const port = Number(values.port);
const RESOLVER_KEY = Symbol.for('dagboard.v1-request-resolver');

const app = next({ dev: false, hostname: values.hostname ?? 'localhost', port });
const handleWithNext = app.getRequestHandler();
await app.prepare();

function toWebRequest(request) {
  const headers = new Headers();
  for (let index = 0; index < request.rawHeaders.length; index += 2) {
    headers.append(request.rawHeaders[index], request.rawHeaders[index + 1]);
  }
  const init = { method: request.method, headers };
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    init.body = Readable.toWeb(request);
    init.duplex = 'half';
  }
  return new Request(new URL(request.url, `http://${request.headers.host ?? 'localhost'}`), init);
}

async function send(pending, response) {
  const answer = await pending;
  const headers = {};
  answer.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const body = answer.body === null ? undefined : Buffer.from(await answer.arrayBuffer());
  if (body !== undefined) headers['content-length'] = String(body.length);
  response.writeHead(answer.status, headers);
  response.end(body);
}

const server = createServer((request, response) => {
  const resolve = globalThis[RESOLVER_KEY];
  const url = request.url ?? '/';
  let handler = null;
  if (resolve !== undefined && url.startsWith('/v1/')) {
    const queryStart = url.indexOf('?');
    handler = resolve(request.method ?? 'GET', queryStart < 0 ? url : url.slice(0, queryStart));
  }
  let webRequest;
  try {
    webRequest = handler === null ? null : toWebRequest(request);
  } catch {
    webRequest = null;
  }
  if (webRequest === null) {
    handleWithNext(request, response);
    return;
  }
  // The handler answers every failure as a problem response; this only loses a client that went away.
  send(handler(webRequest), response).catch(() => response.destroy());
});
server.listen(port, values.hostname, () => {
  console.log(`[dagboard] ready on http://${values.hostname ?? 'localhost'}:${port}`);
});
