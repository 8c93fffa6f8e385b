/**
 * The wallet endpoints (issue 20): a wallet is an account's extended public key, discovered with a gap limit on the
 * receive and change chains, or an explicit list of addresses. The key travels only in POST bodies and is never
 * echoed, logged (errors.ts redacts extended keys) or put in a header.
 *   - POST /v1/wallets/summary       balance (node UTXOs), pending mempool change, per-address table, activity span
 *   - POST /v1/wallets/transactions  merged history, each transaction once, with the wallet's effect; cursor paging
 *   - POST /v1/wallets/utxos         the wallet's UTXOs in the node format
 *   - GET /v1/wallets/demo           (embedded devnet, free) the devnet HD wallet's extended public key
 * An address is used when the index holds a transaction of it or the node holds a UTXO of it. Every call derives and
 * checks at most MAX_WALLET_ADDRESSES addresses; a larger wallet is refused with `limit_exceeded` rather than answered
 * in part.
 */
import { z } from 'zod';
import {
  addressActivity,
  getWalletTransactions,
  UnknownCursorError,
  usedAddresses,
  type WalletTransactionRecord,
} from '../../db';
import { decodeAddress, encodeAddress, scriptPublicKeyToAddress, type AddressPrefix } from '../../kaspa/address';
import { bytesToHex, hexToBytes } from '../../kaspa/bytes';
import { transactionId } from '../../kaspa/transaction';
import { scriptPublicKeyFromRpc, transactionFromRpc } from '../../rpc/convert-transaction';
import type { RpcMempoolEntry, RpcUtxosByAddressesEntry } from '../../rpc/types';
import { ExtendedKeyError, parseExtendedPublicKey, type WalletChain } from '../../wallet/derivation';
import { discoverAddresses, GAP_LIMIT, WalletTooLargeError } from '../../wallet/discovery';
import { discoveryDigest, type DiscoveryCache } from '../../wallet/discovery-cache';
import type { KasUsdSource } from '../../tokens/kas-usd';
import { walletEffect } from '../../wallet/history';
import { endpointsFor, type EndpointResult } from '../wrapper/endpoint';
import { ApiError, fromZodError } from '../http/errors';
import type { IndexedApiContext } from './indexed-endpoints';
import { exactInteger, transactionView, type IndexedTransactionView } from './indexed-format';
import { utxoEntryToNode } from './node-format';
import { addressString, hexString, PAGE_LIMIT } from '../http/schemas';

/** Addresses one wallet call derives and checks (both chains together), or takes as an explicit list. */
export const MAX_WALLET_ADDRESSES = 2000;
/** Base58 of 78 bytes is at most 112 characters; anything longer is refused before it is decoded. */
const MAX_EXTENDED_KEY_LENGTH = 120;

export interface WalletApiContext extends IndexedApiContext {
  /** With the embedded devnet: its HD wallet's extended public key, offered as the example wallet. */
  demoWallet?: { extendedPublicKey: string } | null;
  /** Recent discoveries of extended keys (their addresses), so consecutive calls for one wallet discover it once. */
  discoveryCache?: DiscoveryCache<WalletAddressEntry[]>;
  /** The configured KAS/USD source, for the export's USD columns; absent: the columns stay empty. */
  kasUsd?: KasUsdSource;
}

const walletEndpoint = endpointsFor<WalletApiContext>();

export const walletSource = {
  extendedPublicKey: z
    .string()
    .max(MAX_EXTENDED_KEY_LENGTH, 'is too long for an extended public key')
    .optional()
    .meta({ description: 'the account’s extended public key (kpub, ktub, xpub or tpub); never put it in a URL' }),
  addresses: z
    .array(z.string())
    .min(1, 'at least one address')
    .max(MAX_WALLET_ADDRESSES, `at most ${MAX_WALLET_ADDRESSES} addresses per call`)
    .optional()
    .meta({ description: 'instead of a key: the wallet’s addresses' }),
  gapLimit: z
    .number()
    .int()
    .min(1)
    .max(GAP_LIMIT.max)
    .optional()
    .meta({
      description: `with extendedPublicKey: unused addresses scanned past the last used one on each chain, 1 to ${GAP_LIMIT.max} (default ${GAP_LIMIT.default})`,
    }),
};

type WalletSource = { extendedPublicKey?: string; addresses?: string[]; gapLimit?: number };

