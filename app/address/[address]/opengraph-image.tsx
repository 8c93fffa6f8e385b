import { PREVIEW_CONTENT_TYPE, PREVIEW_SIZE, previewImage } from '@/components/block/preview-image';
import { pageResource } from '@/lib/serving/page-support';
import { formatInteger, kasDisplay } from '@/lib/web/format';
import { resources } from '@/lib/web/resources';
import { decodeSegment } from '@/lib/api/http/http';

export const alt = 'A Kaspa address on dagboard';
export const size = PREVIEW_SIZE;
export const contentType = PREVIEW_CONTENT_TYPE;

export default async function AddressPreview({ params }: { params: Promise<{ address: string }> }) {
  const address = decodeSegment((await params).address);
  const result = await pageResource(resources.utxos, { body: { addresses: [address] } });
  if (!result.ok) {
    return previewImage({ kind: 'Address', identifier: address, status: { text: 'Invalid address', tone: 'warn' }, facts: [] });
  }
  const { entries } = result.body;
  const balance = entries.reduce((sum, entry) => sum + BigInt(entry.amount), 0n);
  return previewImage({
    kind: 'Address',
    identifier: address,
    facts: [
      { label: 'Balance', value: kasDisplay(balance) },
      { label: 'UTXOs', value: formatInteger(entries.length) },
    ],
  });
}
