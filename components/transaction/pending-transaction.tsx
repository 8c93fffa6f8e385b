'use client';

import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { ShowApiCall } from '@/components/show-api-call';
import { Card, CopyButton, Facts, Kas } from '@/components/ui';
import type { NodeMempoolEntry } from '@/lib/api/endpoints/node-format';
import { formatInteger } from '@/lib/web/format';
import { entryMasses } from '@/lib/web/mempool-stats';
import { useResource } from '@/lib/web/queries';
import { resources } from '@/lib/web/resources';
import type { DecodedKrc20 } from './krc20-operation';
import { feeRateText, InputsTable, Krc20Card, OutputsTable, PayloadCard, StatusPanel } from './transaction-parts';

const POLL_MS = 2_000;

/** A transaction the node holds in its mempool but the index does not have yet; the page turns into the indexed view once it does. */
export function PendingTransaction({ id, entry, krc20 }: { id: string; entry: NodeMempoolEntry; krc20: DecodedKrc20 | null }) {
  const router = useRouter();
  const indexed = useResource(resources.transaction, { params: { id }, query: { include_payload: true } }, { refetchInterval: POLL_MS });
  useEffect(() => {
    if (indexed.data !== undefined) router.refresh();
  }, [indexed.data, router]);

  const { transaction } = entry;
  // kaspad reports an orphan's fee as 0 (unknown) and sends the storage mass as `mass` (lib/web/mempool-stats.ts).
  const fee = entry.isOrphan ? null : BigInt(entry.fee);
  const { computeMass, storageMass, mass } = entryMasses(entry);
  return (
    <main className="mx-auto max-w-7xl space-y-4 px-4 py-6">
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="text-2xl font-semibold tracking-tight">Transaction</h1>
        <span className="ml-auto">
          <ShowApiCall
            request={{ route: 'POST /v1/rpc/getMempoolEntry', body: { transactionId: id, includeOrphanPool: true, filterTransactionPool: false } }}
          />
        </span>
      </div>
      <p className="flex min-w-0 items-center font-mono text-sm break-all" data-testid="transaction-id">
        {id}
        <CopyButton text={id} label="Copy transaction id" />
      </p>
      <StatusPanel tone="wait" heading={entry.isOrphan ? 'Pending · orphan in the mempool' : 'Pending · in the mempool'}>
        <p>
          {entry.isOrphan
            ? 'The node holds this transaction as an orphan: it spends an output the node does not know yet (usually that of another pending transaction). It cannot enter a block until that output exists.'
            : 'The node accepted this transaction into its mempool; it is waiting for a block. Blocks come about ten a second here, so it is usually mined within a second or two.'}{' '}
          This page checks the index every two seconds and shows the mined transaction as soon as it is indexed.
        </p>
      </StatusPanel>
      <Card title="Overview">
        <Facts
          items={[
            { label: 'Fee', value: fee === null ? 'unknown until the spent outputs are' : <Kas sompi={fee} digits={8} /> },
            { label: 'Fee rate', value: feeRateText(fee, mass), hint: 'Fee divided by the larger of the compute and storage masses' },
            { label: 'Version', value: transaction.version, hint: 'Version 1 transactions (Toccata) carry per-input compute budgets and covenant bindings' },
            { label: 'Compute mass', value: `${formatInteger(computeMass)} g`, hint: 'Mass of the work to validate the transaction' },
            { label: 'Storage mass', value: `${formatInteger(storageMass)} g`, hint: 'Mass charged for the UTXO set space the outputs take (KIP-9)' },
            { label: 'Output total', value: <Kas sompi={transaction.outputs.reduce((sum, output) => sum + BigInt(output.value), 0n)} digits={8} /> },
          ]}
        />
      </Card>
      {krc20 !== null && <Krc20Card operation={krc20} />}
      <Card title={`Inputs (${transaction.inputs.length})`}>
        <InputsTable
          inputs={transaction.inputs.map((input, index) => ({
            index,
            previousTransactionId: input.previousOutpoint.transactionId,
            previousIndex: input.previousOutpoint.index,
            amount: null,
            address: null,
            computeBudget: transaction.version >= 1 ? (input.computeBudget ?? 0) : null,
            sigOpCount: input.sigOpCount,
            previousCovenantId: null,
          }))}
        />
      </Card>
      <Card title={`Outputs (${transaction.outputs.length})`}>
        <OutputsTable
          outputs={transaction.outputs.map((output, index) => ({
            index,
            amount: output.value,
            address: output.verboseData?.scriptPublicKeyAddress ?? null,
            type: output.verboseData?.scriptPublicKeyType ?? null,
            covenant: output.covenant ?? null,
          }))}
        />
      </Card>
      <PayloadCard payload={transaction.payload} coinbase={false} />
    </main>
  );
}
