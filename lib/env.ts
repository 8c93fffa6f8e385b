/**
 * env: the one reader of process.env.
 *
 * Every setting the project knows is declared here, validated with zod, defaulted, and frozen.
 * Every variable is documented in .env.example and in the README's configuration table.
 */
import { z } from 'zod';
import { DEFAULT_DEVNET_PRUNING_DEPTH, MIN_DEVNET_PRUNING_DEPTH } from './devnet/consensus/pruning-defaults';

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const optionalUrl = (protocols: readonly string[]) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value) => (value === '' ? undefined : value))
    .refine((value) => value === undefined || protocols.some((protocol) => value.startsWith(protocol)), {
      message: `must start with ${protocols.join(' or ')}`,
    });

/** A key or token: unset or empty means none; otherwise `minLength` to 256 visible ASCII characters. */
const optionalSecret = (minLength: number) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value) => (value === '' ? undefined : value))
    .refine((value) => value === undefined || new RegExp(`^[\\x21-\\x7e]{${minLength},256}$`).test(value), {
      message: `must be ${minLength} to 256 visible ASCII characters`,
    });

/** A retention bound: unset or empty means the mode's default (undefined), `all` means none (null), else a positive number. */
const retentionBound = (max: number) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value) => (value === '' ? undefined : value))
    .refine((value) => value === undefined || value === 'all' || (Number(value) > 0 && Number(value) <= max), {
      message: `must be all or a positive number up to ${max}`,
    })
    .transform((value): number | null | undefined => (value === undefined ? undefined : value === 'all' ? null : Number(value)));

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(1).max(65_535).default(3000),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optionalUrl(['postgres://', 'postgresql://', 'memory://']),
  KASPA_RPC_URL: optionalUrl(['ws://', 'wss://']),
  REDIS_URL: optionalUrl(['redis://', 'rediss://']),
  API_KEYS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((key) => key.trim())
        .filter((key) => key.length > 0),
    ),
  SERVER_API_KEY: optionalSecret(1),
  EXPLORER_RU_PER_SECOND_PER_IP: z.coerce.number().positive().max(1_000_000).default(50),
  /** /kaspa-rest (the kaspa-rest-server interface): keyless and metered per client IP, or only with an x-api-key. */
  KASPA_REST_ACCESS: z.enum(['keyless', 'api-key']).default('keyless'),
  KASPA_REST_RU_PER_SECOND_PER_IP: z.coerce.number().positive().max(1_000_000).default(50),
  KASPA_REST_ADDRESS_NAMES_PATH: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value === '' ? undefined : value)),
  INDEXER_MODE: z.enum(['embedded', 'off']).default('embedded'),
  KAS_USD_SOURCE: z.enum(['simulated', 'fixed', 'feed']).default('simulated'),
  KAS_USD_RATE: z.coerce.number().positive().max(1_000_000).default(0.1),
  KAS_USD_FEED_URL: optionalUrl(['http://', 'https://']),
  KAS_USD_FEED_REFRESH_SECONDS: z.coerce.number().int().min(10).max(86_400).default(300),
  TOKEN_REGISTRY_PATH: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value === '' ? undefined : value)),
  /** When set, GET /metrics needs `Authorization: Bearer <token>`; unset, /metrics is open. */
  METRICS_TOKEN: optionalSecret(16),
  /** Days of indexed history kept (block time); unset: 7 on the embedded devnet, all against KASPA_RPC_URL. */
  HISTORY_RETENTION_DAYS: retentionBound(100_000),
  /** Gigabytes the database may hold before the oldest history goes; unset: 4 on the embedded devnet, all otherwise. */
  HISTORY_RETENTION_GB: retentionBound(1_000_000),
  /** Minutes the stream event log keeps events a subscriber can resume from (at least an hour by default). */
  STREAM_RETENTION_MINUTES: z.coerce.number().int().min(1).max(43_200).default(60),
  /** Open streams (SSE and WebSocket together) one API key may hold on one instance. */
  STREAM_MAX_CONNECTIONS_PER_KEY: z.coerce.number().int().min(1).max(100_000).default(20),
  /** Addresses one subscription may filter on. */
  STREAM_MAX_ADDRESSES: z.coerce.number().int().min(1).max(10_000).default(100),
  /** Whether webhooks may target loopback, private, link-local and other reserved addresses (tests, private networks). */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: booleanFlag.default(false),
  /** Webhooks one API key may hold. */
  WEBHOOK_MAX_PER_KEY: z.coerce.number().int().min(1).max(10_000).default(10),
  HEALTH_MAX_LAG_SECONDS: z.coerce.number().positive().default(30),
  DEVNET_BLOCKS_PER_SECOND: z.coerce.number().positive().max(50).default(10),
  DEVNET_TX_PER_SECOND: z.coerce.number().min(0).max(1_000).default(20),
  DEVNET_MINERS: z.coerce.number().int().min(1).max(16).default(4),
  DEVNET_SEED: z.string().min(1).default('dagboard-devnet'),
  DEVNET_PERSIST: booleanFlag.default(true),
  DEVNET_RPC_PORT: z.coerce.number().int().min(0).max(65_535).default(18610),
  /** DAA scores before a coinbase output may be spent; Kaspa's 100 s worth at 10 blocks/s unless set. */
  DEVNET_COINBASE_MATURITY: z.coerce.number().int().min(1).max(1_000_000).default(1000),
  /** Whether a new devnet chain's genesis commits the bootstrap outputs that fund the traffic wallets (bootstrap.ts). */
  DEVNET_BOOTSTRAP: booleanFlag.default(true),
  /** Blue score the devnet keeps below its sink before pruning (finality and merge depth follow from it). */
  DEVNET_PRUNING_DEPTH: z.coerce.number().int().min(MIN_DEVNET_PRUNING_DEPTH).max(10_000_000).default(DEFAULT_DEVNET_PRUNING_DEPTH),
  /** Serves POST /api/devnet/reorg (a forced reorganisation of the embedded devnet, for demonstrations and tests). */
  DEVNET_CONTROLS: booleanFlag.default(false),
  /** DAA score from which the devnet runs Toccata (rusty-kaspa v2.0.1), or `never` for the Crescendo rules throughout. */
  DEVNET_TOCCATA_ACTIVATION: z
    .string()
    .trim()
    .regex(/^(never|\d{1,19})$/, 'must be a DAA score (a non-negative integer) or never')
    .default('0')
    .transform((value): bigint | 'never' => (value === 'never' ? 'never' : BigInt(value))),
});

export type Env = Readonly<z.infer<typeof envSchema>>;

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  return Object.freeze(result.data);
}

export const env: Env = parseEnv(process.env);
