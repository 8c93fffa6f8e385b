import type { WalletSummaryAddress } from '@/lib/web/resources';
import { StackedTable, type StackedColumn } from '../stacked-table';
import { AddressLink, Kas } from '../ui';

const ADDRESS_COLUMNS: readonly StackedColumn[] = [
  { label: 'Address' },
  { label: 'Chain' },
  { label: 'Index', alignRight: true },
  { label: 'Use' },
  { label: 'Transactions', alignRight: true },
  { label: 'Balance', alignRight: true },
];

const CHAIN_LABEL = { receive: 'receive', change: 'change' } as const;

/** Every address checked, used and unused, in derivation order: receive and change chains with their indexes. */
export function WalletAddresses({ addresses }: { addresses: readonly WalletSummaryAddress[] }) {
  return (
    <StackedTable
      label="Addresses of the wallet"
      caption="Addresses of the wallet: chain, index, use and balance"
      columns={ADDRESS_COLUMNS}
      density="list"
      testId="wallet-addresses"
    >
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
    </StackedTable>
  );
}
