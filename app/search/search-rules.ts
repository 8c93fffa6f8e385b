/**
 * What a search query looks like, before anything is looked up: the search page's recognition rules as pure code.
 *   - 64 hex characters: a transaction id, a block hash or a covenant id (the same shape; all three are tried);
 *   - other hex of even length ≥ 16: probably a truncated hash;
 *   - digits only: a DAA score;
 *   - a network prefix and colon, or bech32-like text the node's prefix completes: an address;
 *   - 4–6 letters: a KRC-20 ticker.
 */
import { AddressError, decodeAddress, encodeAddress, type AddressPrefix } from '@/lib/kaspa/address';

export const MAX_U64 = 2n ** 64n - 1n;

export type QueryKind =
  | { kind: 'empty' }
  | { kind: 'hash'; hash: string }
  | { kind: 'short-hex'; length: number }
  | { kind: 'daa-score'; score: bigint }
  | { kind: 'daa-score-too-large' }
  | { kind: 'address'; address: string }
  | { kind: 'wrong-network'; address: string; prefix: AddressPrefix }
  | { kind: 'bad-address'; message: string }
  | { kind: 'ticker'; ticker: string }
  | { kind: 'unknown' };

const NETWORK_NAMES: Readonly<Record<AddressPrefix, string>> = {
  kaspa: 'mainnet',
  kaspatest: 'testnet',
  kaspasim: 'simnet',
  kaspadev: 'devnet',
};

export function networkName(prefix: AddressPrefix): string {
  return NETWORK_NAMES[prefix];
}

function addressKind(text: string, networkPrefix: AddressPrefix): QueryKind {
  try {
    const address = decodeAddress(text);
    const canonical = encodeAddress(address);
    return address.prefix === networkPrefix
      ? { kind: 'address', address: canonical }
      : { kind: 'wrong-network', address: canonical, prefix: address.prefix };
  } catch (error) {
    if (error instanceof AddressError) return { kind: 'bad-address', message: error.message };
    throw error;
  }
}

export function classifyQuery(query: string, networkPrefix: AddressPrefix): QueryKind {
  const text = query.trim();
  if (text === '') return { kind: 'empty' };
  if (/^[0-9a-f]{64}$/i.test(text)) return { kind: 'hash', hash: text.toLowerCase() };
  if (/^\d+$/.test(text)) {
    const score = BigInt(text);
    return score > MAX_U64 ? { kind: 'daa-score-too-large' } : { kind: 'daa-score', score };
  }
  if (text.includes(':')) return addressKind(text, networkPrefix);
  if (/^[a-z]{4,6}$/i.test(text)) return { kind: 'ticker', ticker: text.toUpperCase() };
  if (/^[0-9a-f]+$/i.test(text) && text.length >= 16) return { kind: 'short-hex', length: text.length };
  if (/^[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{60,70}$/i.test(text)) {
    const completed = addressKind(`${networkPrefix}:${text}`, networkPrefix);
    if (completed.kind === 'address') return completed;
  }
  return { kind: 'unknown' };
}

export type HashEntity = 'transaction' | 'block' | 'covenant';

const ARTICLE_NOUNS: Readonly<Record<HashEntity, string>> = { transaction: 'a transaction', block: 'a block', covenant: 'a covenant' };

/** "a transaction and a block", "a transaction, a block and a covenant": what one 64-hex query names. */
export function entitiesText(entities: readonly HashEntity[]): string {
  const nouns = entities.map((entity) => ARTICLE_NOUNS[entity]);
  return nouns.length <= 1 ? (nouns[0] ?? 'nothing') : `${nouns.slice(0, -1).join(', ')} and ${nouns.at(-1)}`;
}
