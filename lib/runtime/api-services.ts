/**
 * The /v1 API's services in the runtime: the key store (SQL on the runtime's database behind a short cache), the RU
 * meter (Redis when REDIS_URL is set), the keys seeded at start, and two keys the service makes for itself:
 *   - the server key, which the explorer's own pages use to call /v1: SERVER_API_KEY when set, else made at first
 *     start and kept in DATA_DIR/server-api-key;
 *   - the demo key (embedded-devnet mode only), made at first start and kept in DATA_DIR/demo-api-key so visitors
 *     of a local devnet can try the API.
 * The key files hold the plain key text, are written with mode 0600 and are read again at every start, where the key
 * is registered if the key store lacks it (an in-memory database forgets it). No key text is ever logged.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  createCachedKeyStore,
  createMeter,
  createSqlKeyStore,
  DEFAULT_KEY_LIMITS,
  generateApiKey,
  hashApiKey,
  MILLI_RU_PER_RU,
  redactSecrets,
  seedApiKeys,
  seededKeyId,
  type ApiKeyLimits,
  type KeyStore,
  type Logger,
  type RequestOutcome,
} from '../api';
import { createIndexedReads } from '../api/endpoints/indexed-endpoints';
import type { WalletAddressEntry, WalletApiContext } from '../api/endpoints/wallet-endpoints';
import type { WebhookApiContext } from '../api/endpoints/webhook-endpoints';
import type { KasUsdSource } from '../tokens/kas-usd';
import { createDiscoveryCache } from '../wallet/discovery-cache';
import { demoExtendedPublicKey } from '../devnet/traffic/hd-wallet';
import { createSubmissionAnnouncer, type Db } from '../db';
import type { Env } from '../env';
import type { AddressPrefix } from '../kaspa/address';
import type { RpcClient, RpcNetworkType } from '../rpc';

export const SERVER_KEY_FILE = 'server-api-key';
export const DEMO_KEY_FILE = 'demo-api-key';
/** A disabled or newly created key takes effect within this time on every instance. */
export const KEY_CACHE_TTL_MS = 10_000;

/** The explorer's pages fan out into several calls per view. */
export const SERVER_KEY_LIMITS: Readonly<ApiKeyLimits> = Object.freeze({
  milliRuPerSecond: 1_000 * MILLI_RU_PER_RU,
  milliRuPerMonth: 1_000_000_000 * MILLI_RU_PER_RU,
});

const NETWORK_PREFIXES: Readonly<Record<RpcNetworkType, AddressPrefix>> = {
  mainnet: 'kaspa',
  testnet: 'kaspatest',
  devnet: 'kaspadev',
  simnet: 'kaspasim',
};

export interface ApiServices {
  readonly context: WalletApiContext & WebhookApiContext;
  /** The key the explorer's pages send; never logged. */
  readonly serverApiKey: string;
  /** The demo key in embedded-devnet mode, else null; never logged. */
  readonly demoApiKey: string | null;
  close(): Promise<void>;
}

export interface ApiServicesOptions {
  env: Env;
  db: Db;
  rpc: RpcClient;
  embeddedDevnet: boolean;
  log: (line: string) => void;
  clock?: () => number;
  /** Told of every /v1 request answered (the runtime's metrics). */
  observe?: (outcome: RequestOutcome) => void;
  /** The KAS/USD source the wallet export prices its rows with. */
  kasUsd?: KasUsdSource;
  /** After a submission's `mempool` events were written (this instance's stream readers look at once). */
  onStreamEvents?: () => void;
}

/** Long enough for a page's summary → history → export sequence; short enough that new activity shows soon. */
const DISCOVERY_CACHE = { ttlMs: 30_000, maxEntries: 256 } as const;

