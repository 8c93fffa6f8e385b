/**
 * The tax CSV on the live devnet, with the devnet's HD wallet: the explorer's POST /wallet/csv and the metered
 * POST /v1/wallets/transactions/export are parsed back and every row matches the wallet's merged history from
 * /v1/wallets/transactions; the running balance is the sum of accepted net changes; the price is labelled
 * `simulated`; the Koinly layout has Koinly's columns; an address's CSV matches its history; and the extended key
 * comes back in no header. Traffic keeps landing, but it only appends to an oldest-first export, so the checks
 * compare what both sides had seen.
 */
import { expect, test, type APIRequestContext, type APIResponse } from '@playwright/test';
import { GENERIC_HEADER, KOINLY_HEADER } from '../../lib/wallet/tax-csv';
import { parseCsv } from '../../lib/wallet/test-support/parse-csv';
import { json, keyed, post } from './support';

interface Item {
  transactionId: string;
  blockTime: number;
  balanceChange: string;
  feePaid: string | null;
  direction: 'incoming' | 'outgoing' | 'internal';
  isAccepted: boolean;
  acceptingBlockHash: string | null;
}

type Row = Record<string, string>;

function rowsOf(text: string, header: readonly string[]): Row[] {
  const [first, ...lines] = parseCsv(text);
  expect(first).toEqual([...header]);
  return lines.map((fields) => {
    expect(fields).toHaveLength(header.length);
    return Object.fromEntries(header.map((name, index) => [name, fields[index]!]));
  });
}

function sompi(kas: string): bigint {
  const match = /^(-?)(\d+)\.(\d{8})$/.exec(kas);
  expect(match, kas).not.toBeNull();
  const magnitude = BigInt(match![2]!) * 100_000_000n + BigInt(match![3]!);
  return match![1] === '-' ? -magnitude : magnitude;
}

async function demoKey(request: APIRequestContext): Promise<string> {
  return (await json<{ extendedPublicKey: string }>(await request.get('/v1/wallets/demo', { headers: keyed }))).extendedPublicKey;
}

async function walletHistory(request: APIRequestContext, extendedPublicKey: string): Promise<Map<string, Item>> {
  const items = new Map<string, Item>();
  let startingAfter: string | undefined;
  for (;;) {
    const page = await json<{ transactions: Item[]; metadata: { hasMore: boolean } }>(
      await post(request, '/v1/wallets/transactions', { extendedPublicKey, limit: 100, startingAfter }),
    );
    for (const item of page.transactions) items.set(item.transactionId, item);
    if (!page.metadata.hasMore) return items;
    startingAfter = page.transactions.at(-1)!.transactionId;
  }
}

const DIRECTIONS = { in: 'incoming', out: 'outgoing', internal: 'internal', self: 'internal' } as const;

/**
 * Blue scores past which the devnet's reorganisations (at most a few blocks deep) no longer move an acceptance; nearer
 * the tip, the chain block accepting a transaction can change between the export and the history read after it.
 */
const SETTLED_CONFIRMATIONS = 20;

/** The row says what the history says of its transaction; a settled acceptance names the same accepting block. */
function expectRowMatches(row: Row, item: Item | undefined): void {
  expect(item, `history holds ${row.transaction_id}`).toBeDefined();
  expect(row.time_utc).toBe(new Date(item!.blockTime).toISOString());
  expect(DIRECTIONS[row.direction as keyof typeof DIRECTIONS]).toBe(item!.direction);
  expect(sompi(row.net_change_kas!)).toBe(BigInt(item!.balanceChange));
  expect(row.fee_kas === '' ? null : sompi(row.fee_kas!)).toBe(item!.feePaid === null ? null : BigInt(item!.feePaid));
  if (row.accepted === 'true' && Number(row.confirmations) >= SETTLED_CONFIRMATIONS) {
    expect(item!.isAccepted).toBe(true);
    expect(row.accepting_block_hash).toBe(item!.acceptingBlockHash);
  }
}

