import { PREVIEW_CONTENT_TYPE, PREVIEW_SIZE, previewImage } from '@/components/block/preview-image';
import { pageResource } from '@/lib/serving/page-support';
import { formatInteger, kasDisplay } from '@/lib/web/format';
import { resources } from '@/lib/web/resources';

export const alt = 'A Kaspa covenant on dagboard';
export const size = PREVIEW_SIZE;
export const contentType = PREVIEW_CONTENT_TYPE;

export default async function CovenantPreview({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const result = await pageResource(resources.covenant, { params: { covenantId: id } });
  if (!result.ok) {
    return previewImage({ kind: 'Covenant', identifier: id, status: { text: result.status === 404 ? 'Not found' : 'Invalid id', tone: 'warn' }, facts: [] });
  }
  const { covenant } = result.body;
  return previewImage({
    kind: 'Covenant',
    identifier: id,
    status: covenant.state === 'active' ? { text: 'Active', tone: 'ok' } : { text: 'Ended', tone: 'wait' },
    facts: [
      { label: 'Current UTXOs', value: formatInteger(covenant.utxoCount) },
      { label: 'Value held', value: kasDisplay(covenant.currentUtxos.reduce((sum, utxo) => sum + BigInt(utxo.amount), 0n)) },
      { label: 'Created (UTC)', value: new Date(covenant.createdAt).toISOString().slice(0, 19).replace('T', ' ') },
      { label: 'Last activity (UTC)', value: new Date(covenant.lastActivityAt).toISOString().slice(0, 19).replace('T', ' ') },
    ],
  });
}
