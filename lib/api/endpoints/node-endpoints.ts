/**
 * The node-style /v1 endpoints (SERVICE-SPEC §4.4–§4.7, §4.9, §4.13–§4.19) and GET /v1/usage: request schemas, the
 * kaspad call each makes, and the conversion of its answer to the node format (node-format.ts). The route files in
 * app/v1 bind these definitions to the runtime's context with `defineEndpoint`.
 *
 * Required body fields where the specification is silent: getBlock needs `hash` (`includeTransactions` defaults to
 * false); getMempoolEntriesByAddresses needs a non-empty `addresses` (the two flags default to false);
 * submitTransaction needs `transaction` (`allowOrphan` defaults to false); getMempoolEntry's flags default to false.
 */
import { z } from 'zod';
import { submitThrough, type AnnouncedSubmit } from '../../db';
import type { AddressPrefix } from '../../kaspa/address';
import { RpcRejectedError } from '../../rpc/errors';
import type { RpcClient } from '../../rpc';
import { endpointsFor, SUBMIT_BLOCK_BODY_LIMIT, type ApiContext } from '../wrapper/endpoint';
import { ApiError, fromZodError } from '../http/errors';
import {
  blockToNode,
  dagInfoToNode,
  feeEstimateToNode,
  mempoolEntryToNode,
  submissionBlockSchema,
  submissionBlockToRpc,
  submissionToRpc,
  submissionTransactionSchema,
  SUBMISSION_BIGINT_KEYS,
  submitBlockReportToNode,
  transactionToSubmission,
  utxoEntryToNode,
  type NodeMempoolEntry,
} from './node-format';
import { addressString, boundedList, hexString, MAX_ADDRESSES_PER_CALL, queryBoolean } from '../http/schemas';
import { usageReport } from '../keys/usage';

export interface NodeApiContext extends ApiContext {
  rpc: Pick<RpcClient, 'call'>;
  /** The address prefix of the network the node serves (addresses of other networks are refused). */
  addressPrefix(): Promise<AddressPrefix>;
  /** Announces an accepted submission on the stream (`address` events with status `mempool`); absent: not announced. */
  announceSubmission?: AnnouncedSubmit;
}

/** Longest `extraData` text of getBlockTemplate, in UTF-8 bytes (the coinbase payload has room for about 200). */
export const MAX_EXTRA_DATA_BYTES = 128;

const hash = hexString(32, 'a 32-byte hash');
const flag = z.boolean().optional().default(false);
const addressList = boundedList(z.string(), MAX_ADDRESSES_PER_CALL, 'addresses').min(1, 'at least one address');

const nodeEndpoint = endpointsFor<NodeApiContext>();

/** Addresses are checked against the node's network, which is known only once the node has answered. */
async function checkAddresses(context: NodeApiContext, addresses: string | readonly string[], path: string) {
  const address = addressString(await context.addressPrefix());
  const result = (typeof addresses === 'string' ? address : z.array(address)).safeParse(addresses);
  if (!result.success) throw fromZodError(path, result.error);
}

function isNotFound(error: unknown): boolean {
  return error instanceof RpcRejectedError && /not found|cannot find/i.test(error.message);
}

async function orNotFound<T>(call: Promise<T>, notFound: () => ApiError): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw isNotFound(error) ? notFound() : error;
  }
}

const NEAR_TIP: { kind: 'short'; maxAgeSeconds: number } = { kind: 'short', maxAgeSeconds: 1 };

export const getBlockEndpoint = nodeEndpoint({
  id: 'POST /v1/rpc/getBlock',
  body: z.object({ hash, includeTransactions: flag }),
  async handler({ context, body }) {
    const { block } = await orNotFound(
      context.rpc.call('getBlock', { hash: body.hash, includeTransactions: body.includeTransactions }),
      () => ApiError.blockNotFound(body.hash),
    );
    return { body: { block: blockToNode(block) }, cache: NEAR_TIP };
  },
});

