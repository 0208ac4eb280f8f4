/**
 * Generates the JSON Schemas (draft 2020-12) from the field dictionary (fields.ts) and the Request types table
 * (operations.ts), and nothing else: a length, a list of values or a type-class pattern is never typed here, only
 * read. `npm run schemas` writes them to schemas/; test/schemas/build.test.ts fails when the committed files differ
 * from what `buildSchemas()` returns, so the files cannot drift from the dictionary.
 *
 * Annotations the validator (src/validate) reads, also useful from other languages (docs/schemas.md):
 * - `x-section`: the document section a constraint comes from;
 * - `x-rule`: the name of the rule a node's keywords enforce, where the keyword's own name would not say it
 *   (`amount-above-zero` is a `pattern`, `forbidden` is a `not`); a node with `x-rule` holds only that rule;
 * - `x-type`, `x-lenient`, `x-source`, `x-quote`: the documented type class, why a field is checked leniently,
 *   that a field comes from public-facts.md (never a reason to fail a target), and the document's own words;
 * - `x-recommended`: fields whose absence is a warning, never an error (no JSON Schema keyword says "warning").
 */
import * as fs from 'fs';
import * as path from 'path';
import { enforcedPattern, MASKED_PATTERN } from './check';
import { ENVELOPE_FIELDS, FIELD, FIELDS, REQUEST_TYPES, SECTION, type Direction, type FieldDef, type FieldSide, type RequestType } from './fields';
import { MISSPELT_CODE_PATTERN } from './errors';
import { OPERATIONS, PART_SHAPES, type OperationRow, type PartShape } from './operations';
import { ANNOTATION_KEYWORDS, defName, FIELDS_FILE, INDEX_FILE, REQUEST_ENVELOPE_FILE, RESPONSE_ENVELOPE_FILE, requestRowFile, responsePartFile, SCHEMA_BASE, SCHEMA_DIALECT } from './files';
import { TYPE_CLASSES } from './typeclasses';

export { ANNOTATION_KEYWORDS, defName, FIELDS_FILE, INDEX_FILE, REQUEST_ENVELOPE_FILE, RESPONSE_ENVELOPE_FILE, requestRowFile, responsePartFile, SCHEMA_BASE, SCHEMA_DIALECT };

/**
 * "It must be greater than zero, except that ACCOUNTCHECK allows `0`": with the Numeric class already enforced by
 * the field's own definition, a value is above zero exactly when it holds a digit other than 0.
 */
export const ABOVE_ZERO_PATTERN = '[1-9]';

/**
 * The document section each part shape's words come from (PartShape carries its quote but not its section):
 * STORE's from "STORE response fields", SUBSCRIPTION's from rule 2, RISKDEC's from "What the service does",
 * the others from the "Response parts" column of the Request types table.
 */
const PART_SECTION: Readonly<Record<RequestType, string>> = {
  THREEDQUERY: SECTION.requestTypes,
  AUTH: SECTION.requestTypes,
  SUBSCRIPTION: SECTION.rules,
  ACCOUNTCHECK: SECTION.requestTypes,
  STORE: SECTION.store,
  RISKDEC: SECTION.what,
  TRANSACTIONUPDATE: SECTION.requestTypes,
  TRANSACTIONQUERY: SECTION.requestTypes,
};

type Json = { [key: string]: JsonValue };
type JsonValue = string | number | boolean | null | JsonValue[] | Json;

const ref = (direction: Direction, field: string): Json => ({ $ref: `${FIELDS_FILE}#/$defs/${defName(direction, field)}` });

/** Fields that sit in a request object or a response part (not the envelope). */
export function objectFields(direction: Direction): FieldDef[] {
  return FIELDS.filter((d) => d[direction] !== undefined && !ENVELOPE_FIELDS.has(d.name));
}

// ---- fields.schema.json --------------------------------------------------------------------------------------------

function scalarSchema(def: FieldDef, side: FieldSide): Json {
  const s: Json = { type: 'string' };
  if (side.minLength !== undefined) s.minLength = side.minLength;
  if (side.maxLength !== undefined) s.maxLength = side.maxLength;
  if (side.values) s.enum = [...side.values];
  // A `validatedWhen` field's class applies only on a condition of another field: that is an object-level if/then
  // (validatedWhenRules), so the field's own definition checks only its length.
  if (!def.validatedWhen) s.pattern = enforcedPattern(def).source;
  return s;
}

