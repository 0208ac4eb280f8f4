/**
 * One fuzz case sent and answered: its body in the run's format, what the document lets the kit expect of the
 * answer (./expect.ts), and the exchange. Shared by detection (./detect.ts), replay and shrinking (./requests.ts).
 */
import { PLAIN_XML } from '../../generators/xml';
import type { Exchange, Target } from '../client/target';
import { parseRequestBlock } from '../wire/xml';
import type { Format, RequestEnvelope } from '../wire/types';
import { bodyOf, envelopeOf, type FuzzCase } from './cases';
import { expectFor, type ExpectContext } from './expect';
import type { CaseRun } from './oracles';
import type { Pool } from './pool';
import { sendRawWithRetry } from './send';

/** What the expectations compare a case with: the run's context and the transactions its pool made. */
export function expectContextOf(context: Pool['context'], made: Pool['made'], alias: string): ExpectContext {
  return {
    alias,
    site: context.site,
    currency: context.currency,
    cards: context.cards,
    cachetokens: context.cachetokens ?? [],
    parents: made,
  };
}

/** One case sent and answered, not yet judged: what `judgeable` needs to make it a `CaseRun`. */
export interface SentCase {
  readonly case: FuzzCase;
  readonly format: Format;
  readonly body: string;
  /** The envelope of the case in its JSON form (what a JSON body is written from). */
  readonly env: RequestEnvelope;
  readonly exchange: Exchange;
}

/**
 * Sends one case: its body, and the answer. Not an async function: the promise is the send's, with one step after
 * it (a fault before the send throws at once, and detection reports it like a rejection).
 */
export function sendCase(c: FuzzCase, opts: { readonly target: Target; readonly format: Format; readonly alias: string }): Promise<SentCase> {
  const env = envelopeOf(c, opts.alias);
  const body = bodyOf(c, opts.alias, opts.format, env);
  const format = opts.format;
  return sendRawWithRetry(opts.target, { body }).then((exchange): SentCase => ({ case: c, format, body, env, exchange }));
}

/**
 * A sent case with what the document lets the kit expect of its answer, for the oracles. The expectation is a
 * function of the case and the run's context only, so detection works it out after the request is on its way.
 */
export function judgeable(s: SentCase, ectx: ExpectContext): CaseRun {
  const { case: c, format, body, exchange } = s;
  // JSON carries every value of a case as it is (strings, numbers, booleans, null, lists, objects); XML does not,
  // so its expectations are read from what the block maps back to.
  const wire: RequestEnvelope = format === 'json' ? s.env : parseRequestBlock(body).envelope;
  let expect = expectFor(wire, ectx);
  const styled = c.xml && (c.xml.declaration !== PLAIN_XML.declaration || c.xml.leadingBlankLine !== PLAIN_XML.leadingBlankLine);
  if (styled && expect.expectation.kind === 'valid') {
    // public-facts.md says real clients write blocks this way; the document shows no XML layout at all.
    expect = { ...expect, expectation: { kind: 'open', why: 'the block is laid out as public XML clients write it (public-facts.md only)' } };
  }
  const first: unknown = Array.isArray(wire.request) ? wire.request[0] : undefined;
  const sent = format === 'xml' && typeof first === 'object' && first !== null ? (first as Record<string, unknown>) : undefined;
  return sent ? { case: c, format, body, sent, expect, exchange } : { case: c, format, body, expect, exchange };
}

/** Sends one case and gathers what the oracles need (replay and shrinking: one case at a time). */
export function runCase(c: FuzzCase, opts: { readonly target: Target; readonly format: Format; readonly alias: string }, ectx: ExpectContext): Promise<CaseRun> {
  return sendCase(c, opts).then((s) => judgeable(s, ectx));
}
