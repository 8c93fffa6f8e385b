/**
 * The one list of /v1 endpoints: each definition the route files bind, with what the OpenAPI document says about it
 * (prose, success-body schema, examples, its own problem codes). Every app/v1 route file serves a definition of this
 * list (openapi.test.ts walks app/v1 to check it); the token endpoints' entries live in openapi-token-endpoints.ts.
 */
import { z } from 'zod';
import {
  getAddressSummaryEndpoint,
  getAddressTransactionsEndpoint,
  getBlocksByDaaScoreEndpoint,
  getTransactionEndpoint,
  getTransactionsEndpoint,
} from '../endpoints/indexed-endpoints';
import {
  getBlockDagInfoEndpoint,
  getBlockEndpoint,
  getBlocksEndpoint,
  getBlockTemplateEndpoint,
  getFeeEstimateEndpoint,
  getMempoolEntriesByAddressesEndpoint,
  getMempoolEntriesEndpoint,
  getMempoolEntryEndpoint,
  getUtxosByAddressesEndpoint,
  submitBlockEndpoint,
  submitTransactionEndpoint,
  submitTransactionReplacementEndpoint,
  usageEndpoint,
} from '../endpoints/node-endpoints';
import { getSupplyEndpoint } from '../endpoints/supply-endpoint';
import { getStatisticsEndpoint, STATISTICS_INTERVALS } from '../endpoints/statistics-endpoint';
import { COVENANT_ENDPOINT_DOCS, COVENANTS_TAG } from './openapi-covenant-endpoints';
import { TOKEN_ACTIVITY_ENDPOINT_DOCS } from './openapi-token-activity-endpoints';
import { TOKEN_ENDPOINT_DOCS, TOKENS_TAG } from './openapi-token-endpoints';
import { WALLET_ENDPOINT_DOCS, WALLETS_TAG } from './openapi-wallet-endpoints';
import { WEBHOOK_ENDPOINT_DOCS, WEBHOOKS_TAG } from './openapi-webhook-endpoints';
import { buildOpenApiDocument, openApiEndpoint, type DocumentedEndpoint, type NamedSchemas } from './openapi';
import {
  EXAMPLE_ADDRESS,
  EXAMPLE_BLOCK_HASH,
  EXAMPLE_OTHER_ADDRESS,
  EXAMPLE_TRANSACTION_ID,
  exampleAddressTransaction,
  exampleDagInfo,
  exampleFeeEstimate,
  exampleIndexedBlock,
  exampleIndexedTransaction,
  exampleMempoolEntry,
  exampleNodeBlock,
  exampleSubmissionTransaction,
  exampleTemplateBlock,
  exampleUsage,
  exampleUtxoEntry,
} from './openapi-examples';
import {
  addressTransactionResponse,
  covenantSummaryResponse,
  indexedBlockResponse,
  indexedTransactionResponse,
  MAX_ADDRESSES_PER_CALL,
  MAX_DAA_SCORE_RANGE,
  MAX_TRANSACTION_IDS_PER_CALL,
  nodeBlockResponse,
  nodeDagInfoResponse,
  nodeFeeEstimateResponse,
  nodeMempoolEntryResponse,
  nodeTransactionResponse,
  nodeUtxoEntryResponse,
  PAGE_LIMIT,
  submissionTransactionResponse,
  usageResponse,
} from '../http/schemas';

export const NAMED_SCHEMAS: NamedSchemas = {
  NodeTransaction: nodeTransactionResponse,
  SubmissionTransaction: submissionTransactionResponse,
  NodeBlock: nodeBlockResponse,
  MempoolEntry: nodeMempoolEntryResponse,
  UtxoEntry: nodeUtxoEntryResponse,
  FeeEstimate: nodeFeeEstimateResponse,
  DagInfo: nodeDagInfoResponse,
  IndexedTransaction: indexedTransactionResponse,
  AddressTransaction: addressTransactionResponse,
  IndexedBlock: indexedBlockResponse,
  Covenant: covenantSummaryResponse,
  Usage: usageResponse,
};

const INDEXED = 'Indexed data';
const NODE = 'Node RPC';
const ACCOUNT = 'Account';
const META = 'Meta';

