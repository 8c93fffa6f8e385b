import { expect, test, type APIRequestContext } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { payToPublicKeyScript, schnorrAddressFromPublicKey, scriptPublicKeyToAddress } from '../../lib/kaspa/address';
import { bytesToHex, hexToBytes } from '../../lib/kaspa/bytes';
import {
  buildCovenantContinuation,
  buildCovenantGenesis,
  counterTemplate,
  covenantScriptPublicKey,
  type CovenantUtxo,
} from '../../lib/kaspa/covenant-templates';
import { schnorrPublicKey } from '../../lib/kaspa/signing';
import { transactionId } from '../../lib/kaspa/transaction';
import type { Transaction } from '../../lib/kaspa/types';
import { transactionToRpc } from '../../lib/rpc/convert-transaction';
import { stringifyJson } from '../../lib/rpc/json';
import { pages } from '../../lib/web/urls';
import { awaitMatureWalletUtxos, FEE, spend, type Utxo } from '../devnet-wallet';
import { expectSameStretch, limits, SETTLE_MS, walkBackward, walkForward, type Item } from './history-walk';
import { dagInfo, json, keyed, post } from './support';

type Json = Record<string, unknown>;

const TEN_KAS = 10n * 100_000_000n;

async function submit(request: APIRequestContext, tx: Transaction) {
  return request.post('/v1/rpc/submitTransaction', {
    headers: { ...keyed, 'content-type': 'application/json' },
    data: stringifyJson({ transaction: transactionToRpc(tx), allowOrphan: false }),
  });
}

async function utxosOf(request: APIRequestContext, address: string): Promise<(Utxo & { covenantId?: string | null })[]> {
  return (await json<{ entries: (Utxo & { covenantId?: string | null })[] }>(await post(request, '/v1/rpc/getUtxosByAddresses', { addresses: [address] })))
    .entries;
}

async function indexedTransaction(request: APIRequestContext, id: string): Promise<Json | undefined> {
  const response = await request.get(`/v1/transactions/${id}`, { headers: keyed });
  return response.status() === 200 ? (await json<{ transaction: Json }>(response)).transaction : undefined;
}

async function untilAccepted(request: APIRequestContext, id: string): Promise<Json> {
  await expect
    .poll(async () => (await indexedTransaction(request, id))?.isAccepted, { timeout: 60_000, intervals: [500] })
    .toBe(true);
  return (await indexedTransaction(request, id))!;
}

test.describe.configure({ mode: 'serial' });

/** The test's own covenant, once the first test made it: its id and its lineage, oldest first. */
let made: { covenantId: string; lineage: string[]; lastState: Json } | undefined;

/** A full walk forward and back with one page size; returns both walks' items, newest first. */
async function walkBothWays(request: APIRequestContext, path: string, limit: number): Promise<{ forward: Item[]; backward: Item[] }> {
  const forward = await walkForward(request, path, [limit], 10_000);
  expect(forward.reachedEnd).toBe(true);
  const oldest = forward.items.at(-1)!;
  const backward = [...(await walkBackward(request, path, [limit], oldest)), oldest];
  return { forward: forward.items, backward };
}