export function exactlyOneSource(body: WalletSource, context: z.RefinementCtx): void {
  if ((body.extendedPublicKey === undefined) === (body.addresses === undefined)) {
    context.addIssue({ code: 'custom', path: ['extendedPublicKey'], message: 'give either extendedPublicKey or addresses' });
  }
}

export const walletSourceSchema = z.object(walletSource).superRefine(exactlyOneSource);

export interface WalletAddressEntry {
  address: string;
  /** Null for an address given in a list. */
  chain: WalletChain | null;
  index: number | null;
  used: boolean;
}

export interface ResolvedWallet {
  network: AddressPrefix;
  gapLimit: number | null;
  addresses: WalletAddressEntry[];
  utxos: RpcUtxosByAddressesEntry[];
}

/**
 * The wallet's addresses (used and unused) and the node's UTXOs of them, read while discovering. A key discovered
 * moments ago is taken from the cache (its UTXOs then read afresh in one call, or skipped without `utxos`).
 */
export async function resolveWallet(
  context: WalletApiContext,
  source: WalletSource,
  { utxos: wantsUtxos = true }: { utxos?: boolean } = {},
): Promise<ResolvedWallet> {
  const network = await context.addressPrefix();
  const utxos: RpcUtxosByAddressesEntry[] = [];
  const usedAmong = async (batch: readonly string[]): Promise<Set<string>> => {
    const [indexed, { entries }] = await Promise.all([
      usedAddresses(context.db, batch),
      context.rpc.call('getUtxosByAddresses', { addresses: [...batch] }),
    ]);
    utxos.push(...entries);
    for (const entry of entries) if (entry.address !== null) indexed.add(entry.address);
    return indexed;
  };
  if (source.addresses !== undefined) {
    const checked = z.array(addressString(network)).safeParse(source.addresses);
    if (!checked.success) throw fromZodError('body.addresses', checked.error);
    const addresses = [...new Set(checked.data.map((text) => encodeAddress(decodeAddress(text))))];
    const used = await usedAmong(addresses);
    return {
      network,
      gapLimit: null,
      addresses: addresses.map((address) => ({ address, chain: null, index: null, used: used.has(address) })),
      utxos,
    };
  }
  let key;
  try {
    key = parseExtendedPublicKey(source.extendedPublicKey ?? '');
  } catch (error) {
    if (!(error instanceof ExtendedKeyError)) throw error;
    throw ApiError.invalidRequest(`body.extendedPublicKey: ${error.message}`, [
      { path: 'body.extendedPublicKey', message: error.message },
    ]);
  }
  const gapLimit = source.gapLimit ?? GAP_LIMIT.default;
  const digest = discoveryDigest(network, gapLimit, source.extendedPublicKey ?? '');
  const cached = context.discoveryCache?.get(digest);
  if (cached !== undefined) {
    if (wantsUtxos) {
      const { entries } = await context.rpc.call('getUtxosByAddresses', { addresses: cached.map((entry) => entry.address) });
      utxos.push(...entries);
    }
    return { network, gapLimit, addresses: cached, utxos };
  }
  try {
    const addresses = await discoverAddresses(key, { network, gapLimit, maxAddresses: MAX_WALLET_ADDRESSES, usedAmong });
    context.discoveryCache?.set(digest, addresses);
    return { network, gapLimit, addresses, utxos };
  } catch (error) {
    if (!(error instanceof WalletTooLargeError)) throw error;
    throw ApiError.limitExceeded(
      'body.extendedPublicKey',
      `a wallet call derives at most ${MAX_WALLET_ADDRESSES} addresses; lower gapLimit or send addresses in parts`,
    );
  }
}

const outpointKey = (transactionId: string, index: number) => `${transactionId}:${index}`;

/** kaspad names each mempool entry's id in its verbose data; it is computed when a node leaves that out. */
function mempoolTransactionId(entry: RpcMempoolEntry): string {
  return entry.transaction.verboseData?.transactionId ?? bytesToHex(transactionId(transactionFromRpc(entry.transaction)));
}

/**
 * The mempool's net effect on the wallet: what its pending transactions pay to the wallet's addresses minus the
 * wallet's outputs they spend (confirmed UTXOs, or outputs of other pending transactions).
 */
