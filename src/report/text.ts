/** Escaping for the Markdown and HTML renderings: a quote or an error message must never break a table or a page. */

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
