/** Labels for the devnet's traffic wallets, as the embedded devnet's address names (/kaspa-rest/addresses/names). */
import { schnorrAddressFromPublicKey, type AddressPrefix } from '../../kaspa/address';
import { nobleSecp256k1 } from '../../kaspa/signing';
import { deriveWalletPrivateKey } from './wallet';

/** The devnet's traffic wallets (the first `count`, as lib/devnet derives them from the seed). */
export function devnetWalletNames(seed: string, count: number, prefix: AddressPrefix = 'kaspadev'): { address: string; name: string }[] {
  return Array.from({ length: count }, (_, index) => ({
    address: schnorrAddressFromPublicKey(nobleSecp256k1.schnorrPublicKey(deriveWalletPrivateKey(seed, index)), prefix),
    name: `devnet wallet ${index}`,
  }));
}
