import { formatRu } from './costs';
import type { ApiKeyRecord } from './keys';
import { windowsAt, type MeterUsage } from './metering';

/** The body of GET /v1/usage. RU amounts are exact decimal strings (they are kept in milli-RU). */
export interface UsageReport {
  keyId: string;
  name: string;
  limits: { ruPerSecond: string; ruPerMonth: string };
  month: { period: string; ruUsed: string; ruRemaining: string; resetsAt: string };
  second: { ruUsed: string; ruRemaining: string; resetsAt: string };
}

export function usageReport(key: ApiKeyRecord, usage: MeterUsage, now: number): UsageReport {
  return {
    keyId: key.id,
    name: key.name,
    limits: { ruPerSecond: formatRu(key.milliRuPerSecond), ruPerMonth: formatRu(key.milliRuPerMonth) },
    month: {
      period: windowsAt(now).month,
      ruUsed: formatRu(usage.monthUsed),
      ruRemaining: formatRu(usage.monthRemaining),
      resetsAt: new Date(usage.monthResetAt).toISOString(),
    },
    second: {
      ruUsed: formatRu(usage.secondUsed),
      ruRemaining: formatRu(usage.secondRemaining),
      resetsAt: new Date(usage.secondResetAt).toISOString(),
    },
  };
}