export const getBlocksEndpoint = nodeEndpoint({
  id: 'POST /v1/rpc/getBlocks',
  body: z
    .object({ lowHash: hash.optional(), includeBlocks: z.boolean(), includeTransactions: z.boolean() })
    .refine((body) => body.includeBlocks || !body.includeTransactions, {
      message: 'includeTransactions needs includeBlocks',
      path: ['includeTransactions'],
    }),
  async handler({ context, body }) {
    const response = await orNotFound(
      context.rpc.call('getBlocks', {
        lowHash: body.lowHash ?? null,
        includeBlocks: body.includeBlocks,
        includeTransactions: body.includeTransactions,
      }),
      () => ApiError.blockNotFound(body.lowHash ?? ''),
    );
    return { body: { blockHashes: response.blockHashes, blocks: response.blocks.map(blockToNode) }, cache: NEAR_TIP };
  },
});

export const getBlockDagInfoEndpoint = nodeEndpoint({
  id: 'GET /v1/rpc/getBlockDagInfo',
  async handler({ context }) {
    return { body: dagInfoToNode(await context.rpc.call('getBlockDagInfo', {})) };
  },
});

export const getMempoolEntryEndpoint = nodeEndpoint({
  id: 'POST /v1/rpc/getMempoolEntry',
  body: z.object({ transactionId: hexString(32, 'a transaction id'), includeOrphanPool: flag, filterTransactionPool: flag }),
  async handler({ context, body }) {
    const { mempoolEntry } = await orNotFound(context.rpc.call('getMempoolEntry', body), () =>
      ApiError.mempoolEntryNotFound(body.transactionId),
    );
    return { body: { mempoolEntry: mempoolEntryToNode(mempoolEntry) } };
  },
});

export const getMempoolEntriesEndpoint = nodeEndpoint({
  id: 'GET /v1/rpc/getMempoolEntries',
  query: z.object({ includeOrphanPool: queryBoolean.optional(), filterTransactionPool: queryBoolean.optional() }),
  async handler({ context, query }) {
    const { mempoolEntries } = await context.rpc.call('getMempoolEntries', {
      includeOrphanPool: query.includeOrphanPool ?? false,
      filterTransactionPool: query.filterTransactionPool ?? false,
    });
    return { body: { mempoolEntries: mempoolEntries.map(mempoolEntryToNode) } };
  },
});

/**
 * §4.6 answers a flat `MempoolEntry[]`: kaspad's per-address sending and receiving lists are merged in request order
 * (sending first), each transaction once.
 */
export const getMempoolEntriesByAddressesEndpoint = nodeEndpoint({
  id: 'POST /v1/rpc/getMempoolEntriesByAddresses',
  body: z.object({ addresses: addressList, includeOrphanPool: flag, filterTransactionPool: flag }),
  async handler({ context, body }) {
    await checkAddresses(context, body.addresses, 'body.addresses');
    const { entries } = await context.rpc.call('getMempoolEntriesByAddresses', body);
    const seen = new Set<string>();
    const merged: NodeMempoolEntry[] = [];
    for (const entry of entries.flatMap((byAddress) => [...byAddress.sending, ...byAddress.receiving])) {
      const id = entry.transaction.verboseData?.transactionId;
      if (id !== undefined && seen.has(id)) continue;
      if (id !== undefined) seen.add(id);
      merged.push(mempoolEntryToNode(entry));
    }
    return { body: { entries: merged } };
  },
});

export const getUtxosByAddressesEndpoint = nodeEndpoint({
  id: 'POST /v1/rpc/getUtxosByAddresses',
  body: z.object({ addresses: addressList }),
  async handler({ context, body }) {
    await checkAddresses(context, body.addresses, 'body.addresses');
    const { entries } = await context.rpc.call('getUtxosByAddresses', { addresses: body.addresses });
    return { body: { entries: entries.map((entry) => utxoEntryToNode(entry)) } };
  },
});

