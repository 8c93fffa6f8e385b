/**
 * `npm start`: Next's production server behind a node:http front that hands /v1 endpoint requests straight to their
 * endpoints (lib/runtime/v1-fast-path.ts says why and which requests); everything else goes to Next as under
 * `next start`. Options as `next start`: -p/--port (3000), -H/--hostname (all interfaces).
 */
import { createServer } from 'node:http';
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

const server = createServer((request, response) => {
  const resolve = globalThis[RESOLVER_KEY];
  const url = request.url ?? '/';
  let handler = null;
  if (resolve !== undefined && url.startsWith('/v1/')) {
    const queryStart = url.indexOf('?');
    handler = resolve(request.method ?? 'GET', queryStart < 0 ? url : url.slice(0, queryStart));
  }
  if (handler === null) {
    handleWithNext(request, response);
    return;
  }
  // The handler answers every failure as a problem response; this only loses a client that went away.
  handler(request, response).catch(() => response.destroy());
});
server.listen(port, values.hostname, () => {
  console.log(`[dagboard] ready on http://${values.hostname ?? 'localhost'}:${port}`);
});
