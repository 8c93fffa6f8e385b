/** The wallet endpoints' entries of the endpoint list (wallet-endpoints.ts holds their definitions). */
import { z } from 'zod';
import type { DocumentedEndpoint } from './openapi';
import { EXAMPLE_ADDRESS, EXAMPLE_OTHER_ADDRESS, exampleAddressTransaction, exampleUtxoEntry } from './openapi-examples';
import { addressTransactionResponse, nodeUtxoEntryResponse, PAGE_LIMIT } from '../http/schemas';
import { addressExportEndpoint, walletExportEndpoint } from '../endpoints/wallet-export-endpoints';
import {
  demoWalletEndpoint,
  MAX_WALLET_ADDRESSES,
  walletSummaryEndpoint,
  walletTransactionsEndpoint,
  walletUtxosEndpoint,
} from '../endpoints/wallet-endpoints';

export const WALLETS_TAG = 'Wallets';

const exampleCsv =
  'time_utc,transaction_id,block_hash,accepting_block_hash,accepting_block_blue_score,direction,amount_kas,fee_kas,' +
  'net_change_kas,running_balance_kas,kas_usd,value_usd,price_source,counterparties,confirmations,accepted\r\n' +
  `2024-11-27T09:33:20.000Z,${'ab'.repeat(32)},${'cd'.repeat(32)},${'ef'.repeat(32)},1200,in,8.50000000,0.00000000,` +
  `8.50000000,8.50000000,0.1042,0.89,simulated,${EXAMPLE_OTHER_ADDRESS},15,true\r\n`;

const exportNote =
  'CSV (RFC 4180, CRLF), oldest first by (block time, transaction id) within [`from`, `to`) (epoch ms or ISO 8601, ' +
  'UTC), at most 1,000 rows per call, the header line on the first page only. While more rows remain the answer ' +
  'carries `x-next-cursor`: send it as the cursor, with `x-closing-balance` as the opening balance, for the next ' +
  'page. Layouts: `generic` (default) — time_utc, transaction_id, block_hash (first containing block), ' +
  'accepting_block_hash, accepting_block_blue_score, direction (in, out, internal between the wallet’s addresses, ' +
  'self within one address), amount_kas (what crossed the wallet’s boundary), fee_kas (the wallet’s fee share), ' +
  'net_change_kas, running_balance_kas (accepted transactions only, from the indexed history), kas_usd and ' +
  'value_usd (the configured KAS/USD source at the block time), price_source (`simulated` on the devnet), ' +
  'counterparties (space-separated), confirmations, accepted; `koinly` — Koinly’s universal import columns (Date, ' +
  'Sent/Received/Fee Amount and Currency, Net Worth Amount and Currency, Label, Description, TxHash) without the ' +
  'transactions the DAG did not accept.';

/** rusty-kaspa's wallet test account (wallet/keys/src/derivation/gen1/hd.rs), a public example. */
export const EXAMPLE_EXTENDED_PUBLIC_KEY =
  'kpub2HtoTgsG6e1c7ixJ6JY49otNSzhEKkwnH6bsPHLAXUdYnfEuYw9LnhT7uRzaS4LSeit2rzutV6z8Fs9usdEGKnNe6p1JxfP71mK8rbUfYWo';

const count = z.number().int().min(0);
const sompi = z.string().regex(/^\d{1,20}$/).meta({ description: 'sompi, as a decimal string' });
const signedSompi = z.string().regex(/^-?\d{1,20}$/).meta({ description: 'signed sompi, as a decimal string' });
const epochMs = count.nullable().meta({ description: 'a block time in epoch milliseconds; null without activity' });
const chain = z.enum(['receive', 'change']).nullable().meta({ description: 'null for an address given in a list' });

