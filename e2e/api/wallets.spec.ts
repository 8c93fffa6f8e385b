/**
 * The wallet calls on the live devnet, with the devnet's own HD wallet (GET /v1/wallets/demo): the summary's balance
 * is what getUtxosByAddresses shows for its addresses, the merged history holds each transaction once and its net
 * changes add up to the balance, internal transfers net to minus their fee, and the extended key never comes back in
 * a header or an error. The traffic keeps paying the wallet, so each comparison is bracketed by two summaries and made
 * again until the state compared matches one of them.
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import { parseExtendedPublicKey, deriveAddress } from '../../lib/wallet/derivation';
import { json, keyed, post } from './support';

interface SummaryAddress {
  address: string;
  chain: 'receive' | 'change' | null;
  index: number | null;
  used: boolean;
  balance: string;
}
interface Summary {
  network: string;
  balance: string;
  utxoCount: number;
  addresses: SummaryAddress[];
}
interface Item {
  transactionId: string;
  balanceChange: string;
  fee: string | null;
  feePaid: string | null;
  direction: 'incoming' | 'outgoing' | 'internal';
  isAccepted: boolean;
}

const UTXO_CALL_ADDRESSES = 500;

async function demoKey(request: APIRequestContext): Promise<string> {
  const demo = await json<{ extendedPublicKey: string; network: string }>(
    await request.get('/v1/wallets/demo', { headers: keyed }),
  );
  expect(demo.network).toBe('kaspadev');
  expect(demo.extendedPublicKey).toMatch(/^kpub[1-9A-HJ-NP-Za-km-z]{107,108}$/);
  return demo.extendedPublicKey;
}

async function summary(request: APIRequestContext, extendedPublicKey: string): Promise<Summary> {
  return json<Summary>(await post(request, '/v1/wallets/summary', { extendedPublicKey }));
}

async function nodeBalance(request: APIRequestContext, addresses: readonly string[]): Promise<bigint> {
  let total = 0n;
  for (let start = 0; start < addresses.length; start += UTXO_CALL_ADDRESSES) {
    const { entries } = await json<{ entries: { amount: string }[] }>(
      await post(request, '/v1/rpc/getUtxosByAddresses', { addresses: addresses.slice(start, start + UTXO_CALL_ADDRESSES) }),
    );
    for (const entry of entries) total += BigInt(entry.amount);
  }
  return total;
}

async function history(request: APIRequestContext, extendedPublicKey: string): Promise<Item[]> {
  const items: Item[] = [];
  let startingAfter: string | undefined;
  for (;;) {
    const page = await json<{ transactions: Item[]; metadata: { hasMore: boolean } }>(
      await post(request, '/v1/wallets/transactions', { extendedPublicKey, limit: 100, acceptedOnly: true, startingAfter }),
    );
    items.push(...page.transactions);
    if (!page.metadata.hasMore) return items;
    startingAfter = page.transactions.at(-1)!.transactionId;
  }
}

/** Runs `attempt` until it reports a match or the time is up. */
async function untilMatched(what: string, attempt: () => Promise<boolean>, timeoutMs = 150_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await attempt()) return;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`${what}: no attempt matched`);
}

test.describe.configure({ mode: 'serial' });

test('the demo wallet is the devnet HD wallet: used receive and change addresses and an internal transfer', async ({
  request,
}) => {
  test.setTimeout(240_000);
  const extendedPublicKey = await demoKey(request);
  const key = parseExtendedPublicKey(extendedPublicKey);
  await expect
    .poll(
      async () => {
        const items = await history(request, extendedPublicKey);
        const wallet = await summary(request, extendedPublicKey);
        const used = wallet.addresses.filter((entry) => entry.used);
        return (
          used.some((entry) => entry.chain === 'receive') &&
          used.some((entry) => entry.chain === 'change') &&
          items.some((item) => item.direction === 'internal')
        );
      },
      { timeout: 200_000, intervals: [2_000] },
    )
    .toBe(true);
  const wallet = await summary(request, extendedPublicKey);
  for (const entry of wallet.addresses) {
    expect(entry.address).toBe(deriveAddress(key, entry.chain!, entry.index!, 'kaspadev'));
  }
});

