/**
 * Before the suite: one known-good request per format (an Account check with the profile's authorised card) tells
 * a setup mistake from a non-conformance. A refused port, a target that never answers, refused credentials (HTTP
 * 401 or 403) or an answer that is not an envelope at all would otherwise fail every scenario, each on its own
 * rules; the preflight says once what to fix, within one request's timeout.
 *
 * A profile's cache-token provider is run once too: it is the user's own code.
 *
 * What the preflight does not judge: an envelope whose part reports an error. The document fixes the answer to a
 * good request, so that is the suite's to check (on its rules); the preflight only notes it.
 *
 * Nor, when another format was answered with an envelope, one format answered (HTTP 2xx) with a body that is no
 * envelope: the address and credentials are then right, and the service answers that format against the document.
 * That is a finding (`FormatFault`, on the rule of the answer's body), not a setup mistake; the run reports it
 * FAILED, with the exchange, and that format's scenarios as not reached because of it.
 */
import type { Format } from '../wire/types';
import { provideCachetoken } from './cachetoken-provider';
import type { Profile, ProfileCard } from './profile';
import { buildRequest, operationByTitle } from './requests';
import { openTarget } from './connection';
import { Target, type Exchange } from './target';

export interface PreflightOptions {
  readonly baseUrl: string;
  readonly formats: readonly Format[];
  readonly user: string;
  readonly password: string;
  readonly alias: string;
  readonly site: string;
  readonly profile: Profile;
  readonly signal?: AbortSignal;
}

/**
 * Why a target is not ready: `unreachable` no answer arrived at all (refused, no such host, no connection, TLS,
 * closed or hung before any answer); `credentials` HTTP 401 or 403; `answer` an answer that is no envelope;
 * `setup` the profile or its cache-token provider. `cardspec fuzz` stops only on the first two and the last
 * (nothing could be sent): an answer that is no envelope is its oracles' to judge.
 */
export type NotReadyKind = 'unreachable' | 'credentials' | 'answer' | 'setup';

/**
 * A format the target answers with a body that is no envelope while another format works: the rule it breaks
 * (TRANSPORT-RESPONSE-BODY; in XML a root other than responseblock, XML-RESPONSE-ROOT), what was wrong, and the
 * exchange as the reports show it (masked).
 */
export interface FormatFault {
  readonly format: Format;
  readonly rule: string;
  readonly message: string;
  readonly exchange: string;
}

export type PreflightResult =
  | { readonly ok: true; readonly notes: readonly string[]; readonly faults: readonly FormatFault[] }
  /** `problem`: what happened and what to fix, masked, in one paragraph. */
  | { readonly ok: false; readonly problem: string; readonly kind: NotReadyKind };

/** The preflight's time for its one request, unless the user gave --timeout: a hung target is told in seconds. */
export const PREFLIGHT_TIMEOUT_MS = 10_000;

const PREFLIGHT_OPERATION = 'Account check';

/** The card of the known-good request: the authorised one, else any the profile has. */
function knownGoodCard(profile: Profile): ProfileCard | undefined {
  return profile.cards.authorised ?? Object.values(profile.cards).find((c) => c !== undefined);
}

function credentialsHint(opts: PreflightOptions): string {
  // Worded so that no masking rule reads a value after `--user` (curl's syntax).
  return `check the user name and password (options --user, --password; or CARDSPEC_USER, CARDSPEC_PASSWORD; or the profile's credentials); the user name sent was "${opts.user}"`;
}

/** What an exchange that is no usable answer means for the person running the kit. */
function diagnose(ex: Exchange, opts: PreflightOptions): { problem: string; kind: NotReadyKind } | undefined {
  const problem = problemOf(ex, opts);
  if (problem === undefined) return undefined;
  const kind: NotReadyKind = ex.transportFailure && ex.status === undefined ? 'unreachable' : ex.status === 401 || ex.status === 403 ? 'credentials' : 'answer';
  return { problem, kind };
}