export const walletSummaryResponse = z.strictObject({
  network: z.string().meta({ description: 'the address prefix of the served network' }),
  gapLimit: count.nullable().meta({ description: 'the gap limit used; null for an address list' }),
  balance: sompi,
  pending: signedSompi.meta({ description: 'the mempool’s net change to the balance, signed sompi' }),
  utxoCount: count,
  usedAddressCount: count,
  firstActivity: epochMs,
  lastActivity: epochMs,
  addresses: z.array(
    z.strictObject({
      address: z.string(),
      chain,
      index: count.nullable(),
      used: z.boolean(),
      balance: sompi,
      utxoCount: count,
      transactionCount: count,
      firstActivity: epochMs,
      lastActivity: epochMs,
    }),
  ),
});

export const walletTransactionResponse = addressTransactionResponse
  .extend({
    feePaid: sompi.nullable().meta({ description: 'the part of the fee the wallet paid; null while the fee is unknown' }),
    direction: z.enum(['incoming', 'outgoing', 'internal']),
    counterparties: z.array(z.string()).meta({ description: 'the other side’s addresses; none for an internal transfer' }),
  })
  .meta({ description: 'A wallet history item: the indexed view plus the wallet’s amounts, net change and fee share' });

const sourceNote =
  'Send either `extendedPublicKey` (kpub, ktub, xpub or tpub of the account, m/44′/111111′/0′; receive chain 0 and ' +
  'change chain 1 are scanned until `gapLimit` consecutive unused addresses, default 20) or `addresses`. ' +
  `A call derives at most ${MAX_WALLET_ADDRESSES} addresses; a larger wallet is refused (\`limit_exceeded\`). ` +
  'The key travels only in this body; it is never logged or echoed.';

const exampleSummary = {
  network: 'kaspa',
  gapLimit: 20,
  balance: '849997964',
  pending: '0',
  utxoCount: 1,
  usedAddressCount: 1,
  firstActivity: 1_732_700_000_000,
  lastActivity: 1_732_700_000_000,
  addresses: [
    {
      address: EXAMPLE_ADDRESS,
      chain: 'receive',
      index: 0,
      used: true,
      balance: '849997964',
      utxoCount: 1,
      transactionCount: 1,
      firstActivity: 1_732_700_000_000,
      lastActivity: 1_732_700_000_000,
    },
  ],
};

