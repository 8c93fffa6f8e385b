/**
 * The devnet's HD wallet: a BIP32 account (m/44'/111111'/0', as rusty-kaspa's wallet derives it) from the devnet seed,
 * so the explorer's wallet view has a real wallet to show. The traffic's payments to fresh addresses go to its next
 * receive address (a new one each time, as a wallet hands them out), and its sweeps spend them to its next change
 * address. Each address it has handed out is a Wallet of the set, so its UTXOs are tracked and it can sign.
 *
 * Master key: BIP32's master from the 64-byte BLAKE2b of the seed keyed with "dagboard/devnet-hd-wallet".
 */
import { HDKey } from '@scure/bip32';
import { blake2b } from '@noble/hashes/blake2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import type { AddressPrefix } from '../../kaspa/address';
import { CHAIN_INDEX, deriveAddress, extendedKeyVersions, KASPA_COIN_TYPE, parseExtendedPublicKey, type WalletChain } from '../../wallet/derivation';
import { Wallet, type WalletContext } from './wallet';

const MASTER_KEY_DERIVATION_KEY = utf8ToBytes('dagboard/devnet-hd-wallet');
/** The most addresses it hands out per chain; past them fresh addresses come from the seed's plain keys again. */
export const HD_WALLET_ADDRESSES_PER_CHAIN = 200;

/** The account key of the devnet's HD wallet (the private key stays with the traffic). */
function demoAccount(seed: Uint8Array | string): HDKey {
  const seedBytes = typeof seed === 'string' ? utf8ToBytes(seed) : seed;
  const master = HDKey.fromMasterSeed(blake2b(seedBytes, { key: MASTER_KEY_DERIVATION_KEY, dkLen: 64 }), extendedKeyVersions('kpub'));
  return master.derive(`m/44'/${KASPA_COIN_TYPE}'/0'`);
}

/** The devnet HD wallet's extended public key (kpub); what GET /v1/wallets/demo answers. */
export function demoExtendedPublicKey(seed: Uint8Array | string): string {
  return demoAccount(seed).publicExtendedKey;
}

export class DevnetHdWallet {
  readonly extendedPublicKey: string;
  readonly #chains: Record<WalletChain, HDKey>;
  readonly #handedOut: Record<WalletChain, Wallet[]> = { receive: [], change: [] };

  constructor(
    seed: Uint8Array | string,
    readonly prefix: AddressPrefix,
    readonly context: WalletContext,
  ) {
    const account = demoAccount(seed);
    this.extendedPublicKey = account.publicExtendedKey;
    this.#chains = { receive: account.deriveChild(CHAIN_INDEX.receive), change: account.deriveChild(CHAIN_INDEX.change) };
  }

  /** The wallet's addresses handed out so far, receive chain then change chain. */
  wallets(): Wallet[] {
    return [...this.#handedOut.receive, ...this.#handedOut.change];
  }

  /** The next unused address of a chain as a signing Wallet, or null once the chain's budget is spent. */
  next(chain: WalletChain): Wallet | null {
    const list = this.#handedOut[chain];
    if (list.length >= HD_WALLET_ADDRESSES_PER_CHAIN) return null;
    const key = this.#chains[chain].deriveChild(list.length).privateKey;
    if (key === null) throw new Error('an HD account with a private key derives private children');
    const wallet = new Wallet(key, -1, this.prefix, this.context);
    list.push(wallet);
    return wallet;
  }

  /** The address at a chain and index, from the public key alone (what the wallet view derives). */
  addressAt(chain: WalletChain, index: number): string {
    return deriveAddress(parseExtendedPublicKey(this.extendedPublicKey), chain, index, this.prefix);
  }
}
