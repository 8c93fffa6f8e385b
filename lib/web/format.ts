/** Display formatting shared by the pages: amounts (exact, from sompi strings), times, hashes, rates. */
import { formatKas } from '../kaspa/amount';

/** "1,234.5 KAS" from a sompi decimal string (or bigint), rounded for display; exact text is `kasExact`. */
export function kasDisplay(sompi: string | bigint, maxFractionDigits = 4): string {
  const text = formatKas(BigInt(sompi), { maxFractionDigits });
  const [whole = '0', fraction] = text.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${fraction === undefined ? grouped : `${grouped}.${fraction}`} KAS`;
}

/** Exact KAS and sompi, for the hover title. */
export function kasExact(sompi: string | bigint): string {
  return `${formatKas(BigInt(sompi))} KAS (${BigInt(sompi).toString()} sompi)`;
}

export function shortHash(hash: string, keep = 8): string {
  return hash.length <= keep * 2 + 1 ? hash : `${hash.slice(0, keep)}…${hash.slice(-keep)}`;
}

export function shortAddress(address: string, keep = 8): string {
  const colon = address.indexOf(':');
  const prefix = colon < 0 ? '' : address.slice(0, colon + 1);
  const body = address.slice(prefix.length);
  return body.length <= keep * 2 + 1 ? address : `${prefix}${body.slice(0, keep)}…${body.slice(-keep)}`;
}

const RELATIVE_UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** "5 seconds ago" for epoch ms `time` seen at `now`. */
export function relativeTime(time: number, now: number): string {
  const seconds = Math.round((time - now) / 1000);
  const format = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  for (const [unit, size] of RELATIVE_UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second') return format.format(Math.round(seconds / size), unit);
  }
  return format.format(0, 'second');
}

/** ISO-like UTC text for the hover title: "2026-11-22 04:30:00.123 UTC". */
export function absoluteTime(time: number): string {
  return `${new Date(time).toISOString().replace('T', ' ').replace('Z', '')} UTC`;
}

export function formatInteger(value: number | bigint | string): string {
  return BigInt(value).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Hashes per second with an SI prefix: "12.3 kH/s". */
export function formatHashrate(hashesPerSecond: number): string {
  const units = ['H/s', 'kH/s', 'MH/s', 'GH/s', 'TH/s', 'PH/s', 'EH/s'];
  let value = hashesPerSecond;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toFixed(value >= 100 ? 0 : value >= 10 ? 1 : 2)} ${units[unit]}`;
}

/** Fee rate in sompi per gram of mass. */
export function formatFeeRate(sompiPerGram: number): string {
  return `${sompiPerGram >= 100 ? sompiPerGram.toFixed(0) : sompiPerGram.toFixed(2)} sompi/g`;
}
