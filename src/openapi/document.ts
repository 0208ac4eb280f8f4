/**
 * An OpenAPI 3.1 document of the JSON interface (`POST {base_url}/json/`), derived from the committed JSON Schemas
 * so that users can import the document's reading into their own tools (mock servers, clients, API browsers).
 *
 * Choices where the document is silent (docs/bench.md, "The OpenAPI document", lists them; none is a conformance rule):
 * - HTTP status codes are "not shown": `200` carries every envelope, errors included, as the reference gateway and
 *   the public SDKs do (public-facts.md); `401` is the reference gateway's answer to missing credentials.
 * - The base addresses are "not shown": one server `{base_url}`, defaulting to `cardspec serve --port 8080`.
 * - The XML endpoint's address is "not shown": only the JSON endpoint is described.
 * - Request objects: `oneOf` the request-type lists of the "Request types" table; where several rows share a list
 *   (three AUTH rows, three subscription rows, two RISKDEC rows) they are an `anyOf`, because unknown fields are
 *   allowed ("The full list of fields accepted in an AUTH request: not shown") so one object may fit two rows.
 * - Response parts: `anyOf` the part shapes; `requesttypedescription` is not required in a part, so a part that
 *   omits it may fit several shapes.
 */
import * as fs from 'fs';
import * as path from 'path';
import { REQUEST_TYPES, SECTION } from '../../schemas/fields';
import { OPERATIONS } from '../../schemas/operations';
import { requestRowFile, responsePartFile } from '../../schemas/files';
import { redact } from '../redact';
import { DEFAULT_CONFIG } from '../testdata';
import { JSON_VERSION } from '../wire/types';
import { COMPONENTS, isJson, loadComponents, SCHEMA_DIR, type Json, type JsonValue } from './schemas';

export const OPENAPI_VERSION = '3.1.0';
/** The JSON endpoint, relative to the server's `{base_url}` ("Method and path: `POST {base_url}/json/`"). */
export const JSON_PATH = '/json/';
export const SECURITY_SCHEME = 'basicAuth';
/**
 * The `{base_url}` default. `cardspec serve` picks a free port unless given `--port`, so no address is the kit's
 * own: this is where `cardspec serve --port 8080` listens; users set their target's with `--server`.
 */
export const DEFAULT_SERVER = 'http://127.0.0.1:8080';
export const EXAMPLES_DIR = path.join(__dirname, '..', '..', 'test', 'fixtures', 'examples');

export interface OpenApiOptions {
  /** The `{base_url}` default: the target users will point their tools at. */
  readonly server?: string;
  /** Where the JSON Schemas are read from (default: the committed schemas/). */
  readonly schemaDir?: string;
  /** The example fixtures (requests/<row>.json, responses/<TYPE>.json); absent: no examples. */
  readonly examplesDir?: string | null;
}

export type OpenApiDocument = Json;

const ref = (name: string): Json => ({ $ref: COMPONENTS + name });

function readJsonIfPresent(file: string): JsonValue | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as JsonValue;
  } catch {
    return undefined;
  }
}

/**
 * An example is published only when masking leaves it unchanged: then the written file holds no secret (a full
 * card number or a security code) and the example still matches its schema (a masked `pan` would not).
 */
function publishable(value: JsonValue): boolean {
  return JSON.stringify(redact(value)) === JSON.stringify(value);
}

function requestExamples(dir: string): Json {
  const alias = DEFAULT_CONFIG.users[0]?.alias ?? 'webservices@example.test';
  const out: Json = {};
  for (const row of OPERATIONS) {
    const obj = readJsonIfPresent(path.join(dir, 'requests', `${row.id}.json`));
    if (!isJson(obj)) continue;
    const value: Json = { alias, version: JSON_VERSION, request: [obj] };
    if (publishable(value)) out[row.id] = { summary: row.title, value };
  }
  return out;
}

function responseExamples(dir: string): Json {
  const envelope = readJsonIfPresent(path.join(dir, 'envelopes', 'subscription.response.json'));
  const requestreference = isJson(envelope) && typeof envelope.requestreference === 'string' ? envelope.requestreference : 'A0bc12345';
  const secrand = isJson(envelope) && typeof envelope.secrand === 'string' ? envelope.secrand : 'Zmt9k8kIJTK8';
  const out: Json = {};
  for (const type of REQUEST_TYPES) {
    const part = readJsonIfPresent(path.join(dir, 'responses', `${type}.json`));
    if (!isJson(part)) continue;
    const value: Json = { requestreference, version: JSON_VERSION, response: [part], secrand };
    if (publishable(value)) out[type] = { summary: `One ${type} part`, value };
  }
  if (isJson(envelope) && publishable(envelope)) out['AUTH-SUBSCRIPTION'] = { summary: 'AUTH then SUBSCRIPTION parts', value: envelope };
  return out;
}

/** `oneOf` the request-type lists, each the `anyOf` of its rows (see the module comment). */
function requestObjectSchema(fileComponent: ReadonlyMap<string, string>): Json {
  const groups = new Map<string, string[]>();
  for (const row of OPERATIONS) {
    const component = fileComponent.get(requestRowFile(row.id));
    if (!component) continue;
    const key = row.requesttypes.join(',');
    groups.set(key, [...(groups.get(key) ?? []), component]);
  }
  const oneOf: Json[] = [...groups].map(([types, rows]) => (rows.length === 1 ? ref(rows[0]) : { title: `requesttypedescriptions [${types}]`, anyOf: rows.map(ref) }));
  return {
    title: 'Request object',
    description: 'One row of the "Request types" table. Rows that share a request-type list are alternatives (anyOf): unknown fields are allowed, so an object may fit two of them.',
    'x-section': SECTION.requestTypes,
    oneOf,
  };
}

