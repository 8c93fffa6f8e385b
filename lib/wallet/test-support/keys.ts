import { HDKey } from '@scure/bip32';
import { extendedKeyVersions, KASPA_COIN_TYPE } from '../derivation';

/** rusty-kaspa v2.0.1 wallet/keys/src/derivation/gen1/hd.rs `hd_wallet_gen1`'s master private key. */
export const RUSTY_KASPA_MASTER_KPRV =
  'kprv5y2qurMHCsXYrNfU3GCihuwG3vMqFji7PZXajMEqyBkNh9UZUJgoHYBLTKu1eM4MvUtomcXPQ3Sw9HZ5ebbM4byoUciHo1zrPJBQfqpLorQ';

/** The account-0 extended public key of a master private key, as rusty-kaspa's wallet makes it. */
export function accountKeyOf(masterPrivate: string, prefix: 'kpub' | 'ktub'): string {
  const versions = extendedKeyVersions(prefix);
  const account = HDKey.fromExtendedKey(masterPrivate, versions).derive(`m/44'/${KASPA_COIN_TYPE}'/0'`);
  return HDKey.fromExtendedKey(account.publicExtendedKey, versions).publicExtendedKey;
}
