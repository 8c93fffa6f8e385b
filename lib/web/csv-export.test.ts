import { describe, expect, it } from 'vitest';
import { csvExportResponse, type ExportContinuation } from './csv-export';

function csvPage(text: string, next: ExportContinuation | null): Response {
  const headers: Record<string, string> = { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="w.csv"' };
  if (next !== null) {
    headers['x-next-cursor'] = next.cursor;
    headers['x-closing-balance'] = next.openingBalance;
  }
  return new Response(text, { headers });
}

describe('csvExportResponse', () => {
  it('streams every page in order, carrying each cursor and closing balance to the next call', async () => {
    const asked: (ExportContinuation | null)[] = [];
    const pages = [
      csvPage('header\r\na\r\n', { cursor: 'c1', openingBalance: '5' }),
      csvPage('b\r\n', { cursor: 'c2', openingBalance: '-3' }),
      csvPage('c\r\n', null),
    ];
    const response = await csvExportResponse(async (continuation) => {
      asked.push(continuation);
      return pages[asked.length - 1]!;
    });
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="w.csv"');
    expect(await response.text()).toBe('header\r\na\r\nb\r\nc\r\n');
    expect(asked).toEqual([null, { cursor: 'c1', openingBalance: '5' }, { cursor: 'c2', openingBalance: '-3' }]);
  });

  it('answers a refused first page with its problem and status', async () => {
    const problem = JSON.stringify({ code: 'invalid_request' });
    const response = await csvExportResponse(
      async () => new Response(problem, { status: 400, headers: { 'content-type': 'application/problem+json' } }),
    );
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await response.text()).toBe(problem);
  });

  it('fails the stream when a later page is refused, rather than end it as if complete', async () => {
    let calls = 0;
    const response = await csvExportResponse(async () =>
      ++calls === 1 ? csvPage('a\r\n', { cursor: 'c', openingBalance: '0' }) : new Response('{}', { status: 500 }),
    );
    await expect(response.text()).rejects.toThrow();
  });
});
