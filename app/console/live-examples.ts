/**
 * The API operations with their examples taken from the live chain (server-only): the OpenAPI document through the
 * explorer's in-process path, then a recent transaction, an address with history, a block hash, a DAA range, a mempool
 * transaction, a token ticker and a covenant id, swapped in for the document's placeholder values.
 */
import {
  EXAMPLE_ADDRESS,
  EXAMPLE_BLOCK_HASH,
  EXAMPLE_COVENANT_ID,
  EXAMPLE_OTHER_ADDRESS,
  EXAMPLE_TRANSACTION_ID,
} from '@/lib/api/openapi/openapi-examples';
import { pageV1 } from '@/lib/serving/page-support';
import { operationGroups, withLiveExamples, type OperationGroup } from '@/lib/web/api-operations';

type Json = Record<string, unknown>;
const asObject = (value: unknown): Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const asString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export interface LiveValues {
  transactionId?: string;
  address?: string;
  otherAddress?: string;
  blockHash?: string;
  daaScoreStart?: string;
  daaScoreEnd?: string;
  mempoolTransactionId?: string;
  ticker?: string;
  covenantId?: string;
}

async function chainValues(values: LiveValues): Promise<void> {
  const dag = await pageV1('GET /v1/rpc/getBlockDagInfo');
  if (dag.status === 200) {
    const info = asObject(dag.body);
    values.blockHash = asString(info.sink);
    const score = BigInt(String(info.virtualDaaScore ?? '0'));
    // A few blocks back, so the indexer has them.
    if (score > 40n) {
      values.daaScoreStart = String(score - 40n);
      values.daaScoreEnd = String(score - 20n);
    }
  }
  if (values.blockHash !== undefined) {
    const block = await pageV1('POST /v1/rpc/getBlock', { body: { hash: values.blockHash, includeTransactions: true } });
    const transactions = asArray(asObject(asObject(block.body).block).transactions).map(asObject);
    const coinbaseOutput = asObject(asArray(transactions[0]?.outputs)[0]);
    values.address = asString(asObject(coinbaseOutput.verboseData).scriptPublicKeyAddress);
  }
  if (values.address !== undefined) {
    const history = await pageV1('GET /v1/addresses/{address}/transactions', {
      params: { address: values.address },
      query: { limit: '5' },
    });
    for (const item of asArray(asObject(history.body).transactions).map(asObject)) {
      values.transactionId ??= asString(item.transactionId);
      for (const output of asArray(item.outputs).map(asObject)) {
        const address = asString(output.scriptPublicKeyAddress);
        if (address !== undefined && address !== values.address) values.otherAddress ??= address;
      }
    }
  }
}

async function mempoolValue(values: LiveValues): Promise<void> {
  const mempool = await pageV1('GET /v1/rpc/getMempoolEntries', { query: { includeOrphanPool: 'false' } });
  const entry = asObject(asArray(asObject(mempool.body).mempoolEntries)[0]);
  values.mempoolTransactionId = asString(asObject(asObject(entry.transaction).verboseData).transactionId);
}

async function tokenValue(values: LiveValues): Promise<void> {
  const tokens = await pageV1('GET /v1/tokens/tk20', { params: { standard: 'tk20' }, query: { limit: '1' } });
  values.ticker = asString(asObject(asArray(asObject(tokens.body).tokens)[0]).ticker);
}

async function covenantValue(values: LiveValues): Promise<void> {
  const covenants = await pageV1('GET /v1/covenants', { query: { limit: '1' } });
  values.covenantId = asString(asObject(asArray(asObject(covenants.body).covenants)[0]).covenantId);
}

/** Reads each value independently: one missing (no token deployed yet, empty mempool) leaves the others. */
export async function loadLiveValues(): Promise<LiveValues> {
  const values: LiveValues = {};
  await Promise.all([chainValues(values), mempoolValue(values), tokenValue(values), covenantValue(values)]);
  return values;
}

/** The document's operations grouped by tag, or an empty list when the document could not be read. */
export async function loadOperationGroups(): Promise<OperationGroup[]> {
  const document = await pageV1('GET /v1/openapi.json');
  return document.status === 200 ? operationGroups(document.body) : [];
}

function parameterExample(groups: OperationGroup[], name: string): string | undefined {
  for (const group of groups) {
    for (const operation of group.operations) {
      const example = operation.parameters.find((parameter) => parameter.name === name)?.example;
      if (example !== undefined) return example;
    }
  }
  return undefined;
}

/** Placeholder value of the document → live value. */
export function liveReplacements(groups: OperationGroup[], values: LiveValues): Map<string, string> {
  const replacements = new Map<string, string>();
  const add = (placeholder: string | undefined, value: string | undefined) => {
    if (placeholder !== undefined && value !== undefined) replacements.set(placeholder, value);
  };
  add(EXAMPLE_TRANSACTION_ID, values.transactionId);
  add(EXAMPLE_BLOCK_HASH, values.blockHash);
  add(EXAMPLE_ADDRESS, values.address);
  add(EXAMPLE_OTHER_ADDRESS, values.otherAddress ?? values.address);
  add(EXAMPLE_COVENANT_ID, values.covenantId);
  add(parameterExample(groups, 'ticker'), values.ticker);
  add(parameterExample(groups, 'daa_score_start'), values.daaScoreStart);
  add(parameterExample(groups, 'daa_score_end'), values.daaScoreEnd);
  return replacements;
}

/** The operations with live examples; getMempoolEntry asks for a transaction that is in the mempool now. */
export async function loadLiveOperations(): Promise<{ groups: OperationGroup[]; values: LiveValues }> {
  const [documentGroups, values] = await Promise.all([loadOperationGroups(), loadLiveValues()]);
  const groups = withLiveExamples(documentGroups, liveReplacements(documentGroups, values));
  const mempoolId = values.mempoolTransactionId;
  if (mempoolId !== undefined) {
    for (const operation of groups.flatMap((group) => group.operations)) {
      if (operation.operationId === 'getMempoolEntry' && operation.body !== undefined) {
        operation.body.example = { ...asObject(operation.body.example), transactionId: mempoolId };
      }
    }
  }
  return { groups, values };
}
