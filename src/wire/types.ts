/**
 * The shapes that cross the wire, in their JSON form. XML is mapped to and from these (src/wire/xml.ts), so every
 * check in the kit is written once, against this form. All documented values are strings; the types say
 * `unknown` for values because a target or a client may send anything, and checking that is the kit's job.
 */

export type Format = 'json' | 'xml';

/** One request object: `{requesttypedescriptions: [...], sitereference: ..., ...}`. */
export type RequestObject = Record<string, unknown>;

/** One response part: `{requesttypedescription, errorcode, errormessage, transactionreference, ...}`. */
export type ResponsePart = Record<string, unknown>;

/** `{alias, version, request: [ {request object} ]}` plus whatever a real SDK adds (`libraryversion`). */
export interface RequestEnvelope {
  alias?: unknown;
  version?: unknown;
  request?: unknown;
  [extra: string]: unknown;
}

/** `{requestreference, version, response: [ {part}, ... ], secrand}`. */
export interface ResponseEnvelope {
  requestreference?: unknown;
  version?: unknown;
  response?: unknown;
  secrand?: unknown;
  [extra: string]: unknown;
}

/** The JSON envelope version (Versioning 1) and the XML block version (Versioning 2). */
export const JSON_VERSION = '1.00';
export const XML_VERSION = '3.67';
