/** Escaping for the Markdown and HTML renderings: a quote or an error message must never break a table or a page. */
import { quoteCells, quoteText } from '../rules/quote';

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** One Markdown table cell: pipes escaped, line breaks turned into `<br>`. */
export function mdCell(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, '<br>');
}

/** The first line of a message, shortened for a table. */
export function firstLine(s: string, max = 200): string {
  const line = s.split('\n').find((l) => l.trim() !== '') ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** An HTML id for a rule (Allure links and the matrix's own table of contents point at it). */
export function ruleAnchor(id: string): string {
  return `rule-${id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

export function mdTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const r of rows) lines.push(`| ${r.map(mdCell).join(' | ')} |`);
  return lines.join('\n');
}

/**
 * A rule's quote for Markdown: a table row of the document becomes its cells joined by " · " (a lone row is no
 * table in a blockquote, and its pipes would show raw); inline code stays inline code.
 */
export function quoteMarkdown(quote: string): string {
  return quoteText(quote);
}

/** The same for HTML: escaped, with `code` rendered as <code>. */
export function quoteHtml(quote: string): string {
  return quoteCells(quote)
    .map((c) => escapeHtml(c).replace(/`([^`]+)`/g, '<code>$1</code>'))
    .join(' · ');
}

/** Text written with hard line breaks (a feature's description) reflowed: lines joined, blank lines kept as paragraphs. */
export function reflow(text: string): string {
  return text
    .split(/\n\s*\n/)
    .map((p) =>
      p
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== '')
        .join(' '),
    )
    .filter((p) => p !== '')
    .join('\n\n');
}
