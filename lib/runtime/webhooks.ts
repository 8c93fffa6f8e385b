/**
 * The webhook delivery worker in the runtime: every instance runs one (the database leases split the work), each
 * attempt charged to the webhook's key (WEBHOOK_COSTS.attempt). A disabled or deleted key's webhooks are disabled.
 */
import { formatRu, type ApiKeyRecord, type KeyStore, type Meter } from '../api';
import { WEBHOOK_COSTS } from '../api/keys/costs';
import type { Db } from '../db';
import type { Env } from '../env';
import { createWebhookWorker, type ChargeOutcome, type WebhookWorker } from '../webhooks/worker';

const KEY_LIST_TTL_MS = 10_000;

export function startWebhookWorker(options: { db: Db; keys: KeyStore; meter: Meter; config: Env; log: (line: string) => void; clock?: () => number }): WebhookWorker {
  const { keys, meter, log } = options;
  const clock = options.clock ?? Date.now;
  let listed: { at: number; byId: Map<string, ApiKeyRecord> } | undefined;
  const keyOf = async (keyId: string, now: number) => {
    if (listed === undefined || now - listed.at > KEY_LIST_TTL_MS) {
      listed = { at: now, byId: new Map((await keys.list()).map((record) => [record.id, record])) };
    }
    return listed.byId.get(keyId);
  };
  const charge = async (keyId: string, now: number): Promise<ChargeOutcome> => {
    const key = await keyOf(keyId, now);
    if (key === undefined || key.disabled) return { outcome: 'exhausted', detail: 'api_key_disabled: the webhook’s API key is disabled or gone' };
    const result = await meter.charge(key.id, WEBHOOK_COSTS.attempt, key, now);
    if (result.outcome === 'charged') return { outcome: 'charged' };
    if (result.outcome === 'rate_limited') return { outcome: 'rate_limited', retryAt: result.secondResetAt };
    return { outcome: 'exhausted', detail: `allowance_exhausted: the key’s monthly allowance of ${formatRu(key.milliRuPerMonth)} RU is spent` };
  };
  const worker = createWebhookWorker({
    db: options.db,
    allowPrivateTargets: options.config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    clock,
    charge,
    onError: (error) => log(`webhooks: ${error.message}`),
  });
  worker.start();
  return worker;
}
