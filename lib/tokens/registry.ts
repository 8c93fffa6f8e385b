/**
 * The operator-editable token registry: off-chain metadata per ticker (icon, social links, markets) in a JSON file.
 * Only http and https URLs are accepted, and for icons also a path on this site (`/token-icons/x.svg`, served from
 * public/; the shipped devnet registry's icons are such files, so they load without the internet); the file is
 * validated as a whole and a bad file is refused with the path of the first problem. Shape:
 *   {"tokens": {"DAGB": {"iconUrl": "https://…", "socialLinks": [{"type": "website", "url": "https://…"}],
 *                        "markets": [{"name": "…", "url": "https://…", "iconUrl": "https://…"}]}}}
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';

const httpUrl = z
  .string()
  .max(2048)
  .refine((text) => {
    try {
      const url = new URL(text);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'must be an http or https URL');

/** A path on this site: one leading slash (two would name another host), no backslash, no scheme. */
const sitePath = z.string().max(2048).regex(/^\/(?![/\\])[^\\\s]*$/);

const iconUrl = z.union([httpUrl, sitePath], { error: 'must be an http or https URL, or a path on this site' });

const label = z.string().min(1).max(64);

export const tokenRegistryEntrySchema = z.strictObject({
  iconUrl: iconUrl.optional(),
  socialLinks: z.array(z.strictObject({ type: label, url: httpUrl })).max(32).default([]),
  markets: z.array(z.strictObject({ name: label, url: httpUrl, iconUrl: iconUrl.optional() })).max(32).default([]),
});

export const tokenRegistrySchema = z.strictObject({
  tokens: z.record(z.string().regex(/^[A-Za-z]{4,6}$|^[0-9a-fA-F]{64}$/, 'must be a tick (4–6 letters) or a ca'), tokenRegistryEntrySchema),
});

export type TokenRegistryEntry = z.output<typeof tokenRegistryEntrySchema>;

export interface TokenRegistry {
  /** By tick (any case) or ca. */
  entry(tick: string): TokenRegistryEntry | undefined;
  size: number;
}

const keyOf = (tick: string) => (tick.length === 64 ? tick.toLowerCase() : tick.toUpperCase());

export function tokenRegistry(data: unknown): TokenRegistry {
  const parsed = tokenRegistrySchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`token registry: ${issue.path.join('.')}: ${issue.message}`);
  }
  const entries = new Map(Object.entries(parsed.data.tokens).map(([tick, entry]) => [keyOf(tick), entry]));
  return { entry: (tick) => entries.get(keyOf(tick)), size: entries.size };
}

export const EMPTY_REGISTRY: TokenRegistry = tokenRegistry({ tokens: {} });

export async function loadTokenRegistry(path: string): Promise<TokenRegistry> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new Error(`token registry ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`token registry ${path}: not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  return tokenRegistry(data);
}
