import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyVirtualChainChange,
  insertBlocks,
  insertTransactions,
  migrate,
  type Db,
  type CreatedOutputRecord,
  type TransactionRecord,
} from '../../db';
import { addressOf, hashOf, payToAddressOutput, syntheticBlock, syntheticTransaction } from '../../db/test-support/fixtures';
import { testBackends, type TestDatabase } from '../../db/test-support/test-databases';
import { addressToScriptPublicKey } from '../../kaspa/address';
import { bytesToHex, compareBytes } from '../../kaspa/bytes';
import { parseJson } from '../../rpc/json';
import type { RpcMempoolEntry, RpcMethodName, RpcResponse, RpcUtxosByAddressesEntry } from '../../rpc/types';
import { deriveAddress, parseExtendedPublicKey, type WalletChain } from '../../wallet/derivation';
import { accountKeyOf, RUSTY_KASPA_MASTER_KPRV } from '../../wallet/test-support/keys';
import { endpointDefiner } from '../wrapper/endpoint';
import type { RouteContext } from '../http/http';
import { createIndexedReads } from './indexed-endpoints';
import { createApiKey, createMemoryKeyStore } from '../keys/keys';
import { createMemoryMeter } from '../keys/metering';
import { walletSummaryResponse, walletTransactionResponse } from '../openapi/openapi-wallet-endpoints';
import {
  demoWalletEndpoint,
  MAX_WALLET_ADDRESSES,
  walletSummaryEndpoint,
  walletTransactionsEndpoint,
  walletUtxosEndpoint,
  type WalletApiContext,
  type WalletTransactionView,
} from './wallet-endpoints';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const KPUB = accountKeyOf(RUSTY_KASPA_MASTER_KPRV, 'kpub');
const walletKey = parseExtendedPublicKey(KPUB);
const at = (chain: WalletChain, index: number) => deriveAddress(walletKey, chain, index, 'kaspadev');
const pay = (address: string, amount: bigint): CreatedOutputRecord => ({
  amount,
  scriptPublicKey: addressToScriptPublicKey(address),
  address,
  scriptType: 'pubkey',
  covenantId: null,
  authorizingInput: null,
});
const spendOf = (transaction: TransactionRecord, index: number) => ({
  previousTransactionId: transaction.transactionId,
  previousIndex: index,
  previousOutput: transaction.outputs[index]!,
});
const idHex = (transaction: { transactionId: Uint8Array }) => bytesToHex(transaction.transactionId);

/*
 * The wallet: receive 0 is funded by a coinbase; it pays bob and sends change to change 0; change 0 moves everything
 * to receive 1 (internal); alice pays receive 19 and, past a gap of 20, receive 39 (found only through 19); receive 1
 * and alice fund one joint transaction; receive 3 gets 30 small payments for paging.
 */
const coinbase = syntheticTransaction('w coinbase', 1_000n, [], [pay(at('receive', 0), 10_000n)]);
const payBob = syntheticTransaction('w pay bob', 1_001n, [spendOf(coinbase, 0)], [
  payToAddressOutput('bob', 3_000n),
  pay(at('change', 0), 6_900n),
]);
const internal = syntheticTransaction('w internal', 1_002n, [spendOf(payBob, 1)], [pay(at('receive', 1), 6_850n)]);
const aliceFunding = syntheticTransaction('w alice funding', 999n, [], [
  payToAddressOutput('alice', 50_000n),
  payToAddressOutput('alice', 4_000n),
]);
const fromAlice = syntheticTransaction('w from alice', 1_003n, [spendOf(aliceFunding, 0)], [
  pay(at('receive', 19), 20_000n),
  pay(at('receive', 39), 5_000n),
  payToAddressOutput('alice', 24_900n),
]);
const joint = syntheticTransaction('w joint', 1_004n, [spendOf(internal, 0), spendOf(aliceFunding, 1)], [
  payToAddressOutput('carol', 10_000n),
  pay(at('change', 1), 800n),
]);
const drips = Array.from({ length: 30 }, (_, index) =>
  syntheticTransaction(`w drip ${index}`, 2_000n + BigInt(Math.floor(index / 4)), [], [pay(at('receive', 3), 1n)]),
);
const outsider = syntheticTransaction('w outsider', 1_005n, [], [payToAddressOutput('dave', 7n)]);
const all = [aliceFunding, coinbase, payBob, internal, fromAlice, joint, ...drips, outsider];
const walletTransactions = [coinbase, payBob, internal, fromAlice, joint, ...drips];
const newestFirst = [...walletTransactions]
  .sort((x, y) =>
    x.blockTime === y.blockTime ? compareBytes(y.transactionId, x.transactionId) : x.blockTime > y.blockTime ? -1 : 1,
  )
  .map(idHex);

