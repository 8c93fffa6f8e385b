import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { problemText, RequestProblem } from '@/components/block/request-problem';
import { CovenantView } from '@/components/covenant/covenant-view';
import { pageV1, plainMetadata, shareMetadata } from '@/lib/runtime/page-support';
import { counted, shortHash } from '@/lib/web/format';
import { COVENANT_LINEAGE_PAGE_SIZE, resources, type CovenantDetail, type CovenantLineagePage } from '@/lib/web/resources';
import { pages } from '@/lib/web/urls';

export const dynamic = 'force-dynamic';

interface Props {
  params: Promise<{ id: string }>;
}

function loadCovenant(id: string) {
  return pageV1(resources.covenant.route, { params: { covenantId: id } });
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  const result = await loadCovenant(id);
  if (result.status !== 200) return plainMetadata(result.status === 400 ? 'Invalid covenant id' : 'Covenant not found');
  const { covenant } = result.body as unknown as { covenant: CovenantDetail };
  return shareMetadata({
    path: pages.covenant(id),
    title: `Covenant ${shortHash(id)}`,
    description: `Kaspa covenant (KIP-20), ${covenant.state}: ${counted(covenant.utxoCount, 'current UTXO')}; its lineage from genesis over time, its script and its transactions.`,
    ownImage: true,
  });
}

export default async function CovenantPage({ params }: Props) {
  const { id } = await params;
  const [covenant, lineage] = await Promise.all([
    loadCovenant(id),
    pageV1(resources.covenantLineage.route, { params: { covenantId: id }, query: { limit: COVENANT_LINEAGE_PAGE_SIZE } }),
  ]);
  // An id that is not 64 hex digits names no covenant either (Next's pages can answer 404, not 400).
  if (covenant.status === 404 || covenant.status === 400) notFound();
  if (covenant.status !== 200 || lineage.status !== 200) {
    const failed = covenant.status !== 200 ? covenant : lineage;
    return <RequestProblem heading="Could not load the covenant" problem={problemText(failed.status, failed.body)} backHref={pages.covenants()} backLabel="All covenants" />;
  }
  return (
    <CovenantView
      initialCovenant={(covenant.body as unknown as { covenant: CovenantDetail }).covenant}
      initialLineage={lineage.body as unknown as CovenantLineagePage}
    />
  );
}
