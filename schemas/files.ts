/**
 * The names and ids of the committed schema files, and the annotation keywords they carry: what the validator, the
 * OpenAPI document and the schema build share. Kept apart from build.ts so that runtime code never loads the
 * generator (it reads the committed files).
 */
import type { Direction } from './fields';

export const SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';
/** `$id` prefix; `.invalid` (RFC 2606) so that no tool ever tries to fetch it. The version is the envelope's. */
export const SCHEMA_BASE = 'https://cardspec.invalid/schemas/1.00/';
/** Annotation keywords of the generated schemas; a strict validator must be told about them. */
export const ANNOTATION_KEYWORDS = ['x-section', 'x-rule', 'x-type', 'x-lenient', 'x-source', 'x-quote', 'x-recommended'] as const;

export const FIELDS_FILE = 'fields.schema.json';
export const REQUEST_ENVELOPE_FILE = 'request-envelope.schema.json';
export const RESPONSE_ENVELOPE_FILE = 'response-envelope.schema.json';
export const INDEX_FILE = 'index.json';
export const requestRowFile = (rowId: string): string => `request.${rowId}.schema.json`;
export const responsePartFile = (type: string): string => `response.${type}.schema.json`;
/** Definition names inside fields.schema.json: one per field and direction. */
export const defName = (direction: Direction, field: string): string => `${direction}.${field}`;
