'use client';

import { BALANCE_CHART_PAGE_SIZE, BalanceChart, walkHistory } from '../charts/balance-chart';
import { fetchResource } from '@/lib/web/queries';
import { resourceKey, resources, type WalletRequest } from '@/lib/web/resources';

/** The wallet's balance over its recent merged history (1 RU a page of the wallet history). */
export function WalletBalanceChart({ request, balance }: { request: WalletRequest; balance: string }) {
  return (
    <BalanceChart
      subject="the wallet"
      queryKey={[...resourceKey(resources.walletHistory, { body: request }), 'chart']}
      walk={(signal) =>
        walkHistory((startingAfter) =>
          fetchResource(resources.walletHistory, { body: { ...request, limit: BALANCE_CHART_PAGE_SIZE, startingAfter } }, signal),
        )
      }
      balance={balance}
      testId="wallet-balance-chart"
      captionTestId="wallet-chart-caption"
    />
  );
}
