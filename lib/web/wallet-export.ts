/**
 * The /wallet page's CSV export: the request body of POST /wallet/csv (the key only in the body) and a reader that
 * streams the answer, counting bytes and lines as they arrive so a long export shows its progress.
 */
import type { WalletSource } from './wallet-input';

export const EXPORT_LAYOUTS = [
  { id: 'generic', label: 'Generic (every column)' },
  { id: 'koinly', label: 'Koinly universal' },
] as const;

export type ExportLayout = (typeof EXPORT_LAYOUTS)[number]['id'];

const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A `<input type="date">` value as UTC epoch ms at that day's start, or undefined when empty or not a date. */
function dayStart(date: string): number | undefined {
  if (!DATE.test(date)) return undefined;
  const time = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(time) ? undefined : time;
}

export interface ExportChoice {
  source: WalletSource;
  gapLimit?: number;
  /** YYYY-MM-DD, UTC, inclusive; empty for no bound. */
  fromDate: string;
  toDate: string;
  layout: ExportLayout;
}

export interface ExportBody {
  extendedPublicKey?: string;
  addresses?: string[];
  gapLimit?: number;
  from?: number;
  to?: number;
  layout: ExportLayout;
}

/** The range is whole UTC days, the last one included: the export's range is [from, to), so `to` is the next day's start. */
export function exportBody(choice: ExportChoice): ExportBody {
  const from = dayStart(choice.fromDate);
  const toDay = dayStart(choice.toDate);
  return {
    ...choice.source,
    ...(choice.gapLimit === undefined || 'addresses' in choice.source ? {} : { gapLimit: choice.gapLimit }),
    ...(from === undefined ? {} : { from }),
    ...(toDay === undefined ? {} : { to: toDay + DAY_MS }),
    layout: choice.layout,
  };
}

export interface ExportProgress {
  bytes: number;
  /** Data rows so far: lines after the header. */
  rows: number;
}

const NEWLINE = 0x0a;

/** Reads the whole stream, reporting progress after each chunk; the chunks, in order, for a Blob. */
export async function readWithProgress(
  stream: ReadableStream<Uint8Array>,
  onProgress: (progress: ExportProgress) => void,
): Promise<Uint8Array[]> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let lines = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    bytes += value.byteLength;
    for (const byte of value) if (byte === NEWLINE) lines += 1;
    onProgress({ bytes, rows: Math.max(0, lines - 1) });
  }
  return chunks;
}

/** The file name the server gave in Content-Disposition, else a dated default. */
export function exportFileName(contentDisposition: string | null, today: string): string {
  const named = contentDisposition?.match(/filename="?([^";]+)"?/i)?.[1];
  return named ?? `wallet-${today}.csv`;
}
