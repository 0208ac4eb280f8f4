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

/**
 * JSON is masked as a structure (by key and by value), which is exact where text masking has to guess. `compact`:
 * one line, for files read by programs only (Allure's results: a third of their size is indentation). `records`:
 * each top-level key on a line and each element of a top-level list on a line of its own (a scenario, a rule):
 * as small as compact, and still read, grepped and diffed a record at a time (summary.json, matrix.json).
 */
export function writeRedactedJson(file: string, value: unknown, opts: { compact?: boolean; records?: boolean } = {}): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const masked = redact(value);
  fs.writeFileSync(file, (opts.records ? recordsJson(masked) : JSON.stringify(masked, null, opts.compact ? undefined : 2)) + '\n', 'utf8');
  return file;
}

/** A value as JSON, a record per line: the top-level keys, and the elements of a top-level list. */
export function recordsJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  const list = (items: readonly unknown[], indent: string): string => (items.length === 0 ? '[]' : `[\n${items.map((x) => `${indent}  ${JSON.stringify(x) ?? 'null'}`).join(',\n')}\n${indent}]`);
  if (Array.isArray(value)) return list(value, '');
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined && typeof v !== 'function');
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([k, v]) => `  ${JSON.stringify(k)}: ${Array.isArray(v) ? list(v, '  ') : JSON.stringify(v)}`).join(',\n')}\n}`;
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

/** A file of one JSON record a line, written as the records come (`writeRedactedNdjson`). */
export interface NdjsonWriter {
  /** Never throws (a caller's event loop goes on): a failure to write is thrown by `close`. */
  write(record: unknown): void;
  /** Writes what is held and closes the file; throws the first failure to write, once. Later records are dropped. */
  close(): void;
}

const NDJSON_CHUNK = 1 << 20;

/**
 * Records masked as structures (as `redactFileInPlace` masks an NDJSON file) and written a line each, as they
 * come: the file never holds them unmasked. `finish` sees each chunk of whole lines before it is written (the
 * reports' relative paths). Written synchronously, so that the file is whole once `close` returns.
 */
export function writeRedactedNdjson(file: string, finish: (lines: string) => string = (l) => l): NdjsonWriter {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let fd: number | undefined = fs.openSync(file, 'w');
  let failure: Error | undefined;
  let held: string[] = [];
  let size = 0;
  const flush = (): void => {
    if (fd === undefined || held.length === 0) return;
    const text = held.join('');
    held = [];
    size = 0;
    const bytes = Buffer.from(finish(text), 'utf8');
    for (let at = 0; at < bytes.length;) at += fs.writeSync(fd, bytes, at, bytes.length - at);
  };
  // The records before a failure stay in the file (held ones are written, if the failure was not the disk's).
  const stop = (e: unknown): void => {
    failure ??= e instanceof Error ? e : new Error(String(e));
    try {
      flush();
    } catch {
      // The disk's failure: the first one is kept.
    }
    if (fd !== undefined) fs.closeSync(fd);
    fd = undefined;
  };
  return {
    write(record) {
      if (fd === undefined) return;
      try {
        const line = `${JSON.stringify(redact(record))}\n`;
        held.push(line);
        size += line.length;
        if (size >= NDJSON_CHUNK) flush();
      } catch (e) {
        stop(e);
      }
    },
    close() {
      try {
        flush();
      } catch (e) {
        stop(e);
      }
      if (fd !== undefined) fs.closeSync(fd);
      fd = undefined;
      const e = failure;
      failure = undefined;
      if (e) throw new Error(redactText(`could not write ${file}: ${e.message}`));
    },
  };
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
