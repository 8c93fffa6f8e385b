/**
 * Issue 19 on the live devnet: an SSE client (GET /v1/stream) and a WebSocket client (GET /v1/ws) each follow the
 * blocks and a fresh address; a transaction the test sends to that address goes from the mempool to included and
 * accepted on both; then both are cut off, miss some seconds of blocks, resume from their cursors, and together with
 * what they saw before hold exactly the events a reference reader of the same log gets: none lost, none twice, in order.
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import WebSocket from 'ws';
import { bytesToHex } from '../../lib/kaspa/bytes';
import { transactionId } from '../../lib/kaspa/transaction';
import { stringifyJson } from '../../lib/rpc/json';
import { awaitMatureWalletUtxos, FEE, freshReceiver, spend, submissionOf } from '../devnet-wallet';
import { E2E_API_KEY, expectProblem, keyed } from './support';

interface StreamedEvent {
  id: string;
  topic: string;
  data: Record<string, unknown>;
}

/** An SSE reader over fetch: collects events until stopped (`abort` cuts the connection as a network failure would). */
function openSse(baseURL: string, query: string, lastEventId?: string) {
  const events: StreamedEvent[] = [];
  const controller = new AbortController();
  const headers: Record<string, string> = { 'x-api-key': E2E_API_KEY };
  if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
  const done = (async () => {
    const response = await fetch(`${baseURL}/v1/stream?${query}`, { headers, signal: controller.signal });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { done: finished, value } = await reader.read();
      if (finished) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const message = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let id: string | undefined;
        let topic = 'message';
        let data = '';
        for (const line of message.split('\n')) {
          if (line.startsWith('id: ')) id = line.slice(4);
          else if (line.startsWith('event: ')) topic = line.slice(7);
          else if (line.startsWith('data: ')) data = line.slice(6);
        }
        if (id !== undefined && ['block', 'chain', 'address', 'fees', 'token'].includes(topic)) {
          events.push({ id, topic, data: JSON.parse(data) as Record<string, unknown> });
        }
      }
    }
  })().catch((error: unknown) => {
    if (!controller.signal.aborted) throw error;
  });
  return { events, cut: () => controller.abort(), done };
}

