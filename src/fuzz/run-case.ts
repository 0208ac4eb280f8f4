/**
 * One fuzz case sent and answered: its body in the run's format, what the document lets the kit expect of the
 * answer (./expect.ts), and the exchange. Shared by detection (./detect.ts), replay and shrinking (./requests.ts).
 */
import { PLAIN_XML } from '../../generators/xml';
import type { Exchange, Target } from '../client/target';
import { parseRequestBlock } from '../wire/xml';
import type { Format, RequestEnvelope } from '../wire/types';
import { bodyOf, envelopeOf, type FuzzCase } from './cases';
import { expectFor, type CaseExpectation, type ExpectContext } from './expect';
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

/** A case ready to send: its body, and what the document lets the kit expect of the answer. */
export interface PreparedCase {
  readonly case: FuzzCase;
  readonly format: Format;
  readonly body: string;
  /** XML only: the request object as the block carries it back (`CaseRun.sent`). */
  readonly sent?: Readonly<Record<string, unknown>>;
  readonly expect: CaseExpectation;
}

/**
 * The body of a case and its expectation, which are functions of the case and the run's context only: detection
 * works them out while it waits for answers (./detect.ts), not between an answer and the next request.
 */
export function prepareCase(c: FuzzCase, opts: { readonly format: Format; readonly alias: string }, ectx: ExpectContext): PreparedCase {
  const format = opts.format;
  const env = envelopeOf(c, opts.alias);
  const body = bodyOf(c, opts.alias, format, env);
  // JSON carries every value of a case as it is (strings, numbers, booleans, null, lists, objects); XML does not,
  // so its expectations are read from what the block maps back to.
  const wire: RequestEnvelope = format === 'json' ? env : parseRequestBlock(body).envelope;
  let expect = expectFor(wire, ectx);
  const styled = c.xml && (c.xml.declaration !== PLAIN_XML.declaration || c.xml.leadingBlankLine !== PLAIN_XML.leadingBlankLine);
  if (styled && expect.expectation.kind === 'valid') {
    // public-facts.md says real clients write blocks this way; the document shows no XML layout at all.
    expect = { ...expect, expectation: { kind: 'open', why: 'the block is laid out as public XML clients write it (public-facts.md only)' } };
  }
  const first: unknown = Array.isArray(wire.request) ? wire.request[0] : undefined;
  const sent = format === 'xml' && typeof first === 'object' && first !== null ? (first as Record<string, unknown>) : undefined;
  return sent ? { case: c, format, body, sent, expect } : { case: c, format, body, expect };
}

/** The run of a prepared case, once answered. */
export function runOf(p: PreparedCase, exchange: Exchange): CaseRun {
  return p.sent ? { case: p.case, format: p.format, body: p.body, sent: p.sent, expect: p.expect, exchange } : { case: p.case, format: p.format, body: p.body, expect: p.expect, exchange };
}

/** Sends a prepared case; its run once answered. Not an async function: the promise is the send's, with one step. */
export function sendPrepared(p: PreparedCase, target: Target): Promise<CaseRun> {
  return sendRawWithRetry(target, { body: p.body }).then((exchange) => runOf(p, exchange));
}

/**
 * Sends one case and gathers what the oracles need (replay and shrinking: one case at a time). A fault before the
 * send throws at once.
 */
export function runCase(c: FuzzCase, opts: { readonly target: Target; readonly format: Format; readonly alias: string }, ectx: ExpectContext): Promise<CaseRun> {
  return sendPrepared(prepareCase(c, opts, ectx), opts.target);
}