export function pendingChange(
  entries: readonly RpcMempoolEntry[],
  wallet: ReadonlySet<string>,
  utxos: readonly RpcUtxosByAddressesEntry[],
  network: AddressPrefix,
): bigint {
  const walletOutputs = new Map(
    utxos.map((entry) => [outpointKey(entry.outpoint.transactionId, entry.outpoint.index), entry.utxoEntry.amount]),
  );
  let change = 0n;
  for (const entry of entries) {
    const id = mempoolTransactionId(entry);
    entry.transaction.outputs.forEach((output, index) => {
      const address =
        output.verboseData?.scriptPublicKeyAddress ??
        scriptPublicKeyToAddress(scriptPublicKeyFromRpc(output.scriptPublicKey), network);
      if (address === null || !wallet.has(address)) return;
      change += output.value;
      walletOutputs.set(outpointKey(id, index), output.value);
    });
  }
  for (const { transaction } of entries) {
    for (const input of transaction.inputs) {
      change -= walletOutputs.get(outpointKey(input.previousOutpoint.transactionId, input.previousOutpoint.index)) ?? 0n;
    }
  }
  return change;
}

async function mempoolEntries(context: IndexedApiContext, addresses: readonly string[]): Promise<RpcMempoolEntry[]> {
  const { entries } = await context.rpc.call('getMempoolEntriesByAddresses', {
    addresses: [...addresses],
    includeOrphanPool: false,
    filterTransactionPool: false,
  });
  const unique = new Map<string, RpcMempoolEntry>();
  for (const entry of entries.flatMap((byAddress) => [...byAddress.sending, ...byAddress.receiving])) {
    unique.set(mempoolTransactionId(entry), entry);
  }
  return [...unique.values()];
}

export const walletSummaryEndpoint = walletEndpoint({
  id: 'POST /v1/wallets/summary',
  body: walletSourceSchema,
  async handler({ context, body }): Promise<EndpointResult> {
    const wallet = await resolveWallet(context, body);
    const all = wallet.addresses.map((entry) => entry.address);
    const [activity, pending] = await Promise.all([
      addressActivity(
        context.db,
        wallet.addresses.filter((entry) => entry.used).map((entry) => entry.address),
      ),
      mempoolEntries(context, all),
    ]);
    const activityOf = new Map(activity.map((item) => [item.address, item]));
    const balances = new Map<string, { balance: bigint; utxoCount: number }>();
    for (const entry of wallet.utxos) {
      if (entry.address === null) continue;
      const held = balances.get(entry.address) ?? { balance: 0n, utxoCount: 0 };
      balances.set(entry.address, { balance: held.balance + entry.utxoEntry.amount, utxoCount: held.utxoCount + 1 });
    }
    const times = activity.flatMap((item) => [item.firstBlockTime, item.lastBlockTime]);
    const extreme = (pick: (a: bigint, b: bigint) => bigint) =>
      times.length === 0 ? null : exactInteger(times.reduce(pick), 'blockTime');
    const balance = [...balances.values()].reduce((total, held) => total + held.balance, 0n);
    return {
      body: {
        network: wallet.network,
        gapLimit: wallet.gapLimit,
        balance: balance.toString(),
        pending: pendingChange(pending, new Set(all), wallet.utxos, wallet.network).toString(),
        utxoCount: wallet.utxos.length,
        usedAddressCount: wallet.addresses.filter((entry) => entry.used).length,
        firstActivity: extreme((a, b) => (a < b ? a : b)),
        lastActivity: extreme((a, b) => (a > b ? a : b)),
        addresses: wallet.addresses.map((entry) => {
          const held = balances.get(entry.address);
          const seen = activityOf.get(entry.address);
          return {
            address: entry.address,
            chain: entry.chain,
            index: entry.index,
            used: entry.used,
            balance: (held?.balance ?? 0n).toString(),
            utxoCount: held?.utxoCount ?? 0,
            transactionCount: seen?.transactionCount ?? 0,
            firstActivity: seen === undefined ? null : exactInteger(seen.firstBlockTime, 'blockTime'),
            lastActivity: seen === undefined ? null : exactInteger(seen.lastBlockTime, 'blockTime'),
          };
        }),
      },
      cache: { kind: 'no-store' },
    };
  },
});