/** A WebSocket client subscribed to the blocks and one address. */
async function openWs(baseURL: string, address: string, since?: string) {
  const url = `${baseURL.replace(/^http/, 'ws')}/v1/ws${since === undefined ? '' : `?since=${since}`}`;
  const socket = new WebSocket(url, { headers: { 'x-api-key': E2E_API_KEY } });
  const events: StreamedEvent[] = [];
  const acks: string[] = [];
  socket.on('message', (frame) => {
    const message = JSON.parse(String(frame)) as { type: string; id: string; topic: string; data: Record<string, unknown> };
    if (message.type === 'event') events.push({ id: message.id, topic: message.topic, data: message.data });
    if (message.type === 'ack') acks.push(message.id);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  socket.send(JSON.stringify({ op: 'subscribe', id: 'blocks', topic: 'block' }));
  socket.send(JSON.stringify({ op: 'subscribe', id: 'mine', topic: 'address', addresses: [address] }));
  await expect.poll(() => acks.length, { timeout: 30_000 }).toBe(2);
  return { events, cut: () => socket.terminate(), close: () => socket.close() };
}

/** Sends a payment to `to` from a matured wallet output (the traffic also spends the wallet: a few are tried). */
async function pay(request: APIRequestContext, to: ReturnType<typeof freshReceiver>): Promise<string> {
  for (const utxo of (await awaitMatureWalletUtxos(request, { moreThan: 3, timeout: 200_000 })).slice(0, 6)) {
    const tx = spend(utxo, FEE, to.script);
    const response = await request.post('/v1/rpc/submitTransaction', {
      headers: { ...keyed, 'content-type': 'application/json' },
      data: stringifyJson({ transaction: submissionOf(tx), allowOrphan: false }),
    });
    if (response.status() === 200) return bytesToHex(transactionId(tx));
  }
  throw new Error('no wallet output could be spent');
}

const statuses = (events: readonly StreamedEvent[], transaction: string) =>
  events.filter((event) => event.topic === 'address' && event.data.transactionId === transaction).map((event) => event.data.status);

/** The ids of `events` in (after, upTo], checked to be strictly increasing. */
function idsBetween(events: readonly StreamedEvent[], after: bigint, upTo: bigint): bigint[] {
  const ids = events.map((event) => BigInt(event.id)).filter((id) => id > after && id <= upTo);
  ids.forEach((id, index) => {
    if (index > 0) expect(id, 'strictly increasing ids').toBeGreaterThan(ids[index - 1]!);
  });
  return ids;
}

test.describe.configure({ mode: 'serial' });

test.describe('/v1 streams on the devnet', () => {
  test.beforeAll(async ({ request }) => {
    await expect
      .poll(async () => (await request.get('/v1/rpc/getBlockDagInfo', { headers: keyed })).status(), { timeout: 90_000 })
      .toBe(200);
  });

  test('refuses bad topics and a missing key in the one problem shape', async ({ request }) => {
    await expectProblem(await request.get('/v1/stream?topics=block,gossip', { headers: keyed }), 400, 'invalid_request');
    await expectProblem(await request.get('/v1/stream?topics=block'), 401, 'missing_api_key');
    await expectProblem(await request.get('/v1/ws', { headers: keyed }), 426, 'upgrade_required');
  });

  test("the fees topic carries the node's fee estimate, its rates in sompi per gram", async ({ baseURL }) => {
    // The indexing process announces the first sample 10 s after it starts, then each change of a rate.
    const fees = openSse(baseURL!, 'topics=fees&since=0');
    await expect.poll(() => fees.events.length, { timeout: 60_000 }).toBeGreaterThan(0);
    fees.cut();
    const [event] = fees.events;
    expect(event!.topic).toBe('fees');
    const data = event!.data as { priority: { feerate: number; estimatedSeconds: number }; normal: unknown[]; low: unknown[] };
    expect(data.priority.feerate).toBeGreaterThanOrEqual(1);
    expect(data.priority.estimatedSeconds).toBeGreaterThanOrEqual(0);
    expect(Array.isArray(data.normal) && Array.isArray(data.low)).toBe(true);
  });

  test('the token topic carries each KRC-20 op as the token indexer applied it, the same records the op endpoint lists', async ({
    baseURL,
    request,
  }) => {
    // The devnet deploys its tokens once the bootstrap funds mature, seconds after the start; the log keeps an hour.
    const tokens = openSse(baseURL!, 'topics=token&since=0');
    await expect.poll(() => tokens.events.length, { timeout: 240_000, intervals: [1_000, 2_000] }).toBeGreaterThan(2);
    tokens.cut();
    const events = tokens.events.map((event) => event.data as { ticker: string; opScore: string; transactionId: string; op: string; accepted: boolean; reverted: boolean });
    // Applied ops come in opScore order; a reorganisation's reverted records interrupt the order, and the new chain's
    // ops may then score below them.
    let previous: bigint | undefined;
    for (const event of events) {
      if (event.reverted) previous = undefined;
      else {
        if (previous !== undefined) expect(BigInt(event.opScore)).toBeGreaterThan(previous);
        previous = BigInt(event.opScore);
      }
    }
    const first = events.find((event) => !event.reverted)!;
    const { operations } = (await (await request.get(`/v1/tokens/tk20/operations/${first.transactionId}`, { headers: keyed })).json()) as {
      operations: { ticker: string; opScore: number; op: string; accepted: boolean }[];
    };
    expect(operations.map((operation) => [operation.ticker, String(operation.opScore), operation.op, operation.accepted])).toContainEqual([
      first.ticker,
      first.opScore,
      first.op,
      first.accepted,
    ]);
  });

  test('SSE and WebSocket clients see a payment go from the mempool to included and accepted, and resume after a cut without loss or duplicates', async ({
    request,
    baseURL,
  }) => {
    test.setTimeout(300_000);
    const receiver = freshReceiver('stream-test');
    const query = `topics=block,address&addresses=${receiver.address}`;
    const sse = openSse(baseURL!, query);
    const ws = await openWs(baseURL!, receiver.address);
    await expect.poll(() => sse.events.length > 0 && ws.events.length > 0, { timeout: 30_000 }).toBe(true);

    const transaction = await pay(request, receiver);
    for (const client of [sse, ws]) {
      // A reorganisation may move the acceptance to another chain block: `accepted` again, or `reverted` then `accepted`.
      await expect.poll(() => statuses(client.events, transaction).at(-1), { timeout: 60_000 }).toBe('accepted');
      const seen = statuses(client.events, transaction);
      expect(seen.slice(0, 2)).toEqual(['mempool', 'included']);
      expect(seen.slice(2).every((status) => status === 'accepted' || status === 'reverted'), seen.join(', ')).toBe(true);
      const [entered, included, accepted] = client.events.filter((event) => event.data.transactionId === transaction);
      expect(BigInt(included!.id)).toBeGreaterThan(BigInt(entered!.id));
      expect(BigInt(accepted!.id)).toBeGreaterThan(BigInt(included!.id));
      expect(entered!.data.address).toBe(receiver.address);
    }

    sse.cut();
    ws.cut();
    await sse.done;
    const sseLast = sse.events.at(-1)!.id;
    const wsLast = ws.events.at(-1)!.id;
    const sseBefore = [...sse.events];
    const wsBefore = [...ws.events];
    // Blocks keep coming (10 a second) while both are away.
    await new Promise((resolve) => setTimeout(resolve, 3_000));

    const sseAgain = openSse(baseURL!, query, sseLast);
    const wsAgain = await openWs(baseURL!, receiver.address, wsLast);
    const target = BigInt(sseLast > wsLast ? sseLast : wsLast) + 50n;
    for (const client of [sseAgain, wsAgain]) {
      await expect.poll(() => client.events.some((event) => BigInt(event.id) > target), { timeout: 30_000 }).toBe(true);
    }
    sseAgain.cut();
    wsAgain.close();

    const first = (events: StreamedEvent[]) => BigInt(events[0]!.id) - 1n;
    const upTo = target;
    const reference = openSse(baseURL!, query, String(first(sseBefore) < first(wsBefore) ? first(sseBefore) : first(wsBefore)));
    await expect.poll(() => reference.events.some((event) => BigInt(event.id) > upTo), { timeout: 30_000 }).toBe(true);
    reference.cut();

    for (const [before, after] of [
      [sseBefore, sseAgain.events],
      [wsBefore, wsAgain.events],
    ] as const) {
      const from = first(before);
      const seen = idsBetween([...before, ...after], from, upTo);
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toEqual(idsBetween(reference.events, from, upTo));
      expect(after.length).toBeGreaterThan(0);
      expect(BigInt(after[0]!.id)).toBeGreaterThan(BigInt(before.at(-1)!.id));
    }
  });

  test('a forced reorganisation reaches both transports: the chain change, the payment reverted with the block that had accepted it, then accepted again', async ({
    request,
    baseURL,
  }) => {
    test.setTimeout(300_000);
    const refused = await request.post('/api/devnet/reorg', { data: { depth: 0 } });
    await expectProblem(refused, 400, 'invalid_request');
    // The accepting block must still be within the forced depth when the reorganisation starts: a slow round trip
    // (the payment accepted deeper than that) is retried with a new payment.
    for (let attempt = 1; ; attempt++) {
      const receiver = freshReceiver(`reorg-${attempt}`);
      const sse = openSse(baseURL!, `topics=chain,address&addresses=${receiver.address}`);
      const ws = await openWs(baseURL!, receiver.address);
      const transaction = await pay(request, receiver);
      await expect.poll(() => statuses(sse.events, transaction).at(-1), { timeout: 60_000 }).toBe('accepted');
      const acceptedBy = sse.events.filter((event) => event.data.transactionId === transaction && event.data.status === 'accepted').at(-1)!.data.blockHash;
      const forced = await request.post('/api/devnet/reorg', { data: { depth: 20 } });
      expect(forced.status()).toBe(200);
      const report = (await forced.json()) as { removedChainBlocks: string[]; addedChainBlocks: string[] };
      if (!report.removedChainBlocks.includes(acceptedBy as string)) {
        expect(attempt, 'the payment was accepted within the forced depth in one of three attempts').toBeLessThan(3);
        sse.cut();
        ws.close();
        continue;
      }
      for (const client of [sse, ws]) {
        const revertedFrom = () =>
          client.events.filter((event) => event.data.transactionId === transaction && event.data.status === 'reverted').map((event) => event.data.blockHash);
        await expect.poll(revertedFrom, { timeout: 60_000 }).toContain(acceptedBy);
        await expect.poll(() => statuses(client.events, transaction).at(-1), { timeout: 60_000 }).toBe('accepted');
      }
      const removed = sse.events.filter((event) => event.topic === 'chain').flatMap((event) => event.data.removed as string[]);
      expect(removed).toEqual(expect.arrayContaining(report.removedChainBlocks));
      sse.cut();
      ws.close();
      return;
    }
  });
});
