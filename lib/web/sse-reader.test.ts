import { describe, expect, it } from 'vitest';
import { createSseParser, readSse, type SseMessage } from './sse-reader';

describe('SSE parser', () => {
  it('reads messages split anywhere across chunks, with ids, events, multi-line data, comments and CRLF', () => {
    const parser = createSseParser();
    const text = ': hello\n\nevent: ready\ndata: {"cursor":"7"}\n\nid: 8\r\nevent: block\r\ndata: {"a":1,\r\ndata: "b":2}\r\n\r\n: heartbeat\n\nid: 9\ndata:x\n\n';
    const messages: SseMessage[] = [];
    for (let at = 0; at < text.length; at += 5) messages.push(...parser.push(text.slice(at, at + 5)));
    expect(messages).toEqual([
      { event: 'ready', id: null, data: '{"cursor":"7"}' },
      { event: 'block', id: '8', data: '{"a":1,\n"b":2}' },
      { event: 'message', id: '9', data: 'x' },
    ]);
  });

  it('holds an unfinished message until its blank line arrives', () => {
    const parser = createSseParser();
    expect(parser.push('id: 1\nevent: fees\ndata: {}\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ event: 'fees', id: '1', data: '{}' }]);
  });

  it('reads a body to its end and stops when aborted', async () => {
    const encoder = new TextEncoder();
    let pull = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pull += 1;
        if (pull === 1) controller.enqueue(encoder.encode('id: 1\nevent: block\ndata: {}\n\n'));
        if (pull === 2) controller.enqueue(encoder.encode('id: 2\nevent: block\ndata: {}\n\n'));
      },
    });
    const controller = new AbortController();
    const seen: string[] = [];
    await readSse(
      body,
      (message) => {
        seen.push(message.id!);
        if (message.id === '2') controller.abort();
      },
      controller.signal,
    );
    expect(seen).toEqual(['1', '2']);
  });
});