/** The key text kept in `path`, created (with mode 0600) when the file does not exist yet. */
export async function keyFromFile(path: string): Promise<{ key: string; created: boolean }> {
  try {
    const key = (await readFile(path, 'utf8')).trim();
    if (key.length > 0) return { key, created: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = generateApiKey();
  await mkdir(dirname(path), { recursive: true });
  try {
    await writeFile(path, `${key}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return keyFromFile(path);
  }
  return { key, created: true };
}

/** Stores `key` under an id derived from its digest unless the store has it; true when added. */
export async function registerKey(
  store: KeyStore,
  key: string,
  kind: 'server' | 'demo',
  limits: ApiKeyLimits,
  now: Date,
): Promise<boolean> {
  const hash = hashApiKey(key);
  return store.insert({
    id: `${kind}_${seededKeyId(hash).slice('seed_'.length)}`,
    name: kind === 'server' ? 'explorer server' : 'demo (embedded devnet)',
    hash,
    created: now,
    disabled: false,
    ...limits,
  });
}

function apiLogger(log: (line: string) => void): Logger {
  return {
    error(message, entry) {
      log(`api ${message}: ${JSON.stringify(entry)}`);
    },
  };
}

export async function createApiServices(options: ApiServicesOptions): Promise<ApiServices> {
  const { env, db, rpc, log } = options;
  const clock = options.clock ?? Date.now;
  const keys = createCachedKeyStore(createSqlKeyStore(db), { ttlMs: KEY_CACHE_TTL_MS, clock });
  const now = new Date(clock());

  const seeded = await seedApiKeys(keys, env.API_KEYS, now);
  if (seeded > 0) log(`API: ${seeded} key${seeded === 1 ? '' : 's'} seeded from API_KEYS`);

  let serverApiKey = env.SERVER_API_KEY;
  if (serverApiKey === undefined) {
    const path = join(env.DATA_DIR, SERVER_KEY_FILE);
    const stored = await keyFromFile(path);
    serverApiKey = stored.key;
    if (stored.created) log(`API: server key created and stored in ${path}`);
  }
  await registerKey(keys, serverApiKey, 'server', SERVER_KEY_LIMITS, now);

  let demoApiKey: string | null = null;
  if (options.embeddedDevnet) {
    const path = join(env.DATA_DIR, DEMO_KEY_FILE);
    const stored = await keyFromFile(path);
    demoApiKey = stored.key;
    if (stored.created) log(`API: demo key created and stored in ${path}`);
    await registerKey(keys, demoApiKey, 'demo', DEFAULT_KEY_LIMITS, now);
  }

  const meterSetup = createMeter({
    redisUrl: env.REDIS_URL,
    onRedisError: (error) => log(`API meter Redis: ${redactSecrets(error.message)}`),
  });

  let prefix: Promise<AddressPrefix> | undefined;
  const addressPrefix = () => {
    prefix ??= rpc.call('getCurrentNetwork', {}).then(
      ({ network }) => NETWORK_PREFIXES[network],
      (error: unknown) => {
        prefix = undefined;
        throw error;
      },
    );
    return prefix;
  };

  return {
    context: {
      keys,
      meter: meterSetup.meter,
      clock,
      logger: apiLogger(log),
      observe: options.observe,
      rpc,
      addressPrefix,
      announceSubmission: createSubmissionAnnouncer({
        db,
        addressPrefix,
        clock,
        onAnnounced: () => options.onStreamEvents?.(),
        onError: (error) => log(`mempool events: ${error instanceof Error ? redactSecrets(error.message) : String(error)}`),
      }),
      ...createIndexedReads({ db, rpc, clock }),
      demoWallet: options.embeddedDevnet ? { extendedPublicKey: demoExtendedPublicKey(options.env.DEVNET_SEED) } : null,
      discoveryCache: createDiscoveryCache<WalletAddressEntry[]>({ ...DISCOVERY_CACHE, clock }),
      kasUsd: options.kasUsd,
      webhooks: { db, allowPrivateTargets: env.WEBHOOK_ALLOW_PRIVATE_TARGETS, maxPerKey: env.WEBHOOK_MAX_PER_KEY },
    },
    serverApiKey,
    demoApiKey,
    close: () => meterSetup.close(),
  };
}
