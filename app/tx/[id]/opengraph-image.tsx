import { PREVIEW_CONTENT_TYPE, PREVIEW_SIZE, previewImage } from '@/components/block/preview-image';
import { pageResource } from '@/lib/serving/page-support';
import { counted, formatInteger, kasDisplay } from '@/lib/web/format';
import { resources } from '@/lib/web/resources';

export const alt = 'A Kaspa transaction on dagboard';
export const size = PREVIEW_SIZE;
export const contentType = PREVIEW_CONTENT_TYPE;

export default async function TransactionPreview({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const indexed = await pageResource(resources.transaction, { params: { id }, query: { include_payload: true } });
  if (indexed.ok) {
    const { transaction } = indexed.body;
    const moved = transaction.outputs.reduce((sum, output) => sum + BigInt(output.amount), 0n);
    return previewImage({
      kind: 'Transaction',
      identifier: id,
      status: transaction.isAccepted
        ? { text: `Accepted, ${counted(transaction.confirmations, 'confirmation')}`, tone: 'ok' }
        : { text: 'Not accepted yet', tone: 'warn' },
      facts: [
        { label: 'Amount', value: kasDisplay(moved) },
        { label: 'Inputs', value: formatInteger(transaction.inputs.length) },
        { label: 'Outputs', value: formatInteger(transaction.outputs.length) },
        { label: 'Mass', value: `${formatInteger(transaction.mass)} g` },
      ],
    });
  }
  const pending = await pageResource(resources.mempoolEntry, {
    body: { transactionId: id, includeOrphanPool: true, filterTransactionPool: false },
  });
  if (pending.ok) {
    const { mempoolEntry } = pending.body;
    return previewImage({
      kind: 'Transaction',
      identifier: id,
      status: { text: 'Pending in the mempool', tone: 'wait' },
      facts: [
        { label: 'Amount', value: kasDisplay(mempoolEntry.transaction.outputs.reduce((sum, output) => sum + BigInt(output.value), 0n)) },
        // kaspad reports an orphan's fee as 0: it is unknown until the spent outputs are.
        { label: 'Fee', value: mempoolEntry.isOrphan ? 'unknown (orphan)' : kasDisplay(mempoolEntry.fee, 8) },
      ],
    });
  }
  return previewImage({ kind: 'Transaction', identifier: id, status: { text: indexed.status === 404 ? 'Not found' : 'Invalid id', tone: 'warn' }, facts: [] });
}
