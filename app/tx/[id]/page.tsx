import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { problemText, RequestProblem } from '@/components/block/request-problem';
import { decodeKrc20Operation } from '@/components/transaction/krc20-operation';
import { PendingTransaction } from '@/components/transaction/pending-transaction';
import { TransactionDetails } from '@/components/transaction/transaction-details';
import { getRuntime } from '@/lib/runtime';
import { pageResource, plainMetadata, shareMetadata } from '@/lib/serving/page-support';
import { counted, kasDisplay, shortHash } from '@/lib/web/format';
import { resources } from '@/lib/web/resources';
import { pages } from '@/lib/web/urls';

interface Props {
  params: Promise<{ id: string }>;
}

/** The indexed transaction, or the mempool entry when the indexer has not seen it yet. */
async function loadTransaction(id: string) {
  const indexed = await pageResource(resources.transaction, { params: { id }, query: { include_payload: true } });
  if (indexed.status !== 404) return { indexed, pending: null };
  const mempool = await pageResource(resources.mempoolEntry, {
    body: { transactionId: id, includeOrphanPool: true, filterTransactionPool: false },
  });
  const pending = mempool.ok ? mempool.body.mempoolEntry : null;
  return { indexed, pending };
}

function outputTotal(outputs: readonly { amount?: string; value?: string }[]): bigint {
  return outputs.reduce((sum, output) => sum + BigInt(output.amount ?? output.value ?? '0'), 0n);
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  const { indexed, pending } = await loadTransaction(id);
  const title = `Transaction ${shortHash(id)}`;
  if (indexed.ok) {
    const { transaction } = indexed.body;
    const status = transaction.isAccepted ? `accepted, ${counted(transaction.confirmations, 'confirmation')}` : 'not accepted yet';
    return shareMetadata({
      path: pages.transaction(id),
      title,
      description: `Kaspa transaction (${status}): ${counted(transaction.inputs.length, 'input')}, ${counted(transaction.outputs.length, 'output')} moving ${kasDisplay(
        outputTotal(transaction.outputs),
      )}.`,
      ownImage: true,
    });
  }
  if (pending !== null) {
    return shareMetadata({
      path: pages.transaction(id),
      title,
      description: `Pending Kaspa transaction in the mempool, moving ${kasDisplay(outputTotal(pending.transaction.outputs))}.`,
      ownImage: true,
    });
  }
  return plainMetadata(indexed.status === 404 ? 'Transaction not found' : indexed.status === 400 ? 'Invalid transaction id' : 'Transaction');
}

export default async function TransactionPage({ params }: Props) {
  const { id } = await params;
  const { indexed, pending } = await loadTransaction(id);
  const prefix = await (await getRuntime()).api.context.addressPrefix();
  if (indexed.ok) {
    const initialData = indexed.body;
    const { transaction } = initialData;
    const krc20 = decodeKrc20Operation(
      {
        payload: transaction.payload,
        inputs: transaction.inputs.map((input) => ({
          signatureScript: input.signatureScript,
          previousAddress: input.previousOutput.scriptPublicKeyAddress,
        })),
      },
      prefix,
    );
    return <TransactionDetails id={id} initialData={initialData} krc20={krc20} />;
  }
  if (pending !== null) {
    const krc20 = decodeKrc20Operation(pending.transaction, prefix);
    return <PendingTransaction id={id} entry={pending} krc20={krc20} />;
  }
  // An id that is not 64 hex digits names no transaction either (Next's pages can answer 404, not 400).
  if (indexed.status === 404 || indexed.status === 400) notFound();
  return (
    <RequestProblem
      heading={indexed.status === 400 ? 'Invalid transaction id' : 'Could not load the transaction'}
      problem={problemText(indexed.status, indexed.body)}
      backHref={pages.home()}
    >
      {indexed.status === 400 && <p className="mt-2">A transaction id is 64 hexadecimal characters (0–9, a–f).</p>}
    </RequestProblem>
  );
}
