/** Display formatting for token figures: exact token amounts from smallest units, prices, percentages, safe links. */
import type { JsonInteger } from '@/lib/web/resources';

function groupDigits(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `units` (smallest units) as whole tokens with `decimals` places, exact, grouped, trailing zeros dropped. */
export function tokenAmount(units: JsonInteger | string, decimals: number): string {
  const value = BigInt(units);
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${groupDigits(whole)}${fraction === '' ? '' : `.${fraction}`}`;
}

/** Significant digits for small prices, two decimals for large ones. */
export function priceText(value: number): string {
  if (value === 0) return '0';
  const magnitude = Math.abs(value);
  if (magnitude >= 1) return value.toLocaleString('en', { maximumFractionDigits: 2, minimumFractionDigits: 2 });
  return value.toLocaleString('en', { maximumSignificantDigits: 4 });
}

export function usdText(value: number): string {
  return `$${priceText(value)}`;
}

export function kasText(value: number): string {
  return `${priceText(value)} KAS`;
}

/** Signed percentage with two decimals, e.g. +1.25 %. */
export function changeText(percent: number): string {
  const sign = percent > 0 ? '+' : '';
  return `${sign}${percent.toFixed(2)} %`;
}

export function percentText(percent: number): string {
  return `${percent.toLocaleString('en', { maximumFractionDigits: 2 })} %`;
}

/** Decimal places that show a price series' moves: enough for its smallest value, at least 2, at most 10. */
export function pricePrecision(values: readonly number[]): number {
  const positive = values.filter((value) => value > 0);
  if (positive.length === 0) return 2;
  const smallest = Math.min(...positive);
  return Math.min(10, Math.max(2, Math.ceil(-Math.log10(smallest)) + 3));
}

/** The URL when it is an absolute http or https URL, else null: registry text is never trusted as a link. */
export function safeHttpUrl(text: string): string | null {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
  } catch {
    return null;
  }
}

/** An icon's URL when it is an http(s) URL or a path on this site (one leading slash), else null. */
export function safeIconUrl(text: string): string | null {
  if (/^\/(?![/\\])/.test(text)) return text;
  return safeHttpUrl(text);
}
