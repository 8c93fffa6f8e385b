/**
 * What the /wallet page is asked to show: an account's extended public key or a list of addresses, read from the
 * reader's input, from a share link's fragment or from session storage. The key is a secret of the reader's privacy:
 * it lives in page memory and session storage and reaches the server only in POST bodies; a share link carries it in
 * the URL fragment, which browsers never send to a server.
 */
export type WalletSource = { extendedPublicKey: string } | { addresses: string[] };

export type WalletInput = { source: WalletSource } | { error: string };

/** Kaspa wallets' mainnet and testnet forms and the BIP32 forms; Base58 of 78 bytes is 111 or 112 characters. */
const EXTENDED_KEY = /^(kpub|ktub|xpub|tpub)[1-9A-HJ-NP-Za-km-z]{100,112}$/;
const LOOKS_LIKE_EXTENDED_KEY = /^(kpub|ktub|xpub|tpub)/;
const ADDRESS = /^kaspa(test|dev|sim)?:[02-9ac-hj-np-z]+$/i;

export const WALLET_SESSION_KEY = 'dagboard-wallet';

export function parseWalletInput(text: string): WalletInput {
  const items = text.split(/[\s,;]+/).filter((item) => item !== '');
  if (items.length === 0) return { error: 'Paste an extended public key (kpub…, xpub…) or one or more addresses.' };
  if (items.length === 1 && LOOKS_LIKE_EXTENDED_KEY.test(items[0]!)) {
    return EXTENDED_KEY.test(items[0]!)
      ? { source: { extendedPublicKey: items[0]! } }
      : { error: 'That is not a whole extended public key: check that it was copied completely.' };
  }
  const notAddresses = items.filter((item) => !ADDRESS.test(item));
  if (notAddresses.length > 0) {
    return { error: `Not a Kaspa address: ${notAddresses[0]!.slice(0, 24)}${notAddresses[0]!.length > 24 ? '…' : ''}` };
  }
  return { source: { addresses: [...new Set(items.map((item) => item.toLowerCase()))] } };
}

/** The text the input shows for a source. */
export function walletInputText(source: WalletSource): string {
  return 'extendedPublicKey' in source ? source.extendedPublicKey : source.addresses.join('\n');
}

/** The fragment (without `#`) of a share link. */
export function walletFragment(source: WalletSource): string {
  const fields = new URLSearchParams();
  if ('extendedPublicKey' in source) fields.set('key', source.extendedPublicKey);
  else fields.set('addresses', source.addresses.join(','));
  return fields.toString();
}

/** The source a share link's fragment names, or null when it names none or a malformed one. */
export function parseWalletFragment(hash: string): WalletSource | null {
  const fields = new URLSearchParams(hash.replace(/^#/, ''));
  const text = fields.get('key') ?? fields.get('addresses');
  if (text === null) return null;
  const input = parseWalletInput(text);
  return 'source' in input ? input.source : null;
}

/** What session storage holds, or null when it holds nothing usable. */
export function parseStoredWallet(stored: string | null): WalletSource | null {
  if (stored === null) return null;
  try {
    const value = JSON.parse(stored) as { extendedPublicKey?: unknown; addresses?: unknown };
    const text =
      typeof value.extendedPublicKey === 'string'
        ? value.extendedPublicKey
        : Array.isArray(value.addresses) && value.addresses.every((item) => typeof item === 'string')
          ? value.addresses.join('\n')
          : null;
    if (text === null) return null;
    const input = parseWalletInput(text);
    return 'source' in input ? input.source : null;
  } catch {
    return null;
  }
}
