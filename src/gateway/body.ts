/**
 * A request body, as text, to the answer envelope: the JSON form parsed, or the XML block mapped to it
 * (src/wire/xml.ts), then the pure core. The HTTP transport (server.ts) and the in-process readers of the
 * differential tests (test/differential/) call this, so that both read a body the same way.
 */
import { parseRequestBlock } from '../wire/xml';
import type { Format, ResponseEnvelope } from '../wire/types';
import { redactText } from '../redact';
import { errorEnvelope, processEnvelope } from './core';
import { ERR } from './errors';
import type { Runtime } from './runtime';
import type { CallContext } from './types';

/** An answered body: the envelope answered and, for an observer, what was read from the body. */
export interface AnsweredBody {
  env: ResponseEnvelope;
  text: string;
  /** The envelope as read (JSON form); undefined when the body could not be read as one. */
  request: unknown;
  problems: readonly string[];
}

export function answerBody(rt: Runtime, format: Format, text: string, ctx: CallContext): AnsweredBody {
  return format === 'json' ? fromJson(rt, text, ctx) : fromXml(rt, text, ctx);
}

function fromJson(rt: Runtime, text: string, ctx: CallContext): AnsweredBody {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    const env = errorEnvelope(rt, ctx, ERR.invalidField, ['request'], 'Malformed JSON: the body is not a JSON envelope');
    return { env, text, request: undefined, problems: ['the body is not JSON'] };
  }
  return { env: processEnvelope(rt, parsed, ctx), text, request: parsed, problems: [] };
}

function fromXml(rt: Runtime, text: string, ctx: CallContext): AnsweredBody {
  const { envelope, problems } = parseRequestBlock(text);
  // A block that could not be read at all is malformed; a readable one with problems (wrong version, a request
  // without a type) is answered by the envelope and request checks, field by field.
  if (!Array.isArray(envelope.request)) {
    const why = problems[0] ?? 'no <request> element';
    const env = errorEnvelope(rt, ctx, ERR.invalidField, ['request'], redactText(`Malformed XML: ${why}`));
    return { env, text, request: undefined, problems: problems.length > 0 ? problems : ['no <request> element'] };
  }
  return { env: processEnvelope(rt, envelope, ctx), text, request: envelope, problems };
}