/** The public shapes of the follow-up operations (public-facts.md, "Follow-up operations"). */
function structureSchema(def: FieldDef, direction: Direction): Json {
  switch (def.structure) {
    case 'filter':
      return {
        type: 'object',
        minProperties: 1,
        additionalProperties: {
          type: 'array',
          minItems: 1,
          items: { type: 'object', required: ['value'], properties: { value: { type: 'string' } } },
        },
      };
    case 'updates': {
      // "The updatable fields: not shown": any request field may be named; known ones keep their definition.
      const properties: Json = {};
      for (const d of objectFields('request')) if (!d.structure) properties[d.name] = { $ref: `#/$defs/${defName('request', d.name)}` };
      return { type: 'object', minProperties: 1, properties, additionalProperties: { type: 'string' } };
    }
    case 'records':
      return { type: 'array', items: { type: 'object' } };
    default:
      throw new Error(`schemas/build.ts: no schema for structure ${String(def.structure)} of ${def.name} (${direction})`);
  }
}

function fieldDefinition(def: FieldDef, direction: Direction, side: FieldSide): Json {
  const out: Json = { description: def.meaning, 'x-section': def.section, 'x-type': TYPE_CLASSES[def.type].notation };
  if (def.lenient) out['x-lenient'] = def.lenient;
  if (def.source) out['x-source'] = def.source;
  if (def.aliasOf) out.$comment = `Another spelling of ${def.aliasOf}.`;
  if (def.examples) out.examples = [...def.examples];
  if (def.structure) return { ...out, ...structureSchema(def, direction) };
  if (def.list) return { ...out, type: 'array', items: scalarSchema(def, side) };
  return { ...out, ...scalarSchema(def, side) };
}

function fieldsSchema(): Json {
  const defs: Json = {};
  for (const direction of ['request', 'response'] as const) {
    for (const def of FIELDS) {
      const side = def[direction];
      if (side) defs[defName(direction, def.name)] = fieldDefinition(def, direction, side);
    }
  }
  return {
    $schema: SCHEMA_DIALECT,
    $id: SCHEMA_BASE + FIELDS_FILE,
    title: 'Field dictionary',
    description:
      'One definition per field and direction (request.<field>, response.<field>), generated from schemas/fields.ts. "All values in JSON requests and responses are strings, including numbers."',
    'x-section': 'Resources and their fields',
    $defs: defs,
  };
}

// ---- object-level pieces shared by the request and response schemas -------------------------------------------------

/** Every known field of the direction, by reference; unknown fields are allowed ("The full list of fields ...: not shown"). */
function knownProperties(direction: Direction): Json {
  const properties: Json = {};
  for (const def of objectFields(direction)) properties[def.name] = ref(direction, def.name);
  return properties;
}

/** `validatedWhen`: "Validated only when the country is the United States, Great Britain or Canada." */
function validatedWhenRules(direction: Direction): Json[] {
  return objectFields(direction)
    .filter((d) => d.validatedWhen && d[direction])
    .map((d) => {
      const when = d.validatedWhen!;
      return {
        'x-section': d.section,
        if: { required: [when.field], properties: { [when.field]: { enum: [...when.values] } } },
        then: { properties: { [d.name]: { pattern: enforcedPattern(d).source } } },
      };
    });
}

function maskedPanProperty(): Json {
  return { ...ref('response', 'maskedpan'), 'x-rule': 'masked', 'x-section': FIELD.maskedpan.section, pattern: MASKED_PATTERN };
}

/** "Every response part has errorcode (string) and errormessage"; "`0` ... Successful; `errormessage` is `Ok`". */
function partBaseRules(): Json[] {
  return [
    {
      description: 'required in every response part ("Every response part has `errorcode` (string) and `errormessage`")',
      'x-section': SECTION.errors,
      required: ['errorcode', 'errormessage'],
    },
    {
      properties: {
        errorcode: {
          description: 'a code of the Errors table is written as the table writes it (`0`, not `00000`)',
          'x-rule': 'code-spelling',
          'x-section': SECTION.errors,
          not: { type: 'string', pattern: MISSPELT_CODE_PATTERN },
        },
      },
    },
    ...validatedWhenRules('response'),
  ];
}

function successCondition(then: Json): Json {
  return { 'x-section': SECTION.errors, if: { required: ['errorcode'], properties: { errorcode: { const: '0' } } }, then };
}

const okMessage = (): Json => ({ 'x-rule': 'ok-message', 'x-section': SECTION.errors, const: 'Ok' });

// ---- envelopes -------------------------------------------------------------------------------------------------------

