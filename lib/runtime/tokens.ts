/**
 * The runtime's KRC-20 part: the token services the token endpoints read (registry, KAS/USD source) and, in the
 * process that runs the chain indexer, the token indexer following it (lib/indexer/token-indexer.ts explains how it learns
 * about acceptance changes). The token indexer starts once the node's network is known (it picks the protocol
 * profile) and retries until then.
 */
import { candleUsdCacheFor, type TokenServices } from '../api/endpoints/token-endpoints';
import type { Db } from '../db';
import type { Env } from '../env';
import type { AddressPrefix } from '../kaspa/address';
import { createTokenIndexer, type TokenIndexer, type TokenIndexerStatus } from '../indexer/token-indexer';
import { feedKasUsd, fixedKasUsd, simulatedKasUsd, type KasUsdSource } from '../tokens/kas-usd';
import { tokenProfileFor } from '../tokens/profile';
import { EMPTY_REGISTRY, loadTokenRegistry, tokenRegistry, type TokenRegistry } from '../tokens/registry';
import devnetRegistry from '../tokens/devnet-registry.json';

export interface RuntimeTokens {
  readonly services: TokenServices;
  /** Null unless this process runs the token indexer. */
  status(): TokenIndexerStatus | null;
  stop(): Promise<void>;
}

export interface RuntimeTokensOptions {
  config: Env;
  db: Db;
  embeddedDevnet: boolean;
  /** True when this process runs the chain indexer (the token indexer follows it in the same process). */
  indexes: boolean;
  addressPrefix: () => Promise<AddressPrefix>;
  log: (line: string) => void;
  startRetryMs?: number;
  /** The KAS/USD source shared with the API (kasUsdSourceOf); created here when not given. */
  kasUsd?: KasUsdSource;
  /** After the token indexer appended `token` events to the stream log. */
  onStreamEvents?: () => void;
}

export function kasUsdSourceOf(config: Env, log: (line: string) => void): KasUsdSource {
  switch (config.KAS_USD_SOURCE) {
    case 'fixed':
      return fixedKasUsd(config.KAS_USD_RATE);
    case 'feed':
      if (config.KAS_USD_FEED_URL === undefined) throw new Error('KAS_USD_SOURCE=feed needs KAS_USD_FEED_URL');
      return feedKasUsd({ url: config.KAS_USD_FEED_URL, refreshMs: config.KAS_USD_FEED_REFRESH_SECONDS * 1000, log });
    case 'simulated':
      return simulatedKasUsd(config.DEVNET_SEED, config.KAS_USD_RATE);
  }
}

export async function tokenRegistryOf(config: Env, embeddedDevnet: boolean): Promise<TokenRegistry> {
  if (config.TOKEN_REGISTRY_PATH !== undefined) return loadTokenRegistry(config.TOKEN_REGISTRY_PATH);
  return embeddedDevnet ? tokenRegistry(devnetRegistry) : EMPTY_REGISTRY;
}

export async function startRuntimeTokens(options: RuntimeTokensOptions): Promise<RuntimeTokens> {
  const { config, db, log } = options;
  const registry = await tokenRegistryOf(config, options.embeddedDevnet);
  if (registry.size > 0) log(`tokens: registry with ${registry.size} token(s)`);
  const kasUsd = options.kasUsd ?? kasUsdSourceOf(config, log);
  const services: TokenServices = { registry, kasUsd, candleUsd: candleUsdCacheFor(kasUsd) };
  let indexer: TokenIndexer | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  if (options.indexes) {
    const attempt = () => {
      options.addressPrefix().then(
        (prefix) => {
          if (stopped) return;
          indexer = createTokenIndexer({ db, profile: tokenProfileFor(prefix), log, onStreamEvents: options.onStreamEvents });
          indexer.start();
        },
        (error: unknown) => {
          if (stopped) return;
          log(`tokens: the node's network is unknown (${error instanceof Error ? error.message : String(error)}); retrying`);
          retry = setTimeout(attempt, options.startRetryMs ?? 5_000);
        },
      );
    };
    attempt();
  }
  return {
    services,
    status: () => indexer?.status() ?? null,
    async stop() {
      stopped = true;
      clearTimeout(retry);
      await indexer?.stop();
      kasUsd.close();
    },
  };
}