test('its summary balance is what getUtxosByAddresses shows for its addresses', async ({ request }) => {
  test.setTimeout(200_000);
  const extendedPublicKey = await demoKey(request);
  await untilMatched('summary against getUtxosByAddresses', async () => {
    const before = await summary(request, extendedPublicKey);
    const perAddress = before.addresses.reduce((total, entry) => total + BigInt(entry.balance), 0n);
    expect(perAddress).toBe(BigInt(before.balance));
    const node = await nodeBalance(
      request,
      before.addresses.map((entry) => entry.address),
    );
    const after = await summary(request, extendedPublicKey);
    if (node === BigInt(before.balance) || node === BigInt(after.balance)) return true;
    // Unequal to both is possible only when the wallet moved between them.
    expect(after.balance).not.toBe(before.balance);
    return false;
  });
});

test('its merged history holds each transaction once, its net changes add up to the balance, internal ones to minus the fee', async ({
  request,
}) => {
  test.setTimeout(200_000);
  const extendedPublicKey = await demoKey(request);
  await untilMatched('history against the balance', async () => {
    const before = await summary(request, extendedPublicKey);
    const items = await history(request, extendedPublicKey);
    const after = await summary(request, extendedPublicKey);
    expect(new Set(items.map((item) => item.transactionId)).size).toBe(items.length);
    for (const item of items.filter((entry) => entry.direction === 'internal')) {
      expect(item.fee).not.toBeNull();
      expect(item.feePaid).toBe(item.fee);
      expect(BigInt(item.balanceChange)).toBe(-BigInt(item.fee!));
    }
    expect(items.every((item) => item.isAccepted)).toBe(true);
    // The walk sees the index at some moment between the two summaries: its total is the node's balance then. With
    // traffic landing meanwhile that moment may match neither summary, and the walk is made again.
    const total = items.reduce((sum, item) => sum + BigInt(item.balanceChange), 0n);
    return total === BigInt(before.balance) || total === BigInt(after.balance);
  });
});

test('the extended key never comes back: not in a header, not in an error, and no wallet call takes it in a URL', async ({
  request,
}) => {
  const extendedPublicKey = await demoKey(request);
  const secret = extendedPublicKey.slice(4, 60);
  const replies = [
    await post(request, '/v1/wallets/summary', { extendedPublicKey }),
    await post(request, '/v1/wallets/transactions', { extendedPublicKey, limit: 1 }),
    await post(request, '/v1/wallets/utxos', { extendedPublicKey }),
    await post(request, '/v1/wallets/summary', { extendedPublicKey: `${extendedPublicKey.slice(0, -3)}xyz` }),
    await post(request, '/v1/wallets/summary', { extendedPublicKey, gapLimit: 1000 }),
  ];
  expect(replies.map((reply) => reply.status())).toEqual([200, 200, 200, 400, 400]);
  for (const reply of replies) {
    for (const value of Object.values(reply.headers())) expect(value.includes(secret)).toBe(false);
    if (reply.status() !== 200) expect((await reply.text()).includes(secret)).toBe(false);
  }
  const document = await json<{ paths: Record<string, Record<string, { parameters?: { in: string }[] }>> }>(
    await request.get('/v1/openapi.json'),
  );
  const walletPaths = Object.entries(document.paths).filter(([path]) => path.startsWith('/v1/wallets/'));
  expect(walletPaths.map(([path]) => path).sort()).toEqual([
    '/v1/wallets/demo',
    '/v1/wallets/summary',
    '/v1/wallets/transactions',
    '/v1/wallets/transactions/export',
    '/v1/wallets/utxos',
  ]);
  for (const [path, operations] of walletPaths) {
    for (const operation of Object.values(operations)) {
      expect((operation.parameters ?? []).map((parameter) => parameter.in), path).toEqual([]);
    }
  }
});
