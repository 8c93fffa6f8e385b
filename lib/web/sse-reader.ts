/**
 * Server-sent events read from a fetch body, for clients that must send a header (the API key): EventSource cannot.
 * The parser follows the SSE format as /v1/stream writes it: `field: value` lines, a blank line ending a message,
 * comment lines (`: heartbeat`) ignored, a message without data skipped.
 */

export interface SseMessage {
  /** `event:`; `message` when absent. */
  event: string;
  id: string | null;
  data: string;
}

export interface SseParser {
  /** Feeds a chunk of text; returns the messages it completed. */
  push(chunk: string): SseMessage[];
}

export function createSseParser(): SseParser {
  let buffer = '';
  /** A chunk's final CR: a CRLF split between chunks must not count as two line ends. */
  let carriageReturn = false;
  return {
    push(chunk) {
      let text = (carriageReturn ? '\r' : '') + chunk;
      carriageReturn = text.endsWith('\r');
      if (carriageReturn) text = text.slice(0, -1);
      buffer += text.replace(/\r\n?/g, '\n');
      const messages: SseMessage[] = [];
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const message: SseMessage = { event: 'message', id: null, data: '' };
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line === '' || line.startsWith(':')) continue;
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'event') message.event = value;
          else if (field === 'id') message.id = value;
          else if (field === 'data') data.push(value);
        }
        if (data.length === 0) continue;
        message.data = data.join('\n');
        messages.push(message);
      }
      return messages;
    },
  };
}

/** Reads `body` to its end (or until `signal` aborts), handing each message to `onMessage`. */
export async function readSse(body: ReadableStream<Uint8Array>, onMessage: (message: SseMessage) => void, signal: AbortSignal): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = createSseParser();
  const cancel = () => void reader.cancel().catch(() => undefined);
  signal.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      for (const message of parser.push(decoder.decode(value, { stream: true }))) onMessage(message);
    }
  } finally {
    signal.removeEventListener('abort', cancel);
  }
}
