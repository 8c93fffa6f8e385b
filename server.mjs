/**
 * `npm start`: Next's production server behind a node:http front that hands /v1 endpoint requests straight to their
 * endpoints (lib/serving/v1-fast-path.ts says why and which requests), /kaspa-rest requests to their handler
 * (lib/serving/kaspa-rest.ts) and WebSocket upgrades of /v1/ws to the stream handler (lib/stream/ws.ts); everything
 * else goes to Next as under `next start`. Options as `next start`: -p/--port (3000; 0 picks a free port, named in the
 * ready line), -H/--hostname (all interfaces).
 */
import { EventEmitter } from 'node:events';
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
const KASPA_REST_KEY = Symbol.for('dagboard.kaspa-rest-node-handler');
const UPGRADE_KEY = Symbol.for('dagboard.ws-upgrade');

// Next attaches its own upgrade listener to the server of the first request it handles (or to `httpServer`) and, in
// production, closes every upgrade it does not serve: given an emitter that never emits, it leaves /v1/ws alone, and
// the listener below hands it the other upgrades.
const app = next({ dev: false, hostname: values.hostname ?? 'localhost', port, httpServer: new EventEmitter() });
const handleWithNext = app.getRequestHandler();
await app.prepare();
const upgradeWithNext = app.getUpgradeHandler();

const server = createServer((request, response) => {
  const resolve = globalThis[RESOLVER_KEY];
  const url = request.url ?? '/';
  let handler = null;
  if (resolve !== undefined && url.startsWith('/v1/')) {
    const queryStart = url.indexOf('?');
    handler = resolve(request.method ?? 'GET', queryStart < 0 ? url : url.slice(0, queryStart));
  }
  const kaspaRest = globalThis[KASPA_REST_KEY];
  if (handler === null && kaspaRest !== undefined && (url === '/kaspa-rest' || url.startsWith('/kaspa-rest/') || url.startsWith('/kaspa-rest?'))) {
    handler = kaspaRest;
  }
  if (handler === null) {
    handleWithNext(request, response);
    return;
  }
  // The handler answers every failure as a problem response; this only loses a client that went away.
  handler(request, response).catch(() => response.destroy());
});
// WebSocket upgrades: GET /v1/ws to lib/stream/ws.ts (installed by instrumentation once the runtime is up; 503
// before), any other to Next.
server.on('upgrade', (request, socket, head) => {
  const url = request.url ?? '/';
  const queryStart = url.indexOf('?');
  if ((queryStart < 0 ? url : url.slice(0, queryStart)) !== '/v1/ws') {
    Promise.resolve(upgradeWithNext(request, socket, head)).catch(() => socket.destroy());
    return;
  }
  const upgrade = globalThis[UPGRADE_KEY];
  if (upgrade === undefined) socket.end('HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
  else upgrade(request, socket, head);
});
server.listen(port, values.hostname, () => {
  // With -p 0 the system picks the port; the line names the one it picked.
  console.log(`[dagboard] ready on http://${values.hostname ?? 'localhost'}:${server.address().port}`);
});
