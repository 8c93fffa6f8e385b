/**
 * What the broadcast page sends: a signed transaction pasted as JSON, either the body of POST
 * /v1/rpc/submitTransaction (`{ "transaction": …, "allowOrphan": … }`) or the bare transaction object. Parsed
 * losslessly, so amounts past 2^53 reach the node exactly; the node's own checks (and the API's schema) judge the rest.
 */
import { JsonParseError, parseJson, type JsonObject, type JsonValue } from '../rpc/json';

export type BroadcastInput =
  | { ok: true; transaction: JsonObject; allowOrphan: boolean }
  | { ok: false; message: string };

const isObject = (value: JsonValue | undefined): value is JsonObject =>
  value !== null && value !== undefined && typeof value === 'object' && !Array.isArray(value);

const looksLikeTransaction = (value: JsonObject) => Array.isArray(value.inputs) && Array.isArray(value.outputs);

export function parseBroadcastInput(text: string, allowOrphan: boolean): BroadcastInput {
  if (text.trim() === '') return { ok: false, message: 'Paste a signed transaction as JSON.' };
  let value: JsonValue;
  try {
    value = parseJson(text);
  } catch (error) {
    const detail = error instanceof JsonParseError || error instanceof SyntaxError ? error.message : String(error);
    return { ok: false, message: `This is not valid JSON: ${detail}` };
  }
  if (!isObject(value)) return { ok: false, message: 'Expected a JSON object: a transaction or a submitTransaction body.' };
  if (isObject(value.transaction) && looksLikeTransaction(value.transaction)) {
    return { ok: true, transaction: value.transaction, allowOrphan: value.allowOrphan === true || allowOrphan };
  }
  if (looksLikeTransaction(value)) return { ok: true, transaction: value, allowOrphan };
  return { ok: false, message: 'Expected a transaction with "inputs" and "outputs", or an object whose "transaction" is one.' };
}

export type BroadcastStage = 'mempool' | 'orphan' | 'included' | 'accepted' | 'unknown';

/** Where a submitted transaction stands, from the index (null until indexed) and the node's mempool (null if absent). */
export function broadcastStage(
  indexed: { isAccepted: boolean; blockHashes: string[] } | null,
  mempool: { isOrphan: boolean } | null,
): BroadcastStage {
  if (indexed !== null) return indexed.isAccepted ? 'accepted' : indexed.blockHashes.length > 0 ? 'included' : 'unknown';
  if (mempool !== null) return mempool.isOrphan ? 'orphan' : 'mempool';
  return 'unknown';
}
