/**
 * The address labels of /addresses/names and /addresses/{a}/name: an operator's JSON file
 * (`[{"address": "kaspa:…", "name": "…"}, …]`, read once), or on the embedded devnet its traffic wallets, named by index
 * (lib/devnet/traffic/wallet-names.ts; the runtime chooses).
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';

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
