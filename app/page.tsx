import type { Metadata } from 'next';
import { Dashboard } from '@/components/dashboard/dashboard';
import type { NodeDagInfo, NodeFeeEstimate } from '@/lib/api/endpoints/node-format';
import { getRuntime } from '@/lib/runtime';
import { pageResource } from '@/lib/serving/page-support';
import type { LiveSnapshot } from '@/lib/web/live-types';
import { resources } from '@/lib/web/resources';

export const dynamic = 'force-dynamic';

export const metadata: Metadata = {
  title: { absolute: 'dagboard · Kaspa BlockDAG explorer' },
  description: 'Live Kaspa network figures, the newest blocks and transactions, and the BlockDAG of the last minute.',
};

/** Blocks rendered into the first paint; the live stream replays the rest of the last minute right after. */
const FIRST_PAINT_BLOCKS = 12;
/** The live hub samples every 1–2 s; a sample this fresh is as good as asking the node again. */
const FRESH_SAMPLE_MS = 3_000;

async function dagInfoFromApi(): Promise<NodeDagInfo | null> {
  const result = await pageResource(resources.dagInfo);
  return result.ok ? result.body : null;
}

async function feesFromApi(): Promise<NodeFeeEstimate | null> {
  const result = await pageResource(resources.feeEstimate);
  return result.ok ? result.body.estimate : null;
}

/** First paint from the live hub's latest samples when fresh, else from /v1 (the hub has just started). */
async function firstPaintFigures(live: LiveSnapshot): Promise<[NodeDagInfo | null, NodeFeeEstimate | null]> {
  const now = Date.now();
  const fresh = (sample: { sampledAt: number } | undefined) => sample !== undefined && now - sample.sampledAt <= FRESH_SAMPLE_MS;
  return Promise.all([
    fresh(live.dag) ? live.dag!.info : dagInfoFromApi(),
    fresh(live.mempool) ? live.mempool!.feeEstimate : feesFromApi(),
  ]);
}

export default async function HomePage() {
  const runtime = await getRuntime();
  const live = runtime.live().snapshot();
  const [dagInfo, fees] = await firstPaintFigures(live);
  return (
    <Dashboard
      network={dagInfo?.network ?? null}
      initialDagInfo={dagInfo}
      initialFees={fees}
      initialDag={live.dag ?? null}
      initialMempool={live.mempool ?? null}
      initialBlocks={live.blocks.slice(-FIRST_PAINT_BLOCKS)}
    />
  );
}
