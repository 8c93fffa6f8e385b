import { PREVIEW_CONTENT_TYPE, PREVIEW_SIZE, previewImage } from '@/components/block/preview-image';
import { pageResource } from '@/lib/serving/page-support';
import { formatInteger } from '@/lib/web/format';
import { resources } from '@/lib/web/resources';

export const alt = 'A Kaspa block on dagboard';
export const size = PREVIEW_SIZE;
export const contentType = PREVIEW_CONTENT_TYPE;

export default async function BlockPreview({ params }: { params: Promise<{ hash: string }> }) {
  const { hash } = await params;
  const result = await pageResource(resources.block, { body: { hash, includeTransactions: true } });
  if (!result.ok) {
    return previewImage({ kind: 'Block', identifier: hash, status: { text: result.status === 404 ? 'Not found' : 'Invalid hash', tone: 'warn' }, facts: [] });
  }
  const { block } = result.body;
  const chain = block.verboseData?.isChainBlock === true;
  return previewImage({
    kind: 'Block',
    identifier: hash,
    status: { text: chain ? 'Chain block' : 'Not a chain block', tone: chain ? 'ok' : 'wait' },
    facts: [
      { label: 'DAA score', value: formatInteger(block.header.daaScore) },
      { label: 'Blue score', value: formatInteger(block.header.blueScore) },
      { label: 'Transactions', value: formatInteger(block.transactions.length) },
      { label: 'Time (UTC)', value: new Date(Number(block.header.timestamp)).toISOString().slice(0, 19).replace('T', ' ') },
    ],
  });
}
