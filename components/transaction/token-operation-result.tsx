'use client';

import Link from 'next/link';
import { TokenIcon } from '@/components/tokens/token-icon';
import { tokenAmount } from '@/components/tokens/token-format';
import { AddressLink, Skeleton } from '@/components/ui';
import { useResource } from '@/lib/web/queries';
import { resources, type TransactionTokenOperation } from '@/lib/web/resources';
import { pages } from '@/lib/web/urls';

/** The token indexer runs behind the chain: until it has reached the transaction, look again now and then. */
const UNINDEXED_REFRESH_MS = 5_000;

function Amount({ operation }: { operation: TransactionTokenOperation }) {
  if (operation.amount === null) return null;
  if (operation.decimals === null) return <span className="tabular-nums">{operation.amount.toString()} smallest units</span>;
  return (
    <span className="tabular-nums" title={`${operation.amount.toString()} smallest units`} data-testid="token-operation-amount">
      {tokenAmount(operation.amount, operation.decimals)} {operation.ticker}
    </span>
  );
}

function Operation({ operation }: { operation: TransactionTokenOperation }) {
  return (
    <li className="space-y-1" data-testid="token-operation-result" data-accepted={String(operation.accepted)}>
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <TokenIcon ticker={operation.ticker} url={operation.iconUrl} size={20} />
        {operation.decimals === null ? (
          <span className="font-mono font-semibold">{operation.ticker}</span>
        ) : (
          <Link href={pages.token(operation.ticker)} className="font-mono font-semibold text-teal-700 hover:underline dark:text-teal-400">
            {operation.ticker}
          </Link>
        )}
        <span>{operation.op}</span>
        <Amount operation={operation} />
        {operation.accepted ? (
          <span className="rounded bg-emerald-100 px-1.5 text-xs text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300">applied</span>
        ) : (
          <span className="rounded bg-red-100 px-1.5 text-xs text-red-800 dark:bg-red-950 dark:text-red-300">failed</span>
        )}
      </p>
      {!operation.accepted && operation.opError !== null && (
        <p className="text-xs break-words text-red-700 dark:text-red-400" data-testid="token-operation-error">
          {operation.opError}
        </p>
      )}
      <p className="flex flex-wrap items-center gap-x-2 text-xs text-slate-600 dark:text-slate-400">
        from <AddressLink address={operation.from} />
        {operation.to !== null && (
          <>
            to <AddressLink address={operation.to} />
          </>
        )}
      </p>
    </li>
  );
}

/** What the token indexer made of the transaction's operation: applied or failed (and why), amounts in whole tokens. */
export function TokenOperationResult({ transactionId }: { transactionId: string }) {
  const result = useResource(
    resources.transactionTokenOperations,
    { params: { transactionId } },
    { refetchInterval: (query) => (query.state.data?.operations.length === 0 ? UNINDEXED_REFRESH_MS : false) },
  );
  return (
    <div className="border-t border-slate-100 pt-2 dark:border-slate-800">
      <h3 className="text-xs font-medium uppercase text-slate-500 dark:text-slate-400">Result</h3>
      {result.isPending ? (
        <Skeleton className="mt-1 h-5 w-64" />
      ) : result.isError ? (
        <p className="mt-1 text-slate-600 dark:text-slate-400">The token index could not be read: {result.error.message}</p>
      ) : result.data.operations.length === 0 ? (
        <p className="mt-1 text-slate-600 dark:text-slate-400" data-testid="token-operation-pending">
          Not indexed yet: the token indexer has not reached this transaction (it follows accepted transactions).
        </p>
      ) : (
        <ul className="mt-1 space-y-2">
          {result.data.operations.map((operation) => (
            <Operation key={operation.opScore.toString()} operation={operation} />
          ))}
        </ul>
      )}
    </div>
  );
}