/** The node's UTXO set: every output of `all` not spent by another. */
function unspent(): RpcUtxosByAddressesEntry[] {
  const spent = new Set(
    all.flatMap((t) => t.inputs.map((input) => `${bytesToHex(input.previousOutpoint.transactionId)}:${input.previousOutpoint.index}`)),
  );
  return all.flatMap((t) =>
    t.outputs.flatMap((output, index) =>
      spent.has(`${idHex(t)}:${index}`)
        ? []
        : [
            {
              address: output.address,
              outpoint: { transactionId: idHex(t), index },
              utxoEntry: {
                amount: output.amount,
                scriptPublicKey: `0000${bytesToHex(output.scriptPublicKey.script)}`,
                blockDaaScore: 1n,
                isCoinbase: t.inputs.length === 0,
                covenantId: null,
              },
            },
          ],
    ),
  );
}

/** A pending transaction spending receive 19's 20,000: 15,000 to erin, 4,990 back to change 2. */
function pendingEntry(): RpcMempoolEntry {
  const script = (address: string) => `0000${bytesToHex(addressToScriptPublicKey(address).script)}`;
  return {
    fee: 10n,
    is_orphan: false,
    transaction: {
      version: 0,
      inputs: [
        {
          previousOutpoint: { transactionId: idHex(fromAlice), index: 0 },
          signatureScript: '',
          sequence: 0n,
          sigOpCount: 1,
          computeBudget: 0,
          verboseData: null,
        },
      ],
      outputs: [
        { value: 15_000n, scriptPublicKey: script(addressOf('erin')), verboseData: null, covenant: null },
        { value: 4_990n, scriptPublicKey: script(at('change', 2)), verboseData: null, covenant: null },
      ],
      lockTime: 0n,
      subnetworkId: '0000000000000000000000000000000000000000',
      gas: 0n,
      payload: '',
      storageMass: 0n,
      mass: 0n,
      verboseData: null,
    },
  };
}

interface Reply {
  status: number;
  headers: Headers;
  text: string;
  body: never;
}

