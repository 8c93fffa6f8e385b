/** What the API reference's server page and its client sections share. */

/** Calls that change the chain, or are the document itself, are shown with the document's example answer. */
export const DOCUMENT_EXAMPLE_ONLY: ReadonlySet<string> = new Set([
  'submitBlock',
  'submitTransaction',
  'submitTransactionReplacement',
  'getOpenApiDocument',
]);

export const groupAnchor = (tag: string) => `group-${tag.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
