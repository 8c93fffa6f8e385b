import { afterEach, describe, expect, it } from 'vitest';
import { bytesToHex } from '../kaspa/bytes';
import type { RpcEventName } from '../rpc/types';
import { MINER_KEY, settle, startWireDevnet, wireKey, type WireDevnet } from './test-support/wire-devnet';

let devnet: WireDevnet | undefined;
afterEach(async () => {
  await devnet?.close();
  devnet = undefined;
});

const VIRTUAL_EVENTS = ['NewBlockTemplate', 'SinkBlueScoreChanged', 'VirtualDaaScoreChanged', 'VirtualChainChanged'] as const;

async function record(wire: WireDevnet): Promise<{ event: RpcEventName; payload: unknown }[]> {
  const seen: { event: RpcEventName; payload: unknown }[] = [];
  await wire.client.subscribe('NewBlockTemplate', {}, (payload) => seen.push({ event: 'NewBlockTemplate', payload }));
  await wire.client.subscribe('SinkBlueScoreChanged', {}, (payload) => seen.push({ event: 'SinkBlueScoreChanged', payload }));
  await wire.client.subscribe('VirtualDaaScoreChanged', {}, (payload) => seen.push({ event: 'VirtualDaaScoreChanged', payload }));
  await wire.client.subscribe('VirtualChainChanged', { include_accepted_transaction_ids: false }, (payload) =>
    seen.push({ event: 'VirtualChainChanged', payload }),
  );
  return seen;
}

async function until(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 200 && !condition(); attempt++) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('virtual-state notifications', () => {
  it('follow every virtual resolution in the order of kaspad’s virtual processor, with the wire shapes of v2.0.1', async () => {
    devnet = await startWireDevnet();
    const wire = devnet;
    await wire.mine();
    const seen = await record(wire);

    const { hash } = await wire.mine();
    await until(() => seen.length >= VIRTUAL_EVENTS.length);
    const dag = await wire.client.call('getBlockDagInfo', {});
    const { blueScore } = await wire.client.call('getSinkBlueScore', {});
    expect(seen).toEqual([
      { event: 'NewBlockTemplate', payload: {} },
      { event: 'SinkBlueScoreChanged', payload: { sinkBlueScore: blueScore } },
      { event: 'VirtualDaaScoreChanged', payload: { virtualDaaScore: dag.virtualDaaScore } },
      { event: 'VirtualChainChanged', payload: { removedChainBlockHashes: [], addedChainBlockHashes: [hash], acceptedTransactionIds: [] } },
    ]);
    expect(typeof blueScore).toBe('bigint');
  });

  it('are sent when a block leaves the sink and its blue score unchanged, as kaspad sends them on every resolution', async () => {
    devnet = await startWireDevnet();
    const wire = devnet;
    await wire.mine();
    const first = await wire.template(MINER_KEY.address);
    const sibling = await wire.template(wireKey(2).address);
    expect(sibling.header.parentsByLevel[0]).toEqual(first.header.parentsByLevel[0]);
    expect((await wire.submit(first)).type).toBe('success');
    const sinkAfterFirst = bytesToHex(wire.node.consensus.sink());
    const { blueScore } = await wire.client.call('getSinkBlueScore', {});
    const seen = await record(wire);
    await wire.client.subscribe('UtxosChanged', { addresses: [] }, (payload) => seen.push({ event: 'UtxosChanged', payload }));

    expect((await wire.submit(sibling)).type).toBe('success');
    await settle();
    await until(() => seen.length >= VIRTUAL_EVENTS.length + 1);
    expect(seen.map(({ event }) => event)).toEqual([
      'NewBlockTemplate',
      'UtxosChanged',
      'SinkBlueScoreChanged',
      'VirtualDaaScoreChanged',
      'VirtualChainChanged',
    ]);
    expect(seen[2]!.payload).toEqual({ sinkBlueScore: blueScore });
    const chain = seen[4]!.payload as { addedChainBlockHashes: string[]; removedChainBlockHashes: string[] };
    if (bytesToHex(wire.node.consensus.sink()) === sinkAfterFirst) {
      expect(chain).toEqual({ removedChainBlockHashes: [], addedChainBlockHashes: [], acceptedTransactionIds: [] });
    } else {
      expect(chain.removedChainBlockHashes).toEqual([sinkAfterFirst]);
    }
  });
});