function requestEnvelopeSchema(): Json {
  return {
    $schema: SCHEMA_DIALECT,
    $id: SCHEMA_BASE + REQUEST_ENVELOPE_FILE,
    title: 'Request envelope',
    description: 'Request body {alias, version, request:[ {request object} ]}. Fields a client adds (libraryversion) are allowed.',
    'x-section': SECTION.transport,
    type: 'object',
    properties: {
      alias: { $ref: `${FIELDS_FILE}#/$defs/${defName('request', 'alias')}` },
      version: { $ref: `${FIELDS_FILE}#/$defs/${defName('request', 'version')}` },
      request: {
        description: 'One request object per call.',
        'x-section': SECTION.envelope,
        type: 'array',
        items: { $ref: '#/$defs/request-object' },
        allOf: [{ 'x-rule': 'one-request-object', 'x-section': SECTION.envelope, 'x-quote': 'One request object per call.', minItems: 1, maxItems: 1 }],
      },
    },
    allOf: [{ description: 'required in the request body {alias, version, request:[ {request object} ]}', 'x-section': SECTION.transport, required: ['alias', 'version', 'request'] }],
    $defs: {
      'request-object': {
        description: 'Any request object: its known fields are checked against the dictionary; the operation row is not.',
        type: 'object',
        properties: knownProperties('request'),
        allOf: [
          {
            description: 'required in every request object ("The request object names one or more request types in `requesttypedescriptions`")',
            'x-section': SECTION.what,
            required: ['requesttypedescriptions'],
          },
          ...validatedWhenRules('request'),
        ],
      },
    },
  };
}

function responseEnvelopeSchema(): Json {
  return {
    $schema: SCHEMA_DIALECT,
    $id: SCHEMA_BASE + RESPONSE_ENVELOPE_FILE,
    title: 'Response envelope',
    description: 'Response body {requestreference, version, response:[ {part}, ... ], secrand}.',
    'x-section': SECTION.transport,
    type: 'object',
    properties: {
      requestreference: { $ref: `${FIELDS_FILE}#/$defs/${defName('response', 'requestreference')}` },
      version: { $ref: `${FIELDS_FILE}#/$defs/${defName('response', 'version')}` },
      response: {
        description: 'One per request type, in the order of `requesttypedescriptions`.',
        'x-section': SECTION.envelope,
        type: 'array',
        items: { $ref: '#/$defs/response-part' },
        allOf: [{ 'x-rule': 'one-part-per-type', 'x-section': SECTION.envelope, minItems: 1 }],
      },
      secrand: { $ref: `${FIELDS_FILE}#/$defs/${defName('response', 'secrand')}` },
    },
    allOf: [
      {
        description: 'required in the response body {requestreference, version, response:[ {part}, ... ], secrand}',
        'x-section': SECTION.transport,
        required: ['requestreference', 'version', 'response', 'secrand'],
      },
    ],
    $defs: {
      'response-part': {
        description: 'Any response part: errorcode and errormessage, known fields against the dictionary; the request type is not checked.',
        type: 'object',
        properties: { ...knownProperties('response'), maskedpan: maskedPanProperty() },
        allOf: [...partBaseRules(), successCondition({ properties: { errormessage: okMessage() } })],
      },
    },
  };
}

// ---- one schema per operation row ----------------------------------------------------------------------------------

function requestRowSchema(row: OperationRow): Json {
  const properties = knownProperties('request');
  properties.requesttypedescriptions = { ...ref('request', 'requesttypedescriptions'), 'x-rule': 'request-type', 'x-section': row.section, const: [...row.requesttypes] };
  for (const [field, values] of Object.entries(row.fixed ?? {})) {
    properties[field] = { ...ref('request', field), 'x-rule': 'fixed', 'x-section': row.section, enum: [...values] };
  }
  if (!row.zeroAmount) {
    properties.baseamount = { ...ref('request', 'baseamount'), 'x-rule': 'amount-above-zero', 'x-section': FIELD.baseamount.section, pattern: ABOVE_ZERO_PATTERN };
    if (row.required.includes('updates')) {
      // TRANSACTIONUPDATE: "a new `baseamount`", which is still an amount above zero.
      properties.updates = {
        ...ref('request', 'updates'),
        properties: { baseamount: { 'x-rule': 'amount-above-zero', 'x-section': FIELD.baseamount.section, pattern: ABOVE_ZERO_PATTERN } },
      };
    }
  }
  const allOf: Json[] = [
    {
      description: `required by the row "${row.title}" of the Request types table`,
      'x-section': row.section,
      'x-quote': row.quote,
      required: ['requesttypedescriptions', ...row.required],
    },
  ];
  if (row.cardSource) {
    allOf.push({ 'x-rule': 'card-source', 'x-section': row.section, anyOf: row.cardSource.map((set) => ({ required: [...set] })) });
  }
  for (const field of row.forbidden ?? []) {
    // Quote the sentence of the field's meaning that names this operation ("Must not be sent in STORE.").
    const sentences = FIELD[field].meaning.split(/(?<=\.)\s+/);
    const quote = sentences.filter((s) => row.requesttypes.some((t) => s.includes(t))).join(' ') || FIELD[field].meaning;
    allOf.push({ 'x-rule': 'forbidden', 'x-section': FIELD[field].section, 'x-quote': quote, not: { required: [field] } });
  }
  allOf.push(...validatedWhenRules('request'));

  const notes = [row.quote];
  if (row.fromRule) notes.push(`Read from ${row.fromRule}.`);
  if (row.publicShape) notes.push('Shape not shown in the document: the public shape (public-facts.md) is used.');
  const out: Json = {
    $schema: SCHEMA_DIALECT,
    $id: SCHEMA_BASE + requestRowFile(row.id),
    title: `Request object: ${row.title}`,
    description: notes.join(' '),
    'x-section': row.section,
  };
  if (row.recommended?.length) out['x-recommended'] = [...row.recommended];
  return { ...out, type: 'object', properties, allOf };
}

