/**
 * Faulty variants the mutation hook cannot reach, each through a `Front` (src/selfcheck/front.ts): the emulated
 * ACS pages ("Customer redirect to the issuer's ACS") and HTTP basic authentication ("Authentication", 1), which
 * the gateway checks before any hook runs. And one that mis-reads the `pares` the ACS returned.
 */
import { basicAuth } from '../../client/http';
import { DEFAULT_CONFIG } from '../../testdata';
import type { FrontRequest, Variant } from '../types';
import { faulty, isObject } from './helpers';

/** The form field names of the merchant's POST to `acsurl`, as the document spells them. */
const ACS_NAMES = ['PaReq', 'TermUrl', 'MD'];

/** The body of a form POST with its field names matched to `names` whatever their case. */
function caseFolded(body: string, names: readonly string[]): string {
  const form = new URLSearchParams(body);
  const out = new URLSearchParams();
  for (const [k, v] of form) out.append(names.find((n) => n.toLowerCase() === k.toLowerCase()) ?? k, v);
  return out.toString();
}

const isAcs = (req: FrontRequest): boolean => req.method === 'POST' && req.path.startsWith('/acs');
const isEnvelope = (req: FrontRequest): boolean => /^\/(json|xml)\/?(\?|$)/.test(req.path);

export const ACS_AND_TRANSPORT: readonly Variant[] = [
  faulty({
    name: 'acs-names-any-case',
    area: 'acs',
    rule: 'ACS-MERCHANT-TO-ACS',
    what: 'has an ACS that reads the form fields PaReq, TermUrl and MD whatever their case',
    build: () => ({ front: { request: (req) => (isAcs(req) ? { ...req, body: caseFolded(req.body, ACS_NAMES) } : req) } }),
  }),
  faulty({
    name: 'acs-returns-pares-lower-case',
    area: 'acs',
    rule: 'ACS-TO-MERCHANT',
    what: 'has an ACS that returns the browser to the termurl with "pares" instead of "PaRes"',
    build: () => ({
      front: { response: (res, req) => (req.path.startsWith('/acs/complete') ? { ...res, body: res.body.replace(/(id|name)="PaRes"/g, '$1="pares"') } : res) },
    }),
  }),
  faulty({
    name: 'pares-case-folded',
    area: 'acs',
    rule: '3DS-MD-PARES-UNMODIFIED',
    what: 'lower-cases the pares it is sent before matching it, so the value the ACS returned never authenticates',
    build: () => ({ mutate: { request: (r) => (isObject(r) && typeof r.pares === 'string' ? { ...r, pares: r.pares.toLowerCase() } : r) } }),
  }),
  faulty({
    name: 'credentials-not-required',
    area: 'transport',
    rule: 'SEC-BASIC-AUTH',
    what: "answers calls without basic authentication, or with a wrong password, as the account's own",
    build: () => {
      const user = DEFAULT_CONFIG.users[0];
      const authorization = basicAuth(user.username, user.password);
      return { front: { request: (req) => (isEnvelope(req) ? { ...req, headers: { ...req.headers, authorization } } : req) } };
    },
  }),
];
