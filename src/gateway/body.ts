/**
 * A request body to the answer envelope: its bytes read as text in their encoding (src/wire/encoding.ts), the JSON
 * form parsed, or the XML block mapped to it (src/wire/xml.ts), then the pure core. The HTTP transport (server.ts)
 * and the in-process readers of the differential tests (test/differential/) call this, so that both read a body the
 * same way.
 */
import { readJsonBytes, readXmlBytes } from '../wire/encoding';
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
  /** What reading the bytes noticed that the document does not rule on (a byte order mark, a charset label). */
  notes: readonly string[];
}

/** An encoding the gateway cannot read at all: the transport answers it with a 415. */
export interface UnreadableBody {
  unsupported: string;
}

/**
 * A body's bytes to the answer: read as text the one way (src/wire/encoding.ts), then as `answerBody`. Bytes that are
 * not text in their stated encoding are a malformed body (answered 30000, saying where); an encoding the gateway does
 * not read at all is for the transport to refuse.
 */
export function answerBytes(rt: Runtime, format: Format, bytes: Buffer, contentType: string | undefined, ctx: CallContext): AnsweredBody | UnreadableBody {
  const read = format === 'json' ? readJsonBytes(bytes, contentType) : readXmlBytes(bytes, contentType);
  if (read.ok) {
    const call = answerBody(rt, format, read.text, ctx);
    if (read.notes.length > 0) call.notes = read.notes;
    return call;
  }
  if (read.unsupported) return { unsupported: read.problem };
  const why = redactText(read.problem);
  const env = errorEnvelope(rt, ctx, ERR.invalidField, ['request'], format === 'json' ? `Malformed JSON: ${why}` : `Malformed XML: ${why}`);
  return { env, text: bytes.toString('utf8'), request: undefined, problems: [why], notes: [] };
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
    return { env, text, request: undefined, problems: ['the body is not JSON'], notes: [] };
  }
  return { env: processEnvelope(rt, parsed, ctx), text, request: parsed, problems: [], notes: [] };
}

function fromXml(rt: Runtime, text: string, ctx: CallContext): AnsweredBody {
  const { envelope, problems } = parseRequestBlock(text);
  // A block that could not be read at all is malformed; a readable one with problems (wrong version, a request
  // without a type) is answered by the envelope and request checks, field by field.
  if (!Array.isArray(envelope.request)) {
    const why = problems[0] ?? 'no <request> element';
    const env = errorEnvelope(rt, ctx, ERR.invalidField, ['request'], redactText(`Malformed XML: ${why}`));
    return { env, text, request: undefined, problems: problems.length > 0 ? problems : ['no <request> element'], notes: [] };
  }
  return { env: processEnvelope(rt, envelope, ctx), text, request: envelope, problems, notes: [] };
}
