/**
 * Cucumber's HTML report, built after the run from the masked messages rather than by cucumber's `html`
 * formatter during it. The page embeds every message (attachments and error messages included) inside its script;
 * masking the finished page as text would also rewrite the page's own code (`password:!0` in its bundled
 * JavaScript), so the messages are masked as structures first and only then handed to cucumber's own page
 * builder (@cucumber/html-formatter, the library behind the `html` formatter).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Envelope } from '@cucumber/messages';
import type { CucumberHtmlStream as HtmlStreamType } from '@cucumber/html-formatter';
import { redact } from '../redact';

type HtmlStreamClass = new () => HtmlStreamType;

/** Resolved from @cucumber/cucumber's own folder: it is cucumber's dependency, at the version cucumber expects. */
function htmlStreamClass(): HtmlStreamClass {
  const from = path.dirname(require.resolve('@cucumber/cucumber'));
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require(require.resolve('@cucumber/html-formatter', { paths: [from] })) as { CucumberHtmlStream: HtmlStreamClass };
  return mod.CucumberHtmlStream;
}

/** Writes the HTML report of one messages file; returns false when there are no messages to show. */
export async function writeCucumberHtml(messagesFile: string, htmlFile: string): Promise<boolean> {
  let text: string;
  try {
    text = fs.readFileSync(messagesFile, 'utf8');
  } catch {
    return false;
  }
  const envelopes: Envelope[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const v = JSON.parse(line) as unknown;
      if (v !== null && typeof v === 'object') envelopes.push(redact(v as Envelope));
    } catch {
      // A damaged line is left out here; the summary says how many (messages.ts).
    }
  }
  if (envelopes.length === 0) return false;
  const Stream = htmlStreamClass();
  const stream = new Stream();
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    stream.on('data', (c: Buffer | string) => chunks.push(typeof c === 'string' ? Buffer.from(c) : c));
    stream.on('end', resolve);
    stream.on('error', reject);
  });
  for (const e of envelopes) stream.write(e);
  stream.end();
  await done;
  fs.mkdirSync(path.dirname(htmlFile), { recursive: true });
  fs.writeFileSync(htmlFile, Buffer.concat(chunks));
  return true;
}
