/**
 * The runtime's explorer path (see explorer-path.ts), created once per process on globalThis: server components import
 * `callV1`, the same-origin route imports `proxyV1`.
 */
import type { RouteId } from '../api';
import { createExplorerPath, type ExplorerPath, type V1Call, type V1Result } from './explorer-path';
import { getRuntime } from '../runtime/index';
import { V1_API_HANDLERS } from './v1-handlers';

/**
 * Webhooks belong to the key that made them: under the shared server key every visitor would see, create and delete
 * the same ones, so the explorer path does not serve them.
 */
const EXPLORER_HANDLERS = Object.fromEntries(
  Object.entries(V1_API_HANDLERS).filter(([route]) => !route.includes(' /v1/webhooks')),
) as typeof V1_API_HANDLERS;

const EXPLORER_PATH_KEY = Symbol.for('dagboard.explorer-path');
type Holder = typeof globalThis & { [EXPLORER_PATH_KEY]?: Promise<ExplorerPath> };

function explorerPath(): Promise<ExplorerPath> {
  const holder = globalThis as Holder;
  holder[EXPLORER_PATH_KEY] ??= getRuntime().then((runtime) =>
    createExplorerPath({
      handlers: EXPLORER_HANDLERS,
      serverApiKey: runtime.api.serverApiKey,
      meter: runtime.api.context.meter,
      clock: runtime.api.context.clock,
      ruPerSecondPerIp: runtime.env.EXPLORER_RU_PER_SECOND_PER_IP,
    }),
  );
  return holder[EXPLORER_PATH_KEY];
}

export async function callV1(route: RouteId, call?: V1Call): Promise<V1Result> {
  return (await explorerPath()).call(route, call);
}

export async function respondV1(route: RouteId, call?: V1Call): Promise<Response> {
  return (await explorerPath()).respond(route, call);
}

export async function proxyV1(request: Request, pathSegments: readonly string[]): Promise<Response> {
  return (await explorerPath()).proxy(request, pathSegments);
}