export const getFeeEstimateEndpoint = nodeEndpoint({
  id: 'GET /v1/rpc/getFeeEstimate',
  async handler({ context }) {
    const { estimate } = await context.rpc.call('getFeeEstimate', {});
    return { body: { estimate: feeEstimateToNode(estimate) } };
  },
});

/** `extraData` is text; its UTF-8 bytes follow the node's own version tag in the coinbase payload. */
export const getBlockTemplateEndpoint = nodeEndpoint({
  id: 'POST /v1/rpc/getBlockTemplate',
  body: z.object({
    payAddress: z.string(),
    extraData: z
      .string()
      .refine((text) => new TextEncoder().encode(text).length <= MAX_EXTRA_DATA_BYTES, {
        message: `must be at most ${MAX_EXTRA_DATA_BYTES} bytes of UTF-8`,
      })
      .optional(),
  }),
  async handler({ context, body }) {
    await checkAddresses(context, body.payAddress, 'body.payAddress');
    try {
      const { block } = await context.rpc.call('getBlockTemplate', {
        payAddress: body.payAddress,
        extraData: [...new TextEncoder().encode(body.extraData ?? '')],
      });
      return { body: { block: blockToNode(block) } };
    } catch (error) {
      if (error instanceof RpcRejectedError && /not synced/i.test(error.message)) throw ApiError.nodeNotSynced();
      throw error;
    }
  },
});

/** A rejected block is a 200 whose report says so (§2.11); malformed blocks the node cannot read are 400. */
export const submitBlockEndpoint = nodeEndpoint({
  id: 'POST /v1/rpc/submitBlock',
  body: z.object({ block: submissionBlockSchema, allowNonDAABlocks: z.boolean() }),
  bodyLimit: SUBMIT_BLOCK_BODY_LIMIT,
  bigintKeys: SUBMISSION_BIGINT_KEYS,
  async handler({ context, body }) {
    const { report } = await context.rpc.call('submitBlock', {
      block: submissionBlockToRpc(body.block),
      allowNonDaaBlocks: body.allowNonDAABlocks,
    });
    return { body: { report: submitBlockReportToNode(report) } };
  },
});

export const submitTransactionEndpoint = nodeEndpoint({
  id: 'POST /v1/rpc/submitTransaction',
  body: z.object({ transaction: submissionTransactionSchema, allowOrphan: flag }),
  bigintKeys: SUBMISSION_BIGINT_KEYS,
  async handler({ context, body }) {
    const transaction = submissionToRpc(body.transaction);
    const submit = () => context.rpc.call('submitTransaction', { transaction, allowOrphan: body.allowOrphan });
    // An orphan is not in the mempool proper: the indexing process's poll announces it once its parents arrive.
    const { transactionId } = await (body.allowOrphan ? submit() : submitThrough(context.announceSubmission, transaction, submit));
    return { body: { transactionId } };
  },
});

export const submitTransactionReplacementEndpoint = nodeEndpoint({
  id: 'POST /v1/rpc/submitTransactionReplacement',
  body: z.object({ transaction: submissionTransactionSchema }),
  bigintKeys: SUBMISSION_BIGINT_KEYS,
  async handler({ context, body }) {
    const transaction = submissionToRpc(body.transaction);
    const response = await submitThrough(context.announceSubmission, transaction, () =>
      context.rpc.call('submitTransactionReplacement', { transaction }),
    );
    return {
      body: {
        transactionId: response.transactionId,
        replacedTransaction: transactionToSubmission(response.replacedTransaction),
      },
    };
  },
});

export const usageEndpoint = nodeEndpoint({
  id: 'GET /v1/usage',
  async handler({ context, key, now }) {
    if (key === undefined) throw ApiError.missingApiKey();
    return { body: usageReport(key, await context.meter.usage(key.id, key, now), now) };
  },
});
