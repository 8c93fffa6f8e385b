/** KAS amounts: exact conversion between sompi (bigint) and decimal KAS text, never through floating point. */

export const SOMPI_PER_KAS = 100_000_000n;
export const KAS_DECIMALS = 8;
/** The largest amount consensus accepts anywhere (consensus/core/src/constants.rs MAX_SOMPI: 29 billion KAS). */
export const MAX_SOMPI = 29_000_000_000n * SOMPI_PER_KAS;

export interface FormatKasOptions {
  /** Round (half away from zero) to at most this many decimals, 0..8; default 8, i.e. exact. */
  maxFractionDigits?: number;
}

/** Formats sompi as KAS: "-1.5", "0.00000001", "1234"; trailing fractional zeros are trimmed. */
export function formatKas(sompi: bigint, options: FormatKasOptions = {}): string {
  const digits = options.maxFractionDigits ?? KAS_DECIMALS;
  if (!Number.isInteger(digits) || digits < 0 || digits > KAS_DECIMALS) {
    throw new RangeError(`maxFractionDigits must be an integer from 0 to ${KAS_DECIMALS}, got ${digits}`);
  }
  const negative = sompi < 0n;
  let magnitude = negative ? -sompi : sompi;
  const step = 10n ** BigInt(KAS_DECIMALS - digits);
  magnitude = ((magnitude + step / 2n) / step) * step;
  const whole = magnitude / SOMPI_PER_KAS;
  const fraction = (magnitude % SOMPI_PER_KAS).toString().padStart(KAS_DECIMALS, '0').replace(/0+$/, '');
  const sign = negative && magnitude !== 0n ? '-' : '';
  return fraction ? `${sign}${whole}.${fraction}` : `${sign}${whole}`;
}

export type KasParseErrorCode = 'empty' | 'invalid-character' | 'negative' | 'too-many-decimals' | 'out-of-range';

export class KasParseError extends Error {
  override name = 'KasParseError';

  constructor(
    readonly code: KasParseErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const AMOUNT_PATTERN = /^(\d*)(?:\.(\d*))?$/;

/**
 * Parses a decimal KAS amount ("1", "0.5", ".5", "12.34567890") into sompi. Surrounding whitespace is ignored;
 * signs, exponents, grouping separators, more than 8 decimals and amounts above MAX_SOMPI are rejected.
 */
export function parseKas(text: string): bigint {
  const trimmed = text.trim();
  if (trimmed === '') throw new KasParseError('empty', 'amount is empty');
  if (trimmed.startsWith('-')) throw new KasParseError('negative', `amount must not be negative: "${trimmed}"`);
  const match = AMOUNT_PATTERN.exec(trimmed);
  const whole = match?.[1] ?? '';
  const fraction = match?.[2] ?? '';
  if (!match || whole + fraction === '') {
    const bad = [...trimmed].find((char) => !/[\d.]/.test(char));
    const reason = bad === undefined ? 'is not a decimal number' : `contains "${bad}"`;
    throw new KasParseError('invalid-character', `amount ${reason}: "${trimmed}"`);
  }
  if (fraction.length > KAS_DECIMALS) {
    const message = `amount has ${fraction.length} decimals; KAS has at most ${KAS_DECIMALS}`;
    throw new KasParseError('too-many-decimals', message);
  }
  const sompi = BigInt(whole || '0') * SOMPI_PER_KAS + BigInt(fraction.padEnd(KAS_DECIMALS, '0'));
  if (sompi > MAX_SOMPI) {
    throw new KasParseError('out-of-range', `amount exceeds the maximum of ${formatKas(MAX_SOMPI)} KAS: "${trimmed}"`);
  }
  return sompi;
}
