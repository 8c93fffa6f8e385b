/** What several /kaspa-rest route files share: limits, path and body readers, TxModel lists, dates. */
import { blockTimes, type IndexedTransaction, type Queryable } from '../db';
import { decodeAddress } from '../kaspa/address';
import { bytesToHex, hexToBytes } from '../kaspa/bytes';
import { Parameters, RestError, validationError, type ValidationItem } from './errors';
import { txModel, type PreviousOutpointMode } from './format';

import type { RestInput } from './route-types';

export const TX_SEARCH_ID_LIMIT = 1000;
export const TX_SEARCH_BLUE_SCORE_LIMIT = 100n;
export const HASH_PATTERN = '^[a-f0-9]{64}$';
const DAY_OR_MONTH = /^(\d{4})-(\d{2})(?:-(\d{2}))?$/;
const SOMPI_PER_KAS = 100_000_000;
export const HOUR_MS = 3_600_000;

export function sompiToKas(sompi: bigint): number {
  return Number(sompi) / SOMPI_PER_KAS;
}

export async function addressParameter(input: RestInput): Promise<string> {
  const prefix = await input.data.addressPrefix();
  const address = input.parameters.pathMatching('kaspaAddress', input.params.kaspaAddress ?? '', `^${prefix}:[a-z0-9]{61,63}$`);
  input.parameters.done();
  try {
    decodeAddress(address);
  } catch {
    throw new RestError(400, `Invalid address: ${address}`);
  }
  return address;
}

/** The accepting blocks' stored blue score and time, for TxModel. */
export async function acceptingTimes(db: Queryable, transactions: readonly IndexedTransaction[]) {
  const hashes = transactions.flatMap((transaction) => (transaction.acceptingBlockHash === null ? [] : [transaction.acceptingBlockHash]));
  return blockTimes(db, hashes);
}

export function fieldsOf(parameters: Parameters): string[] {
  return (parameters.string('fields') ?? '').split(',').filter((field) => field.length > 0);
}

/** As kaspa-rest-server's search: newest block time first. */
export async function txModels(
  db: Queryable,
  transactions: IndexedTransaction[],
  options: { resolve: PreviousOutpointMode; fields: string[] },
) {
  const times = await acceptingTimes(db, transactions);
  return [...transactions]
    .sort((x, y) => (x.blockTime === y.blockTime ? bytesToHex(y.transactionId).localeCompare(bytesToHex(x.transactionId)) : x.blockTime > y.blockTime ? -1 : 1))
    .map((transaction) =>
      txModel(transaction, transaction.acceptingBlockHash === null ? undefined : times.get(bytesToHex(transaction.acceptingBlockHash)), options),
    );
}

export function hashList(value: unknown, location: (string | number)[]): Uint8Array[] {
  if (!Array.isArray(value)) throw validationError([{ loc: location, msg: 'value is not a valid list', type: 'type_error.list' }]);
  const items: ValidationItem[] = [];
  const hashes = value.flatMap((item, index) => {
    if (typeof item !== 'string') {
      items.push({ loc: [...location, index], msg: 'str type expected', type: 'type_error.str' });
      return [];
    }
    // Ids that cannot be transaction ids match nothing, as in kaspa-rest-server's lookup.
    return /^[a-f0-9]{64}$/.test(item) ? [hexToBytes(item)] : [];
  });
  if (items.length > 0) throw validationError(items);
  return hashes;
}

export function bodyObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw validationError([{ loc: ['body'], msg: 'value is not a valid dict', type: 'type_error.dict' }]);
  }
  return body as Record<string, unknown>;
}

const I64_MAX = 2n ** 63n - 1n;

/** A JSON integer that fits the database's bigint (a larger one is refused as out of range). */
export function integerField(value: unknown, location: (string | number)[]): bigint {
  let parsed: bigint | undefined;
  if (typeof value === 'bigint') parsed = value;
  else if (typeof value === 'number' && Number.isInteger(value)) parsed = BigInt(value);
  else if (typeof value === 'string' && /^[+-]?\d+$/.test(value.trim())) parsed = BigInt(value.trim());
  if (parsed === undefined) throw validationError([{ loc: location, msg: 'value is not a valid integer', type: 'type_error.integer' }]);
  if (parsed > I64_MAX || parsed < -I64_MAX) {
    throw validationError([
      { loc: location, msg: `ensure this value is less than or equal to ${I64_MAX}`, type: 'value_error.number.not_le', ctx: { limit_value: I64_MAX } },
    ]);
  }
  return parsed;
}

export function dateTimeText(ms: bigint): string {
  return new Date(Number(ms)).toISOString().replace('.000Z', 'Z');
}

/** [start, end) of a UTC day (YYYY-MM-DD) or month (YYYY-MM), or null when the path is not one (FastAPI's regex). */
export function dayOrMonthRange(text: string): { start: number; end: number } | null {
  const match = DAY_OR_MONTH.exec(text);
  if (match === null) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), match[3] === undefined ? undefined : Number(match[3])];
  if (month < 1 || month > 12) return null;
  if (day === undefined) return { start: Date.UTC(year, month - 1, 1), end: Date.UTC(year, month, 1) };
  const start = Date.UTC(year, month - 1, day);
  if (new Date(start).getUTCDate() !== day) return null;
  return { start, end: start + 24 * HOUR_MS };
}

export function pythonIsoFormat(epochMs: bigint): string {
  const iso = new Date(Number(epochMs)).toISOString().slice(0, -1);
  return iso.endsWith('.000') ? iso.slice(0, -4) : `${iso}000`;
}
