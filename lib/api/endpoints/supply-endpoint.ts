/**
 * GET /v1/supply (an extension): kaspad's coin supply with the block reward of the served network's subsidy schedule
 * (lib/kaspa/subsidy.ts) at the virtual DAA score, and the next reward reduction with the time to it at the network's
 * block rate. A network whose schedule the table does not know answers the supply with null reward fields.
 */
import { nextSubsidyChange, blockSubsidy, subsidyParamsFor } from '../../kaspa/subsidy';
import { endpointsFor } from '../wrapper/endpoint';
import type { NodeApiContext } from './node-endpoints';

const supplyEndpointOf = endpointsFor<NodeApiContext>();

export interface SupplyView {
  network: string;
  virtualDaaScore: string;
  circulatingSompi: string;
  maxSompi: string;
  blockRewardSompi: string | null;
  nextReduction: { daaScore: string; blockRewardSompi: string; estimatedSeconds: number } | null;
}

export const getSupplyEndpoint = supplyEndpointOf({
  id: 'GET /v1/supply',
  async handler({ context }) {
    const [supply, info] = await Promise.all([context.rpc.call('getCoinSupply', {}), context.rpc.call('getBlockDagInfo', {})]);
    const params = subsidyParamsFor(info.network);
    const daaScore = BigInt(info.virtualDaaScore);
    const next = params === null ? null : nextSubsidyChange(daaScore, params);
    const body: SupplyView = {
      network: info.network,
      virtualDaaScore: daaScore.toString(),
      circulatingSompi: BigInt(supply.circulatingSompi).toString(),
      maxSompi: BigInt(supply.maxSompi).toString(),
      blockRewardSompi: params === null ? null : blockSubsidy(daaScore, params).toString(),
      nextReduction:
        params === null || next === null
          ? null
          : {
              daaScore: next.daaScore.toString(),
              blockRewardSompi: next.subsidy.toString(),
              // The network runs at its post-Crescendo rate now; DAA scores advance at that many a second.
              estimatedSeconds: Number((next.daaScore - daaScore) / params.bpsAfterCrescendo),
            },
    };
    return { body: { ...body }, cache: { kind: 'short', maxAgeSeconds: 1 } };
  },
});
