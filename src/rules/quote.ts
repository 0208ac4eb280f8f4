/**
 * A rule's quote as text: the catalogue quotes a row of one of the document's tables as Markdown (`| a | \`b\` | c |`),
 * which shown as it is puts raw pipes on a page. One reading of such a quote, for every page that shows one (the
 * matrix, the summary, the client case pages).
 */

/** A quoted table row of the document as its cells; any other quote as one cell. */
export function quoteCells(quote: string): string[] {
  const q = quote.trim();
  if (!(q.startsWith('|') && q.endsWith('|'))) return [q];
  return q
    .slice(1, -1)
    .split(/(?<!\\)\|/)
    .map((c) => c.trim())
    .filter((c) => c !== '');
}

/** The quote as one line of text: a row's cells joined by " · ", inline code kept as it is written. */
export function quoteText(quote: string): string {
  return quoteCells(quote).join(' · ');
}
