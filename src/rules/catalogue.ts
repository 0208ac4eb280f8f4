/**
 * The rule catalogue (features/rules.yaml): every sentence of the document that the kit checks, cannot check, or
 * finds unspecified, with its ID. The traceability matrix lists every entry, whether or not a scenario checks it.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { redactText } from '../redact';
import { readScope, type Scope } from './scope';

export type RuleStatus = 'testable' | 'untestable' | 'unspecified';
const STATUSES: readonly RuleStatus[] = ['testable', 'untestable', 'unspecified'];

export interface CatalogueRule {
  readonly id: string;
  readonly section: string;
  /** The document's sentence, quoted. */
  readonly quote: string;
  readonly status: RuleStatus;
  /** Why a rule is untestable or unspecified. */
  readonly why?: string;
  /** The envelope forms the rule applies to (`formats: [xml]`); absent: both. A run of another form does not need it. */
  readonly formats?: readonly ('json' | 'xml')[];
  /** Where the rule applies, read from its sentence (src/rules/scope.ts); the kit's testable rules all have one. */
  readonly scope?: Scope;
}

export interface Catalogue {
  readonly file: string;
  readonly rules: CatalogueRule[];
  readonly problems: string[];
}

/** The kit's own catalogue, beside the features. */
export const DEFAULT_CATALOGUE = path.join(__dirname, '..', '..', 'features', 'rules.yaml');

/** Reads a catalogue; a missing or malformed file gives the rules it could read and says what was wrong. */
export function loadCatalogue(file: string = DEFAULT_CATALOGUE): Catalogue {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    return { file, rules: [], problems: [redactText(`rule catalogue ${file} could not be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`)] };
  }
  let doc: unknown;
  try {
    doc = compiledCatalogue(file, text) ?? parseYaml(text);
  } catch (e) {
    return { file, rules: [], problems: [redactText(`rule catalogue ${file} is not YAML: ${(e as Error).message.split('\n')[0]}`)] };
  }
  return readCatalogue(doc, file);
}

/**
 * The kit's catalogue as a packed kit carries it, parsed at pack time (scripts/build.js): reading the YAML takes a
 * tenth of a second and more, the JSON a millisecond. Used only while it is of this very text (its sha256), so an
 * edited rules.yaml is never read from a stale copy; undefined otherwise (a clone has none).
 */
export const COMPILED_CATALOGUE = path.join(__dirname, '..', '..', 'features', 'rules.compiled.json');

/** The YAML parser, loaded when a catalogue is read from YAML: a run of a packed kit then loads none. */
function parseYaml(text: string): unknown {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('yaml') as typeof import('yaml')).parse(text);
}

function compiledCatalogue(file: string, text: string): unknown {
  if (path.resolve(file) !== DEFAULT_CATALOGUE) return undefined;
  let compiled: { sha256?: unknown; doc?: unknown };
  try {
    compiled = JSON.parse(fs.readFileSync(COMPILED_CATALOGUE, 'utf8')) as { sha256?: unknown; doc?: unknown };
  } catch {
    return undefined;
  }
  return compiled.sha256 === createHash('sha256').update(text).digest('hex') ? compiled.doc : undefined;
}

export function readCatalogue(doc: unknown, file: string): Catalogue {
  const problems: string[] = [];
  const rules: CatalogueRule[] = [];
  // A catalogue may be the list itself or `{rules: [...]}`.
  const list = Array.isArray(doc) ? doc : isRecord(doc) && Array.isArray(doc.rules) ? doc.rules : undefined;
  if (!list) return { file, rules, problems: [`rule catalogue ${file} is not a list of rules`] };
  const seen = new Set<string>();
  list.forEach((entry: unknown, i: number) => {
    const where = `rule catalogue ${path.basename(file)}, entry ${i + 1}`;
    if (!isRecord(entry)) {
      problems.push(`${where} is not a mapping`);
      return;
    }
    const id = str(entry.id);
    if (!id) {
      problems.push(`${where} has no id`);
      return;
    }
    if (seen.has(id)) {
      problems.push(`${where}: id ${id} appears twice; the first is used`);
      return;
    }
    seen.add(id);
    const status = str(entry.status) as RuleStatus;
    if (!STATUSES.includes(status)) problems.push(`${where} (${id}): status must be one of ${STATUSES.join(', ')}; read as unspecified`);
    if (!str(entry.quote)) problems.push(`${where} (${id}) has no quote`);
    const why = str(entry.why);
    let formats: ('json' | 'xml')[] | undefined;
    if (entry.formats !== undefined) {
      const list = Array.isArray(entry.formats) ? entry.formats : [entry.formats];
      formats = list.filter((f): f is 'json' | 'xml' => f === 'json' || f === 'xml');
      if (formats.length !== list.length || formats.length === 0) problems.push(`${where} (${id}): formats must list json and/or xml`);
      if (formats.length === 0) formats = undefined;
    }
    let scope: Scope | undefined;
    if (entry.scope !== undefined) {
      const read = readScope(entry.scope);
      for (const p of read.problems) problems.push(`${where} (${id}): ${p}`);
      scope = read.scope;
    }
    rules.push({
      id,
      section: str(entry.section) ?? '',
      quote: str(entry.quote) ?? '',
      status: STATUSES.includes(status) ? status : 'unspecified',
      ...(why ? { why } : {}),
      ...(formats ? { formats } : {}),
      ...(scope ? { scope } : {}),
    });
  });
  return { file, rules, problems: problems.map(redactText) };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v.trim() || undefined;
  if (typeof v === 'number') return String(v);
  return undefined;
}
