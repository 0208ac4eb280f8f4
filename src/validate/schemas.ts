/**
 * The committed JSON Schemas (schemas/*.schema.json), loaded and compiled once, lazily: the first validation pays
 * for ajv's compilation, later ones reuse it, and `cardspec` commands that never validate pay nothing. The
 * schemas are read from the committed files, not rebuilt from the dictionary, so that the kit checks with exactly
 * what it publishes (test/schemas/build.test.ts keeps the two equal).
 */
import * as fs from 'fs';
import * as path from 'path';
import Ajv2020, { type ErrorObject } from 'ajv/dist/2020';
import { ANNOTATION_KEYWORDS, INDEX_FILE, SCHEMA_BASE } from '../../schemas/files';

export type SchemaError = ErrorObject;

/** A compiled schema: `true` when the value passes, else the errors (with `parentSchema`, for the annotations). */
export type Check = (value: unknown) => SchemaError[];

const SCHEMA_DIR = path.join(__dirname, '..', '..', 'schemas');

interface IndexFile {
  schemas: { file: string; $id: string; title: string }[];
}

let ajv: Ajv2020 | undefined;
const checks = new Map<string, Check>();
const roots = new Map<string, Record<string, unknown>>();

function readJson(file: string): unknown {
  const full = path.join(SCHEMA_DIR, file);
  try {
    return JSON.parse(fs.readFileSync(full, 'utf8'));
  } catch (err) {
    // A missing or broken file is a broken checkout, not bad input: say how to repair it.
    throw new Error(`cardspec: cannot load ${path.relative(process.cwd(), full)} (${(err as Error).message}); run \`npm run schemas\` to regenerate the schemas`);
  }
}

function instance(): Ajv2020 {
  if (ajv) return ajv;
  const a = new Ajv2020({
    allErrors: true,
    // `parentSchema` on each error is how a violation finds its `x-rule` and `x-section`.
    verbose: true,
    // Strict about unknown keywords (a typo in build.ts fails loudly), with the annotations declared below; the
    // schemas deliberately put `pattern`/`required` in nodes without `type` (a node holds one rule), and name
    // fields in `required` that other branches define.
    strict: true,
    strictTypes: false,
    strictRequired: false,
  });
  a.addVocabulary([...ANNOTATION_KEYWORDS]);
  const index = readJson(INDEX_FILE) as IndexFile;
  for (const entry of index.schemas) {
    const schema = readJson(entry.file) as Record<string, unknown>;
    a.addSchema(schema);
    roots.set(entry.file, schema);
  }
  ajv = a;
  return a;
}

/** The compiled check of a schema file, or of a definition inside it (`fragment`: `#/$defs/...`). */
export function checkFor(file: string, fragment = ''): Check {
  const key = file + fragment;
  let check = checks.get(key);
  if (!check) {
    const validate = compiled(file, fragment);
    check = (value: unknown): SchemaError[] => (validate(value) ? [] : [...(validate.errors ?? [])]);
    checks.set(key, check);
  }
  return check;
}

/** A yes/no check of a schema file, for a fast path that needs no errors. */
export function passes(file: string): (value: unknown) => boolean {
  let test = tests.get(file);
  if (!test) {
    const validate = compiled(file);
    test = (value: unknown): boolean => validate(value) === true;
    tests.set(file, test);
  }
  return test;
}

const tests = new Map<string, (value: unknown) => boolean>();

/** ajv's compiled function of a schema file or of a definition inside it (compiled once; ajv keeps it). */
function compiled(file: string, fragment = ''): NonNullable<ReturnType<Ajv2020['getSchema']>> {
  const validate = instance().getSchema(SCHEMA_BASE + file + fragment);
  if (!validate) throw new Error(`cardspec: no schema ${file}${fragment}; run \`npm run schemas\``);
  return validate;
}

/**
 * An envelope's own checks without its list's items (`response.items` of the response envelope, `request.items` of
 * the request envelope left out), compiled once from the committed schema. Every response part schema holds every
 * check of the envelope's `response-part`, and every request row schema every check of the envelope's
 * `request-object` (build.ts builds both from the same properties and base rules and adds to the part and row
 * schemas only; test/schemas keeps it so): an item that passes its type's or row's schema passes the envelope's
 * items too, so checking both is done only to report, not to decide.
 */
export function passesEnvelopeShell(file: string, list: 'response' | 'request' = 'response'): (value: unknown) => boolean {
  let test = shells.get(file);
  if (!test) {
    const a = instance();
    const root = structuredClone(roots.get(file)) as { $id: string; properties?: Record<string, { items?: unknown } | undefined> };
    const listSchema = root?.properties?.[list];
    if (!listSchema) throw new Error(`cardspec: ${file} has no ${list} list; run \`npm run schemas\``);
    delete listSchema.items;
    root.$id = root.$id.replace(/\.schema\.json$/, '.shell.schema.json');
    const validate = a.compile(root);
    test = (value: unknown): boolean => validate(value) === true;
    shells.set(file, test);
  }
  return test;
}

const shells = new Map<string, (value: unknown) => boolean>();

/** The parsed root of a schema file (for its title and annotations such as `x-recommended`). */
export function schemaRoot(file: string): Record<string, unknown> {
  instance();
  const root = roots.get(file);
  if (!root) throw new Error(`cardspec: no schema ${file}; run \`npm run schemas\``);
  return root;
}
