/**
 * Variants from an adversarial audit of the JSON operations (AUTH, THREEDQUERY and the ACS round trip,
 * ACCOUNTCHECK, STORE, RISKDEC, SUBSCRIPTION): gateways written by someone who misread one sentence, and gateways
 * (and ACSs) that differ from the reference only where the document leaves room.
 */
import type { FrontRequest, FrontResponse, Variant } from '../types';
import { answers, benign, ERR, faulty, refuse, isType, partsOf, succeeded, without } from './helpers';

/** Another value of the same kind, for an echo that is not the value sent. */
const otherAmount = (v: unknown): string => String((typeof v === 'string' && /^[0-9]+$/.test(v) ? Number(v) : 0) + 100);
const otherCurrency = (v: unknown): string => (v === 'USD' ? 'EUR' : 'USD');

const isAcsPost = (req: FrontRequest): boolean => req.method === 'POST' && /^\/acs\/?(\?|$)/.test(req.path);
const isAcsComplete = (req: FrontRequest): boolean => req.path.startsWith('/acs/complete');

export const AUDIT_OPERATIONS: readonly Variant[] = [
  faulty({
    name: 'accountcheck-echoes-other-amount',
    area: 'types',
    rule: 'FIELD-ECHO',
    what: 'echoes another baseamount than the one sent in the ACCOUNTCHECK part (100 more: an account check that charges)',
    build: () => ({ mutate: { part: (p) => (isType(p, 'ACCOUNTCHECK') && p.baseamount !== undefined ? { ...p, baseamount: otherAmount(p.baseamount) } : p) } }),
  }),
  faulty({
    name: 'riskdec-echoes-other-currency',
    area: 'types',
    rule: 'FIELD-ECHO',
    what: 'echoes another currencyiso3a than the one sent in the RISKDEC part',
    build: () => ({ mutate: { part: (p) => (isType(p, 'RISKDEC') && p.currencyiso3a !== undefined ? { ...p, currencyiso3a: otherCurrency(p.currencyiso3a) } : p) } }),
  }),
  faulty({
    name: 'store-echoes-other-orderreference',
    area: 'types',
    rule: 'FIELD-ECHO',
    what: 'echoes another orderreference than the one sent in the STORE part',
    build: () => ({ mutate: { part: (p) => (isType(p, 'STORE') && typeof p.orderreference === 'string' ? { ...p, orderreference: `${p.orderreference}-S` } : p) } }),
  }),
  faulty({
    name: 'threedquery-echoes-other-amount',
    area: 'types',
    rule: 'FIELD-ECHO',
    what: 'echoes another baseamount than the one sent in the THREEDQUERY part',
    build: () => ({ mutate: { part: (p) => (isType(p, 'THREEDQUERY') && p.baseamount !== undefined ? { ...p, baseamount: otherAmount(p.baseamount) } : p) } }),
  }),

  faulty({
    name: 'enrolled-without-acsurl',
    area: 'types',
    rule: '3DS-QUERY-RESPONSE',
    what: 'answers enrolled Y without acsurl',
    build: () => ({ mutate: { part: (p) => (isType(p, 'THREEDQUERY') && p.enrolled === 'Y' ? without(p, 'acsurl') : p) } }),
  }),
  faulty({
    name: 'enrolled-without-md-pareq',
    area: 'types',
    rule: '3DS-QUERY-RESPONSE',
    what: 'answers enrolled Y without md and pareq',
    build: () => ({ mutate: { part: (p) => (isType(p, 'THREEDQUERY') && p.enrolled === 'Y' ? without(p, 'md', 'pareq') : p) } }),
  }),
  faulty({
    name: 'shield-status-made-up',
    area: 'types',
    rule: 'RISKDEC-SHIELD-VALUES',
    what: 'answers the made-up shield status PASS where the check gave ACCEPT',
    build: () => ({ mutate: { part: (p) => (isType(p, 'RISKDEC') && p.fraudcontrolshieldstatuscode === 'ACCEPT' ? { ...p, fraudcontrolshieldstatuscode: 'PASS' } : p) } }),
  }),
  faulty({
    name: 'authenticated-without-eci',
    area: 'types',
    rule: '3DS-CAVV-ECI',
    what: 'leaves eci out of an AUTH whose customer authenticated',
    build: () => ({ mutate: { part: (p) => (isType(p, 'AUTH') && p.status === 'Y' ? without(p, 'eci') : p) } }),
  }),
  faulty({
    name: 'subscription-before-auth',
    area: 'types',
    rule: 'ENV-ORDER',
    what: 'answers the SUBSCRIPTION part of AUTH+SUBSCRIPTION before the AUTH part',
    build: () => ({ mutate: { envelope: (env, ctx) => (answers(ctx, 'AUTH', 'SUBSCRIPTION') ? { ...env, response: [...partsOf(env)].reverse() } : env) } }),
  }),
  faulty({
    name: 'subscription-without-transactionactive',
    area: 'types',
    rule: 'SUB-AUTH-FIRST-PAYMENT',
    what: 'leaves transactionactive out of the SUBSCRIPTION part',
    build: () => ({ mutate: { part: (p) => (isType(p, 'SUBSCRIPTION') ? without(p, 'transactionactive') : p) } }),
  }),
  faulty({
    name: 'enrolled-auth-without-enrolled',
    area: 'types',
    rule: '3DS-AUTH-ENROLLED',
    what: 'leaves enrolled out of the AUTH after 3-D Secure of an enrolled card',
    build: () => ({ mutate: { part: (p) => (isType(p, 'AUTH') && p.enrolled === 'Y' ? without(p, 'enrolled') : p) } }),
  }),
  faulty({
    name: 'acs-returns-by-get',
    area: 'acs',
    rule: 'ACS-TO-MERCHANT',
    what: 'has an ACS that returns the browser to the termurl with a GET form',
    build: () => ({ front: { response: (res, req) => (isAcsComplete(req) ? { ...res, body: res.body.replace(/method="post"/g, 'method="get"') } : res) } }),
  }),
  faulty({
    name: 'acs-returns-other-md',
    area: 'acs',
    rule: 'ACS-TO-MERCHANT',
    what: 'has an ACS that returns another MD to the termurl than the md it was sent',
    build: () => ({ front: { response: (res, req) => (isAcsComplete(req) ? { ...res, body: res.body.replace(/(name="MD" value=")/, '$1X') } : res) } }),
  }),
  faulty({
    name: 'accountcheck-zero-refused',
    area: 'types',
    rule: 'AC-VALIDATES',
    what: 'refuses an ACCOUNTCHECK of baseamount 0',
    build: () => ({ mutate: { operations: { ACCOUNTCHECK: (input, next) => (input.prepared.fields.baseamount === '0' ? refuse('ACCOUNTCHECK', ERR.invalidField, ['baseamount']) : next(input)) } } }),
  }),

  faulty({
    name: 'digit-strings-as-numbers',
    area: 'envelope',
    rule: 'FIELD-STRINGS',
    what: 'answers every value written in digits (errorcode, the security check results, transactionactive, settlestatus, ...) as a JSON number (JSON: XML has no numbers)',
    formats: ['json'],
    build: () => ({ mutate: { part: (p) => Object.fromEntries(Object.entries(p).map(([k, v]) => [k, typeof v === 'string' && /^(0|[1-9][0-9]{0,12})$/.test(v) ? Number(v) : v])) } }),
  }),

  // ---- benign ------------------------------------------------------------------------------------------------
  benign({
    name: 'maskedpan-first-four',
    area: 'fields',
    allowedBy: '"with the middle digits replaced by `#`": how many digits stay visible at each end is not fixed',
    what: 'masks card numbers keeping the first four and the last four digits (4111########1111)',
    build: () => ({
      mutate: {
        part: (p) =>
          typeof p.maskedpan === 'string' && /^[0-9]{6}#+[0-9]{4}$/.test(p.maskedpan)
            ? { ...p, maskedpan: `${p.maskedpan.slice(0, 4)}${'#'.repeat(p.maskedpan.length - 8)}${p.maskedpan.slice(-4)}` }
            : p,
      },
    }),
  }),
  benign({
    name: 'riskdec-flag-on-accept',
    area: 'types',
    allowedBy: '"Identifies the condition that caused `DENY` or `CHALLENGE`": nothing forbids a flag and a message on ACCEPT',
    what: 'answers rulecategoryflag and rulecategorymessage on every RISKDEC part, ACCEPT too',
    build: () => ({
      mutate: { part: (p) => (isType(p, 'RISKDEC') && succeeded(p) && p.rulecategoryflag === undefined ? { ...p, rulecategoryflag: 'NONE', rulecategorymessage: 'No rule matched' } : p) },
    }),
  }),
  benign({
    name: 'recommendation-always-stop',
    area: 'types',
    allowedBy: '"`C` continue, `S` stop. Only a recommendation." (the mapping from a shield status is not given)',
    what: 'recommends S (stop) in every RISKDEC part',
    build: () => ({ mutate: { part: (p) => (isType(p, 'RISKDEC') && p.acquirerrecommendedaction !== undefined ? { ...p, acquirerrecommendedaction: 'S' } : p) } }),
  }),
  benign({
    name: 'subscription-part-without-parent',
    area: 'types',
    allowedBy:
      '"`parenttransactionreference` | Present when the response part was based on an earlier request.": the AUTH of AUTH+SUBSCRIPTION is not an earlier request (the reference names it; nothing requires it)',
    what: 'leaves parenttransactionreference out of the SUBSCRIPTION part of an AUTH+SUBSCRIPTION sent without a parent',
    build: () => ({
      mutate: {
        envelope: (env, ctx) => {
          if (!answers(ctx, 'AUTH', 'SUBSCRIPTION')) return env;
          const [auth, sub] = partsOf(env);
          return auth && sub && auth.parenttransactionreference === undefined ? { ...env, response: [auth, without(sub, 'parenttransactionreference')] } : env;
        },
      },
    }),
  }),
  benign({
    name: 'acs-page-form-by-get',
    area: 'acs',
    allowedBy: 'the document fixes the POST to acsurl and the POST back to termurl, not how the ACS page in between submits itself',
    what: 'has an ACS whose authentication page submits its form by GET',
    build: () => ({
      front: {
        request: (req) =>
          req.method === 'GET' && req.path.startsWith('/acs/complete?')
            ? {
                ...req,
                method: 'POST',
                path: '/acs/complete',
                headers: { ...req.headers, 'content-type': 'application/x-www-form-urlencoded', 'x-acs-page': 'get' },
                body: req.path.slice('/acs/complete?'.length),
              }
            : req,
        response: (res, req) => {
          // A POST of the page's form is not what the page does: refused, as a GET-only endpoint would.
          if (isAcsComplete(req) && req.headers['x-acs-page'] !== 'get') return { status: 405, headers: { 'content-type': 'text/plain', allow: 'GET' }, body: 'GET only' };
          return isAcsPost(req) ? { ...res, body: res.body.replace(/(<form id="acs-form" method=")post/, '$1get') } : res;
        },
      },
    }),
  }),
  benign({
    name: 'acs-redirects-to-its-page',
    area: 'acs',
    allowedBy: 'the document fixes the POST to acsurl and the POST back to termurl, not how the ACS shows its page between them (a browser follows a 303)',
    what: 'has an ACS that answers the POST to acsurl with a 303 redirect to its authentication page',
    build: () => {
      const pages = new Map<string, FrontResponse>();
      let next = 0;
      return {
        front: {
          response: (res, req) => {
            // The page is shown only to the browser that holds the session cookie set with the redirect.
            const id = req.method === 'GET' && req.path.startsWith('/acs/?page=') ? req.path.slice('/acs/?page='.length) : undefined;
            const shown = id !== undefined && (req.headers.cookie ?? '').includes(`acs-session=${id}`) ? pages.get(id) : undefined;
            if (shown) return shown;
            if (isAcsPost(req) && req.body !== '' && res.status === 200) {
              const page = String((next += 1));
              pages.set(page, res);
              return { status: 303, headers: { location: `/acs/?page=${page}`, 'set-cookie': `acs-session=${page}; Path=/acs; HttpOnly`, 'content-type': 'text/plain' }, body: '' };
            }
            return res;
          },
        },
      };
    },
  }),
  benign({
    name: 'acs-frictionless',
    area: 'acs',
    allowedBy: '"The browser is returned by HTTPS POST to the `termurl`. The form holds `PaRes` and `MD`." (whether the ACS shows a page first is the ACS\'s own)',
    what: 'has an ACS that returns the browser to the termurl at once, without a page for the customer (frictionless)',
    build: () => ({ front: { request: (req) => (isAcsPost(req) ? { ...req, path: '/acs/complete' } : req) } }),
  }),
  benign({
    name: 'acs-sends-realpan',
    area: 'acs',
    allowedBy: '"Some ACSs also send a field `realPan` with the plain card number."',
    what: 'has an ACS that also sends realPan, the plain card number, in the form back to the termurl',
    build: () => ({
      front: {
        response: (res, req) => (isAcsComplete(req) ? { ...res, body: res.body.replace(/(<input type="hidden" id="MD")/, '<input type="hidden" name="realPan" value="4111111111111111">$1') } : res),
      },
    }),
  }),
];
