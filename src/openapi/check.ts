/**
 * A small structural check of an OpenAPI 3.1 document, without the network: the fields the specification marks
 * REQUIRED, the shapes of servers, paths, operations, responses and security, that every local `$ref` resolves, and
 * that every schema compiles as JSON Schema 2020-12 (OpenAPI 3.1's dialect) with each published example valid
 * against its schema. It is what `cardspec openapi` runs on its own output before writing it, and what the tests
 * assert; it is not a full OpenAPI validator (Prism loading the document is the second opinion, in the tests).
 */
import Ajv2020 from 'ajv/dist/2020';
import { COMPONENT_NAME, isJson, type Json, type JsonValue } from './schemas';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const STATUS = /^(default|[1-5](?:[0-9]{2}|XX))$/;
const COMPONENT_KINDS = ['schemas', 'responses', 'parameters', 'examples', 'requestBodies', 'headers', 'securitySchemes', 'links', 'callbacks', 'pathItems'];
/** The base `$id` under which the document is handed to ajv, so that `#/components/...` resolves inside it. */
const DOC_ID = 'https://cardspec.invalid/openapi.json';

/** The value a local JSON pointer (`#/a/b`) names in `doc`, or `undefined`. */
export function resolvePointer(doc: JsonValue, ref: string): JsonValue | undefined {
  if (!ref.startsWith('#')) return undefined;
  const parts = ref
    .slice(1)
    .split('/')
    .slice(1)
    .map((p) => decodeURIComponent(p).replace(/~1/g, '/').replace(/~0/g, '~'));
  let node: JsonValue | undefined = doc;
  for (const p of parts) {
    if (Array.isArray(node)) node = node[Number(p)];
    else if (isJson(node)) node = Object.prototype.hasOwnProperty.call(node, p) ? node[p] : undefined;
    else return undefined;
  }
  return node;
}

function eachRef(node: JsonValue, at: string, visit: (ref: string, at: string) => void): void {
  if (Array.isArray(node)) node.forEach((n, i) => eachRef(n, `${at}/${i}`, visit));
  else if (isJson(node)) {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') visit(v, at);
      else eachRef(v, `${at}/${k}`, visit);
    }
  }
}

const str = (v: JsonValue | undefined): v is string => typeof v === 'string' && v.length > 0;

function checkServers(servers: JsonValue | undefined, problems: string[]): void {
  if (servers === undefined) return;
  if (!Array.isArray(servers)) return void problems.push('servers must be a list');
  servers.forEach((s, i) => {
    if (!isJson(s) || !str(s.url)) return void problems.push(`servers[${i}].url is required`);
    const vars = isJson(s.variables) ? s.variables : {};
    for (const m of s.url.matchAll(/\{([^}]+)\}/g)) {
      const v = vars[m[1]];
      if (!isJson(v) || typeof v.default !== 'string') problems.push(`servers[${i}]: variable {${m[1]}} needs a string default`);
      else if (Array.isArray(v.enum) && !v.enum.includes(v.default)) problems.push(`servers[${i}]: the default of {${m[1]}} is not in its enum`);
    }
  });
}

function checkOperation(op: Json, where: string, operationIds: Set<string>, problems: string[]): void {
  if (op.operationId !== undefined) {
    if (!str(op.operationId)) problems.push(`${where}.operationId must be a string`);
    else if (operationIds.has(op.operationId)) problems.push(`${where}.operationId ${op.operationId} is not unique`);
    else operationIds.add(op.operationId);
  }
  if (op.requestBody !== undefined) {
    const body = op.requestBody;
    if (!isJson(body) || (body.$ref === undefined && (!isJson(body.content) || Object.keys(body.content).length === 0))) {
      problems.push(`${where}.requestBody needs content`);
    }
  }
  if (op.responses !== undefined) {
    if (!isJson(op.responses) || Object.keys(op.responses).length === 0) return void problems.push(`${where}.responses must hold at least one response`);
    for (const [status, res] of Object.entries(op.responses)) {
      if (!STATUS.test(status)) problems.push(`${where}.responses: "${status}" is not a status code, a range (2XX) or default`);
      if (!isJson(res) || (res.$ref === undefined && !str(res.description))) problems.push(`${where}.responses.${status}.description is required`);
    }
  }
}

function checkPaths(paths: JsonValue | undefined, problems: string[]): void {
  if (paths === undefined) return;
  if (!isJson(paths)) return void problems.push('paths must be an object');
  const operationIds = new Set<string>();
  for (const [p, item] of Object.entries(paths)) {
    if (!p.startsWith('/')) problems.push(`paths: "${p}" must begin with /`);
    if (!isJson(item)) {
      problems.push(`paths["${p}"] must be an object`);
      continue;
    }
    for (const m of METHODS) {
      const op = item[m];
      if (op === undefined) continue;
      if (!isJson(op)) problems.push(`paths["${p}"].${m} must be an object`);
      else checkOperation(op, `paths["${p}"].${m}`, operationIds, problems);
    }
  }
}

