/**
 * Whole request envelopes in the XML form ("The same operations are also offered as an XML request block (root
 * `requestblock` with a `version` attribute)"): the JSON envelope of ./envelopes written by src/wire/xml.ts, the one
 * mapping of the kit, and sometimes in the shapes real XML clients write (public-facts.md: "the body may begin with
 * a blank line and have no XML declaration").
 */
import fc from 'fast-check';
import type { OperationRow } from '../schemas/operations';
import { buildRequestBlock } from '../src/wire/xml';
import type { RequestEnvelope } from '../src/wire/types';
import { requestEnvelope, type EnvelopeOptions } from './envelopes';

/** How a request block is laid out, beyond its content. */
export interface XmlStyle {
  /** Keep the XML declaration (`<?xml version="1.0"?>`). */
  readonly declaration: boolean;
  /** Begin the body with a blank line, as the public Ruby client does. */
  readonly leadingBlankLine: boolean;
}

export const PLAIN_XML: XmlStyle = { declaration: true, leadingBlankLine: false };

/** The request block of a JSON envelope, laid out in a style. */
export function xmlRequestBody(env: RequestEnvelope, style: XmlStyle = PLAIN_XML): string {
  let body = buildRequestBlock(env);
  if (!style.declaration) body = body.replace(/^<\?xml[^>]*\?>/, '');
  return style.leadingBlankLine ? `\n${body}` : body;
}

export const xmlStyle: fc.Arbitrary<XmlStyle> = fc.record({ declaration: fc.boolean(), leadingBlankLine: fc.boolean() }, { noNullPrototype: true });

/** A whole XML request block of one row, and the JSON envelope it carries. */
export function xmlRequestEnvelope(row: OperationRow | string, options: EnvelopeOptions = {}): fc.Arbitrary<{ envelope: RequestEnvelope; body: string }> {
  return fc.tuple(requestEnvelope(row, options), xmlStyle).map(([envelope, style]) => ({ envelope, body: xmlRequestBody(envelope, style) }));
}
