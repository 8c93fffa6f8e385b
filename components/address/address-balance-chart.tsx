'use client';

import { BALANCE_CHART_PAGE_SIZE, BalanceChart, walkHistory } from '../charts/balance-chart';
import { fetchResource } from '@/lib/web/queries';
import { resourceKey, resources } from '@/lib/web/resources';

/** The address's balance over its recent history (0.5 RU a page of the address history). */
export function AddressBalanceChart({ address, balance }: { address: string; balance: string }) {
  return (
    <BalanceChart
      subject="the address"
      queryKey={[...resourceKey(resources.addressHistory, { params: { address }, query: {} }), 'chart']}
      walk={(signal) =>
        walkHistory((startingAfter) =>
          fetchResource(
            resources.addressHistory,
            { params: { address }, query: { limit: BALANCE_CHART_PAGE_SIZE, starting_after: startingAfter } },
            signal,
          ),
        )
      }
      balance={balance}
      testId="address-balance-chart"
      captionTestId="address-chart-caption"
    />
  );
}
