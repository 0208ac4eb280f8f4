/**
 * The ACS round trip as an observer sees it, when the customer's browser's traffic also goes through the proxy (or
 * is in a capture): "Customer redirect to the issuer's ACS (browser, not JSON)". The THREEDQUERY answers observed
 * say what was issued (`acsurl`, `md`, `pareq`) and the merchant's `termurl`; then
 *
 * - the browser's form POST to `acsurl` is the merchant's (client side, ACS-MERCHANT-TO-ACS): the fields `PaReq`,
 *   `TermUrl` and `MD`, names as written ("These names are case sensitive"), `PaReq` and `MD` as issued, `TermUrl`
 *   the merchant's `termurl`; an ACS that refuses such a form is the upstream's fault (gateway side);
 * - a page of the ACS that returns the browser to `termurl` is the ACS's (gateway side, ACS-TO-MERCHANT): a POST
 *   form holding `PaRes` and `MD`, with the `MD` that was sent.
 *
 * The `PaRes` returned is written into the observed ledger, so that the AUTH which follows is checked against the
 * value the ACS returned (3-D Secure md/pares "submitted in full and unmodified", src/contract/checks.ts), not
 * taken as it came. Traffic that names no `md` the observer saw answered is not judged (it may be another
 * session's, or a THREEDQUERY that went by before the proxy started).
 */
import { parseForms, type HtmlForm } from '../client/browser';
import type { Finding } from '../rules/findings';
import type { RequestObject, ResponsePart } from '../wire/types';
import { header, inflated, type HttpExchange } from './exchange';
import type { ObservedLedger } from './observed';

/** What one THREEDQUERY answer issued for the browser, and the merchant's `termurl` it was sent with. */
interface Issued {
  readonly md: string;
  readonly pareq?: string;
  readonly acsurl: string;
  readonly termurl?: string;
}

/** One ACS exchange judged: findings by side, the rules it showed. */
export interface AcsVerdict {
  readonly client: readonly Finding[];
  readonly gateway: readonly Finding[];
  readonly checked: readonly string[];
  /** Which step of the round trip: the merchant's POST to acsurl, or a later page of the ACS. */
  readonly step: 'to-acs' | 'at-acs';
}

const MERCHANT_TO_ACS = 'ACS-MERCHANT-TO-ACS';
const ACS_TO_MERCHANT = 'ACS-TO-MERCHANT';
/** Issued `md`s kept (the observed ledger's own window is of the same order). */
const MAX_ISSUED = 10_000;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

const trimSlash = (p: string): string => p.replace(/\/+$/, '') || '/';

function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).toString() === new URL(b).toString();
  } catch {
    return a === b;
  }
}

