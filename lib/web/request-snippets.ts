/**
 * Code that reproduces one /v1 request exactly (method, URL, headers, body bytes) as curl, JavaScript fetch and Python
 * requests. The API key is read from the DAGBOARD_API_KEY environment variable unless the caller passes the key
 * itself (the console does only when the user asks for it).
 */

export const API_KEY_VARIABLE = 'DAGBOARD_API_KEY';

export interface SnippetRequest {
  method: 'GET' | 'POST' | 'DELETE';
  /** Absolute URL, query included. */
  url: string;
  /** The exact body text sent (POST only). */
  body?: string;
  /** The key to write into the snippet; undefined writes a reference to $DAGBOARD_API_KEY instead. */
  apiKey?: string;
  /** false for the public endpoints (no key header at all). */
  withKey?: boolean;
}

/** A single-quoted POSIX shell word: nothing inside is expanded. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** A string literal valid in both JavaScript and Python 3 (JSON string syntax; `\u2028` and `\u2029` escaped). */
function stringLiteral(text: string): string {
  return JSON.stringify(text).replaceAll('\u2028', '\\u2028').replaceAll('\u2029', '\\u2029');
}

const sendsKey = (request: SnippetRequest) => request.withKey !== false;
const sendsBody = (request: SnippetRequest) => request.method === 'POST' && request.body !== undefined;

export function curlSnippet(request: SnippetRequest): string {
  const lines = [`curl -sS -X ${request.method} ${shellQuote(request.url)}`];
  if (sendsKey(request)) {
    lines.push(
      request.apiKey === undefined
        ? `-H "x-api-key: $${API_KEY_VARIABLE}"`
        : `-H ${shellQuote(`x-api-key: ${request.apiKey}`)}`,
    );
  }
  if (sendsBody(request)) {
    lines.push(`-H 'content-type: application/json'`, `--data-raw ${shellQuote(request.body ?? '')}`);
  }
  return lines.join(' \\\n  ');
}

export function fetchSnippet(request: SnippetRequest): string {
  const headers: string[] = [];
  if (sendsKey(request)) {
    headers.push(
      `'x-api-key': ${request.apiKey === undefined ? `process.env.${API_KEY_VARIABLE}` : stringLiteral(request.apiKey)}`,
    );
  }
  if (sendsBody(request)) headers.push(`'content-type': 'application/json'`);
  const options = [`  method: '${request.method}',`];
  if (headers.length > 0) options.push(`  headers: { ${headers.join(', ')} },`);
  if (sendsBody(request)) options.push(`  body: ${stringLiteral(request.body ?? '')},`);
  return [
    `const response = await fetch(${stringLiteral(request.url)}, {`,
    ...options,
    '});',
    'console.log(response.status, await response.text());',
  ].join('\n');
}

export function pythonSnippet(request: SnippetRequest): string {
  const headers: string[] = [];
  if (sendsKey(request)) {
    headers.push(
      `"x-api-key": ${request.apiKey === undefined ? `os.environ["${API_KEY_VARIABLE}"]` : stringLiteral(request.apiKey)}`,
    );
  }
  if (sendsBody(request)) headers.push(`"content-type": "application/json"`);
  const imports = sendsKey(request) && request.apiKey === undefined ? ['import os', 'import requests'] : ['import requests'];
  const args = [`    ${stringLiteral(request.url)},`];
  if (headers.length > 0) args.push(`    headers={${headers.join(', ')}},`);
  if (sendsBody(request)) args.push(`    data=${stringLiteral(request.body ?? '')}.encode("utf-8"),`);
  return [
    ...imports,
    '',
    `response = requests.request(`,
    `    "${request.method}",`,
    ...args,
    ')',
    'print(response.status_code, response.text)',
  ].join('\n');
}

export const SNIPPET_LANGUAGES = [
  { id: 'curl', label: 'curl', generate: curlSnippet },
  { id: 'fetch', label: 'JavaScript fetch', generate: fetchSnippet },
  { id: 'python', label: 'Python requests', generate: pythonSnippet },
] as const;

export type SnippetLanguage = (typeof SNIPPET_LANGUAGES)[number]['id'];
