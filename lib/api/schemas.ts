/**
 * The per-call limits of /v1 and the zod building blocks endpoint schemas share, so every endpoint refuses the same
 * input the same way: bad hex → `invalid_hex`, bad address → `invalid_address` with the decoder's reason, a list over
 * its limit → `limit_exceeded` naming the limit, a page size outside 1..100 → `limit_out_of_range`.
 */
import { z } from 'zod';
import { AddressError, decodeAddress, type AddressPrefix } from '../kaspa/address';
import { ApiError } from './errors';

export const MAX_ADDRESSES_PER_CALL = 500;
export const MAX_TRANSACTION_IDS_PER_CALL = 500;
/** end − start of a DAA-score range (the same bound lib/db's range read enforces). */
export const MAX_DAA_SCORE_RANGE = 1000n;
export const PAGE_LIMIT = { min: 1, max: 100, default: 20 } as const;

const HEX = /^[0-9a-fA-F]*$/;

/** Hex text of exactly `byteLength` bytes (either case), as lowercase. */
export function hexString(byteLength: number, what: string) {
  const message = `must be ${what}: ${byteLength * 2} hexadecimal digits`;
  return z
    .string()
    .refine((text) => text.length === byteLength * 2 && HEX.test(text), {
      message,
      params: { apiCode: 'invalid_hex' },
    })
    .transform((text) => text.toLowerCase());
}

/** Hex text of any whole number of bytes up to `maxBytes` (payloads, extra data). */
export function hexBytes(maxBytes: number, what: string) {
  return z
    .string()
    .refine((text) => text.length % 2 === 0 && text.length <= maxBytes * 2 && HEX.test(text), {
      message: `must be ${what}: an even number of hexadecimal digits, at most ${maxBytes} bytes`,
      params: { apiCode: 'invalid_hex' },
    })
    .transform((text) => text.toLowerCase());
}

/** A Kaspa address of the served network; the issue carries the decoder's reason. */
export function addressString(network: AddressPrefix) {
  return z.string().superRefine((text, context) => {
    let reason: string | undefined;
    try {
      const { prefix } = decodeAddress(text);
      if (prefix !== network) reason = `belongs to network "${prefix}", this service serves "${network}"`;
    } catch (error) {
      if (!(error instanceof AddressError)) throw error;
      reason = error.message;
    }
    if (reason !== undefined) {
      context.addIssue({ code: 'custom', message: reason, params: { apiCode: 'invalid_address' } });
    }
  });
}

/** A request array with a documented maximum; past it the 400 names the limit. */
export function boundedList<T extends z.ZodType>(item: T, max: number, noun: string) {
  return z.array(item).max(max, `at most ${max} ${noun} per call`);
}

/** Query-string boolean: exactly `true` or `false`. */
export const queryBoolean = z
  .enum(['true', 'false'], { error: 'must be true or false' })
  .transform((text) => text === 'true');

/** The `limit` query parameter: an integer 1..100, 20 when absent. */
export const pageLimit = z
  .string()
  .optional()
  .transform((text, context) => {
    if (text === undefined) return PAGE_LIMIT.default;
    const value = /^\d{1,3}$/.test(text) ? Number(text) : NaN;
    if (value >= PAGE_LIMIT.min && value <= PAGE_LIMIT.max) return value;
    context.addIssue({
      code: 'custom',
      message: `must be an integer from ${PAGE_LIMIT.min} to ${PAGE_LIMIT.max}`,
      params: { apiCode: 'limit_out_of_range' },
    });
    return z.NEVER;
  });

const U64_MAX = 2n ** 64n - 1n;

/** A u64 written in decimal (path segments such as DAA scores), as bigint. */
export const decimalU64 = z
  .string()
  .refine((text) => /^\d{1,20}$/.test(text) && BigInt(text) <= U64_MAX, {
    message: 'must be a whole number from 0 to 18446744073709551615',
  })
  .transform((text) => BigInt(text));

/** Checks a DAA-score range: start ≤ end, at most MAX_DAA_SCORE_RANGE wide. */
export function checkDaaScoreRange(start: bigint, end: bigint): void {
  if (end < start) {
    throw ApiError.invalidRequest('daa_score_end must not be below daa_score_start', [
      { path: 'path.daa_score_end', message: 'must be at least daa_score_start' },
    ]);
  }
  if (end - start > MAX_DAA_SCORE_RANGE) {
    throw ApiError.limitExceeded('path.daa_score_end', `a DAA-score range spans at most ${MAX_DAA_SCORE_RANGE} scores`);
  }
}