function expectRunningBalance(rows: readonly Row[]): void {
  let balance = 0n;
  for (const row of rows) {
    if (row.accepted === 'true') balance += sompi(row.net_change_kas!);
    expect(sompi(row.running_balance_kas!), row.transaction_id).toBe(balance);
  }
}

function expectChronological(rows: readonly Row[]): void {
  const keys = rows.map((row) => `${row.time_utc} ${row.transaction_id}`);
  expect(keys).toEqual([...keys].sort());
  expect(new Set(rows.map((row) => row.transaction_id)).size).toBe(rows.length);
}

function expectCsvDownload(reply: APIResponse): void {
  expect(reply.status()).toBe(200);
  expect(reply.headers()['content-type']).toContain('text/csv');
  expect(reply.headers()['content-disposition']).toMatch(/^attachment; filename="[\w.-]+\.csv"$/);
}

test.describe.configure({ mode: 'serial' });

test('the wallet CSV parses back, every row matches the merged history, and the price is labelled simulated', async ({
  request,
}) => {
  test.setTimeout(300_000);
  const extendedPublicKey = await demoKey(request);
  // The devnet's HD wallet makes its first internal transfer a few minutes in.
  await expect
    .poll(async () => [...(await walletHistory(request, extendedPublicKey)).values()].some((item) => item.direction === 'internal'), {
      timeout: 240_000,
      intervals: [2_000],
    })
    .toBe(true);
  const reply = await request.post('/wallet/csv', { data: { extendedPublicKey } });
  expectCsvDownload(reply);
  const rows = rowsOf(await reply.text(), GENERIC_HEADER);
  const history = await walletHistory(request, extendedPublicKey);
  expect(rows.length).toBeGreaterThan(3);
  expectChronological(rows);
  expectRunningBalance(rows);
  for (const row of rows) {
    expectRowMatches(row, history.get(row.transaction_id!));
    expect(row.price_source).toBe('simulated');
    expect(Number(row.kas_usd)).toBeGreaterThan(0);
    expect(row.value_usd).toMatch(/^\d+\.\d{2}$/);
  }
  expect(rows.some((row) => row.direction === 'internal')).toBe(true);
  // Everything the history knew up to the export's last row is in the export.
  const last = rows.at(-1)!;
  const seen = new Set(rows.map((row) => row.transaction_id));
  for (const item of history.values()) {
    const key = `${new Date(item.blockTime).toISOString()} ${item.transactionId}`;
    if (key <= `${last.time_utc} ${last.transaction_id}`) expect(seen.has(item.transactionId), key).toBe(true);
  }
});

test('the metered export pages with its cursor and closing balance, 1 RU a page, the same rows as the download', async ({
  request,
}) => {
  test.setTimeout(180_000);
  const extendedPublicKey = await demoKey(request);
  const paged: Row[] = [];
  let cursor: { startingAfter: string; openingBalance: string } | undefined;
  for (let page = 0; page < 4; page += 1) {
    const reply = await post(request, '/v1/wallets/transactions/export', { extendedPublicKey, limit: 3, ...cursor });
    expectCsvDownload(reply);
    expect(reply.headers()['x-request-cost-ru']).toBe('1');
    const text = await reply.text();
    paged.push(...rowsOf(page === 0 ? text : `${GENERIC_HEADER.join(',')}\r\n${text}`, GENERIC_HEADER));
    const next = reply.headers()['x-next-cursor'];
    if (next === undefined) break;
    cursor = { startingAfter: next, openingBalance: reply.headers()['x-closing-balance']! };
  }
  const full = rowsOf(await (await request.post('/wallet/csv', { data: { extendedPublicKey } })).text(), GENERIC_HEADER);
  const comparable = (row: Row) => ({ ...row, confirmations: '' });
  expect(full.slice(0, paged.length).map(comparable)).toEqual(paged.map(comparable));
});

