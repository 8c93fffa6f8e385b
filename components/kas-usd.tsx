'use client';

import { useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import { fetchResource, useResource } from '@/lib/web/queries';
import { resourceKey, resources, type KasUsdRates } from '@/lib/web/resources';

/** The API answers up to 100 times a call; batches of loaded rows keep their cache as more rows load. */
const TIMES_PER_CALL = 100;
const NOW_REFRESH_MS = 60_000;
const SOMPI_PER_KAS = 100_000_000;

export interface KasUsdAt {
  /** USD per KAS at the time; undefined while loading, null when the source has none. */
  rateAt(time: number): number | null | undefined;
}

function combineRates(results: readonly { data?: KasUsdRates }[]): KasUsdAt {
  const rates = new Map<number, number | null>();
  for (const result of results) {
    if (result.data === undefined) continue;
    for (const rate of result.data.rates) rates.set(rate.time, rate.usd);
  }
  return { rateAt: (time) => rates.get(time) };
}

/** KAS/USD at each of the given times (a transaction's own time), read in batches through the explorer's path. */
export function useKasUsdAt(times: readonly number[]): KasUsdAt {
  const batches = useMemo(() => {
    const unique = [...new Set(times)];
    return Array.from({ length: Math.ceil(unique.length / TIMES_PER_CALL) }, (_, index) =>
      unique.slice(index * TIMES_PER_CALL, (index + 1) * TIMES_PER_CALL).join(','),
    );
  }, [times]);
  return useQueries({
    queries: batches.map((batch) => ({
      queryKey: resourceKey(resources.kasUsd, { query: { times: batch } }),
      queryFn: ({ signal }: { signal: AbortSignal }) => fetchResource(resources.kasUsd, { query: { times: batch } }, signal),
      staleTime: Number.POSITIVE_INFINITY,
    })),
    combine: combineRates,
  });
}

/** Today's KAS/USD, refreshed every minute. */
export function useKasUsdNow(): { usd: number | null | undefined; source: string | undefined } {
  const now = useResource(resources.kasUsd, {}, { refetchInterval: NOW_REFRESH_MS });
  return { usd: now.data?.rates[0]?.usd, source: now.data?.source };
}

export function usdOf(sompi: bigint | string, usdPerKas: number): string {
  const usd = (Number(BigInt(sompi)) / SOMPI_PER_KAS) * usdPerKas;
  const sign = usd < 0 ? '−' : '';
  return `${sign}$${Math.abs(usd).toLocaleString('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}
