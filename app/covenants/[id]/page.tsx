import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { problemText, RequestProblem } from '@/components/block/request-problem';
import { CovenantView } from '@/components/covenant/covenant-view';
import { pageResource, plainMetadata, shareMetadata } from '@/lib/serving/page-support';
import { counted, shortHash } from '@/lib/web/format';
import { COVENANT_LINEAGE_PAGE_SIZE, resources } from '@/lib/web/resources';
import { pages } from '@/lib/web/urls';

export const dynamic = 'force-dynamic';

interface Props {
  params: Promise<{ id: string }>;
}

function loadCovenant(id: string) {
  return pageResource(resources.covenant, { params: { covenantId: id } });
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  const result = await loadCovenant(id);
  if (!result.ok) return plainMetadata(result.status === 400 ? 'Invalid covenant id' : 'Covenant not found');
  const { covenant } = result.body;
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
    pageResource(resources.covenantLineage, { params: { covenantId: id }, query: { limit: COVENANT_LINEAGE_PAGE_SIZE } }),
  ]);
  // An id that is not 64 hex digits names no covenant either (Next's pages can answer 404, not 400).
  if (covenant.status === 404 || covenant.status === 400) notFound();
  if (!covenant.ok || !lineage.ok) {
    const failed = covenant.ok ? lineage : covenant;
    return <RequestProblem heading="Could not load the covenant" problem={problemText(failed.status, failed.body)} backHref={pages.covenants()} backLabel="All covenants" />;
  }
  return (
    <CovenantView
      initialCovenant={covenant.body.covenant}
      initialLineage={lineage.body}
    />
  );
}