/** The fields of a URL-encoded form body, names as written (the first of a repeated name). */
function formFields(ex: HttpExchange): Map<string, string> | undefined {
  const type = (header(ex.requestHeaders, 'content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (ex.method !== 'POST' || (type !== '' && type !== 'application/x-www-form-urlencoded')) return undefined;
  const body = inflated(ex.requestBody, ex.requestHeaders);
  if (!body || body.length === 0 || body.length > 1024 * 1024) return undefined;
  const out = new Map<string, string>();
  for (const [k, v] of new URLSearchParams(body.toString('utf8'))) if (!out.has(k)) out.set(k, v);
  return out;
}

/** A field by its exact name, or why not: sent under another case, or not at all. */
function exact(fields: ReadonlyMap<string, string>, name: string): { value?: string; other?: string } {
  if (fields.has(name)) return { value: fields.get(name) };
  const other = [...fields.keys()].find((k) => k.toLowerCase() === name.toLowerCase());
  return { other };
}

export class AcsWatch {
  private readonly issued = new Map<string, Issued>();

  /** A THREEDQUERY answered: what it issued for the browser (enrolled cards only carry `acsurl` and `md`). */
  remember(obj: RequestObject | undefined, part: ResponsePart): void {
    const md = str(part.md);
    const acsurl = str(part.acsurl);
    if (md === undefined || acsurl === undefined) return;
    if (this.issued.size >= MAX_ISSUED) this.issued.delete(this.issued.keys().next().value as string);
    this.issued.set(md, { md, pareq: str(part.pareq), acsurl, termurl: str(obj?.termurl) });
  }

  /** An exchange of the round trip of an md observed, judged; undefined for any other traffic. */
  observe(ex: HttpExchange, rel: string, observed: ObservedLedger): AcsVerdict | undefined {
    if (this.issued.size === 0) return undefined;
    const fields = formFields(ex);
    if (!fields) return undefined;
    const mdKey = [...fields.keys()].find((k) => k.toLowerCase() === 'md' && this.issued.has(fields.get(k) ?? ''));
    if (mdKey === undefined) return undefined;
    const issued = this.issued.get(fields.get(mdKey) ?? '')!;
    const client: Finding[] = [];
    const gateway: Finding[] = [];
    const checked = new Set<string>();
    let acsPath: string;
    try {
      acsPath = trimSlash(new URL(issued.acsurl).pathname);
    } catch {
      acsPath = '';
    }
    const path = trimSlash(rel.split('?')[0]);
    // The merchant's POST goes to acsurl itself (the proxy may sit under another base path: the end of it).
    const toAcs = acsPath !== '' && (acsPath === path || acsPath.endsWith(path === '/' ? '\u0000' : path));
    if (toAcs) {
      checked.add(MERCHANT_TO_ACS);
      const fail = (field: string, message: string): void => void client.push({ rule: MERCHANT_TO_ACS, field: `acsurl form ${field}`, severity: 'error', message });
      for (const name of ['PaReq', 'TermUrl', 'MD']) {
        const f = exact(fields, name);
        if (f.value === undefined) fail(name, f.other !== undefined ? `the form sends ${f.other}, not ${name}: these names are case sensitive` : `the form to acsurl has no ${name}`);
      }
      const pareq = fields.get('PaReq');
      if (pareq !== undefined && issued.pareq !== undefined && pareq !== issued.pareq)
        fail('PaReq', `PaReq is not the pareq the THREEDQUERY answered (${pareq.length} characters sent, ${issued.pareq.length} issued)`);
      const termurl = fields.get('TermUrl');
      if (termurl !== undefined && issued.termurl !== undefined && !sameUrl(termurl, issued.termurl)) fail('TermUrl', "TermUrl is not the merchant's termurl the THREEDQUERY was sent with");
      const status = ex.status ?? 0;
      if (client.length === 0 && !ex.fault && (status < 200 || status > 299))
        gateway.push({ rule: MERCHANT_TO_ACS, field: 'acsurl', severity: 'error', message: `the ACS answered HTTP ${status} to the form PaReq, TermUrl and MD as the THREEDQUERY issued them` });
    }
    const back = this.returnForm(ex, issued);
    if (back) {
      checked.add(ACS_TO_MERCHANT);
      const fail = (field: string, message: string): void => void gateway.push({ rule: ACS_TO_MERCHANT, field: `termurl form ${field}`, severity: 'error', message });
      if (back.method !== 'POST') fail('method', `the form back to the termurl uses ${back.method}: the browser is returned by HTTPS POST`);
      const names = new Map(Object.entries(back.fields));
      for (const name of ['PaRes', 'MD']) {
        const f = exact(names, name);
        if (f.value === undefined) fail(name, f.other !== undefined ? `the form back to the termurl holds ${f.other}, not ${name}` : `the form back to the termurl holds no ${name}`);
      }
      const md = names.get('MD');
      if (md !== undefined && md !== issued.md) fail('MD', 'the MD returned to the termurl is not the md sent to the ACS: the merchant could not find the customer session with it');
      const pares = str(names.get('PaRes'));
      if (pares !== undefined) this.returned(observed, issued.md, pares);
    }
    return { client, gateway, checked: [...checked], step: toAcs ? 'to-acs' : 'at-acs' };
  }

  /** The form of the ACS's answer that returns the browser to the merchant's termurl (by its action). */
  private returnForm(ex: HttpExchange, issued: Issued): HtmlForm | undefined {
    if (ex.fault || !ex.responseBody || ex.responseBody.length === 0) return undefined;
    const body = inflated(ex.responseBody, ex.responseHeaders);
    if (!body) return undefined;
    const forms = parseForms(body.toString('utf8'), issued.acsurl);
    if (issued.termurl !== undefined) return forms.find((f) => sameUrl(f.action, issued.termurl!));
    // The termurl was not seen (a THREEDQUERY from elsewhere): the form that carries a PaRes, whatever its case.
    return forms.find((f) => Object.keys(f.fields).some((k) => k.toLowerCase() === 'pares'));
  }

  /** The PaRes the ACS returned for an md: the one the AUTH must send, unmodified. */
  private returned(observed: ObservedLedger, md: string, pares: string): void {
    const rec = observed.threeDs(md, undefined);
    if (!rec?.threeds) return;
    observed.ledger.change(rec.transactionreference, (r) => {
      r.threeds = { ...r.threeds!, pares, used: false };
    });
  }
}
