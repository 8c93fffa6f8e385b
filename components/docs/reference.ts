/** What the API reference's server page and its client sections share. */

import { PROBLEM_CODE_FAMILIES, type ProblemFamilyId } from '@/lib/api/http/problem-families';

/**
 * Calls that change the chain, or are the document itself, are shown with the document's example answer; so are the
 * webhook calls, which the explorer's shared server key does not serve (every visitor would share its webhooks).
 */
export const DOCUMENT_EXAMPLE_ONLY: ReadonlySet<string> = new Set([
  'submitBlock',
  'submitTransaction',
  'submitTransactionReplacement',
  'getOpenApiDocument',
  'createWebhook',
  'listWebhooks',
  'getWebhook',
  'deleteWebhook',
  'listWebhookDeliveries',
]);

export const groupAnchor = (tag: string) => `group-${tag.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

export const familyLabel = (id: ProblemFamilyId): string =>
  PROBLEM_CODE_FAMILIES.find((family) => family.id === id)?.label ?? id;

/** "a", "a and b", "a, b and c". */
export function listText(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