test.describe('a KIP-20 covenant on the live devnet (Toccata from genesis)', () => {
  test('a key made here funds a counter covenant, whose genesis and two continuations go through POST /v1/rpc/submitTransaction and are accepted', async ({
    request,
  }) => {
    test.setTimeout(300_000);
    const ownerKey = randomBytes(32);
    const owner = schnorrPublicKey(ownerKey);
    const ownerAddress = schnorrAddressFromPublicKey(owner, 'kaspadev');

    // Fund the owner from the e2e wallet; the traffic generator spends that wallet too, so a few outputs are tried.
    let fundingId: string | undefined;
    for (const utxo of (await awaitMatureWalletUtxos(request, { moreThan: 3, timeout: 200_000 })).slice(0, 6)) {
      const payment = spend(utxo, FEE, payToPublicKeyScript(owner));
      if ((await submit(request, payment)).status() === 200) {
        fundingId = bytesToHex(transactionId(payment));
        break;
      }
    }
    expect(fundingId, 'a payment to the test key went through').toBeDefined();
    await expect.poll(async () => (await utxosOf(request, ownerAddress)).length, { timeout: 60_000 }).toBe(1);
    const [funding] = await utxosOf(request, ownerAddress);

    const template = counterTemplate(owner, { maxFee: FEE });
    const genesis = buildCovenantGenesis({
      template,
      funding: {
        outpoint: { transactionId: hexToBytes(funding!.outpoint.transactionId), index: funding!.outpoint.index },
        entry: {
          amount: BigInt(funding!.amount),
          scriptPublicKey: payToPublicKeyScript(owner),
          blockDaaScore: BigInt(funding!.blockDaaScore),
          isCoinbase: false,
        },
      },
      // The e2e wallet's outputs vary in size (the traffic spends it too): the covenant holds half the funding, at most
      // 10 KAS.
      amount: BigInt(funding!.amount) / 2n < TEN_KAS ? BigInt(funding!.amount) / 2n : TEN_KAS,
      fee: FEE,
      privateKey: ownerKey,
    });
    expect(genesis.tx.version).toBe(1);
    expect(genesis.tx.outputs[0]!.covenant).toBeDefined();
    const covenantId = bytesToHex(genesis.covenantId);

    let utxo: CovenantUtxo = genesis.utxo;
    const lineage = [genesis.tx];
    for (let step = 0; step < 2; step++) {
      const { tx, utxos } = buildCovenantContinuation({ template, utxo, fee: FEE, privateKey: ownerKey });
      lineage.push(tx);
      utxo = utxos[0]!;
    }

    for (const tx of lineage) {
      const id = bytesToHex(transactionId(tx));
      const response = await submit(request, tx);
      expect(response.status(), await response.text()).toBe(200);
      expect(await json(response)).toEqual({ transactionId: id });
      const indexed = await untilAccepted(request, id);
      // The node format of the block that holds it carries the Toccata fields.
      const { block } = await json<{ block: { transactions: Json[] } }>(
        await post(request, '/v1/rpc/getBlock', { hash: (indexed.blockHashes as string[])[0], includeTransactions: true }),
      );
      const read = block.transactions.find((candidate) => (candidate.verboseData as Json).transactionId === id)!;
      expect(read.version).toBe(1);
      expect((read.inputs as Json[])[0]!.computeBudget).toBe(tx.inputs[0]!.computeBudget);
      expect((read.outputs as Json[])[0]!.covenant).toEqual({ authorizingInput: 0, covenantId });
    }

    // The node's UTXO set holds the latest state only, bound to the covenant.
    const lastId = bytesToHex(transactionId(lineage.at(-1)!));
    const stateAddress = scriptPublicKeyToAddress(covenantScriptPublicKey(template, 2), 'kaspadev')!;
    expect(await utxosOf(request, stateAddress)).toEqual([
      expect.objectContaining({ outpoint: { transactionId: lastId, index: 0 }, covenantId, isCoinbase: false }),
    ]);
    expect(await utxosOf(request, scriptPublicKeyToAddress(covenantScriptPublicKey(template, 1), 'kaspadev')!)).toEqual([]);
    const [lastState] = await utxosOf(request, stateAddress);
    made = { covenantId, lineage: lineage.map((tx) => bytesToHex(transactionId(tx))), lastState: lastState as unknown as Json };
  });

  test('the covenant is indexed: GET /v1/covenants/{id} with its current UTXO, and GET /v1/covenants lists it', async ({ request }) => {
    test.setTimeout(120_000);
    expect(made, 'the first test made a covenant').toBeDefined();
    const { covenantId, lineage, lastState } = made!;
    const covenant = async () => {
      const response = await request.get(`/v1/covenants/${covenantId}`, { headers: keyed });
      return response.status() === 200 ? (await json<{ covenant: Json }>(response)).covenant : undefined;
    };
    await expect.poll(async () => (await covenant())?.lastTransactionId, { timeout: 60_000 }).toBe(lineage.at(-1));
    const read = (await covenant())!;
    expect(read).toMatchObject({
      covenantId,
      genesisTransactionId: lineage[0],
      state: 'active',
      utxoCount: 1,
      currentUtxos: [lastState],
    });
    expect(read.createdAt as number).toBeLessThanOrEqual(read.lastActivityAt as number);
    // Newest activity first: walk the list until the covenant turns up (other covenants keep moving ahead of it).
    const listed = await walkCovenantList(request, covenantId);
    expect(listed).toMatchObject({ covenantId, genesisTransactionId: lineage[0], state: 'active', utxoCount: 1 });
    const unknown = await request.get(`/v1/covenants/${'0'.repeat(64)}`, { headers: keyed });
    expect(unknown.status()).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'covenant_not_found' });
  });

  test('its transaction page links the binding to its covenant page, which shows the genesis and both continuations', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    const { covenantId, lineage } = made!;
    await page.goto(pages.transaction(lineage[1]!));
    await expect(page.getByTestId('transaction-version')).toHaveText('1');
    await expect(page.getByTestId('output-covenant').getByRole('link').first()).toHaveAttribute('href', pages.covenant(covenantId));
    await page.goto(pages.covenant(covenantId));
    await expect(page.getByTestId('covenant-id')).toContainText(covenantId);
    const rows = page.getByTestId('lineage-row');
    await expect(rows).toHaveCount(lineage.length, { timeout: 30_000 });
    expect(await rows.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-txid')))).toEqual(
      [...lineage].reverse(),
    );
    await expect(page.locator('[data-testid=lineage-row][data-kind=genesis]')).toHaveCount(1);
    await expect(page.locator('[data-testid=lineage-row][data-kind=continuation]')).toHaveCount(2);
  });

  test('its lineage walked forward and back with every limit from 1 to 100 returns each transaction once, in order, while blocks keep arriving', async ({
    request,
  }) => {
    test.setTimeout(600_000);
    const { covenantId, lineage } = made!;
    const path = `/v1/covenants/${covenantId}/transactions`;
    const scoreBefore = BigInt((await dagInfo(request)).virtualDaaScore);
    for (const limit of limits(31)) {
      const { forward, backward } = await walkBothWays(request, path, limit);
      expect(new Set(forward.map((item) => item.id))).toEqual(new Set(lineage));
      expect(forward.map((item) => item.id)).toHaveLength(lineage.length);
      expect(backward.map((item) => item.id)).toEqual(forward.map((item) => item.id));
      // The genesis is the oldest of the lineage, the last continuation its newest.
      expect(forward.at(-1)!.id).toBe(lineage[0]);
      expect(forward[0]!.id).toBe(lineage.at(-1));
    }
    expect(BigInt((await dagInfo(request)).virtualDaaScore)).toBeGreaterThan(scoreBefore);
  });

  test('a lineage the devnet traffic grows pages the same way while it grows', async ({ request }) => {
    test.setTimeout(300_000);
    const longest = await longestTrafficLineage(request);
    expect(longest.length, 'the devnet traffic continued a covenant').toBeGreaterThanOrEqual(3);
    const path = `/v1/covenants/${longest.covenantId}/transactions`;
    for (const limit of [1, 2, 3, 100, ...limits(37).slice(0, 6)]) {
      const { forward, backward } = await walkBothWays(request, path, limit);
      expectSameStretch(forward, backward, forward[0]!.time - SETTLE_MS);
    }
  });
});

