import type { WalletSummaryAddress } from '@/lib/web/resources';
import { AddressLink, Kas, ScrollArea } from '../ui';

const CHAIN_LABEL = { receive: 'receive', change: 'change' } as const;

/** Every address checked, used and unused, in derivation order: receive and change chains with their indexes. */
export function WalletAddresses({ addresses }: { addresses: readonly WalletSummaryAddress[] }) {
  return (
    <ScrollArea label="Addresses of the wallet">
      <table className="stack-on-phone w-full text-sm" data-testid="wallet-addresses">
        <caption className="sr-only">Addresses of the wallet: chain, index, use and balance</caption>
        <thead>
          <tr className="text-left text-xs uppercase tracking-wide text-slate-500 dark:text-slate-400">
            <th scope="col" className="py-2 pr-3 font-medium">Address</th>
            <th scope="col" className="py-2 pr-3 font-medium">Chain</th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">Index</th>
            <th scope="col" className="py-2 pr-3 font-medium">Use</th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">Transactions</th>
            <th scope="col" className="py-2 text-right font-medium">Balance</th>
          </tr>
        </thead>
        <tbody>
          {addresses.map((entry) => (
            <tr
              key={entry.address}
              className={`border-t border-slate-200 dark:border-slate-800 ${entry.used ? '' : 'text-slate-500 dark:text-slate-400'}`}
              data-testid="wallet-address-row"
              data-chain={entry.chain ?? 'listed'}
              data-used={entry.used}
            >
              <td data-label="Address" className="py-2 pr-3">
                <AddressLink address={entry.address} />
              </td>
              <td data-label="Chain" className="py-2 pr-3">
                {entry.chain === null ? 'listed' : CHAIN_LABEL[entry.chain]}
              </td>
              <td data-label="Index" className="py-2 pr-3 text-right tabular-nums">
                {entry.index ?? '—'}
              </td>
              <td data-label="Use" className="py-2 pr-3">
                {entry.used ? 'used' : 'unused'}
              </td>
              <td data-label="Transactions" className="py-2 pr-3 text-right tabular-nums">
                {entry.transactionCount.toLocaleString('en')}
              </td>
              <td data-label="Balance" className="py-2 text-right" data-sompi={entry.balance}>
                <Kas sompi={entry.balance} digits={8} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollArea>
  );
}
