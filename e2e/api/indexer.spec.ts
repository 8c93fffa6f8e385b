import { expect, test } from '@playwright/test';

interface Status {
  ready: boolean;
  node: { virtualDaaScore: string | null } | null;
  indexer: {
    ready: boolean;
    phase: string;
    nodeVirtualDaaScore: string | null;
    indexedDaaScore: string | null;
    lagSeconds: number | null;
    lastBatchAt: string | null;
  } | null;
}

test('the app indexes the embedded devnet and /api/status reports the indexer caught up with the node', async ({ request }) => {
  const read = async (): Promise<Status> => {
    const response = await request.get('/api/status');
    expect(response.status()).toBe(200);
    return (await response.json()) as Status;
  };
  await expect.poll(async () => (await read()).indexer?.ready, { timeout: 60_000 }).toBe(true);
  const status = await read();
  expect(status.ready).toBe(true);
  expect(status.indexer).toMatchObject({ phase: 'following' });
  expect(status.indexer!.lastBatchAt).not.toBeNull();
  expect(status.indexer!.lagSeconds).toBeLessThan(30);
  const indexed = BigInt(status.indexer!.indexedDaaScore!);
  const node = BigInt(status.node!.virtualDaaScore!);
  // The node moves on at about ten blocks a second while the two reads happen.
  expect(node - indexed).toBeLessThan(100n);
  expect(indexed).toBeGreaterThan(0n);

  await expect.poll(async () => BigInt((await read()).indexer!.indexedDaaScore!), { timeout: 30_000 }).toBeGreaterThan(indexed);
  const health = await request.get('/api/health');
  expect(health.status()).toBe(200);
});
