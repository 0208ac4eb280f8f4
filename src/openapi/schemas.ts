/**
 * The committed JSON Schemas (schemas/*.schema.json), read and turned into OpenAPI 3.1 components. The schemas are
 * read from the committed files (as src/validate does), not rebuilt, so that the OpenAPI document describes exactly
 * what the kit publishes and checks with; nothing about a field is retyped here.
 *
 * Each file becomes one component, and each `$defs` entry of a file becomes a component of its own, so that every
 * `$ref` can point inside the one OpenAPI document (`#/components/schemas/<name>`): tools that read OpenAPI resolve
 * local references everywhere, but few resolve the schemas' relative `$id`-based ones (`fields.schema.json#/...`).
 */
import * as fs from 'fs';
import * as path from 'path';
import { FIELDS_FILE, INDEX_FILE, REQUEST_ENVELOPE_FILE, RESPONSE_ENVELOPE_FILE, requestRowFile, responsePartFile } from '../../schemas/files';
import { REQUEST_TYPES } from '../../schemas/fields';
import { OPERATIONS } from '../../schemas/operations';

export type Json = { [key: string]: JsonValue };
export type JsonValue = string | number | boolean | null | JsonValue[] | Json;

export const SCHEMA_DIR = path.join(__dirname, '..', '..', 'schemas');
/** Where OpenAPI keeps reusable schemas. */
export const COMPONENTS = '#/components/schemas/';

/** Component names OpenAPI allows (OpenAPI 3.1, Components Object: `^[a-zA-Z0-9\.\-_]+$`). */
export const COMPONENT_NAME = /^[a-zA-Z0-9.\-_]+$/;

/** A broken checkout (a schema file missing or unreadable): said with how to repair it. */
export class SchemaFileError extends Error {
  override name = 'SchemaFileError';
}

export function isJson(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function readSchemaFile(dir: string, file: string): Json {
  const full = path.join(dir, file);
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(full, 'utf8'));
  } catch (err) {
    throw new SchemaFileError(`cannot read ${file} (${(err as Error).message}); run \`npm run schemas\` to regenerate the schemas`);
  }
  if (!isJson(parsed)) throw new SchemaFileError(`${file} does not hold a JSON object; run \`npm run schemas\``);
  return parsed;
}

/** Component name of a whole schema file. Rows and parts get a prefix so they can never meet a field's name. */
export function componentOfFile(file: string): string {
  if (file === REQUEST_ENVELOPE_FILE) return 'RequestEnvelopeBase';
  if (file === RESPONSE_ENVELOPE_FILE) return 'ResponseEnvelopeBase';
  const row = OPERATIONS.find((o) => requestRowFile(o.id) === file);
  if (row) return `row.${row.id}`;
  const type = REQUEST_TYPES.find((t) => responsePartFile(t) === file);
  if (type) return `part.${type}`;
  return file.replace(/\.schema\.json$/, '').replace(/[^a-zA-Z0-9.\-_]/g, '_');
}

export interface LoadedSchemas {
  /** Component name -> schema, with every `$ref` pointing into `#/components/schemas/`. */
  readonly components: Map<string, Json>;
  /** Schema file -> its component (a file's `$defs` are components of their own, under their own names). */
  readonly fileComponent: ReadonlyMap<string, string>;
}

/**
 * Rewrites one `$ref` of `file` to the component it names: `fields.schema.json#/$defs/request.pan` and (inside
 * fields.schema.json) `#/$defs/request.pan` become `#/components/schemas/request.pan`; a pointer deeper than a
 * definition keeps its tail.
 */
function rewriteRef(ref: string, file: string, fileComponent: ReadonlyMap<string, string>, defComponent: ReadonlyMap<string, string>): string {
  const hash = ref.indexOf('#');
  const target = hash < 0 ? ref : ref.slice(0, hash);
  const pointer = hash < 0 ? '' : ref.slice(hash + 1);
  const targetFile = target === '' ? file : target;
  const m = /^\/\$defs\/([^/]+)(\/.*)?$/.exec(pointer);
  if (m) {
    const def = defComponent.get(`${targetFile}#${decodeURIComponent(m[1])}`);
    if (def) return COMPONENTS + def + (m[2] ?? '');
  } else {
    const whole = fileComponent.get(targetFile);
    if (whole) return COMPONENTS + whole + pointer;
  }
  throw new SchemaFileError(`${file}: $ref ${ref} names no schema in ${INDEX_FILE}; run \`npm run schemas\``);
}

function rewrite(node: JsonValue, file: string, files: ReadonlyMap<string, string>, defs: ReadonlyMap<string, string>): JsonValue {
  if (Array.isArray(node)) return node.map((n) => rewrite(n, file, files, defs));
  if (!isJson(node)) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    // `$id` would change the base that the rewritten `#/components/...` references resolve against; `$schema` is
    // the document's (OpenAPI 3.1's dialect is JSON Schema 2020-12, which the schemas are written in); `$defs` are
    // lifted to components of their own.
    if (key === '$id' || key === '$schema' || key === '$defs') continue;
    if (key === '$ref' && typeof value === 'string') out[key] = rewriteRef(value, file, files, defs);
    else out[key] = rewrite(value, file, files, defs);
  }
  return out;
}

/** Reads schemas/index.json and every file it lists, and returns them as OpenAPI components. */
export function loadComponents(dir: string = SCHEMA_DIR): LoadedSchemas {
  const index = readSchemaFile(dir, INDEX_FILE);
  const entries = Array.isArray(index.schemas) ? index.schemas : [];
  const files = entries.map((e) => (isJson(e) && typeof e.file === 'string' ? e.file : '')).filter((f) => f !== '');
  for (const required of [FIELDS_FILE, REQUEST_ENVELOPE_FILE, RESPONSE_ENVELOPE_FILE]) {
    if (!files.includes(required)) throw new SchemaFileError(`${INDEX_FILE} does not list ${required}; run \`npm run schemas\``);
  }
  const raw = new Map(files.map((f) => [f, readSchemaFile(dir, f)]));
  const fileComponent = new Map<string, string>();
  const defComponent = new Map<string, string>();
  const owner = new Map<string, string>();
  const claim = (name: string, what: string): void => {
    if (!COMPONENT_NAME.test(name)) throw new SchemaFileError(`${what} cannot be an OpenAPI component name ("${name}")`);
    const before = owner.get(name);
    if (before) throw new SchemaFileError(`${what} and ${before} would share the component name "${name}"`);
    owner.set(name, what);
  };
  for (const [file, schema] of raw) {
    // fields.schema.json is only a holder of `$defs`: it gets no component of its own.
    if (file !== FIELDS_FILE) {
      const name = componentOfFile(file);
      claim(name, file);
      fileComponent.set(file, name);
    }
    const defs = isJson(schema.$defs) ? schema.$defs : {};
    for (const def of Object.keys(defs)) {
      claim(def, `${file}#/$defs/${def}`);
      defComponent.set(`${file}#${def}`, def);
    }
  }
  const components = new Map<string, Json>();
  for (const [file, schema] of raw) {
    const defs = isJson(schema.$defs) ? schema.$defs : {};
    for (const [def, body] of Object.entries(defs)) components.set(def, rewrite(body, file, fileComponent, defComponent) as Json);
    const name = fileComponent.get(file);
    if (name) components.set(name, rewrite(schema, file, fileComponent, defComponent) as Json);
  }
  return { components, fileComponent };
}
