'use client';

import { useRef } from 'react';
import { useLiveEvents } from '@/components/live-provider';
import { ShowApiCall } from '@/components/show-api-call';
import { BlockLink, Card, CopyButton, ErrorState, Facts, Kas, TimeAgo } from '@/components/ui';
import type { IndexedTransactionView } from '@/lib/api/endpoints/indexed-format';
import { LANE_NAMES, laneShapeOf } from '@/lib/web/block-lanes';
import { formatInteger } from '@/lib/web/format';
import { useResource } from '@/lib/web/queries';
import { resources, type ResultOf } from '@/lib/web/resources';
import type { DecodedKrc20 } from './krc20-operation';
import { COINBASE_SUBNETWORK, feeRateText, InputsTable, Krc20Card, OutputsTable, PayloadCard, StatusPanel } from './transaction-parts';

/**
 * Confirmations rise with every chain block (about ten a second): each virtual-chain event of the live stream
 * refreshes the transaction, at most once per LIVE_MIN_GAP_MS; a slower poll covers a stream that is down. Once the
 * transaction is deep, only the slow poll remains.
 */
const LIVE_MIN_GAP_MS = 2_000;
const FALLBACK_REFRESH_MS = 15_000;
const SETTLED_REFRESH_MS = 60_000;
const SETTLED_CONFIRMATIONS = 1_000;

function isSettled(transaction: IndexedTransactionView | undefined): boolean {
  return transaction !== undefined && transaction.isAccepted && transaction.confirmations > SETTLED_CONFIRMATIONS;
}

function massText(mass: string | null): string {
  return mass === null ? 'not recorded' : `${formatInteger(mass)} g`;
}

function feeOf(transaction: IndexedTransactionView): bigint | null {
  if (transaction.subnetworkId === COINBASE_SUBNETWORK) return null;
  let inputs = 0n;
  for (const input of transaction.inputs) {
    if (input.previousOutput.amount === null) return null;
    inputs += BigInt(input.previousOutput.amount);
  }
  return inputs - transaction.outputs.reduce((sum, output) => sum + BigInt(output.amount), 0n);
}

function Status({ transaction }: { transaction: IndexedTransactionView }) {
  if (transaction.isAccepted && transaction.acceptingBlockHash !== null) {
    return (
      <StatusPanel
        tone="ok"
        heading={
          <>
            Accepted · <span data-testid="confirmations">{formatInteger(transaction.confirmations)}</span> confirmations
          </>
        }
      >
        <p>
          The chain block <BlockLink hash={transaction.acceptingBlockHash} /> accepted this transaction: its inputs are
          spent and its outputs can be spent. Confirmations count the blue score added on top of the accepting block
          (about ten a second on this network) and keep rising while this page is open.
        </p>
      </StatusPanel>
    );
  }
  if (transaction.subnetworkId === COINBASE_SUBNETWORK) {
    return (
      <StatusPanel tone="warn" heading="Coinbase, not accepted">
        <p>
          A coinbase transaction is accepted only while its block is on the selected chain. This block&apos;s coinbase is
          not: the rewards of blocks that are merged rather than on the chain are paid through the coinbase of the chain
          block that merges them. This can still change while the block is near the tip; the page updates by itself.
        </p>
      </StatusPanel>
    );
  }
  return (
    <StatusPanel tone="warn" heading="Included in a block, not accepted">
      <p>
        The transaction sits in {transaction.blockHashes.length === 1 ? 'a block' : `${transaction.blockHashes.length} blocks`}, but no
        chain block has accepted it. Normally a chain block merges the containing block within a second or two and this
        page updates by itself. If it stays unaccepted, it conflicts with a transaction that was accepted first (a double
        spend), or a reorganisation of the chain undid its acceptance; its inputs are then not spent by it and its outputs
        do not exist.
      </p>
    </StatusPanel>
  );
}

