'use client';

import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { useId, useState } from 'react';
import { StatusPanel } from '@/components/transaction/transaction-parts';
import { BlockLink, Card, CopyButton, TransactionLink } from '@/components/ui';
import { broadcastStage, parseBroadcastInput, type BroadcastStage } from '@/lib/web/broadcast';
import { counted } from '@/lib/web/format';
import { ApiProblem, fetchResource, useResource } from '@/lib/web/queries';
import { resources } from '@/lib/web/resources';
import { pages } from '@/lib/web/urls';

const POLL_MS = 2_000;

const BUTTON =
  'rounded bg-teal-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-teal-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-teal-500 focus-visible:ring-offset-1 disabled:opacity-50 dark:bg-teal-600 dark:hover:bg-teal-500';

const STAGE_TEXT: Record<BroadcastStage, { tone: 'ok' | 'wait' | 'warn'; heading: string; text: string }> = {
  mempool: {
    tone: 'wait',
    heading: 'In the mempool',
    text: 'The node holds the transaction and relays it; it enters a block within a second or two at ten blocks a second.',
  },
  orphan: {
    tone: 'warn',
    heading: 'An orphan in the mempool',
    text: 'It spends an output the node does not know yet; it waits until that output exists.',
  },
  included: {
    tone: 'wait',
    heading: 'In a block, not accepted yet',
    text: 'A block carries it; it is accepted when a chain block merges that block and its inputs are still unspent.',
  },
  accepted: { tone: 'ok', heading: 'Accepted', text: 'A chain block accepted it: its outputs are spendable.' },
  unknown: {
    tone: 'wait',
    heading: 'Looking for it',
    text: 'Neither the index nor the mempool has it at this moment; a block may be carrying it to the index.',
  },
};

/** Follows a submitted transaction from the mempool to acceptance, asking the index and the node every two seconds. */
function BroadcastTracker({ id }: { id: string }) {
  const indexed = useResource(resources.transaction, { params: { id }, query: {} }, { refetchInterval: POLL_MS });
  const inMempool = indexed.data === undefined;
  const mempool = useResource(
    resources.mempoolEntry,
    { body: { transactionId: id, includeOrphanPool: true, filterTransactionPool: false } },
    { refetchInterval: inMempool ? POLL_MS : false, enabled: inMempool },
  );
  const transaction = indexed.data?.transaction ?? null;
  const stage = broadcastStage(transaction, mempool.data?.mempoolEntry ?? null);
  const { tone, heading, text } = STAGE_TEXT[stage];
  return (
    <StatusPanel tone={tone} heading={<span data-stage={stage}>{heading}</span>}>
      <p>{text}</p>
      {transaction !== null && transaction.acceptingBlockHash !== null && (
        <p className="mt-1">
          Accepted by chain block <BlockLink hash={transaction.acceptingBlockHash} /> ·{' '}
          <span data-testid="broadcast-confirmations">{counted(transaction.confirmations, 'confirmation')}</span>
        </p>
      )}
      <p className="mt-1">
        <Link href={pages.transaction(id)} className="font-medium underline">
          Open the transaction page
        </Link>
      </p>
    </StatusPanel>
  );
}

/** Paste a signed transaction, send it to the node through POST /v1/rpc/submitTransaction, follow it to acceptance. */
export function BroadcastView() {
  const ids = { text: useId(), orphan: useId(), problem: useId() };
  const [text, setText] = useState('');
  const [allowOrphan, setAllowOrphan] = useState(false);
  const [inputProblem, setInputProblem] = useState<string | null>(null);
  const submit = useMutation({
    mutationFn: (body: { transaction: unknown; allowOrphan: boolean }) => fetchResource(resources.submitTransaction, { body }),
  });

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const input = parseBroadcastInput(text, allowOrphan);
    if (!input.ok) {
      setInputProblem(input.message);
      return;
    }
    setInputProblem(null);
    submit.mutate({ transaction: input.transaction, allowOrphan: input.allowOrphan });
  };

  const rejection = submit.error instanceof ApiProblem ? submit.error.problem : null;
  return (
    <div className="space-y-4">
      <Card title="Signed transaction">
        <form onSubmit={onSubmit} className="space-y-3" aria-label="Broadcast">
          <label htmlFor={ids.text} className="block text-sm text-slate-700 dark:text-slate-300">
            The transaction as JSON: the RPC form kaspad and this API use (
            <code>{'{ "version", "inputs", "outputs", "lockTime", "subnetworkId", "gas", "payload" }'}</code>), or a whole
            submitTransaction body. Amounts may be JSON integers or decimal strings.
          </label>
          <textarea
            id={ids.text}
            value={text}
            onChange={(event) => setText(event.target.value)}
            spellCheck={false}
            rows={12}
            aria-invalid={inputProblem !== null}
            aria-describedby={inputProblem === null ? undefined : ids.problem}
            className="w-full min-w-0 rounded border border-slate-300 bg-white px-2 py-1 font-mono text-xs text-slate-900 focus:border-teal-600 focus:ring-2 focus:ring-teal-500 focus:outline-none dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
          />
          {inputProblem !== null && (
            <p id={ids.problem} role="alert" className="text-sm text-rose-800 dark:text-rose-300">
              {inputProblem}
            </p>
          )}
          <div className="flex flex-wrap items-center gap-4">
            <label htmlFor={ids.orphan} className="flex items-center gap-2 text-sm">
              <input id={ids.orphan} type="checkbox" checked={allowOrphan} onChange={(event) => setAllowOrphan(event.target.checked)} />
              Allow an orphan (it may spend outputs of transactions the node has not seen yet)
            </label>
            <button type="submit" disabled={submit.isPending} className={`${BUTTON} ml-auto`}>
              {submit.isPending ? 'Sending…' : 'Broadcast'}
            </button>
          </div>
        </form>
      </Card>
      {submit.isError && (
        <StatusPanel tone="warn" heading="The node refused it">
          <p data-testid="broadcast-rejection">
            {rejection === null ? submit.error.message : `${rejection.status} ${rejection.title}${rejection.detail === undefined ? '' : `: ${rejection.detail}`}`}
          </p>
        </StatusPanel>
      )}
      {submit.data !== undefined && (
        <section aria-label="Submitted transaction" className="space-y-2">
          <p className="flex min-w-0 flex-wrap items-center gap-1 text-sm">
            The node took transaction <TransactionLink id={submit.data.transactionId} full />
            <CopyButton text={submit.data.transactionId} label="Copy transaction id" />
          </p>
          <BroadcastTracker key={submit.data.transactionId} id={submit.data.transactionId} />
        </section>
      )}
    </div>
  );
}