// ---- one schema per request type's response part -------------------------------------------------------------------

function responsePartSchema(shape: PartShape): Json {
  const properties: Json = {
    ...knownProperties('response'),
    requesttypedescription: { ...ref('response', 'requesttypedescription'), 'x-rule': 'request-type', 'x-section': SECTION.what, const: shape.type },
    maskedpan: maskedPanProperty(),
  };
  const section = PART_SECTION[shape.type];
  const successProperties: Json = { errormessage: okMessage() };
  for (const [field, values] of Object.entries(shape.fixed ?? {})) {
    successProperties[field] = { 'x-rule': 'fixed', 'x-section': section, enum: [...values] };
  }
  const successAllOf: Json[] = [];
  if (shape.requiredOnSuccess.length) {
    successAllOf.push({
      description: `required in a successful ${shape.type} part (errorcode "0")`,
      'x-section': section,
      'x-quote': shape.quote,
      required: [...shape.requiredOnSuccess],
    });
  }
  for (const c of shape.conditional ?? []) {
    const whenProps: Json = {};
    for (const [field, value] of Object.entries(c.when)) whenProps[field] = { const: value };
    const when = Object.entries(c.when)
      .map(([field, value]) => `${field} is "${value}"`)
      .join(' and ');
    successAllOf.push({
      if: { required: Object.keys(c.when), properties: whenProps },
      then: { description: `required in a successful ${shape.type} part when ${when}`, 'x-section': section, 'x-quote': shape.quote, required: [...c.require] },
    });
  }
  const then: Json = { properties: successProperties };
  if (successAllOf.length) then.allOf = successAllOf;
  return {
    $schema: SCHEMA_DIALECT,
    $id: SCHEMA_BASE + responsePartFile(shape.type),
    title: `Response part: ${shape.type}`,
    description: shape.quote,
    'x-section': section,
    type: 'object',
    properties,
    allOf: [...partBaseRules(), successCondition(then)],
  };
}

// ---- the whole set ---------------------------------------------------------------------------------------------------

/** Every generated file, by file name, as the exact text to commit (two-space JSON, trailing newline). */
export function buildSchemas(): Map<string, string> {
  const schemas: [string, Json][] = [
    [FIELDS_FILE, fieldsSchema()],
    [REQUEST_ENVELOPE_FILE, requestEnvelopeSchema()],
    ...OPERATIONS.map((row): [string, Json] => [requestRowFile(row.id), requestRowSchema(row)]),
    [RESPONSE_ENVELOPE_FILE, responseEnvelopeSchema()],
    ...REQUEST_TYPES.map((t): [string, Json] => [responsePartFile(t), responsePartSchema(PART_SHAPES[t])]),
  ];
  const index: Json = {
    description: 'The JSON Schemas generated from schemas/fields.ts and schemas/operations.ts (`npm run schemas`).',
    schemas: schemas.map(([file, s]) => ({ file, $id: s.$id as string, title: s.title as string })),
  };
  const out = new Map<string, string>();
  for (const [file, schema] of schemas) out.set(file, JSON.stringify(schema, null, 2) + '\n');
  out.set(INDEX_FILE, JSON.stringify(index, null, 2) + '\n');
  return out;
}

/** Writes the files next to this script and removes generated files that no longer have a source. */
export function writeSchemas(dir: string = __dirname): string[] {
  const files = buildSchemas();
  for (const existing of fs.readdirSync(dir)) {
    if (existing.endsWith('.schema.json') && !files.has(existing)) fs.unlinkSync(path.join(dir, existing));
  }
  for (const [file, text] of files) fs.writeFileSync(path.join(dir, file), text);
  return [...files.keys()];
}

if (require.main === module) {
  const written = writeSchemas();
  console.log(`schemas: wrote ${written.length} files to ${path.relative(process.cwd(), __dirname) || '.'}`);
}