function responsePartSchema(fileComponent: ReadonlyMap<string, string>): Json {
  const anyOf = REQUEST_TYPES.map((t) => fileComponent.get(responsePartFile(t)))
    .filter((c): c is string => c !== undefined)
    .map(ref);
  return {
    title: 'Response part',
    description: 'A part of one of the request types; `requesttypedescription` says which.',
    'x-section': SECTION.response,
    anyOf,
  };
}

/** Builds the document. Deterministic: the same schemas and fixtures give the same document, byte for byte. */
export function buildOpenApi(options: OpenApiOptions = {}): OpenApiDocument {
  const { components, fileComponent } = loadComponents(options.schemaDir ?? SCHEMA_DIR);
  const requestBase = fileComponent.get('request-envelope.schema.json');
  const responseBase = fileComponent.get('response-envelope.schema.json');
  if (!requestBase || !responseBase) throw new Error('cardspec: the envelope schemas are missing; run `npm run schemas`');

  const schemas: Json = {};
  for (const name of [...components.keys()].sort()) schemas[name] = components.get(name) as Json;
  schemas.RequestObject = requestObjectSchema(fileComponent);
  schemas.ResponsePart = responsePartSchema(fileComponent);
  schemas.RequestEnvelope = {
    title: 'Request body',
    description: '`{alias, version, request:[ {request object} ]}`: the envelope, with its one request object checked against its row.',
    'x-section': SECTION.transport,
    allOf: [ref(requestBase), { properties: { request: { items: ref('RequestObject') } } }],
  };
  schemas.ResponseEnvelope = {
    title: 'Response body',
    description: '`{requestreference, version, response:[ {part}, ... ], secrand}`: one part per request type, in the order of `requesttypedescriptions`.',
    'x-section': SECTION.transport,
    allOf: [ref(responseBase), { properties: { response: { items: ref('ResponsePart') } } }],
  };

  const examplesDir = options.examplesDir === undefined ? EXAMPLES_DIR : options.examplesDir;
  const reqExamples = examplesDir ? requestExamples(examplesDir) : {};
  const resExamples = examplesDir ? responseExamples(examplesDir) : {};
  const withExamples = (schema: Json, examples: Json): Json => (Object.keys(examples).length ? { schema, examples } : { schema });

  const pkg = readJsonIfPresent(path.join(__dirname, '..', '..', 'package.json'));
  const kitVersion = isJson(pkg) && typeof pkg.version === 'string' ? pkg.version : 'unknown';

  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'Card Payment Web Service (JSON interface)',
      version: JSON_VERSION,
      summary: 'AUTH, SUBSCRIPTION, THREEDQUERY, ACCOUNTCHECK, STORE and RISKDEC over one endpoint, as read by cardspec.',
      description:
        'Generated by `cardspec openapi` from the JSON Schemas that cardspec derives from the interface document ' +
        '(schemas/*.schema.json). `info.version` is the interface version carried in the envelope ("the value used is `1.00`"). ' +
        'HTTP status codes, base addresses and the XML endpoint are not shown by the document: see docs/bench.md ("The OpenAPI document") for the choices made.',
      'x-cardspec-version': kitVersion,
    },
    servers: [
      {
        url: '{base_url}',
        description: '"Method and path: `POST {base_url}/json/`". The list of supported base addresses is not shown; the default is where `cardspec serve --port 8080` listens.',
        variables: { base_url: { default: options.server ?? DEFAULT_SERVER, description: 'The base address of the target, without /json/.' } },
      },
    ],
    security: [{ [SECURITY_SCHEME]: [] }],
    paths: {
      [JSON_PATH]: {
        post: {
          operationId: 'process',
          summary: 'Run the request types named in requesttypedescriptions, in order',
          description:
            'Every operation is one HTTPS POST of a JSON body to a single endpoint. The body holds a list with one request object. ' +
            'When several request types are named, they are run in the listed order. The response holds one part per request type, in the same order.',
          'x-section': SECTION.what,
          requestBody: { required: true, content: { 'application/json': withExamples(ref('RequestEnvelope'), reqExamples) } },
          responses: {
            '200': {
              description:
                'The response envelope. A part with a non-zero `errorcode` failed ("Every response part has `errorcode` (string) and `errormessage`"). ' +
                "The status code is cardspec's choice (the document does not show HTTP status codes): the reference gateway answers 200 to every envelope it can read.",
              content: { 'application/json': withExamples(ref('ResponseEnvelope'), resExamples) },
            },
            '401': {
              description: "No or wrong basic-authentication credentials (Authentication 1). The status is the reference gateway's choice, not the document's.",
              content: { 'text/plain': { schema: { type: 'string' } } },
            },
          },
        },
      },
    },
    components: {
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'http',
          scheme: 'basic',
          description: '"Every call uses HTTP basic authentication: a user name and password". The body also carries `alias`, the operator account.',
        },
      },
      schemas,
    },
  };
}
