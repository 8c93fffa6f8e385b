/**
 * The runtime's /kaspa-rest handler (lib/kaspa-rest), created once per process on globalThis: the API's database, node,
 * key store, meter and KAS/USD source, the access settings, the index statistics and the address labels. Next's route
 * file serves it; under `npm start` server.mjs hands /kaspa-rest/ requests straight to it (installed by
 * instrumentation, as the /v1 fast path), skipping Next's per-request pipeline.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { createIndexStats } from '../kaspa-rest/stats';
import { devnetWalletNames } from '../devnet/traffic/wallet-names';
import { readNamesFile, type AddressName } from '../kaspa-rest/names';
import { createKaspaRestHandler, type KaspaRestContext, type KaspaRestHandler } from '../kaspa-rest/server';
import { clientIpOf } from './explorer-path';
import { getRuntime, type Runtime } from '../runtime/index';

const KASPA_REST_KEY = Symbol.for('dagboard.kaspa-rest');
const NODE_HANDLER_KEY = Symbol.for('dagboard.kaspa-rest-node-handler');
type Holder = typeof globalThis & { [KASPA_REST_KEY]?: { handler: KaspaRestHandler } };

function contextOf(runtime: Runtime): KaspaRestContext {
  const { env, api } = runtime;
  const context = api.context;
  let names: Promise<AddressName[]> | undefined;
  const loadNames = async (): Promise<AddressName[]> => {
    if (env.KASPA_REST_ADDRESS_NAMES_PATH !== undefined) return readNamesFile(env.KASPA_REST_ADDRESS_NAMES_PATH);
    if (runtime.nodeKind !== 'embedded-devnet') return [];
    return devnetWalletNames(env.DEVNET_SEED, Math.max(8, env.DEVNET_MINERS), await context.addressPrefix());
  };
  return {
    data: {
      db: context.db,
      rpc: context.rpc,
      addressPrefix: context.addressPrefix,
      virtualBlueScore: context.virtualBlueScore,
      indexedTip: context.indexedTip,
      stats: createIndexStats(context.db, context.clock),
      names: () => {
        names ??= loadNames();
        names.catch(() => (names = undefined));
        return names;
      },
      kasUsd: context.kasUsd,
      announceSubmission: context.announceSubmission,
      healthMaxLagSeconds: env.HEALTH_MAX_LAG_SECONDS,
    },
    keys: context.keys,
    meter: context.meter,
    clock: context.clock,
    logger: context.logger,
    access: { mode: env.KASPA_REST_ACCESS, ruPerSecondPerIp: env.KASPA_REST_RU_PER_SECOND_PER_IP },
  };
}

function handler(): KaspaRestHandler {
  const holder = globalThis as Holder;
  if (holder[KASPA_REST_KEY] === undefined) {
    let context: Promise<KaspaRestContext> | undefined;
    holder[KASPA_REST_KEY] = { handler: createKaspaRestHandler(() => (context ??= getRuntime().then(contextOf))) };
  }
  return holder[KASPA_REST_KEY].handler;
}

export function serveKaspaRest(request: Request): Promise<Response> {
  return handler()(request, clientIpOf(request));
}

/** As clientIpOf for a node message: the last X-Forwarded-For hop, else the socket's peer. */
function nodeClientIp(request: IncomingMessage): string {
  const forwarded = request.headers['x-forwarded-for'];
  const last = (Array.isArray(forwarded) ? forwarded.join(',') : forwarded)?.split(',').at(-1)?.trim();
  return last === undefined || last === '' ? (request.socket.remoteAddress ?? 'unknown') : last;
}

async function serveNode(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const method = request.method ?? 'GET';
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const hasBody = method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';
  const web = new Request(`http://${request.headers.host ?? 'localhost'}${request.url ?? '/'}`, {
    method,
    headers,
    body: hasBody ? (Readable.toWeb(request) as ReadableStream<Uint8Array>) : null,
    ...(hasBody ? { duplex: 'half' } : {}),
  } as RequestInit);
  const reply = await handler()(web, nodeClientIp(request));
  const body = Buffer.from(await reply.arrayBuffer());
  const out: Record<string, string> = {};
  reply.headers.forEach((value, name) => (out[name] = value));
  if (method !== 'HEAD') out['content-length'] = String(body.byteLength);
  response.writeHead(reply.status, out);
  response.end(method === 'HEAD' ? undefined : body);
}

export function installKaspaRestNodeHandler(): void {
  (globalThis as { [NODE_HANDLER_KEY]?: typeof serveNode })[NODE_HANDLER_KEY] = serveNode;
}
