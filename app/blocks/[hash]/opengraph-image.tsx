import { PREVIEW_CONTENT_TYPE, PREVIEW_SIZE, previewImage } from '@/components/block/preview-image';
import type { NodeBlock } from '@/lib/api/node-format';
import { pageV1 } from '@/lib/runtime/page-support';
import { formatInteger } from '@/lib/web/format';

export const alt = 'A Kaspa block on dagboard';
export const size = PREVIEW_SIZE;
export const contentType = PREVIEW_CONTENT_TYPE;

export default async function BlockPreview({ params }: { params: Promise<{ hash: string }> }) {
  const { hash } = await params;
  const result = await pageV1('POST /v1/rpc/getBlock', { body: { hash, includeTransactions: true } });
  if (result.status !== 200) {
    return previewImage({ kind: 'Block', identifier: hash, status: { text: result.status === 404 ? 'Not found' : 'Invalid hash', tone: 'warn' }, facts: [] });
  }
  const { block } = result.body as unknown as { block: NodeBlock };
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
