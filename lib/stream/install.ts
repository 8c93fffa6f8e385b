/**
 * server.mjs is plain JavaScript outside the bundle: it finds the /v1/ws upgrade handler on globalThis, installed by
 * instrumentation once the runtime is up (until then an upgrade of /v1/ws is answered 503).
 */
import type { StreamService } from './service';
import { createWsUpgradeHandler, type UpgradeHandler } from './ws';

const UPGRADE_KEY = Symbol.for('dagboard.ws-upgrade');

export function installWsUpgradeHandler(getService: () => Promise<StreamService>): void {
  (globalThis as { [UPGRADE_KEY]?: UpgradeHandler })[UPGRADE_KEY] = createWsUpgradeHandler(getService);
}
