/**
 * The address labels of /addresses/names and /addresses/{a}/name: an operator's JSON file
 * (`[{"address": "kaspa:…", "name": "…"}, …]`, read once), or on the embedded devnet its traffic wallets, named by index.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { schnorrAddressFromPublicKey, type AddressPrefix } from '../kaspa/address';
import { nobleSecp256k1 } from '../kaspa/signing';
import { deriveWalletPrivateKey } from '../devnet/wallet';

export interface AddressName {
  address: string;
  name: string;
}

const namesFileSchema = z.array(z.object({ address: z.string().min(1), name: z.string().min(1) }).strict());

export async function readNamesFile(path: string): Promise<AddressName[]> {
  const parsed = namesFileSchema.safeParse(JSON.parse(await readFile(path, 'utf8')));
  if (!parsed.success) throw new Error(`${path}: expected [{"address": …, "name": …}, …]: ${parsed.error.message}`);
  return parsed.data;
}

/** The devnet's traffic wallets (the first `count`, as lib/devnet derives them from the seed). */
export function devnetWalletNames(seed: string, count: number, prefix: AddressPrefix = 'kaspadev'): AddressName[] {
  return Array.from({ length: count }, (_, index) => ({
    address: schnorrAddressFromPublicKey(nobleSecp256k1.schnorrPublicKey(deriveWalletPrivateKey(seed, index)), prefix),
    name: `devnet wallet ${index}`,
  }));
}
