/**
 * HD wallet addresses as rusty-kaspa's wallet derives them (wallet/keys/src/derivation/gen1/hd.rs at v2.0.1): the
 * account's extended public key sits at m/44'/111111'/<account>' and each address is <account key>/<chain>/<index>,
 * receive chain 0 and change chain 1, non-hardened, paid to the x-only key (a Schnorr `PubKey` address).
 * The BIP32 arithmetic is @scure/bip32's; this module knows Kaspa's key prefixes and paths.
 */
import { createHash } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { AddressVersion, encodeAddress, type AddressPrefix } from '../kaspa/address';

export const KASPA_COIN_TYPE = 111111;
export const WALLET_CHAINS = ['receive', 'change'] as const;
export type WalletChain = (typeof WALLET_CHAINS)[number];
export const CHAIN_INDEX: Record<WalletChain, number> = { receive: 0, change: 1 };

/** BIP32 "versions" by prefix (rusty-kaspa wallet/bip32/src/prefix.rs); a public prefix names its private twin. */
const VERSIONS = {
  kpub: { public: 0x038f332e, private: 0x038f2ef4 },
  ktub: { public: 0x0390a241, private: 0x03909e07 },
  xpub: { public: 0x0488b21e, private: 0x0488ade4 },
  tpub: { public: 0x043587cf, private: 0x04358394 },
} as const;
export type ExtendedPublicKeyPrefix = keyof typeof VERSIONS;
export const EXTENDED_PUBLIC_KEY_PREFIXES = Object.keys(VERSIONS) as ExtendedPublicKeyPrefix[];
const PRIVATE_PREFIXES = new Set(['kprv', 'ktrv', 'xprv', 'tprv']);

export function extendedKeyVersions(prefix: ExtendedPublicKeyPrefix): { public: number; private: number } {
  return VERSIONS[prefix];
}

/** Why an extended key was refused; the message never repeats the key. */
export class ExtendedKeyError extends Error {
  override name = 'ExtendedKeyError';
}

export interface WalletKey {
  prefix: ExtendedPublicKeyPrefix;
  /** The chain keys, derived once: deriving an address is then one child step. */
  chains: Record<WalletChain, HDKey>;
  /** Addresses derived so far, by "network/chain/index": a child step costs about a millisecond of curve work. */
  derived: Map<string, string>;
}

/**
 * Recently used wallets, so paging through a history does not derive its addresses again. Keyed by the key's SHA-256
 * digest; the entries hold derived public keys and addresses, nothing that is not already public on the chain.
 */
const RECENT_WALLETS_MAX = 64;
const recentWallets = new Map<string, WalletKey>();

/** Parses a kpub, ktub, xpub or tpub (Base58Check, 78 bytes); private keys are refused so they are never used here. */
export function parseExtendedPublicKey(text: string): WalletKey {
  const digest = createHash('sha256').update(text).digest('hex');
  const recent = recentWallets.get(digest);
  if (recent !== undefined) {
    recentWallets.delete(digest);
    recentWallets.set(digest, recent);
    return recent;
  }
  const key = readExtendedPublicKey(text);
  recentWallets.set(digest, key);
  if (recentWallets.size > RECENT_WALLETS_MAX) recentWallets.delete(recentWallets.keys().next().value!);
  return key;
}

function readExtendedPublicKey(text: string): WalletKey {
  const prefix = text.slice(0, 4);
  if (PRIVATE_PREFIXES.has(prefix)) {
    throw new ExtendedKeyError('is an extended private key; send the account’s extended public key instead');
  }
  if (!(prefix in VERSIONS)) {
    throw new ExtendedKeyError(`must be an extended public key starting with ${EXTENDED_PUBLIC_KEY_PREFIXES.join(', ')}`);
  }
  const publicPrefix = prefix as ExtendedPublicKeyPrefix;
  let account: HDKey;
  try {
    account = HDKey.fromExtendedKey(text, VERSIONS[publicPrefix]);
  } catch {
    throw new ExtendedKeyError('is not a valid extended public key (bad length, checksum or point)');
  }
  if (account.privateKey !== null) throw new ExtendedKeyError('is an extended private key');
  return {
    prefix: publicPrefix,
    chains: {
      receive: account.deriveChild(CHAIN_INDEX.receive),
      change: account.deriveChild(CHAIN_INDEX.change),
    },
    derived: new Map(),
  };
}

export interface DerivedAddress {
  address: string;
  chain: WalletChain;
  index: number;
}

/** The address at <account>/<chain>/<index>. */
export function deriveAddress(key: WalletKey, chain: WalletChain, index: number, network: AddressPrefix): string {
  const slot = `${network}/${chain}/${index}`;
  const known = key.derived.get(slot);
  if (known !== undefined) return known;
  const child = key.chains[chain].deriveChild(index);
  if (child.publicKey === null) throw new Error('public derivation produced no public key');
  // The child key is a curve point by construction: its compressed form's x coordinate is the address payload.
  const address = encodeAddress({ prefix: network, version: AddressVersion.PubKey, payload: child.publicKey.slice(1) });
  key.derived.set(slot, address);
  return address;
}

/** Addresses `start` … `start + count − 1` of one chain. */
export function deriveAddresses(
  key: WalletKey,
  chain: WalletChain,
  start: number,
  count: number,
  network: AddressPrefix,
): DerivedAddress[] {
  return Array.from({ length: count }, (_, offset) => ({
    address: deriveAddress(key, chain, start + offset, network),
    chain,
    index: start + offset,
  }));
}