export const OPENAPI_TAGS = [
  { name: INDEXED, description: 'Transactions, address histories and blocks served from this service’s index.' },
  { name: NODE, description: 'Calls answered by the Kaspa node, in the node format of SERVICE-SPEC §2.2–§2.11.' },
  { name: WALLETS_TAG, description: 'HD wallets (an extended public key or a list of addresses): summary, merged history, UTXOs.' },
  { name: COVENANTS_TAG, description: 'KIP-20 covenants: the list, each one’s current UTXOs, and its lineage.' },
  { name: TOKENS_TAG, description: 'KRC-20 (tk20) tokens: metadata, charts, the token list, holders, operations and fills.' },
  { name: WEBHOOKS_TAG, description: 'Signed HTTP deliveries of the stream’s events to the key’s own receivers.' },
  { name: ACCOUNT, description: 'The calling key’s limits and usage.' },
  { name: META, description: 'This document.' },
];

const payloadNote = 'Payloads are sent only when asked for; otherwise `payload` is `0x`.';

const INDEXED_ENDPOINTS: DocumentedEndpoint[] = [
  {
    definition: getTransactionEndpoint,
    docs: {
      operationId: 'getTransaction',
      summary: 'Get a transaction by id',
      description: `One transaction in the indexed view, with its acceptance and confirmations. ${payloadNote}`,
      tag: INDEXED,
      response: z.strictObject({ transaction: indexedTransactionResponse }),
      errors: ['invalid_hex', 'transaction_not_found'],
      parameterDescriptions: { include_payload: 'send the transaction payload (default false)' },
      usesNode: true,
      etag: true,
      examples: {
        params: { id: EXAMPLE_TRANSACTION_ID },
        query: { include_payload: 'false' },
        response: { transaction: exampleIndexedTransaction },
      },
    },
  },
  {
    definition: getTransactionsEndpoint,
    docs: {
      operationId: 'getTransactions',
      summary: 'Get several transactions by id',
      description:
        `Up to ${MAX_TRANSACTION_IDS_PER_CALL} transactions in the indexed view, in the order asked, each once; ` +
        `unknown ids are left out. ${payloadNote}`,
      tag: INDEXED,
      response: z.strictObject({ transactions: z.array(indexedTransactionResponse) }),
      errors: ['invalid_hex', 'limit_exceeded'],
      usesNode: true,
      etag: true,
      examples: {
        body: { transactionIds: [EXAMPLE_TRANSACTION_ID], includePayload: false },
        response: { transactions: [exampleIndexedTransaction] },
      },
    },
  },
  {
    definition: getAddressTransactionsEndpoint,
    docs: {
      operationId: 'getAddressTransactions',
      summary: 'Get an address’s transaction history',
      description:
        'Newest first by (block time, transaction id). `starting_after` pages to older items, `ending_before` to the ' +
        'newer ones just before the cursor (still newest first); `hasMore` looks in the direction of travel. Amounts ' +
        'are sompi as decimal strings; `balanceChange` is signed. ' +
        `\`limit\` is ${PAGE_LIMIT.min}..${PAGE_LIMIT.max} ` +
        `(default ${PAGE_LIMIT.default}). ${payloadNote}`,
      tag: INDEXED,
      response: z.strictObject({
        transactions: z.array(addressTransactionResponse),
        metadata: z.strictObject({ hasMore: z.boolean(), count: z.number().int().min(0) }),
      }),
      errors: ['invalid_address', 'invalid_hex', 'limit_out_of_range', 'conflicting_cursors', 'unknown_cursor'],
      parameterDescriptions: {
        address: 'a Kaspa address of the served network (`kaspa:` on mainnet); `:` may be written `%3A`',
        starting_after: 'cursor to older items: the `transactionId` of the last item of the previous page',
        ending_before: 'cursor to newer items: the `transactionId` of the first item of the current page',
        include_payload: 'send transaction payloads (default false)',
        accepted_only: 'only transactions accepted by the chain (default false)',
      },
      usesNode: true,
      etag: true,
      examples: {
        params: { address: EXAMPLE_ADDRESS },
        query: { limit: '20', accepted_only: 'true' },
        response: { transactions: [exampleAddressTransaction], metadata: { hasMore: true, count: 1 } },
      },
    },
  },
  {
    definition: getAddressSummaryEndpoint,
    docs: {
      operationId: 'getAddressSummary',
      summary: 'Get an address’s totals',
      description:
        'The address’s indexed history in figures: transactions (and how many are accepted), the total received by ' +
        'its outputs and sent by its inputs over accepted transactions (change to itself counts both ways), and its ' +
        'first and last activity (block times, epoch ms; null without history). Its balance is the node’s: ' +
        '`POST /v1/rpc/getUtxosByAddresses`. Where history retention is on, the figures cover the retained history. ' +
        'An extension.',
      tag: INDEXED,
      response: z.strictObject({
        address: z.string(),
        transactionCount: z.number().int().min(0),
        acceptedTransactionCount: z.number().int().min(0),
        totalReceived: z.string().regex(/^\d+$/).meta({ description: 'sompi, as a decimal string' }),
        totalSent: z.string().regex(/^\d+$/).meta({ description: 'sompi, as a decimal string' }),
        firstActivity: z.number().int().nullable(),
        lastActivity: z.number().int().nullable(),
      }),
      errors: ['invalid_address'],
      parameterDescriptions: {
        address: 'a Kaspa address of the served network (`kaspa:` on mainnet); `:` may be written `%3A`',
      },
      usesNode: true,
      etag: true,
      examples: {
        params: { address: EXAMPLE_ADDRESS },
        response: {
          address: EXAMPLE_ADDRESS,
          transactionCount: 1532,
          acceptedTransactionCount: 1530,
          totalReceived: '1284500000000',
          totalSent: '1270125000000',
          firstActivity: 1750000000000,
          lastActivity: 1764000000000,
        },
      },
    },
  },
  {
    definition: getBlocksByDaaScoreEndpoint,
    docs: {
      operationId: 'getBlocksByDaaScore',
      summary: 'Get the blocks of a DAA-score range',
      description:
        `The blocks whose DAA score lies in [daa_score_start, daa_score_end] (at most ${MAX_DAA_SCORE_RANGE} wide), ` +
        `in the indexed view, and optionally their transactions. ${payloadNote}`,
      tag: INDEXED,
      response: z.strictObject({
        blocks: z.array(indexedBlockResponse),
        transactions: z.array(indexedTransactionResponse),
      }),
      errors: ['limit_exceeded'],
      parameterDescriptions: {
        chain_blocks_only: 'only blocks of the selected chain (default false)',
        include_transactions: 'also answer the transactions of the blocks (default false)',
        include_payload: 'send transaction payloads (default false)',
      },
      usesNode: true,
      etag: true,
      examples: {
        params: { daa_score_start: '308441900', daa_score_end: '308441999' },
        query: { chain_blocks_only: 'true', include_transactions: 'true' },
        response: { blocks: [exampleIndexedBlock], transactions: [exampleIndexedTransaction] },
      },
    },
  },
  {
    definition: getStatisticsEndpoint,
    docs: {
      operationId: 'getStatistics',
      summary: 'Get the chain’s statistics over time',
      description:
        'Blocks, chain blocks, the transactions the chain accepted (coinbases apart) with their mass and fees, and ' +
        'the active addresses (paid or spending in an accepted transaction), per interval, newest first. `minute` ' +
        'rows are windows of 600 DAA scores (a minute at 10 blocks a second) with the timestamps of their first and ' +
        'last block; `hour` and `day` rows are UTC hours and days summing the windows that start in them. Active ' +
        'addresses are estimated from mergeable sketches (HyperLogLog, about 3% error), so a day counts an address ' +
        'once. A minute is listed once the index is a whole window past it; an hour or a day is `complete` once a later minute is. The figures ' +
        'are kept beyond the history retention. An extension. ' +
        `\`limit\` is ${PAGE_LIMIT.min}..${PAGE_LIMIT.max} rows (default ${PAGE_LIMIT.default}).`,
      tag: INDEXED,
      response: z.strictObject({
        interval: z.enum(STATISTICS_INTERVALS),
        statistics: z.array(
          z.strictObject({
            start: z.number().int().meta({ description: 'ms since the Unix epoch' }),
            end: z.number().int().meta({ description: 'ms since the Unix epoch' }),
            blocks: z.number().int().min(0),
            chainBlocks: z.number().int().min(0),
            transactions: z.number().int().min(0),
            mass: z.string().regex(/^\d+$/).meta({ description: 'grams, as a decimal string' }),
            fees: z.string().regex(/^\d+$/).meta({ description: 'sompi, as a decimal string' }),
            activeAddresses: z.number().int().min(0),
            complete: z.boolean(),
            daaScoreStart: z.number().int().min(0).nullable().meta({ description: 'a minute’s first DAA score; null for hours and days' }),
            daaScoreEnd: z.number().int().min(0).nullable().meta({ description: 'a minute’s last DAA score; null for hours and days' }),
          }),
        ),
        metadata: z.strictObject({ count: z.number().int().min(0) }),
      }),
      errors: ['limit_out_of_range'],
      parameterDescriptions: { interval: 'minute (600 DAA scores), hour or day (UTC); minute when absent' },
      usesNode: false,
      etag: true,
      examples: {
        query: { interval: 'hour', limit: '24' },
        response: {
          interval: 'hour',
          statistics: [
            {
              start: 1_782_000_000_000,
              end: 1_782_003_600_000,
              blocks: 36_012,
              chainBlocks: 18_290,
              transactions: 412_880,
              mass: '840675680',
              fees: '41288000000',
              activeAddresses: 20_117,
              complete: true,
              daaScoreStart: null,
              daaScoreEnd: null,
            },
          ],
          metadata: { count: 1 },
        },
      },
    },
  },
];