test('a date range starts from the balance before it, and the Koinly layout has Koinly’s columns', async ({ request }) => {
  test.setTimeout(120_000);
  const extendedPublicKey = await demoKey(request);
  const all = rowsOf(await (await request.post('/wallet/csv', { data: { extendedPublicKey } })).text(), GENERIC_HEADER);
  const middle = all[Math.floor(all.length / 2)]!;
  const ranged = await request.post('/wallet/csv', { data: { extendedPublicKey, from: middle.time_utc } });
  const rows = rowsOf(await ranged.text(), GENERIC_HEADER);
  const start = all.findIndex((row) => row.time_utc === middle.time_utc);
  const strip = (row: Row) => ({ ...row, confirmations: '' });
  // The oldest rows of the range are settled; newer ones may have been accepted since the first download.
  const settled = Math.min(5, all.length - start);
  expect(rows.slice(0, settled).map(strip)).toEqual(all.slice(start, start + settled).map(strip));

  const koinly = await request.post('/wallet/csv', { data: { extendedPublicKey, layout: 'koinly', to: middle.time_utc } });
  expectCsvDownload(koinly);
  const koinlyRows = rowsOf(await koinly.text(), KOINLY_HEADER);
  const before = all.slice(0, start).filter((row) => row.accepted === 'true');
  expect(koinlyRows.map((row) => row.TxHash)).toEqual(before.map((row) => row.transaction_id));
  for (const row of koinlyRows) {
    expect(row.Date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/);
    expect(row.Description).toContain('KAS/USD simulated');
    expect(row['Net Worth Currency']).toBe('USD');
  }
});

test('an address’s CSV matches its history', async ({ request }) => {
  test.setTimeout(120_000);
  const extendedPublicKey = await demoKey(request);
  const wallet = await json<{ addresses: { address: string; transactionCount: number }[] }>(
    await post(request, '/v1/wallets/summary', { extendedPublicKey }),
  );
  const { address } = wallet.addresses.reduce((best, entry) => (entry.transactionCount > best.transactionCount ? entry : best));
  const reply = await request.get(`/address/${address}/csv`);
  expectCsvDownload(reply);
  const rows = rowsOf(await reply.text(), GENERIC_HEADER);
  const page = await json<{ transactions: Item[] }>(
    await request.get(`/v1/addresses/${address}/transactions?limit=100`, { headers: keyed }),
  );
  const history = new Map(page.transactions.map((item) => [item.transactionId, item]));
  expect(rows.length).toBeGreaterThan(0);
  expectChronological(rows);
  expectRunningBalance(rows);
  for (const row of rows.slice(-Math.min(rows.length, 100))) {
    const item = history.get(row.transaction_id!);
    if (item === undefined) continue;
    expect(sompi(row.net_change_kas!)).toBe(BigInt(item.balanceChange));
    expect(row.time_utc).toBe(new Date(item.blockTime).toISOString());
  }
  expect(rows.filter((row) => history.has(row.transaction_id!)).length).toBeGreaterThan(0);
});

test('bad input is a problem with its status, and the extended key comes back in no header or error', async ({ request }) => {
  const extendedPublicKey = await demoKey(request);
  const secret = extendedPublicKey.slice(4, 60);
  const replies = [
    await request.post('/wallet/csv', { data: { extendedPublicKey } }),
    await post(request, '/v1/wallets/transactions/export', { extendedPublicKey, limit: 1 }),
    await request.post('/wallet/csv', { data: { extendedPublicKey: `${extendedPublicKey.slice(0, -3)}xyz` } }),
    await request.post('/wallet/csv', { data: { extendedPublicKey, from: 'yesterday' } }),
    await request.post('/wallet/csv', { data: { extendedPublicKey, layout: 'turbotax' } }),
    await request.post('/wallet/csv', { headers: { 'content-type': 'application/json' }, data: '{"extendedPublicKey":' }),
    await request.get('/address/kaspadev:nonsense/csv'),
  ];
  expect(replies.map((reply) => reply.status())).toEqual([200, 200, 400, 400, 400, 400, 400]);
  for (const reply of replies) {
    for (const value of Object.values(reply.headers())) expect(value.includes(secret)).toBe(false);
    if (reply.status() !== 200) {
      expect(reply.headers()['content-type']).toBe('application/problem+json');
      expect((await reply.text()).includes(secret)).toBe(false);
    }
  }
});
