import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GET as health } from '@/app/api/health/route';
import { insertBlocks, insertIndexGap, migrate, writeCheckpoint } from '../db';
import { syntheticBlock } from '../db/test-support/fixtures';
import { bytesToHex } from '../kaspa/bytes';
import { testBackends, type TestDatabase } from '../db/test-support/test-databases';
import { parseEnv } from '../env';
import type { RpcClient } from '../rpc';
import { getStatus } from '../status';
import type { Runtime } from './index';
import { startRuntimeIndexer, type RuntimeIndexer } from './indexer';

const RUNTIME_KEY = Symbol.for('dagboard.runtime');
const SINK = 'b'.repeat(64);

/** A synced node whose sink's timestamp and virtual DAA score the test sets. */
function node() {
  const tip = { timestamp: 0n, virtualDaaScore: 0n };
  const rpc = {
    state: 'open',
    async call(method: string) {
      switch (method) {
        case 'getBlockDagInfo':
          return { network: 'devnet', virtualDaaScore: tip.virtualDaaScore, blockCount: 10n, sink: SINK };
        case 'getBlock':
          return { block: { header: { timestamp: tip.timestamp } } };
        case 'getInfo':
          return { isSynced: true, serverVersion: 'test' };
        default:
          throw new Error(`unexpected ${method}`);
      }
    },
  };
  return { rpc: rpc as unknown as RpcClient, tip };
}

describe.each(testBackends())('a serving-only instance (INDEXER_MODE=off) on $name', (backend) => {
  let database: TestDatabase;
  let indexer: RuntimeIndexer;
  let runtime: Runtime;
  const { rpc, tip } = node();
  const config = parseEnv({ INDEXER_MODE: 'off', HEALTH_MAX_LAG_SECONDS: '30' });
  const checkpointBlock = syntheticBlock({ label: 'shared', daaScore: 700n, parents: [], transactionIds: [], isChainBlock: true });

  beforeAll(async () => {
    database = await backend.open();
    await migrate(database.db);
    // The instance reads the shared checkpoint every 20 ms here, so the test only waits for the next reading.
    indexer = await startRuntimeIndexer({ config, db: database.db, rpc, log: () => undefined, sharedPollMs: 20 });
    runtime = { env: config, nodeKind: 'external', rpc, db: database.db, indexer } as unknown as Runtime;
    (globalThis as Record<symbol, unknown>)[RUNTIME_KEY] = Promise.resolve(runtime);
  }, 60_000);

  afterAll(async () => {
    delete (globalThis as Record<symbol, unknown>)[RUNTIME_KEY];
    await indexer.stop();
    await database.dispose();
  });

  const healthOf = async () => {
    const response = await health();
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it('says no indexer has written the database yet, and is not ready', async () => {
    expect(indexer.role).toBe('off');
    await vi.waitFor(() => expect(indexer.lag().error).toMatch(/no indexer has stored a checkpoint/));
    expect(indexer.lag()).toMatchObject({ source: 'database', indexedDaaScore: null, lagSeconds: null });
    const status = await getStatus(runtime);
    expect(status.ready).toBe(false);
    expect(status.indexer).toMatchObject({ role: 'off', phase: 'shared', ready: false, indexedDaaScore: null });
  });

  it("reports the shared checkpoint's lag behind the node in /api/status and /api/health, 503 past the limit", async () => {
    await insertBlocks(database.db, [checkpointBlock]);
    await writeCheckpoint(database.db, { name: 'virtual-chain', blockHash: checkpointBlock.hash, blueScore: 700n, daaScore: 700n });
    tip.timestamp = checkpointBlock.header.timestamp + 12_000n;
    tip.virtualDaaScore = 820n;
    await vi.waitFor(() => expect(indexer.lag().lagSeconds).toBe(12));
    expect(indexer.lag()).toMatchObject({ source: 'database', indexedDaaScore: 700n, nodeVirtualDaaScore: 820n, error: null });
    const status = await getStatus(runtime);
    expect(status.ready).toBe(true);
    expect(status.indexer).toMatchObject({ role: 'off', phase: 'shared', ready: true, indexedDaaScore: '700', lagSeconds: 12 });
    expect(Number.isNaN(Date.parse(status.indexer?.lastBatchAt ?? ''))).toBe(false);
    expect(await healthOf()).toEqual({ status: 200, body: { status: 'ok' } });

    tip.timestamp = checkpointBlock.header.timestamp + 45_500n;
    await vi.waitFor(() => expect(indexer.lag().lagSeconds).toBe(45.5));
    expect(await healthOf()).toEqual({ status: 503, body: { status: 'lagging', lagSeconds: 45.5, maxLagSeconds: 30 } });
    expect((await getStatus(runtime)).indexer).toMatchObject({ ready: false, lagSeconds: 45.5 });
  });

  it('shows the gaps the shared indexer recorded in /api/status', async () => {
    const resumed = syntheticBlock({ label: 'resumed', daaScore: 9_000n, parents: [], transactionIds: [], isChainBlock: true });
    await insertIndexGap(database.db, 'virtual-chain', {
      reason: 'pruned',
      lostCheckpointHash: checkpointBlock.hash,
      lostCheckpointDaaScore: 700n,
      lastKeptHash: checkpointBlock.hash,
      lastKeptDaaScore: 700n,
      resumedHash: resumed.hash,
      resumedDaaScore: 9_000n,
      replacedChainBlocks: 0,
    });
    await vi.waitFor(() => expect(indexer.lag().gaps).toHaveLength(1));
    const [gap] = (await getStatus(runtime)).indexer!.gaps;
    expect(gap).toMatchObject({
      reason: 'pruned',
      lostCheckpointHash: bytesToHex(checkpointBlock.hash),
      lostCheckpointDaaScore: '700',
      lastKeptDaaScore: '700',
      resumedHash: bytesToHex(resumed.hash),
      resumedDaaScore: '9000',
      replacedChainBlocks: 0,
    });
    expect(Number.isNaN(Date.parse(gap!.detectedAt))).toBe(false);
  });
});