export const walletUtxosEndpoint = walletEndpoint({
  id: 'POST /v1/wallets/utxos',
  body: walletSourceSchema,
  async handler({ context, body }): Promise<EndpointResult> {
    const wallet = await resolveWallet(context, body);
    return { body: { entries: wallet.utxos.map((entry) => utxoEntryToNode(entry)) }, cache: { kind: 'no-store' } };
  },
});

export interface WalletTransactionView extends IndexedTransactionView {
  amountSent: string;
  amountReceived: string;
  balanceChange: string;
  fee: string | null;
  feePaid: string | null;
  direction: 'incoming' | 'outgoing' | 'internal';
  counterparties: string[];
}

export function walletTransactionView(
  transaction: WalletTransactionRecord,
  wallet: ReadonlySet<string>,
  virtualBlueScore: bigint,
): WalletTransactionView {
  const effect = walletEffect(transaction, wallet, transaction.walletSent, transaction.walletReceived);
  return {
    ...transactionView(transaction, virtualBlueScore),
    amountSent: effect.sent.toString(),
    amountReceived: effect.received.toString(),
    balanceChange: effect.netChange.toString(),
    fee: effect.fee === null ? null : effect.fee.toString(),
    feePaid: effect.feePaid === null ? null : effect.feePaid.toString(),
    direction: effect.direction,
    counterparties: effect.counterparties,
  };
}

const transactionIdText = hexString(32, 'a transaction id');

export const walletTransactionsSchema = z
  .object({
    ...walletSource,
    startingAfter: transactionIdText.optional().meta({ description: 'cursor to older items: the last item’s transactionId' }),
    endingBefore: transactionIdText.optional().meta({ description: 'cursor to newer items: the first item’s transactionId' }),
    limit: z
      .number()
      .int()
      .min(PAGE_LIMIT.min)
      .max(PAGE_LIMIT.max)
      .optional()
      .meta({ description: `items per page, ${PAGE_LIMIT.min} to ${PAGE_LIMIT.max} (default ${PAGE_LIMIT.default})` }),
    includePayload: z.boolean().optional(),
    acceptedOnly: z.boolean().optional(),
  })
  .superRefine(exactlyOneSource);

export const walletTransactionsEndpoint = walletEndpoint({
  id: 'POST /v1/wallets/transactions',
  body: walletTransactionsSchema,
  async handler({ context, body }): Promise<EndpointResult> {
    if (body.startingAfter !== undefined && body.endingBefore !== undefined) throw ApiError.conflictingCursors('body.startingAfter', 'body.endingBefore');
    const wallet = await resolveWallet(context, body, { utxos: false });
    // Every discovered address, unused ones too: one may take part in a transaction indexed since discovery, and the
    // page must sum the wallet's whole side of it.
    const members = wallet.addresses.map((entry) => entry.address);
    let page;
    try {
      page = await getWalletTransactions(context.db, {
        addresses: members,
        limit: body.limit ?? PAGE_LIMIT.default,
        startingAfter: body.startingAfter === undefined ? undefined : hexToBytes(body.startingAfter),
        endingBefore: body.endingBefore === undefined ? undefined : hexToBytes(body.endingBefore),
        acceptedOnly: body.acceptedOnly ?? false,
        includePayload: body.includePayload ?? false,
      });
    } catch (error) {
      if (error instanceof UnknownCursorError) {
        throw ApiError.unknownCursor(body.startingAfter === undefined ? 'body.endingBefore' : 'body.startingAfter');
      }
      throw error;
    }
    const memberSet = new Set(members);
    const score = page.transactions.some((transaction) => transaction.acceptingBlockHash !== null)
      ? await context.virtualBlueScore()
      : 0n;
    return {
      body: {
        transactions: page.transactions.map((transaction) => walletTransactionView(transaction, memberSet, score)),
        metadata: { hasMore: page.hasMore, count: page.transactions.length },
      },
      cache: { kind: 'no-store' },
    };
  },
});

export const demoWalletEndpoint = walletEndpoint({
  id: 'GET /v1/wallets/demo',
  async handler({ context }): Promise<EndpointResult> {
    if (!context.demoWallet) throw ApiError.demoWalletNotFound();
    return {
      body: { extendedPublicKey: context.demoWallet.extendedPublicKey, network: await context.addressPrefix() },
      cache: { kind: 'no-store' },
    };
  },
});