async function walkCovenantList(request: APIRequestContext, covenantId: string): Promise<Json | undefined> {
  let cursor: string | undefined;
  for (let read = 0; read < 200; read++) {
    const query = new URLSearchParams({ limit: '100', ...(cursor ? { starting_after: cursor } : {}) });
    const page = await json<{ covenants: Json[]; metadata: { hasMore: boolean; count: number } }>(
      await request.get(`/v1/covenants?${query}`, { headers: keyed }),
    );
    expect(page.metadata.count).toBe(page.covenants.length);
    const found = page.covenants.find((item) => item.covenantId === covenantId);
    if (found || !page.metadata.hasMore) return found;
    cursor = page.covenants.at(-1)!.covenantId as string;
  }
  return undefined;
}

/** Among the most recently active covenants, the one with the longest lineage (up to 100 counted). */
async function longestTrafficLineage(request: APIRequestContext): Promise<{ covenantId: string; length: number }> {
  const { covenants } = await json<{ covenants: { covenantId: string }[] }>(
    await request.get('/v1/covenants?limit=20', { headers: keyed }),
  );
  let longest = { covenantId: '', length: 0 };
  for (const { covenantId } of covenants) {
    const { metadata } = await json<{ metadata: { count: number } }>(
      await request.get(`/v1/covenants/${covenantId}/transactions?limit=100`, { headers: keyed }),
    );
    if (metadata.count > longest.length) longest = { covenantId, length: metadata.count };
  }
  return longest;
}