const sompiText = z.string().regex(/^\d{1,20}$/).meta({ description: 'sompi, as a decimal string' });
const supplyResponse = z.strictObject({
  network: z.string(),
  virtualDaaScore: z.string().regex(/^\d{1,20}$/),
  circulatingSompi: sompiText,
  maxSompi: sompiText,
  blockRewardSompi: sompiText.nullable().meta({ description: 'the subsidy of a block at the virtual DAA score' }),
  nextReduction: z
    .strictObject({ daaScore: z.string().regex(/^\d{1,20}$/), blockRewardSompi: sompiText, estimatedSeconds: z.number().int().min(0) })
    .nullable()
    .meta({ description: 'null once the subsidy no longer changes, or for an unknown schedule' }),
});

const NODE_ENDPOINTS: DocumentedEndpoint[] = [
  {
    definition: getBlockEndpoint,
    docs: {
      operationId: 'getBlock',
      summary: 'Get a block',
      description: 'A block by hash, in the node format; transactions only when `includeTransactions` is true.',
      tag: NODE,
      response: z.strictObject({ block: nodeBlockResponse }),
      errors: ['invalid_hex', 'block_not_found'],
      usesNode: true,
      etag: true,
      examples: {
        body: { hash: EXAMPLE_BLOCK_HASH, includeTransactions: true },
        response: { block: exampleNodeBlock },
      },
    },
  },
  {
    definition: getBlocksEndpoint,
    docs: {
      operationId: 'getBlocks',
      summary: 'Get blocks from a low hash',
      description: 'The hashes (and optionally the blocks) from `lowHash` (the pruning point when absent) to the tips.',
      tag: NODE,
      response: z.strictObject({ blockHashes: z.array(z.string()), blocks: z.array(nodeBlockResponse) }),
      errors: ['invalid_hex', 'block_not_found'],
      usesNode: true,
      etag: true,
      examples: {
        body: { lowHash: EXAMPLE_BLOCK_HASH, includeBlocks: true, includeTransactions: false },
        response: { blockHashes: [EXAMPLE_BLOCK_HASH], blocks: [{ ...exampleNodeBlock, transactions: [] }] },
      },
    },
  },
  {
    definition: getBlockDagInfoEndpoint,
    docs: {
      operationId: 'getBlockDagInfo',
      summary: 'Get the DAG’s state',
      description: 'Network, counts, tips, difficulty, virtual DAA score and sink, at the top level of the body.',
      tag: NODE,
      response: nodeDagInfoResponse,
      usesNode: true,
      etag: false,
      examples: { response: exampleDagInfo },
    },
  },
  {
    definition: getSupplyEndpoint,
    docs: {
      operationId: 'getSupply',
      summary: 'Get the supply and the block reward',
      description:
        'kaspad’s coin supply (getCoinSupply) with the block reward of the network’s subsidy schedule at the virtual ' +
        'DAA score and the next monthly reduction: its DAA score, the reward from then, and the seconds until then at ' +
        'the network’s block rate. Mainnet and testnet follow rusty-kaspa’s parameters; a devnet follows the embedded ' +
        'devnet’s (10 blocks a second from DAA score 0). The reward fields are null for a network the schedule does ' +
        'not know. An extension.',
      tag: NODE,
      response: supplyResponse,
      usesNode: true,
      etag: false,
      examples: {
        response: {
          network: 'kaspa-mainnet',
          virtualDaaScore: '308441938',
          circulatingSompi: '2689063265443958447',
          maxSompi: '2900000000000000000',
          blockRewardSompi: '367080960',
          nextReduction: { daaScore: '320823000', blockRewardSompi: '346478289', estimatedSeconds: 1238106 },
        },
      },
    },
  },
  {
    definition: getMempoolEntryEndpoint,
    docs: {
      operationId: 'getMempoolEntry',
      summary: 'Get a mempool entry',
      description: 'The mempool entry of one transaction; the two flags default to false.',
      tag: NODE,
      response: z.strictObject({ mempoolEntry: nodeMempoolEntryResponse }),
      errors: ['invalid_hex', 'mempool_entry_not_found'],
      usesNode: true,
      etag: false,
      examples: {
        body: { transactionId: EXAMPLE_TRANSACTION_ID, includeOrphanPool: false, filterTransactionPool: false },
        response: { mempoolEntry: exampleMempoolEntry },
      },
    },
  },
  {
    definition: getMempoolEntriesEndpoint,
    docs: {
      operationId: 'getMempoolEntries',
      summary: 'Get all mempool entries',
      description: 'Every mempool entry, optionally with the orphan pool.',
      tag: NODE,
      response: z.strictObject({ mempoolEntries: z.array(nodeMempoolEntryResponse) }),
      usesNode: true,
      etag: false,
      parameterDescriptions: {
        includeOrphanPool: 'also list orphan transactions (default false)',
        filterTransactionPool: 'leave out the regular transaction pool (default false)',
      },
      examples: { query: { includeOrphanPool: 'false' }, response: { mempoolEntries: [exampleMempoolEntry] } },
    },
  },
  {
    definition: getMempoolEntriesByAddressesEndpoint,
    docs: {
      operationId: 'getMempoolEntriesByAddresses',
      summary: 'Get the mempool entries of addresses',
      description:
        `The mempool entries that spend from or pay to up to ${MAX_ADDRESSES_PER_CALL} addresses, as one flat list ` +
        '(sending first, each transaction once).',
      tag: NODE,
      response: z.strictObject({ entries: z.array(nodeMempoolEntryResponse) }),
      errors: ['invalid_address', 'limit_exceeded'],
      usesNode: true,
      etag: false,
      examples: {
        body: {
          addresses: [EXAMPLE_ADDRESS, EXAMPLE_OTHER_ADDRESS],
          includeOrphanPool: false,
          filterTransactionPool: false,
        },
        response: { entries: [exampleMempoolEntry] },
      },
    },
  },
  {
    definition: getUtxosByAddressesEndpoint,
    docs: {
      operationId: 'getUtxosByAddresses',
      summary: 'Get the UTXOs of addresses',
      description: `The unspent outputs of up to ${MAX_ADDRESSES_PER_CALL} addresses.`,
      tag: NODE,
      response: z.strictObject({ entries: z.array(nodeUtxoEntryResponse) }),
      errors: ['invalid_address', 'limit_exceeded'],
      usesNode: true,
      etag: false,
      examples: { body: { addresses: [EXAMPLE_ADDRESS] }, response: { entries: [exampleUtxoEntry] } },
    },
  },
  {
    definition: getFeeEstimateEndpoint,
    docs: {
      operationId: 'getFeeEstimate',
      summary: 'Get a fee estimate',
      description: 'Feerates (sompi per gram) with their expected seconds to inclusion.',
      tag: NODE,
      response: z.strictObject({ estimate: nodeFeeEstimateResponse }),
      usesNode: true,
      etag: false,
      examples: { response: { estimate: exampleFeeEstimate } },
    },
  },
  {
    definition: getBlockTemplateEndpoint,
    docs: {
      operationId: 'getBlockTemplate',
      summary: 'Get a block template',
      description:
        'A template paying the coinbase to `payAddress`; `extraData` (UTF-8 text) follows the node’s version tag in ' +
        'the coinbase payload. Solve the nonce and send it to submitBlock.',
      tag: NODE,
      response: z.strictObject({ block: nodeBlockResponse }),
      errors: ['invalid_address', 'node_not_synced'],
      usesNode: true,
      etag: false,
      examples: {
        body: { payAddress: EXAMPLE_ADDRESS, extraData: 'my-pool' },
        response: { block: exampleTemplateBlock },
      },
    },
  },
  {
    definition: submitBlockEndpoint,
    docs: {
      operationId: 'submitBlock',
      summary: 'Submit a block',
      description:
        'A solved block with its transactions in submission form. A block the node rejects is a 200 whose report ' +
        'says so; a block it cannot read is a 400. Bodies up to 4 MiB.',
      tag: NODE,
      response: z.strictObject({ report: z.strictObject({ type: z.string(), reason: z.string() }) }),
      errors: ['invalid_hex', 'block_rejected'],
      usesNode: true,
      etag: false,
      examples: {
        body: {
          block: {
            header: exampleTemplateBlock.header,
            transactions: [exampleSubmissionTransaction],
          },
          allowNonDAABlocks: false,
        },
        response: { report: { type: 'success', reason: 'none' } },
      },
    },
  },
  {
    definition: submitTransactionEndpoint,
    docs: {
      operationId: 'submitTransaction',
      summary: 'Submit a transaction',
      description:
        'A signed transaction in submission form; the answer is its id. A transaction the node refuses is a 400 ' +
        '`transaction_rejected` carrying the node’s reason.',
      tag: NODE,
      response: z.strictObject({ transactionId: z.string() }),
      errors: ['invalid_hex', 'transaction_rejected'],
      usesNode: true,
      etag: false,
      examples: {
        body: { transaction: exampleSubmissionTransaction, allowOrphan: false },
        response: { transactionId: EXAMPLE_TRANSACTION_ID },
      },
    },
  },
  {
    definition: submitTransactionReplacementEndpoint,
    docs: {
      operationId: 'submitTransactionReplacement',
      summary: 'Replace a mempool transaction',
      description:
        'Submits a transaction that replaces a mempool transaction spending the same outputs (replace by fee); the ' +
        'answer names the new id and the replaced transaction in submission form.',
      tag: NODE,
      response: z.strictObject({ transactionId: z.string(), replacedTransaction: submissionTransactionResponse }),
      errors: ['invalid_hex', 'transaction_rejected'],
      usesNode: true,
      etag: false,
      examples: {
        body: { transaction: exampleSubmissionTransaction },
        response: {
          transactionId: EXAMPLE_TRANSACTION_ID,
          replacedTransaction: {
            ...exampleSubmissionTransaction,
            outputs: exampleSubmissionTransaction.outputs.slice(1),
          },
        },
      },
    },
  },
];

