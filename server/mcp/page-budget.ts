/**
 * Keeps a page of results within a size a model's context can take: whatever the events hold,
 * a page's JSON stays under PAGE_BUDGET_BYTES (about 12,000 tokens of English text, fewer than
 * 20,000 of any script), dropping entries from the end, which the next page then starts with.
 */

/** Upper bound on the UTF-8 size of one page's entries. */
export const PAGE_BUDGET_BYTES = 48_000;

const encoder = new TextEncoder();

/** How many of `entries`, from the start, fit the budget; always at least one. */
export function fitPage(entries: unknown[]): number {
  let bytes = 2;
  for (let i = 0; i < entries.length; i++) {
    bytes += encoder.encode(JSON.stringify(entries[i])).length + 1;
    if (bytes > PAGE_BUDGET_BYTES) return Math.max(1, i);
  }
  return entries.length;
}
