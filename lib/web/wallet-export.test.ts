import { describe, expect, it } from 'vitest';
import { exportBody, exportFileName, readWithProgress, type ExportProgress } from './wallet-export';

const KEY = { extendedPublicKey: 'kpub-in-body' };

describe('exportBody', () => {
  it('turns the date range into whole UTC days, the last day included in the half-open range', () => {
    expect(exportBody({ source: KEY, gapLimit: 30, fromDate: '2026-01-01', toDate: '2026-01-31', layout: 'koinly' })).toEqual({
      extendedPublicKey: 'kpub-in-body',
      gapLimit: 30,
      from: Date.UTC(2026, 0, 1),
      to: Date.UTC(2026, 1, 1),
      layout: 'koinly',
    });
  });

  it('leaves out empty bounds, and the gap limit for an address list', () => {
    expect(exportBody({ source: { addresses: ['kaspa:a'] }, gapLimit: 30, fromDate: '', toDate: 'nonsense', layout: 'generic' })).toEqual({
      addresses: ['kaspa:a'],
      layout: 'generic',
    });
  });
});

function streamOf(parts: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(encoder.encode(part));
      controller.close();
    },
  });
}

describe('readWithProgress', () => {
  it('counts bytes and data rows after the header as chunks arrive, lines split across chunks included', async () => {
    const seen: ExportProgress[] = [];
    const parts = ['time,id\n2026-01', '-01,aa\n2026-01-02,bb\n', '2026-01-03,cc\n'];
    const chunks = await readWithProgress(streamOf(parts), (progress) => seen.push(progress));
    expect(seen.map((progress) => progress.rows)).toEqual([0, 2, 3]);
    expect(seen.at(-1)?.bytes).toBe(parts.join('').length);
    expect(new TextDecoder().decode(Buffer.concat(chunks))).toBe(parts.join(''));
  });
});

describe('exportFileName', () => {
  it('takes the server’s name, else a dated default', () => {
    expect(exportFileName('attachment; filename="wallet-2026.csv"', '2026-02-03')).toBe('wallet-2026.csv');
    expect(exportFileName(null, '2026-02-03')).toBe('wallet-2026-02-03.csv');
  });
});
