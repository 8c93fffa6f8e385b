/** Every /v1 endpoint bound to the runtime, by route id: the table the explorer's private path dispatches through. */
import type { RouteHandler, RouteId } from '../api';
import {
  getAddressTransactionsEndpoint,
  getBlocksByDaaScoreEndpoint,
  getTransactionEndpoint,
  getTransactionsEndpoint,
} from '../api/indexed-endpoints';
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
} from '../api/node-endpoints';
import { defineEndpoint } from './api';

export const V1_HANDLERS: Partial<Record<RouteId, RouteHandler>> = Object.fromEntries(
  [
    getTransactionEndpoint,
    getTransactionsEndpoint,
    getAddressTransactionsEndpoint,
    getBlocksByDaaScoreEndpoint,
    getBlockEndpoint,
    getBlocksEndpoint,
    getBlockDagInfoEndpoint,
    getMempoolEntryEndpoint,
    getMempoolEntriesEndpoint,
    getMempoolEntriesByAddressesEndpoint,
    getUtxosByAddressesEndpoint,
    getFeeEstimateEndpoint,
    getBlockTemplateEndpoint,
    submitBlockEndpoint,
    submitTransactionEndpoint,
    submitTransactionReplacementEndpoint,
    usageEndpoint,
  ].map((definition) => [definition.id, defineEndpoint(definition as Parameters<typeof defineEndpoint>[0])]),
);
