/**
 * Where a webhook may point: an http(s) URL without credentials whose host resolves only to public addresses, unless
 * the operator allows private targets (WEBHOOK_ALLOW_PRIVATE_TARGETS). The same check runs as the connection's own
 * DNS lookup when delivering (`guardedLookup`), so a name that later resolves to an internal address (DNS rebinding)
 * is refused at delivery too, and the checked address is the one connected to.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { ApiError } from '../http/errors';

const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  // NAT64 reaches IPv4 hosts, private ones included (BlockList checks IPv4-mapped forms against the IPv4 rules).
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6');
}

/** Loopback, private, link-local, shared, documentation, multicast and reserved addresses. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

const MAX_URL_LENGTH = 2048;

export type Resolve = (host: string) => Promise<string[]>;

export const resolveHost: Resolve = async (host) => (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

function refused(message: string): ApiError {
  return new ApiError({
    code: 'invalid_webhook_url',
    detail: `body.url ${message}`,
    errors: [{ path: 'body.url', message }],
  });
}

/** The URL a webhook may be created with (normalised), or the 400 to answer. */
export async function checkWebhookUrl(text: string, options: { allowPrivate: boolean; resolve?: Resolve }): Promise<string> {
  if (text.length > MAX_URL_LENGTH) throw refused(`must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refused('must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refused(`must use http or https, not ${url.protocol.slice(0, -1)}`);
  if (url.username !== '' || url.password !== '') throw refused('must not carry credentials; verify deliveries by their signature');
  url.hash = '';
  if (options.allowPrivate) return url.href;
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  let addresses: string[];
  if (isIP(host) !== 0) addresses = [host];
  else {
    try {
      addresses = await (options.resolve ?? resolveHost)(host);
    } catch {
      throw refused(`host ${host} does not resolve`);
    }
    if (addresses.length === 0) throw refused(`host ${host} does not resolve`);
  }
  const inside = addresses.find(isPrivateAddress);
  if (inside !== undefined) {
    throw refused(`resolves to ${inside}, a private, loopback or reserved address; webhooks deliver to public hosts only`);
  }
  return url.href;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for http.request that refuses private addresses (every resolved one is checked) unless allowed. */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as LookupAddress[];
      const inside = allowPrivate ? undefined : list.find((entry) => isPrivateAddress(entry.address));
      if (inside !== undefined) {
        const refusal = Object.assign(new Error(`refused: ${hostname} resolves to private address ${inside.address}`), { code: 'EPRIVATE' });
        return callback(refusal, []);
      }
      if (options.all) return callback(null, list);
      const first = list[0];
      if (first === undefined) return callback(Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  };
}
