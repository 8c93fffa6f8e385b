/**
 * The covenant endpoints' entries of the endpoint list (indexed-endpoints.ts holds their definitions): prose,
 * success-body schemas and examples. Covenants are a Toccata (KIP-20) extension of the specification.
 */
import { z } from 'zod';
import {
  getCovenantEndpoint,
  getCovenantsEndpoint,
  getCovenantTransactionsEndpoint,
} from '../endpoints/indexed-endpoints';
import type { DocumentedEndpoint } from './openapi';
import {
  EXAMPLE_COVENANT_ID,
  EXAMPLE_TRANSACTION_ID,
  exampleIndexedTransaction,
  exampleUtxoEntry,
} from './openapi-examples';
import {
  covenantSummaryResponse,
  covenantSummaryShape,
  indexedTransactionResponse,
  nodeUtxoEntryResponse,
  PAGE_LIMIT,
} from '../http/schemas';

export const COVENANTS_TAG = 'Covenants';

const pageMetadata = z.strictObject({ hasMore: z.boolean(), count: z.number().int().min(0) });
const limitNote = `\`limit\` is ${PAGE_LIMIT.min}..${PAGE_LIMIT.max} (default ${PAGE_LIMIT.default}).`;

const exampleCovenant = {
  covenantId: EXAMPLE_COVENANT_ID,
  genesisTransactionId: EXAMPLE_TRANSACTION_ID,
  createdAt: exampleIndexedTransaction.blockTime,
  lastTransactionId: EXAMPLE_TRANSACTION_ID,
  lastActivityAt: exampleIndexedTransaction.blockTime,
  state: 'active',
  utxoCount: 1,
} as const;

export const COVENANT_ENDPOINT_DOCS: DocumentedEndpoint[] = [
  {
    definition: getCovenantsEndpoint,
    docs: {
      operationId: 'getCovenants',
      summary: 'List covenants',
      description:
        'The KIP-20 covenants of the index, most recently active first by (last activity, covenant id). ' +
        '`starting_after` pages to less recently active ones, `ending_before` back to the more recent ones just ' +
        'before the cursor (still most recent first); cursors are covenant ids. A covenant becomes more recent when ' +
        `its lineage grows, so a walk during activity may meet it again. ${limitNote}`,
      tag: COVENANTS_TAG,
      response: z.strictObject({ covenants: z.array(covenantSummaryResponse), metadata: pageMetadata }),
      errors: ['invalid_hex', 'limit_out_of_range', 'conflicting_cursors', 'unknown_cursor'],
      parameterDescriptions: {
        starting_after: 'cursor to less recently active covenants: the `covenantId` of the last item of the page',
        ending_before: 'cursor to more recently active covenants: the `covenantId` of the first item of the page',
      },
      usesNode: false,
      etag: true,
      examples: {
        query: { limit: '20' },
        response: { covenants: [exampleCovenant], metadata: { hasMore: false, count: 1 } },
      },
    },
  },
  {
    definition: getCovenantEndpoint,
    docs: {
      operationId: 'getCovenant',
      summary: 'Get a covenant',
      description:
        'A covenant’s summary with its current UTXOs (outputs bound to it, created by accepted transactions and ' +
        'spent by none), as getUtxosByAddresses writes UTXO entries, each with its `covenantId`.',
      tag: COVENANTS_TAG,
      response: z.strictObject({
        covenant: z.strictObject({ ...covenantSummaryShape, currentUtxos: z.array(nodeUtxoEntryResponse) }),
      }),
      errors: ['invalid_hex', 'covenant_not_found'],
      usesNode: false,
      etag: true,
      examples: {
        params: { covenantId: EXAMPLE_COVENANT_ID },
        response: {
          covenant: { ...exampleCovenant, currentUtxos: [{ ...exampleUtxoEntry, covenantId: EXAMPLE_COVENANT_ID }] },
        },
      },
    },
  },
  {
    definition: getCovenantTransactionsEndpoint,
    docs: {
      operationId: 'getCovenantTransactions',
      summary: 'Get a covenant’s lineage',
      description:
        'The accepted transactions that create or spend outputs bound to the covenant (its genesis, continuations ' +
        'and end), in the indexed view, newest first by (block time, transaction id), paged exactly as an address ' +
        `history. ${limitNote} Payloads are sent only when asked for; otherwise \`payload\` is \`0x\`.`,
      tag: COVENANTS_TAG,
      response: z.strictObject({ transactions: z.array(indexedTransactionResponse), metadata: pageMetadata }),
      errors: ['invalid_hex', 'limit_out_of_range', 'conflicting_cursors', 'unknown_cursor', 'covenant_not_found'],
      parameterDescriptions: {
        starting_after: 'cursor to older items: the `transactionId` of the last item of the previous page',
        ending_before: 'cursor to newer items: the `transactionId` of the first item of the current page',
        include_payload: 'send transaction payloads (default false)',
      },
      usesNode: true,
      etag: true,
      examples: {
        params: { covenantId: EXAMPLE_COVENANT_ID },
        query: { limit: '20' },
        response: { transactions: [exampleIndexedTransaction], metadata: { hasMore: true, count: 1 } },
      },
    },
  },
];
