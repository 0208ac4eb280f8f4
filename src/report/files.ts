/**
 * The only way the reports write files. Every text goes through `redactText` and every structure through `redact`
 * (src/redact.ts) on its way to disk, so a report can never hold what the masking would have hidden, whoever
 * produced the content (a step, cucumber, allure-cucumberjs, an assertion message).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { redact, redactText } from '../redact';

export function writeRedactedText(file: string, text: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, redactText(text), 'utf8');
  return file;
}

/** JSON is masked as a structure (by key and by value), which is exact where text masking has to guess. */
export function writeRedactedJson(file: string, value: unknown, opts: { compact?: boolean } = {}): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Compact for files read by programs only (Allure's results: a third of their size is indentation).
  fs.writeFileSync(file, JSON.stringify(redact(value), null, opts.compact ? undefined : 2) + '\n', 'utf8');
  return file;
}

/**
 * Bytes whose kind is unknown (an attachment): text is masked, binary content (an image) is written as it is,
 * since no text masking can apply to it. Text is recognised by the absence of NUL bytes and valid UTF-8.
 */
export function writeRedactedBytes(file: string, content: Buffer): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (isText(content)) fs.writeFileSync(file, redactText(content.toString('utf8')), 'utf8');
  else fs.writeFileSync(file, content);
  return file;
}

export function isText(content: Buffer): boolean {
  if (content.includes(0)) return false;
  return Buffer.from(content.toString('utf8'), 'utf8').equals(content);
}

/**
 * Masks, in place, a file that another program wrote (cucumber's messages and HTML). NDJSON is masked line by
 * line as structures, so that a request serialized inside an attachment's `body` is masked by key, too.
 * Returns false when the file does not exist.
 */
export function redactFileInPlace(file: string): boolean {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return false;
  }
  const out = file.endsWith('.ndjson') ? text.split('\n').map(redactNdjsonLine).join('\n') : redactText(text);
  if (out !== text) fs.writeFileSync(file, out, 'utf8');
  return true;
}

function redactNdjsonLine(line: string): string {
  if (line.trim() === '') return line;
  try {
    return JSON.stringify(redact(JSON.parse(line) as unknown));
  } catch {
    return redactText(line);
  }
}
