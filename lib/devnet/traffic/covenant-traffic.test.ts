import { afterEach, describe, expect, it } from 'vitest';
import { bytesToHex } from '../../kaspa/bytes';
import { headerHash } from '../../kaspa/header';
import { blockFromRpc, blockToRpcSubmission } from '../../rpc/convert-block';
import { MAX_ACTIVE } from './covenant-traffic';
import { createDevnetNode, type DevnetNode } from '../node';
import { solve } from '../test-support/devnet-harness';
import { settle, TEST_COINBASE_MATURITY } from '../test-support/wire-devnet';
import { createTrafficGenerator, seededRandom } from './traffic';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function mine(node: DevnetNode, payAddress: string): Promise<string> {
  const { block } = await node.rpc.call('getBlockTemplate', { payAddress, extraData: [] });
  const solved = solve(blockFromRpc(block));
  const { report } = await node.rpc.call('submitBlock', { block: blockToRpcSubmission(solved), allowNonDaaBlocks: false });
  if (report.type !== 'success') throw new Error(`block rejected: ${JSON.stringify(report)}`);
  await settle();
  return bytesToHex(headerHash(solved.header));
}

/** Covenant ids in the node's UTXO set, with the number of unspent outputs each holds. */
function covenantOutputs(node: DevnetNode): Map<string, number> {
  const ids = new Map<string, number>();
  for (const [, entry] of node.consensus.utxoSetSnapshot()) {
    if (entry.covenantId) ids.set(bytesToHex(entry.covenantId), (ids.get(bytesToHex(entry.covenantId)) ?? 0) + 1);
  }
  return ids;
}

/** A devnet node with two funded wallets and traffic stepping covenants as soon as their states confirm. */
async function startCovenantTraffic(seed: string, randomSeed: number) {
  const node = createDevnetNode({ seed, miners: 0, hashesPerSecond: 20, persistence: null, params: { coinbaseMaturity: TEST_COINBASE_MATURITY, toccataActivation: 0n }, partitions: null, wallets: 2 });
  cleanups.push(() => node.stop());
  const wallets = node.wallets!;
  for (let i = 0; i < TEST_COINBASE_MATURITY + 6; i++) await mine(node, wallets.wallets[i % 2]!.address);
  const traffic = createTrafficGenerator({
    rpc: node.rpc,
    wallets,
    rate: 20,
    random: seededRandom(randomSeed),
    refreshIntervalMs: 20,
    covenants: { seed, random: seededRandom(randomSeed + 1), stepIntervalMs: 0 },
  });
  traffic.start();
  cleanups.push(() => traffic.stop());
  return { node, wallets, traffic };
}

describe('covenant traffic on a devnet node', () => {
  it('drives covenants from genesis through continuations to a split and an end, confirmed in the node UTXO set', async () => {
    const { node, wallets, traffic } = await startCovenantTraffic('covenant-traffic', 7);
    const seen = new Set<string>();
    let maxOutputsOfOne = 0;
    for (let block = 0; block < 400; block++) {
      await mine(node, wallets.wallets[block % 2]!.address);
      await new Promise((resolve) => setTimeout(resolve, 15));
      for (const [id, outputs] of covenantOutputs(node)) {
        seen.add(id);
        maxOutputsOfOne = Math.max(maxOutputsOfOne, outputs);
      }
      const confirmed = traffic.stats().covenants!.confirmed;
      if (confirmed.end >= 1 && confirmed.split >= 1 && confirmed.continuation >= 2 && seen.size >= 3) break;
    }
    await traffic.stop();
    const stats = traffic.stats();
    const confirmed = stats.covenants!.confirmed;
    expect(confirmed.genesis).toBeGreaterThanOrEqual(3);
    expect(confirmed.continuation).toBeGreaterThanOrEqual(2);
    expect(confirmed.split).toBeGreaterThanOrEqual(1);
    expect(confirmed.end).toBeGreaterThanOrEqual(1);
    // The node itself holds the covenants: several lineages, a split covenant with two live outputs, and an ended one
    // whose id no longer has an unspent output.
    expect(seen.size).toBeGreaterThanOrEqual(3);
    expect(maxOutputsOfOne).toBeGreaterThanOrEqual(2);
    const live = covenantOutputs(node);
    expect([...seen].some((id) => !live.has(id))).toBe(true);
    expect(stats.accepted).toBeGreaterThan(stats.byKind.covenant.accepted);
    expect(stats.covenants!.abandoned).toBe(0);
  }, 60_000);

  it('keeps starting and stepping lineages after the first ones, split branches included, have run their course', async () => {
    const { node, wallets, traffic } = await startCovenantTraffic('covenant-traffic-long', 11);
    // Kinds rotate vault → counter → split: three full rotations need every earlier lineage, both branches of each
    // split among them, to have finished and freed its slot.
    const rotations = 3 * MAX_ACTIVE;
    let continuationsAtRotations: number | null = null;
    for (let block = 0; block < 600; block++) {
      await mine(node, wallets.wallets[block % 2]!.address);
      await new Promise((resolve) => setTimeout(resolve, 15));
      const confirmed = traffic.stats().covenants!.confirmed;
      if (continuationsAtRotations === null && confirmed.genesis >= rotations) continuationsAtRotations = confirmed.continuation;
      if (continuationsAtRotations !== null && confirmed.continuation >= continuationsAtRotations + 3) break;
    }
    await traffic.stop();
    const stats = traffic.stats();
    expect(stats.covenants!.confirmed.genesis).toBeGreaterThanOrEqual(rotations);
    expect(stats.covenants!.confirmed.split).toBeGreaterThanOrEqual(2);
    expect(stats.covenants!.confirmed.continuation).toBeGreaterThanOrEqual(continuationsAtRotations! + 3);
    expect(stats.skippedByReason['covenant:error']).toBeUndefined();
    expect(stats.covenants!.abandoned).toBe(0);
  }, 120_000);
});