const ACCOUNT_ENDPOINTS: DocumentedEndpoint[] = [
  {
    definition: usageEndpoint,
    docs: {
      operationId: 'getUsage',
      summary: 'Get the key’s limits and usage',
      description: 'The calling key’s per-second and monthly RU limits and what it has used of them.',
      tag: ACCOUNT,
      response: usageResponse,
      usesNode: false,
      etag: false,
      examples: { response: exampleUsage },
    },
  },
];

export const openApiDocumentEndpoint = openApiEndpoint(() =>
  buildOpenApiDocument({
    endpoints: API_ENDPOINTS,
    namedSchemas: NAMED_SCHEMAS,
    title: 'dagboard API',
    version: '1',
    description:
      'Kaspa chain data and node access. Every keyed call sends its key in the `x-api-key` header and is charged ' +
      'the RU cost of its operation (`x-cost-ru`); errors are `application/problem+json` in one shape.',
    tags: OPENAPI_TAGS,
  }),
);

const OPENAPI_ENDPOINT: DocumentedEndpoint = {
  definition: openApiDocumentEndpoint,
  docs: {
    operationId: 'getOpenApiDocument',
    summary: 'This OpenAPI document',
    description: 'The OpenAPI 3.1 description of every /v1 endpoint, generated from the schemas the endpoints use.',
    tag: META,
    response: z.looseObject({ openapi: z.literal('3.1.0'), info: z.looseObject({}), paths: z.looseObject({}) }),
    usesNode: false,
    etag: true,
    examples: { response: { openapi: '3.1.0', info: { title: 'dagboard API', version: '1' }, paths: {} } },
  },
};

export const API_ENDPOINTS: readonly DocumentedEndpoint[] = [
  ...INDEXED_ENDPOINTS,
  ...COVENANT_ENDPOINT_DOCS,
  ...NODE_ENDPOINTS,
  ...WALLET_ENDPOINT_DOCS,
  ...TOKEN_ENDPOINT_DOCS,
  ...TOKEN_ACTIVITY_ENDPOINT_DOCS,
  ...WEBHOOK_ENDPOINT_DOCS,
  ...ACCOUNT_ENDPOINTS,
  OPENAPI_ENDPOINT,
];
