import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { BlockDetails } from '@/components/block/block-details';
import { problemText, RequestProblem } from '@/components/block/request-problem';
import { pageResource, plainMetadata, shareMetadata } from '@/lib/serving/page-support';
import { blockMiner } from '@/lib/web/block-miner';
import { resources } from '@/lib/web/resources';
import { counted, formatInteger, shortHash } from '@/lib/web/format';
import { pages } from '@/lib/web/urls';

interface Props {
  params: Promise<{ hash: string }>;
}

function loadBlock(hash: string) {
  return pageResource(resources.block, { body: { hash, includeTransactions: true } });
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { hash } = await params;
  const result = await loadBlock(hash);
  if (!result.ok) {
    return plainMetadata(result.status === 404 ? 'Block not found' : result.status === 400 ? 'Invalid block hash' : 'Block');
  }
  const { block } = result.body;
  const chain = block.verboseData?.isChainBlock ? 'chain block' : 'block off the selected chain';
  return shareMetadata({
    path: pages.block(hash),
    title: `Block ${shortHash(hash)}`,
    description: `Kaspa ${chain} at DAA score ${formatInteger(block.header.daaScore)}, blue score ${formatInteger(
      block.header.blueScore,
    )}, with ${counted(block.transactions.length, 'transaction')}.`,
    ownImage: true,
  });
}

export default async function BlockPage({ params }: Props) {
  const { hash } = await params;
  const result = await loadBlock(hash);
  // A malformed hash names no block either (Next's pages can answer 404, not 400).
  if (result.status === 404 || result.status === 400) notFound();
  if (!result.ok) {
    return (
      <RequestProblem
        heading={result.status === 400 ? 'Invalid block hash' : 'Could not load the block'}
        problem={problemText(result.status, result.body)}
        backHref={pages.home()}
      >
        {result.status === 400 && <p className="mt-2">A block hash is 64 hexadecimal characters (0–9, a–f).</p>}
      </RequestProblem>
    );
  }
  const initialData = result.body;
  return <BlockDetails hash={hash} initialData={initialData} miner={blockMiner(initialData.block)} />;
}