function checkSecurity(doc: Json, problems: string[]): void {
  const schemes = isJson(doc.components) && isJson(doc.components.securitySchemes) ? doc.components.securitySchemes : {};
  for (const [name, s] of Object.entries(schemes)) {
    if (!isJson(s) || !str(s.type)) problems.push(`securitySchemes.${name}.type is required`);
    else if (s.type === 'http' && !str(s.scheme)) problems.push(`securitySchemes.${name}: an http scheme needs "scheme"`);
  }
  const requirements: JsonValue[] = [];
  if (Array.isArray(doc.security)) requirements.push(...doc.security);
  if (isJson(doc.paths)) {
    for (const item of Object.values(doc.paths)) {
      if (!isJson(item)) continue;
      for (const m of METHODS) {
        const op = item[m];
        if (isJson(op) && Array.isArray(op.security)) requirements.push(...op.security);
      }
    }
  }
  for (const req of requirements) {
    if (!isJson(req)) continue;
    for (const name of Object.keys(req)) if (!(name in schemes)) problems.push(`security names "${name}", which components.securitySchemes does not define`);
  }
}

/**
 * The document handed to ajv as one schema resource, so that `#/components/schemas/...` resolves inside it: the way
 * an OpenAPI 3.1 tool reads the schemas (OpenAPI's dialect is JSON Schema 2020-12; `x-` keywords are annotations).
 */
function documentAjv(doc: Json): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
  ajv.addSchema({ ...doc, $id: DOC_ID }, DOC_ID);
  return ajv;
}

/** A validator for one component of the document (`RequestEnvelope`, `row.auth`, ...), for comparisons in tests. */
export function componentValidator(doc: Json, component: string): (value: unknown) => boolean {
  const validate = documentAjv(doc).getSchema(`${DOC_ID}#/components/schemas/${component}`);
  if (!validate) throw new Error(`no component ${component}`);
  return (value) => validate(value) === true;
}

/** Compiles every schema and checks every media-type example against its schema. */
function checkSchemas(doc: Json, problems: string[]): void {
  let ajv: Ajv2020;
  try {
    ajv = documentAjv(doc);
  } catch (err) {
    return void problems.push(`the document cannot be read as JSON Schema: ${(err as Error).message}`);
  }
  const schemas = isJson(doc.components) && isJson(doc.components.schemas) ? doc.components.schemas : {};
  for (const name of Object.keys(schemas)) {
    try {
      if (!ajv.getSchema(`${DOC_ID}#/components/schemas/${name}`)) problems.push(`components.schemas.${name} does not compile`);
    } catch (err) {
      problems.push(`components.schemas.${name} does not compile: ${(err as Error).message}`);
    }
  }
  const media: { where: string; content: Json }[] = [];
  if (isJson(doc.paths)) {
    for (const [p, item] of Object.entries(doc.paths)) {
      if (!isJson(item)) continue;
      for (const m of METHODS) {
        const op = item[m];
        if (!isJson(op)) continue;
        if (isJson(op.requestBody) && isJson(op.requestBody.content)) media.push({ where: `paths["${p}"].${m}.requestBody`, content: op.requestBody.content });
        if (isJson(op.responses)) {
          for (const [status, res] of Object.entries(op.responses)) {
            if (isJson(res) && isJson(res.content)) media.push({ where: `paths["${p}"].${m}.responses.${status}`, content: res.content });
          }
        }
      }
    }
  }
  for (const { where, content } of media) {
    for (const [type, mt] of Object.entries(content)) {
      if (!isJson(mt) || !isJson(mt.examples) || !isJson(mt.schema)) continue;
      // The document's media types refer to components; an inline schema would be checked the same way once named.
      if (typeof mt.schema.$ref !== 'string' || !mt.schema.$ref.startsWith('#')) continue;
      const validate = ajv.getSchema(DOC_ID + mt.schema.$ref);
      if (!validate) {
        problems.push(`${where} ${type}: the schema ${mt.schema.$ref} does not compile`);
        continue;
      }
      for (const [name, ex] of Object.entries(mt.examples)) {
        if (!isJson(ex) || !('value' in ex)) continue;
        if (!validate(ex.value)) {
          const first = validate.errors?.[0];
          problems.push(`${where} ${type}: example "${name}" does not match its schema (${first?.instancePath || '/'} ${first?.message ?? ''})`);
        }
      }
    }
  }
}

/** Every problem found; an empty list means the document passed this check. */
export function checkOpenApi(value: unknown): string[] {
  const problems: string[] = [];
  if (!isJson(value)) return ['the document must be a JSON object'];
  const doc = value;
  if (typeof doc.openapi !== 'string' || !/^3\.1\.[0-9]+$/.test(doc.openapi)) problems.push('openapi must be "3.1.x"');
  if (!isJson(doc.info)) problems.push('info is required');
  else {
    if (!str(doc.info.title)) problems.push('info.title is required');
    if (!str(doc.info.version)) problems.push('info.version is required');
  }
  if (doc.paths === undefined && doc.components === undefined && doc.webhooks === undefined) problems.push('one of paths, components or webhooks is required');
  checkServers(doc.servers, problems);
  checkPaths(doc.paths, problems);
  if (doc.components !== undefined) {
    if (!isJson(doc.components)) problems.push('components must be an object');
    else {
      for (const kind of COMPONENT_KINDS) {
        const group = doc.components[kind];
        if (group === undefined) continue;
        if (!isJson(group)) problems.push(`components.${kind} must be an object`);
        else for (const name of Object.keys(group)) if (!COMPONENT_NAME.test(name)) problems.push(`components.${kind}: "${name}" is not a valid component name`);
      }
    }
  }
  checkSecurity(doc, problems);
  eachRef(doc, '#', (ref, at) => {
    if (!ref.startsWith('#')) problems.push(`${at}: $ref ${ref} points outside the document`);
    else if (resolvePointer(doc, ref) === undefined) problems.push(`${at}: $ref ${ref} does not resolve`);
  });
  if (problems.length === 0) checkSchemas(doc, problems);
  return problems;
}
