import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curlSnippet, fetchSnippet, pythonSnippet, shellQuote, type SnippetRequest } from './request-snippets';

const run = promisify(execFile);

interface Received {
  method: string;
  url: string;
  key: string | undefined;
  contentType: string | undefined;
  body: string;
}

let server: Server;
let origin: string;
const received: Received[] = [];

async function record(request: IncomingMessage): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  received.push({
    method: request.method ?? '',
    url: request.url ?? '',
    key: request.headers['x-api-key'] as string | undefined,
    contentType: request.headers['content-type'],
    body: Buffer.concat(chunks).toString('utf8'),
  });
}

beforeAll(async () => {
  server = createServer((request, response) => {
    void record(request).then(() => response.end('{"ok":true}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const ENV_KEY = 'dgb_from_the_environment';
/** Runs a snippet with its real interpreter (found on the inherited PATH, as a user would) and the key variable set,
 *  and answers what the server received. */
async function execute(language: 'curl' | 'fetch' | 'python', request: SnippetRequest): Promise<Received> {
  const before = received.length;
  const interpreter = { curl: 'sh -c', fetch: 'node --input-type=module -e', python: 'python3 -c' }[language];
  const generate = { curl: curlSnippet, fetch: fetchSnippet, python: pythonSnippet }[language];
  await run('sh', ['-c', `DAGBOARD_API_KEY=${ENV_KEY} exec ${interpreter} "$1"`, 'sh', generate(request)]);
  expect(received.length).toBe(before + 1);
  return received[before]!;
}

// Quotes of both kinds, a shell expansion, backslashes, a newline, non-ASCII and line separators must arrive verbatim.
const TRICKY_BODY = `{\n  "note": "it's \\"quoted\\" $HOME \`id\` \\\\ ü 😀 \u2028",\n  "n": 18446744073709551615\n}`;

describe.each(['curl', 'fetch', 'python'] as const)('%s snippet', (language) => {
  it('reproduces a POST exactly, reading the key from $DAGBOARD_API_KEY', async () => {
    const url = `${origin}/v1/rpc/getBlock?x=a%20b`;
    const got = await execute(language, { method: 'POST', url, body: TRICKY_BODY });
    expect(got).toEqual({
      method: 'POST',
      url: '/v1/rpc/getBlock?x=a%20b',
      key: ENV_KEY,
      contentType: 'application/json',
      body: TRICKY_BODY,
    });
  });

  it('writes the given key instead of the variable, and sends GET without a body', async () => {
    const key = `dgb_it's_"mine"_$X`;
    const got = await execute(language, { method: 'GET', url: `${origin}/v1/addresses/kaspadev:qq/transactions?limit=5`, apiKey: key });
    expect(got).toEqual({
      method: 'GET',
      url: '/v1/addresses/kaspadev:qq/transactions?limit=5',
      key,
      contentType: undefined,
      body: '',
    });
  });

  it('sends no key header for a public endpoint', async () => {
    const got = await execute(language, { method: 'GET', url: `${origin}/v1/openapi.json`, withKey: false });
    expect(got.key).toBeUndefined();
  });
});

describe('the key placeholder', () => {
  it('names the variable, never a key, when no key is given', () => {
    const request: SnippetRequest = { method: 'GET', url: 'http://h/v1/usage' };
    expect(curlSnippet(request)).toContain('"x-api-key: $DAGBOARD_API_KEY"');
    expect(fetchSnippet(request)).toContain('process.env.DAGBOARD_API_KEY');
    expect(pythonSnippet(request)).toContain('os.environ["DAGBOARD_API_KEY"]');
  });

  it('shell-quotes single quotes', () => {
    expect(shellQuote(`a'b`)).toBe(`'a'\\''b'`);
  });
});