function problemOf(ex: Exchange, opts: PreflightOptions): string | undefined {
  const what = `a known-good ${ex.format.toUpperCase()} ${PREFLIGHT_OPERATION} (POST ${ex.url})`;
  const pathKey = ex.format === 'json' ? 'paths.json' : 'paths.xml';
  if (ex.transportFailure) {
    switch (ex.failureKind) {
      case 'refused':
        return `${what} was refused: nothing listens there. Is the target running, and is --target right (scheme, host, port)?`;
      case 'connect-timeout':
        return `${what} found no connection: ${ex.error}. Check the host and port of --target, and any firewall between.`;
      case 'timeout':
        return `${what} got no answer: ${ex.error}. The target accepts connections but does not answer: is it hung, or is --target a port of something else? If it is only slow, raise --timeout.`;
      case 'dns':
        return `${what} failed: ${ex.error}. Check the host name in --target.`;
      case 'stopped':
        return `${what} was abandoned: ${ex.error}.`;
      default: {
        const scheme = new URL(ex.url).protocol.replace(':', '');
        // A TLS server meeting plain HTTP often just closes: the one hint that fits a silent close.
        const tlsHint = scheme === 'http' && ex.failureKind === 'reset' && ex.status === undefined ? ' (if it speaks HTTPS there, give an https:// URL)' : '';
        return `${what} failed: ${ex.error}. Is --target an ${scheme.toUpperCase()} server of the service${tlsHint}?`;
      }
    }
  }
  if (ex.status === 401 || ex.status === 403) {
    return `${what} was refused with HTTP ${ex.status}: the target does not accept the credentials; ${credentialsHint(opts)}.`;
  }
  if (ex.error) {
    return `${what} was not answered with an envelope: ${ex.error}. Check --target (the base URL, without ${ex.format === 'json' ? opts.profile.paths.json : opts.profile.paths.xml}) and the profile's ${pathKey}.`;
  }
  const response = ex.envelope?.response;
  if (!Array.isArray(response) || response.length === 0) {
    return `${what} was answered (HTTP ${ex.status}) with no response part: is --target the service? Check the base URL and the profile's ${pathKey}.`;
  }
  return undefined;
}

/** An answer (HTTP 2xx) whose body is no envelope: a finding when another format was answered with one. */
function faultOf(ex: Exchange, request: Record<string, unknown>): FormatFault | undefined {
  if (ex.transportFailure || !ex.error || ex.status === undefined || ex.status < 200 || ex.status > 299) return undefined;
  // The rule the suite's own steps name for the same answer (steps/world.ts, record).
  const rule = ex.format === 'xml' && /not an XML responseblock/.test(ex.error) && /<\s*[A-Za-z]/.test(ex.error) ? 'XML-RESPONSE-ROOT' : 'TRANSPORT-RESPONSE-BODY';
  const message = `the known-good ${ex.format.toUpperCase()} ${PREFLIGHT_OPERATION} was answered HTTP ${ex.status} with a body that is no envelope: ${ex.error} (${ex.format.toUpperCase()} POST ${ex.url})`;
  return { format: ex.format, rule, message, exchange: Target.attachment(ex, request) };
}

/** A part that reports an error is the suite's to judge; the preflight passes it on as a note. */
function noteOf(ex: Exchange): string | undefined {
  const response = ex.envelope?.response;
  const part = Array.isArray(response) ? (response[0] as Record<string, unknown> | undefined) : undefined;
  const code = part?.errorcode;
  if (code === undefined || String(code) === '0') return undefined;
  const data = part?.errordata === undefined ? '' : ` ${JSON.stringify(part.errordata)}`;
  return `the known-good ${ex.format.toUpperCase()} ${PREFLIGHT_OPERATION} answered errorcode ${String(code)} (${String(part?.errormessage ?? '')}${data}): if scenarios fail alike, check --site and the profile's cards.`;
}

export async function preflight(opts: PreflightOptions): Promise<PreflightResult> {
  const card = knownGoodCard(opts.profile);
  if (!card) return { ok: false, kind: 'setup', problem: `the profile "${opts.profile.name}" has no card: a known-good request needs one (cards.authorised).` };
  const row = operationByTitle(PREFLIGHT_OPERATION);
  const notes: string[] = [];
  const faults: FormatFault[] = [];
  let first: { problem: string; kind: NotReadyKind } | undefined;
  let answered = false;
  for (const format of opts.formats) {
    const target = openTarget(opts, opts.baseUrl, format, { signal: opts.signal });
    try {
      const orderreference = `cardspec-preflight-${Math.random().toString(36).slice(2, 8)}`;
      const request = buildRequest(row, { profile: opts.profile, site: opts.site, today: '', orderreference }, { card });
      const ex = await target.send(request);
      const problem = diagnose(ex, opts);
      const fault = problem ? faultOf(ex, request) : undefined;
      // A setup mistake is told at once; a format answered otherwise waits for the other format's answer.
      if (problem && !fault) return { ok: false, ...problem };
      if (problem && fault) {
        first ??= problem;
        faults.push(fault);
      } else answered = true;
      const note = noteOf(ex);
      if (note) notes.push(note);
    } finally {
      target.close();
    }
  }
  // No format answered with an envelope: the address or the path is the likelier mistake than the service.
  if (first && !answered) return { ok: false, ...first };
  // The provider is the user's own code: a mistake in it is a setup mistake, told once here.
  const provider = opts.profile.cachetokenProvider;
  if (provider) {
    try {
      await provideCachetoken(provider, card, { baseUrl: opts.baseUrl, site: opts.site, currency: opts.profile.currency }, opts.signal);
    } catch (e) {
      return {
        ok: false,
        kind: 'setup',
        problem: `${(e as Error).message}. Fix the profile's cachetokenProvider (examples/cachetoken-provider.js is a template; docs/conformance.md, "Cache tokens").`,
      };
    }
  }
  return { ok: true, notes, faults };
}
