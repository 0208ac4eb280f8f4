/**
 * The client cases in the XML envelope (`serve --client-cmd ... --format xml`): the same cases and the same answers,
 * carried as the document's request and response blocks ("The same operations are also offered as an XML request
 * block ... The response root is `responseblock`"). Every mapping is src/wire/xml.ts's, so that the XML a case sends
 * and compares is the one the gateway reads and writes; the field locations come from the dictionary only.
 *
 * The address `/xml/` is the kit's choice ("The address of the XML endpoint ...: not shown"), as the reference
 * gateway serves it; the adapter is told it rather than left to guess.
 */
import { FIELDS } from '../../schemas/fields';
import { jsonVersionInXml } from '../wire/reading';
import { JSON_VERSION, XML_VERSION, type Format, type RequestEnvelope, type RequestObject, type ResponseEnvelope } from '../wire/types';
import { buildRequestBlock, buildResponseBlock, parseResponseBlock } from '../wire/xml';

/** The wire forms a case can be played in: the JSON envelope, or the XML blocks. */
export type CaseFormat = Format;
export const CASE_FORMATS: readonly CaseFormat[] = ['json', 'xml'];
/** What `--format` takes: one form, or each case in both. */
export type FormatChoice = CaseFormat | 'both';

export const formatsOf = (choice: FormatChoice): readonly CaseFormat[] => (choice === 'both' ? CASE_FORMATS : [choice]);

/** The endpoint of each form below the service's base address. */
export const ENDPOINT_PATH: Readonly<Record<CaseFormat, string>> = { json: '/json/', xml: '/xml/' };

/**
 * What an XML adapter is given besides the request object: the request block to send (what an SDK would build from
 * the request; one that builds its own sends that instead), and where each answered field sits in the response
 * block, so that an adapter without an SDK of its own (the Ruby template) reports the fields under the protocol's
 * names, as an SDK's adapter maps its own attribute names.
 */
export interface XmlCaseInput {
  readonly requestblock: string;
  /**
   * Field -> its path below the `response` element, in the dictionary's grammar: `a/b` the text of `b`, `a/@x` an
   * attribute, `a/b/.` the text of `b` that also has attributes, `@type` an attribute of `response` itself, and
   * `../x` / `../@x` an element or attribute of `responseblock` (the envelope's fields).
   */
  readonly fields: Readonly<Record<string, string>>;
  /** Fields that are lists even when one element holds them. */
  readonly lists: readonly string[];
  /** Fields whose elements each hold a whole record, read with the same `fields` (always a list): `records`. */
  readonly nested: Readonly<Record<string, string>>;
  /** What the block's version attribute says (`3.67` where the JSON form says `1.00`): the envelope's `version` in XML. */
  readonly version: string;
}

const canonical = FIELDS.filter((d) => !d.aliasOf && d.response !== undefined);

/** The response-side locations of the dictionary, canonical names only (an alias shares its field's place). */
export const XML_RESPONSE_FIELDS: Readonly<Record<string, string>> = Object.fromEntries(canonical.filter((d) => !d.structure).map((d) => [d.name, d.response!.xml]));
const XML_LISTS: readonly string[] = canonical.filter((d) => d.list === true && !d.structure).map((d) => d.name);
const XML_NESTED: Readonly<Record<string, string>> = Object.fromEntries(canonical.filter((d) => d.structure === 'records').map((d) => [d.name, d.response!.xml]));

/** The XML part of a case's adapter input. */
export function xmlCaseInput(alias: string, request: RequestObject): XmlCaseInput {
  return {
    requestblock: buildRequestBlock({ alias, version: JSON_VERSION, request: [request] }),
    fields: XML_RESPONSE_FIELDS,
    lists: XML_LISTS,
    nested: XML_NESTED,
    version: XML_VERSION,
  };
}

/**
 * What an XML client can read of an answered envelope: the envelope through the response block and back, as the
 * gateway sent it and as the kit reads it (an empty value is not carried; a list of one is one element), with the
 * block's own `version` attribute rather than the JSON form's `1.00`.
 */
export function xmlVisibleAnswer(answered: ResponseEnvelope): Record<string, unknown> {
  const { envelope } = parseResponseBlock(buildResponseBlock(answered));
  const out: Record<string, unknown> = { ...envelope };
  if (typeof answered.version === 'string') out.version = jsonVersionInXml(answered.version);
  return out;
}

/** An envelope in the response block's text, for the case page (from values already masked). */
export const responseBlockText = (envelope: unknown): string => buildResponseBlock(envelope as ResponseEnvelope);
/** A request envelope in the request block's text, for the case page (from values already masked). */
export const requestBlockText = (envelope: unknown): string => buildRequestBlock(envelope as RequestEnvelope);