describe.each(testBackends())('wallet endpoints on $name', (backend) => {
  let database: TestDatabase;
  let db: Db;
  let request: (definition: { id: string }, body: unknown) => Promise<Reply>;
  const utxos = unspent();
  /** Makes the node claim a UTXO at every address asked, so discovery never meets a gap. */
  let everyAddressFunded = false;

  beforeAll(async () => {
    database = await backend.open();
    db = database.db;
    await migrate(db);
    const block = syntheticBlock({
      label: 'w block',
      daaScore: 500n,
      parents: [],
      transactionIds: all.map((t) => t.transactionId),
      isChainBlock: true,
    });
    await db.transaction(async (tx) => {
      await insertBlocks(tx, [block]);
      await insertTransactions(tx, all);
      await applyVirtualChainChange(tx, {
        removedChainBlockHashes: [],
        added: [{ acceptingBlockHash: block.hash, acceptedTransactionIds: all.map((t) => t.transactionId) }],
      });
    });
    const rpc = {
      async call<M extends RpcMethodName>(method: M, body: unknown): Promise<RpcResponse<M>> {
        const asked = new Set((body as { addresses?: string[] }).addresses ?? []);
        if (method === 'getSinkBlueScore') return { blueScore: 600n } as RpcResponse<M>;
        if (method === 'getUtxosByAddresses') {
          if (everyAddressFunded) {
            return { entries: [...asked].map((address) => ({ ...utxos[0]!, address })) } as RpcResponse<M>;
          }
          return { entries: utxos.filter((entry) => asked.has(entry.address!)) } as RpcResponse<M>;
        }
        if (method === 'getMempoolEntriesByAddresses') {
          const entry = pendingEntry();
          const touched = [at('receive', 19), at('change', 2)].filter((address) => asked.has(address));
          return {
            entries: touched.map((address, position) => ({
              address,
              sending: position === 0 ? [entry] : [],
              receiving: position === 0 ? [] : [entry],
            })),
          } as RpcResponse<M>;
        }
        throw new Error(`unexpected node call ${method}`);
      },
    };
    const context: WalletApiContext = {
      demoWallet: { extendedPublicKey: KPUB },
      keys: createMemoryKeyStore(),
      meter: createMemoryMeter(),
      clock: () => NOW,
      logger: { error: () => undefined },
      addressPrefix: async () => 'kaspadev',
      rpc,
      ...createIndexedReads({ db, rpc, clock: () => NOW }),
    };
    const { key } = await createApiKey(context.keys, {
      name: 'test',
      limits: { milliRuPerSecond: 10_000_000, milliRuPerMonth: 1_000_000_000 },
      now: new Date(NOW),
    });
    const define = endpointDefiner(() => context);
    request = async (definition, body) => {
      const handler = define(definition as never);
      const routeContext: RouteContext = { params: Promise.resolve({}) };
      const response = await handler(
        new Request('http://localhost/v1/wallets/x', {
          method: definition.id.split(' ')[0],
          headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
        routeContext,
      );
      const text = await response.text();
      return { status: response.status, headers: response.headers, text, body: parseJson(text) as never };
    };
  }, 120_000);

  afterAll(async () => {
    await database?.dispose();
  });

  it('summary: discovers both chains past a gap, sums the node UTXOs and the pending change, costs 1 RU', async () => {
    const reply = await request(walletSummaryEndpoint, { extendedPublicKey: KPUB });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('x-request-cost-ru')).toBe('1');
    const summary = walletSummaryResponse.parse(reply.body);
    const used = summary.addresses.filter((entry) => entry.used);
    expect(used.map((entry) => [entry.chain, entry.index])).toEqual([
      ['receive', 0],
      ['receive', 1],
      ['receive', 3],
      ['receive', 19],
      ['receive', 39],
      ['change', 0],
      ['change', 1],
    ]);
    // Unused addresses are listed up to the gap after the last used one on each chain.
    expect(summary.addresses.filter((entry) => entry.chain === 'receive')).toHaveLength(60);
    expect(summary.addresses.filter((entry) => entry.chain === 'change')).toHaveLength(22);
    const walletAddresses = new Set(summary.addresses.map((entry) => entry.address));
    const expected = utxos
      .filter((entry) => walletAddresses.has(entry.address!))
      .reduce((total, entry) => total + entry.utxoEntry.amount, 0n);
    expect(summary.balance).toBe(expected.toString());
    expect(summary.balance).toBe(String(20_000 + 5_000 + 800 + 30));
    expect(summary.utxoCount).toBe(33);
    expect(summary.pending).toBe(String(4_990 - 20_000));
    expect(summary.firstActivity).toBe(1_000);
    expect(summary.lastActivity).toBe(2_007);
    expect(used.find((entry) => entry.index === 3 && entry.chain === 'receive')).toMatchObject({
      balance: '30',
      utxoCount: 30,
      transactionCount: 30,
      firstActivity: 2_000,
      lastActivity: 2_007,
    });
  });

  it('summary with a smaller gap limit misses what lies beyond it', async () => {
    const reply = await request(walletSummaryEndpoint, { extendedPublicKey: KPUB, gapLimit: 15 });
    const summary = walletSummaryResponse.parse(reply.body);
    expect(summary.gapLimit).toBe(15);
    const used = summary.addresses.filter((entry) => entry.used && entry.chain === 'receive').map((entry) => entry.index);
    expect(used).toEqual([0, 1, 3]);
  });

  it('summary of an address list: the same balances, chain and index null', async () => {
    const addresses = [at('receive', 19), at('receive', 39), at('receive', 19).toUpperCase()];
    const summary = walletSummaryResponse.parse((await request(walletSummaryEndpoint, { addresses })).body);
    expect(summary.addresses).toHaveLength(2);
    expect(summary.addresses[0]).toMatchObject({ chain: null, index: null, used: true, balance: '20000' });
    expect(summary.balance).toBe('25000');
    expect(summary.gapLimit).toBeNull();
  });

  it('transactions: each transaction once, newest first, paged both ways; net changes add up to the balance', async () => {
    const seen: WalletTransactionView[] = [];
    let cursor: string | undefined;
    for (;;) {
      const reply = await request(walletTransactionsEndpoint, { extendedPublicKey: KPUB, limit: 7, startingAfter: cursor });
      expect(reply.status).toBe(200);
      const body = reply.body as { transactions: WalletTransactionView[]; metadata: { hasMore: boolean; count: number } };
      for (const item of body.transactions) walletTransactionResponse.parse(item);
      seen.push(...body.transactions);
      if (!body.metadata.hasMore) break;
      cursor = body.transactions.at(-1)!.transactionId;
    }
    expect(seen.map((item) => item.transactionId)).toEqual(newestFirst);
    const total = seen.reduce((sum, item) => sum + BigInt(item.balanceChange), 0n);
    expect(total).toBe(25_830n);
    const back = await request(walletTransactionsEndpoint, {
      extendedPublicKey: KPUB,
      limit: 5,
      endingBefore: newestFirst[10],
    });
    expect((back.body as { transactions: WalletTransactionView[] }).transactions.map((item) => item.transactionId)).toEqual(
      newestFirst.slice(5, 10),
    );
  });

  it('transactions: direction, net change, the fee the wallet paid and the counterparties', async () => {
    const reply = await request(walletTransactionsEndpoint, { extendedPublicKey: KPUB, limit: 100 });
    const items = new Map(
      (reply.body as { transactions: WalletTransactionView[] }).transactions.map((item) => [item.transactionId, item]),
    );
    expect(items.get(idHex(coinbase))).toMatchObject({ direction: 'incoming', balanceChange: '10000', feePaid: '0' });
    expect(items.get(idHex(payBob))).toMatchObject({
      direction: 'outgoing',
      amountSent: '10000',
      amountReceived: '6900',
      balanceChange: '-3100',
      fee: '100',
      feePaid: '100',
      counterparties: [addressOf('bob')],
    });
    // Internal: every input and output is the wallet's, so it nets to minus the fee.
    expect(items.get(idHex(internal))).toMatchObject({
      direction: 'internal',
      balanceChange: '-50',
      fee: '50',
      feePaid: '50',
      counterparties: [],
    });
    expect(items.get(idHex(fromAlice))).toMatchObject({
      direction: 'incoming',
      amountReceived: '25000',
      balanceChange: '25000',
      feePaid: '0',
      counterparties: [addressOf('alice')],
    });
    // Joint: 6,850 of 10,850 input value is the wallet's, so it bears 6,850/10,850 of the 50 fee, rounded down.
    expect(items.get(idHex(joint))).toMatchObject({
      direction: 'outgoing',
      balanceChange: String(800 - 6_850),
      fee: '50',
      feePaid: String(Math.floor((50 * 6_850) / 10_850)),
      counterparties: [addressOf('carol')],
    });
    expect(items.has(idHex(outsider))).toBe(false);
  });

  it('utxos: the node format of every wallet UTXO, 0.75 RU', async () => {
    const reply = await request(walletUtxosEndpoint, { extendedPublicKey: KPUB });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('x-request-cost-ru')).toBe('0.75');
    const { entries } = reply.body as { entries: { address: string; amount: string }[] };
    expect(entries).toHaveLength(33);
    expect(entries.reduce((sum, entry) => sum + BigInt(entry.amount), 0n)).toBe(25_830n);
  });

  it('refuses bad input with the one problem shape and never echoes the key', async () => {
    const cases: [unknown, number, string, string][] = [
      [{}, 400, 'invalid_request', 'body.extendedPublicKey'],
      [{ extendedPublicKey: KPUB, addresses: [at('receive', 0)] }, 400, 'invalid_request', 'body.extendedPublicKey'],
      [{ extendedPublicKey: RUSTY_KASPA_MASTER_KPRV }, 400, 'invalid_request', 'body.extendedPublicKey'],
      [{ extendedPublicKey: `${KPUB.slice(0, -1)}x` }, 400, 'invalid_request', 'body.extendedPublicKey'],
      [{ extendedPublicKey: KPUB, gapLimit: 0 }, 400, 'invalid_request', 'body.gapLimit'],
      [{ extendedPublicKey: KPUB, gapLimit: 101 }, 400, 'invalid_request', 'body.gapLimit'],
      [{ addresses: ['kaspa:qz7ulu4c25dh7fzec9zjyrmlhnkzrg4wmf89q7gzr3gfrsj3uz6xjellj43pf'] }, 400, 'invalid_address', 'body.addresses[0]'],
      [{ addresses: Array(MAX_WALLET_ADDRESSES + 1).fill(at('receive', 0)) }, 400, 'limit_exceeded', 'body.addresses'],
      [{ addresses: [] }, 400, 'invalid_request', 'body.addresses'],
    ];
    for (const [body, status, code, path] of cases) {
      const reply = await request(walletSummaryEndpoint, body);
      expect([reply.status, (reply.body as { code: string }).code], JSON.stringify(body).slice(0, 80)).toEqual([status, code]);
      expect((reply.body as { errors: { path: string }[] }).errors.map((error) => error.path)).toContain(path);
      expect(reply.text).not.toContain(KPUB.slice(4, 40));
      expect(reply.text).not.toContain(RUSTY_KASPA_MASTER_KPRV.slice(4, 40));
    }
    const cursors = await request(walletTransactionsEndpoint, {
      extendedPublicKey: KPUB,
      startingAfter: newestFirst[0],
      endingBefore: newestFirst[1],
    });
    expect((cursors.body as { code: string }).code).toBe('conflicting_cursors');
    const unknown = await request(walletTransactionsEndpoint, {
      extendedPublicKey: KPUB,
      startingAfter: bytesToHex(hashOf('nowhere')),
    });
    expect([unknown.status, (unknown.body as { code: string }).code]).toEqual([400, 'unknown_cursor']);
    const tooMany = await request(walletTransactionsEndpoint, { extendedPublicKey: KPUB, limit: 101 });
    expect(tooMany.status).toBe(400);
  });

  it('demo: the devnet HD wallet\'s key and network, free', async () => {
    const reply = await request(demoWalletEndpoint, undefined);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('x-request-cost-ru')).toBe('0');
    expect(reply.body).toEqual({ extendedPublicKey: KPUB, network: 'kaspadev' });
  });

  it('a wallet larger than the address budget is refused, not answered in part', async () => {
    everyAddressFunded = true;
    try {
      const reply = await request(walletSummaryEndpoint, { extendedPublicKey: KPUB, gapLimit: 100 });
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ code: 'limit_exceeded', errors: [{ path: 'body.extendedPublicKey' }] });
      expect(reply.text).toContain(String(MAX_WALLET_ADDRESSES));
    } finally {
      everyAddressFunded = false;
    }
  }, 60_000);
});
