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

/** "1 input", "2 inputs", "1,024 confirmations": the count grouped, the noun agreeing with it. */
export function counted(count: number | bigint, singular: string, plural = `${singular}s`): string {
  return `${formatInteger(count)} ${BigInt(count) === 1n ? singular : plural}`;
}

/**
 * An expected wait in seconds as the fee pages show it: "< 1 s" below a second (the estimator's sub-second figures
 * are a block interval or less, not a measurement), "~12 s" below 90 s, "~3 min" above.
 */
export function formatWait(seconds: number): string {
  if (seconds < 1) return '< 1 s';
  return seconds < 90 ? `~${Math.round(seconds)} s` : `~${Math.round(seconds / 60)} min`;
}

/** An elapsed time in whole units: "12 s", "4 min", "2 h 5 min", "3 d 4 h". */
export function formatDuration(milliseconds: number): string {
  const seconds = Math.max(0, Math.floor(milliseconds / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`;
}

/** A short UTC time for where a relative time cannot be computed yet: "2026-11-22 04:30 UTC". */
export function compactTime(time: number): string {
  return `${new Date(time).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