export const WALLET_ENDPOINT_DOCS: DocumentedEndpoint[] = [
  {
    definition: walletSummaryEndpoint,
    docs: {
      operationId: 'getWalletSummary',
      summary: 'Summarise an HD wallet',
      description:
        'The balance (the node’s UTXOs of every address), the mempool’s pending change, and each address (used and ' +
        `unused, with chain and index) with its balance, UTXO count and activity. ${sourceNote}`,
      tag: WALLETS_TAG,
      response: walletSummaryResponse,
      errors: ['invalid_address', 'limit_exceeded'],
      usesNode: true,
      etag: false,
      examples: { body: { extendedPublicKey: EXAMPLE_EXTENDED_PUBLIC_KEY, gapLimit: 20 }, response: exampleSummary },
    },
  },
  {
    definition: walletTransactionsEndpoint,
    docs: {
      operationId: 'getWalletTransactions',
      summary: 'Get an HD wallet’s merged history',
      description:
        'The history of all the wallet’s addresses, each transaction once, newest first by (block time, transaction ' +
        'id), paged like the address history with `startingAfter` / `endingBefore` in the body. Each item carries ' +
        'the wallet’s `amountSent`, `amountReceived`, net `balanceChange`, the `feePaid` by the wallet, its ' +
        '`direction` (`internal` when every input and output is the wallet’s: its change is minus the fee) and the ' +
        `\`counterparties\`. \`limit\` is ${PAGE_LIMIT.min}..${PAGE_LIMIT.max} (default ${PAGE_LIMIT.default}). ` +
        sourceNote,
      tag: WALLETS_TAG,
      response: z.strictObject({
        transactions: z.array(walletTransactionResponse),
        metadata: z.strictObject({ hasMore: z.boolean(), count }),
      }),
      errors: ['invalid_address', 'invalid_hex', 'limit_exceeded', 'conflicting_cursors', 'unknown_cursor'],
      usesNode: true,
      etag: false,
      examples: {
        body: { addresses: [EXAMPLE_ADDRESS, EXAMPLE_OTHER_ADDRESS], limit: 20 },
        response: {
          transactions: [
            { ...exampleAddressTransaction, feePaid: '2036', direction: 'outgoing', counterparties: [EXAMPLE_OTHER_ADDRESS] },
          ],
          metadata: { hasMore: false, count: 1 },
        },
      },
    },
  },
  {
    definition: walletExportEndpoint,
    docs: {
      operationId: 'exportWalletTransactions',
      summary: 'Export an HD wallet’s history as tax-grade CSV',
      description: `${exportNote} Cursor: \`startingAfter\`, opening balance: \`openingBalance\`. ${sourceNote}`,
      tag: WALLETS_TAG,
      response: z.string().meta({ description: 'text/csv' }),
      text: { contentType: 'text/csv', headers: ['content-disposition', 'x-next-cursor', 'x-closing-balance'] },
      errors: ['invalid_address', 'invalid_hex', 'limit_exceeded', 'unknown_cursor'],
      usesNode: true,
      etag: false,
      examples: {
        body: { extendedPublicKey: EXAMPLE_EXTENDED_PUBLIC_KEY, from: '2024-01-01', to: '2025-01-01', layout: 'generic' },
        response: exampleCsv,
      },
    },
  },
  {
    definition: addressExportEndpoint,
    docs: {
      operationId: 'exportAddressTransactions',
      summary: 'Export an address’s history as tax-grade CSV',
      description: `${exportNote} Cursor: \`starting_after\`, opening balance: \`opening_balance\`.`,
      tag: WALLETS_TAG,
      response: z.string().meta({ description: 'text/csv' }),
      text: { contentType: 'text/csv', headers: ['content-disposition', 'x-next-cursor', 'x-closing-balance'] },
      errors: ['invalid_address', 'invalid_hex', 'unknown_cursor'],
      usesNode: true,
      etag: false,
      parameterDescriptions: { address: 'a Kaspa address of this network' },
      examples: {
        params: { address: EXAMPLE_ADDRESS },
        query: { from: '2024-01-01', layout: 'koinly' },
        response: exampleCsv,
      },
    },
  },
  {
    definition: walletUtxosEndpoint,
    docs: {
      operationId: 'getWalletUtxos',
      summary: 'Get an HD wallet’s UTXOs',
      description: `The unspent outputs of every address of the wallet, in the node format. ${sourceNote}`,
      tag: WALLETS_TAG,
      response: z.strictObject({ entries: z.array(nodeUtxoEntryResponse) }),
      errors: ['invalid_address', 'limit_exceeded'],
      usesNode: true,
      etag: false,
      examples: { body: { extendedPublicKey: EXAMPLE_EXTENDED_PUBLIC_KEY }, response: { entries: [exampleUtxoEntry] } },
    },
  },
  {
    definition: demoWalletEndpoint,
    docs: {
      operationId: 'getDemoWallet',
      summary: 'The devnet’s demo HD wallet',
      description:
        'With the embedded devnet: the extended public key of the devnet’s HD wallet, which the traffic pays to ' +
        'fresh receive addresses and sweeps to change addresses, to try the wallet calls with. Elsewhere a 404.',
      tag: WALLETS_TAG,
      response: z.strictObject({ extendedPublicKey: z.string(), network: z.string() }),
      errors: ['demo_wallet_not_found'],
      usesNode: true,
      etag: false,
      examples: { response: { extendedPublicKey: EXAMPLE_EXTENDED_PUBLIC_KEY, network: 'kaspadev' } },
    },
  },
];