export function TransactionDetails({
  id,
  initialData,
  krc20,
}: {
  id: string;
  initialData: ResultOf<typeof resources.transaction>;
  krc20: DecodedKrc20 | null;
}) {
  const call = { params: { id }, query: { include_payload: true } };
  const query = useResource(resources.transaction, call, {
    initialData,
    staleTime: LIVE_MIN_GAP_MS,
    refetchInterval: (current) => (isSettled(current.state.data?.transaction) ? SETTLED_REFRESH_MS : FALLBACK_REFRESH_MS),
  });
  const transaction = query.data?.transaction ?? initialData.transaction;
  const lastLiveRefresh = useRef(0);
  useLiveEvents((event) => {
    if (event.type !== 'chain' || isSettled(transaction) || query.isFetching) return;
    const now = Date.now();
    if (now - lastLiveRefresh.current < LIVE_MIN_GAP_MS) return;
    lastLiveRefresh.current = now;
    void query.refetch();
  });
  const coinbase = transaction.subnetworkId === COINBASE_SUBNETWORK;
  const fee = feeOf(transaction);
  const mass = BigInt(transaction.mass);
  const inputTotal = transaction.inputs.reduce((sum, input) => sum + BigInt(input.previousOutput.amount ?? 0), 0n);
  const outputTotal = transaction.outputs.reduce((sum, output) => sum + BigInt(output.amount), 0n);

  return (
    <main className="mx-auto max-w-7xl space-y-4 px-4 py-6">
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="text-2xl font-semibold tracking-tight">{coinbase ? 'Coinbase transaction' : 'Transaction'}</h1>
        <span className="ml-auto">
          <ShowApiCall request={{ route: resources.transaction.route, params: call.params, query: { include_payload: 'true' } }} />
        </span>
      </div>
      <p className="flex min-w-0 items-center font-mono text-sm break-all" data-testid="transaction-id">
        {id}
        <CopyButton text={id} label="Copy transaction id" />
      </p>
      {query.error !== null && <ErrorState error={query.error} onRetry={() => void query.refetch()} />}
      <Status transaction={transaction} />

      <Card title="Overview">
        <Facts
          items={[
            { label: 'Block time', value: <TimeAgo time={transaction.blockTime} /> },
            {
              label: 'Accepting block',
              value: transaction.acceptingBlockHash === null ? 'none yet' : <BlockLink hash={transaction.acceptingBlockHash} copy />,
            },
            {
              label: `Containing blocks (${transaction.blockHashes.length})`,
              value: (
                <ul>
                  {transaction.blockHashes.map((hash) => (
                    <li key={hash}>
                      <BlockLink hash={hash} copy />
                    </li>
                  ))}
                </ul>
              ),
            },
            { label: 'Input total', value: coinbase ? '— (new coins)' : <Kas sompi={inputTotal} digits={8} /> },
            { label: 'Output total', value: <Kas sompi={outputTotal} digits={8} /> },
            {
              label: 'Fee',
              value: coinbase ? 'none (coinbase)' : fee === null ? 'unknown (a spent output is not indexed)' : <Kas sompi={fee} digits={8} />,
              hint: 'Inputs minus outputs',
            },
            { label: 'Fee rate', value: feeRateText(fee, mass), hint: 'Fee divided by mass' },
            { label: 'Mass', value: `${formatInteger(mass)} g`, hint: 'The transaction mass (grams) block space and fees are measured in' },
            {
              label: 'Storage / compute mass',
              value: `${massText(transaction.storageMass)} / ${massText(transaction.computeMass)}`,
              hint: 'Storage mass: the UTXO-set space the outputs take (KIP-9), committed by the transaction; compute mass: the work to validate it',
            },
            {
              label: 'Version',
              value: <span data-testid="transaction-version">{transaction.version}</span>,
              hint: 'Version 1 transactions (Toccata) carry per-input compute budgets and covenant bindings',
            },
            { label: 'Gas', value: formatInteger(transaction.gas), hint: 'Gas the transaction commits to its lane (0 on the native lane)' },
            { label: 'Hash', value: <span className="font-mono break-all">{transaction.hash}</span> },
            {
              label: 'Lane (subnetwork)',
              value: (
                <span className="break-all">
                  <span className="font-mono">{transaction.subnetworkId}</span>{' '}
                  <span className="text-slate-600 dark:text-slate-400">({LANE_NAMES[laneShapeOf(transaction.subnetworkId)]})</span>
                </span>
              ),
              hint: 'The subnetwork id is the transaction’s sequencing lane (KIP-21)',
            },
          ]}
        />
      </Card>

      {krc20 !== null && <Krc20Card operation={krc20} transactionId={id} />}

      <Card title={`Inputs (${transaction.inputs.length})`}>
        <InputsTable
          inputs={transaction.inputs.map((input) => ({
            index: input.index,
            previousTransactionId: input.previousOutput.transactionId,
            previousIndex: input.previousOutput.index,
            amount: input.previousOutput.amount,
            address: input.previousOutput.scriptPublicKeyAddress,
            computeBudget: transaction.version >= 1 ? input.computeBudget : null,
            sigOpCount: input.sigOpCount,
            previousCovenantId: input.previousOutput.covenantId,
          }))}
        />
      </Card>

      <Card title={`Outputs (${transaction.outputs.length})`}>
        <OutputsTable
          outputs={transaction.outputs.map((output) => ({
            index: output.index,
            amount: output.amount,
            address: output.scriptPublicKeyAddress,
            type: output.scriptPublicKeyType,
            covenant: output.covenant,
          }))}
        />
      </Card>

      <PayloadCard payload={transaction.payload} coinbase={coinbase} />
    </main>
  );
}
