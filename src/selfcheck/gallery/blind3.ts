/**
 * A third round of faulty variants written from the interface document alone, before reading the suite (see
 * ./blind.ts and ./blind2.ts for the earlier rounds). Each breaks one sentence where a suite is least likely to
 * look: a follow-up read back after an update, a child of a child, a refused or declined path, a field at the edge
 * of its length, the second part of a combined request, the XML form of one request type, a resubmitted query.
 * The benign ones at the end do what the document leaves open.
 *
 * First run (`selfcheck --only 'blind3-*' --no-fuzz`): 11 of the 27 caught under the rule named, 2 caught under
 * other rules only, 14 escaped; the 5 benign passed.
 * - Mislabelled: blind3-6012-fields-not-inherited-from-accountcheck (on INHERIT-CHILD, ERR-60025: the generated
 *   inheritance scenarios on an ACCOUNTCHECK parent did not carry AC-INHERITED, the sentence they check) and
 *   blind3-enrolled-subscription-auth-without-status (on SUB-ENROLLED, 3DS-NEXT-Y: `status` was held only in the
 *   separate AUTH after 3-D Secure; now the answer invariant `enrolled-status`, and the subscription scenarios that
 *   check `status` carry 3DS-STATUS).
 * - Escaped, now caught by an answer invariant held wherever the sentence applies (src/rules/answers.ts):
 *   failed-subscription-part-ecom (`subscription-recur`), acs-unavailable-auth-with-cavv (`authenticated-only`),
 *   store-security-code-matched (`store-no-bank`), store-child-parent-not-echoed (`parent-echo`, with a scenario of
 *   a STORE on a parent), declined-accountcheck-without-bank-code (`declined-by-bank`, with a scenario of a declined
 *   ACCOUNTCHECK), query-midnight-as-24 (`query-records`, with a scenario that queries an automatic payment).
 * - Escaped, now caught by a scenario: query-store-disable-stale and query-subscription-deactivation-stale (a
 *   TRANSACTIONQUERY after the update), inherited-zero-amount-authorised (an AUTH on an ACCOUNTCHECK of 0),
 *   store-child-created-disabled (a payment on a STORE made on a parent), grandchild-loses-billing (three
 *   generations; 3-D Secure on a stored card with billing), deny-parent-auth-not-suspended (an AUTH naming a RISKDEC
 *   of CHALLENGE or DENY), fraudcontrolreference-per-order (the same request sent again),
 *   riskdec-after-3ds-auth-noscore (the RISKDEC after a 3-D Secure AUTH scores ACCEPT).
 * After the fixes: 27 of 27 caught under their rule, 5 of 5 benign passed, and the 38 benign of the gallery passed.
 */
import type { GatewayMutation } from '../../gateway';
import { MCC_6012_FIELDS } from '../../testdata';
import type { Variant } from '../types';
import { answers, benign, billingNotInherited, changeStored, ERR, faulty, filteredReference, isObject, isType, partsOf, queryRecords, refuse, without, withPart } from './helpers';

/** The request types a request object names, joined by commas ('' when it names none readably). */
const typesOf = (req: unknown): string => (isObject(req) && Array.isArray(req.requesttypedescriptions) ? req.requesttypedescriptions.join(',') : '');

/** A `YYYY-MM-DD` date moved by whole days. */
function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** A `YYYY-MM-DD HH:MM:SS` timestamp moved by whole seconds. */
function addSeconds(ts: string, seconds: number): string {
  const d = new Date(`${ts.replace(' ', 'T')}Z`);
  if (Number.isNaN(d.getTime())) return ts;
  d.setUTCSeconds(d.getUTCSeconds() + seconds);
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

/** Hooks that remember which transactions of a type a TRANSACTIONUPDATE set `field` to `from`, and show `shown` for them in queries. */
function staleAfterUpdate(type: string, field: string, from: string, shown: string): GatewayMutation {
  const updated = new Set<string>();
  return {
    operations: {
      TRANSACTIONUPDATE: (input, next) => {
        const ref = filteredReference(input.prepared.filter);
        const rec = ref ? input.uow.get(ref) : undefined;
        const updates = input.prepared.updates;
        const out = next(input);
        if (rec?.type === type && out.part.errorcode === '0' && isObject(updates) && updates[field] === from) updated.add(rec.transactionreference);
        return out;
      },
      ...queryRecords((r) => (typeof r.transactionreference === 'string' && updated.has(r.transactionreference) && r[field] === from ? { ...r, [field]: shown } : r)).operations,
    },
  };
}

export const BLIND3: readonly Variant[] = [
  faulty({
    name: 'blind3-query-store-disable-stale',
    area: 'states',
    rule: 'STORE-STATE-DISABLE',
    what: 'disables a stored card on a TRANSACTIONUPDATE to 0, but a TRANSACTIONQUERY of it still shows transactionactive 1',
    build: () => ({ mutate: staleAfterUpdate('STORE', 'transactionactive', '0', '1') }),
  }),
  faulty({
    name: 'blind3-query-subscription-deactivation-stale',
    area: 'states',
    rule: 'SUB-STATE-DEACTIVATE',
    what: 'stops a subscription on a TRANSACTIONUPDATE of transactionactive to 0, but a TRANSACTIONQUERY of it still shows 1',
    build: () => ({ mutate: staleAfterUpdate('SUBSCRIPTION', 'transactionactive', '0', '1') }),
  }),
  faulty({
    name: 'blind3-inherited-zero-amount-authorised',
    area: 'inheritance',
    rule: 'FIELD-BASEAMOUNT-POSITIVE',
    what: 'authorises an AUTH that sends no baseamount and inherits 0 from its parent ACCOUNTCHECK (it checks only the amount sent)',
    build: () => {
      const zeroChecks = new Set<string>();
      const lifted = new Set<string>();
      return {
        mutate: {
          request: (req) => {
            if (!isObject(req) || typesOf(req) !== 'AUTH' || req.baseamount !== undefined) return req;
            const parent = req.parenttransactionreference;
            if (typeof parent !== 'string' || !zeroChecks.has(parent)) return req;
            lifted.add(parent);
            return { ...req, baseamount: '1' };
          },
          part: (p) => {
            if (isType(p, 'ACCOUNTCHECK') && p.baseamount === '0' && typeof p.transactionreference === 'string') zeroChecks.add(p.transactionreference);
            if (isType(p, 'AUTH') && typeof p.parenttransactionreference === 'string' && lifted.has(p.parenttransactionreference)) return { ...p, baseamount: '0' };
            return p;
          },
        },
      };
    },
  }),
  faulty({
    name: 'blind3-failed-part-hour-unpadded',
    area: 'fields',
    rule: 'FIELD-TIMESTAMP',
    what: 'writes the hour of transactionstartedtimestamp without its leading zero (2026-01-05 9:00:00) in failed parts only',
    build: () => ({
      mutate: {
        part: (p) =>
          p.errorcode !== '0' && typeof p.transactionstartedtimestamp === 'string' ? { ...p, transactionstartedtimestamp: p.transactionstartedtimestamp.replace(/^(\S+) 0(\d):/, '$1 $2:') } : p,
      },
    }),
  }),
  faulty({
    name: 'blind3-query-midnight-as-24',
    area: 'fields',
    rule: 'FIELD-TIMESTAMP',
    what: "writes a midnight transactionstartedtimestamp (a subscription payment's) as 24:00:00 of the day before in TRANSACTIONQUERY records",
    build: () => ({
      mutate: queryRecords((r) => {
        const ts = r.transactionstartedtimestamp;
        const m = typeof ts === 'string' ? /^(\d{4}-\d{2}-\d{2}) 00:00:00$/.exec(ts) : null;
        return m ? { ...r, transactionstartedtimestamp: `${addDays(m[1], -1)} 24:00:00` } : r;
      }),
    }),
  }),
  faulty({
    name: 'blind3-update-ok-capitals',
    area: 'errors',
    rule: 'ERR-0',
    what: 'answers errormessage "OK" instead of "Ok" in successful TRANSACTIONUPDATE parts',
    build: () => ({ mutate: { part: (p) => (isType(p, 'TRANSACTIONUPDATE') && p.errorcode === '0' ? { ...p, errormessage: 'OK' } : p) } }),
  }),
  faulty({
    name: 'blind3-failed-subscription-part-ecom',
    area: 'types',
    rule: 'SUB-RECUR',
    what: "answers accounttypedescription ECOM (the request's) in the SUBSCRIPTION part of an AUTH+SUBSCRIPTION whose AUTH failed",
    build: () => ({ mutate: { part: (p) => (isType(p, 'SUBSCRIPTION') && p.errorcode !== '0' ? { ...p, accounttypedescription: 'ECOM' } : p) } }),
  }),
  faulty({
    name: 'blind3-acs-unavailable-auth-with-cavv',
    area: 'types',
    rule: '3DS-CAVV-ECI',
    what: 'returns cavv and eci in the AUTH after 3-D Secure whose status is U (unable to authenticate)',
    build: () => ({ mutate: { part: (p) => (isType(p, 'AUTH') && p.status === 'U' ? { ...p, cavv: 'AAACBllleHchZTBWIGV4AAAAAAA=', eci: '07' } : p) } }),
  }),
  faulty({
    name: 'blind3-store-child-created-disabled',
    area: 'states',
    rule: 'STORE-STATE-ENABLED',
    what: 'stores a card sent with a parenttransactionreference (a STORE inheriting its card) disabled, while answering transactionactive 1',
    build: () => ({
      mutate: {
        operations: {
          STORE: (input, next) => {
            const out = next(input);
            return input.prepared.parent && out.part.errorcode === '0'
              ? changeStored(input, out, (r) => {
                  r.transactionactive = '0';
                })
              : out;
          },
        },
      },
    }),
  }),
  faulty({
    name: 'blind3-grandchild-loses-billing',
    area: 'inheritance',
    rule: 'INHERIT-CHILD',
    what: 'does not pass billing data on past one generation: an AUTH whose parent has a parent (a THREEDQUERY on a stored card) answers address and postcode results 0',
    build: () => ({
      mutate: billingNotInherited((input) => input.prepared.parent?.parent !== undefined),
    }),
  }),
  faulty({
    name: 'blind3-6012-fields-not-inherited-from-accountcheck',
    area: 'inheritance',
    rule: 'AC-INHERITED',
    what: 'refuses with 60025 an AUTH child of an ACCOUNTCHECK on a category 6012 site when the 6012 fields were sent only in the ACCOUNTCHECK',
    build: () => ({
      mutate: {
        operations: {
          AUTH: (input, next) => {
            const p = input.prepared;
            if (p.parent?.type !== 'ACCOUNTCHECK' || p.site?.config.mcc !== '6012') return next(input);
            const missing = MCC_6012_FIELDS.filter((f) => p.own[f] === undefined);
            return missing.length > 0 ? refuse('AUTH', ERR.mcc6012, missing) : next(input);
          },
        },
      },
    }),
  }),
  faulty({
    name: 'blind3-deny-parent-auth-not-suspended',
    area: 'states',
    rule: 'RISKDEC-SUSPEND-BEFORE-AUTH',
    what: 'answers settlestatus 0 (not suspended) for an authorised AUTH sent on its own naming a RISKDEC of DENY as parent',
    build: () => ({
      mutate: {
        operations: {
          AUTH: (input, next) => {
            const out = next(input);
            const parent = input.prepared.parent;
            return input.prepared.types.length === 1 && parent?.type === 'RISKDEC' && parent.shield === 'DENY' && out.part.settlestatus === '2'
              ? withPart(out, (p) => ({ ...p, settlestatus: '0' }))
              : out;
          },
        },
      },
    }),
  }),
  faulty({
    name: 'blind3-xml-accountcheck-securitycode-renamed',
    area: 'xml',
    rule: 'XML-SECURITY-PATHS',
    what: 'writes the security code result of ACCOUNTCHECK parts at /security/code instead of /security/securitycode (XML only: the element path)',
    formats: ['xml'],
    build: () => ({
      mutate: {
        wire: (r, ctx) =>
          ctx.format !== 'xml'
            ? r
            : {
                ...r,
                body: r.body.replace(/<response type="ACCOUNTCHECK"[\s\S]*?<\/response>/g, (resp) =>
                  resp.replace(/<security>[\s\S]*?<\/security>/g, (sec) => sec.replace(/<securitycode>([\s\S]*?)<\/securitycode>/g, '<code>$1</code>')),
                ),
              },
      },
    }),
  }),
  faulty({
    name: 'blind3-xml-failed-answers-version-3.68',
    area: 'xml',
    rule: 'VER-XML',
    what: 'writes version="3.68" on the responseblock of XML answers in which no part succeeded (XML only: the attribute)',
    formats: ['xml'],
    build: () => ({
      mutate: {
        wire: (r, ctx) => (ctx.format === 'xml' && !/<errorcode>0<\/errorcode>/.test(r.body) ? { ...r, body: r.body.replace(/(<responseblock\b[^>]*\bversion=")3\.67"/, '$13.68"') } : r),
      },
    }),
  }),
  faulty({
    name: 'blind3-followup-version-1.0',
    area: 'envelope',
    rule: 'VER-JSON',
    what: 'answers version "1.0" instead of "1.00" in the JSON envelopes of TRANSACTIONUPDATE and TRANSACTIONQUERY (JSON only: the XML block has its own)',
    formats: ['json'],
    build: () => ({
      mutate: { envelope: (env, ctx) => (ctx.format === 'json' && (answers(ctx, 'TRANSACTIONUPDATE') || answers(ctx, 'TRANSACTIONQUERY')) ? { ...env, version: '1.0' } : env) },
    }),
  }),
  faulty({
    name: 'blind3-declined-accountcheck-without-bank-code',
    area: 'types',
    rule: 'AUTH-BANK-CONTACTED',
    what: 'leaves acquirerresponsecode out of an ACCOUNTCHECK part the bank declined (70000), though the bank was contacted',
    build: () => ({ mutate: { part: (p) => (isType(p, 'ACCOUNTCHECK') && p.errorcode === '70000' ? without(p, 'acquirerresponsecode') : p) } }),
  }),
  faulty({
    name: 'blind3-unknown-enrolment-auth-says-n',
    area: 'types',
    rule: '3DS-AUTH-NOT-ENROLLED',
    what: 'answers enrolled N in the AUTH after a THREEDQUERY that answered U (unable to determine)',
    build: () => ({ mutate: { part: (p) => (isType(p, 'AUTH') && p.enrolled === 'U' ? { ...p, enrolled: 'N' } : p) } }),
  }),
  faulty({
    name: 'blind3-combined-fraudcontrolreference-256',
    area: 'fields',
    rule: 'FIELD-LENGTHS',
    what: 'answers a fraudcontrolreference of 256 characters (at most 255) in the RISKDEC part of AUTH+RISKDEC',
    build: () => ({
      mutate: {
        part: (p, ctx) =>
          answers(ctx, 'AUTH', 'RISKDEC') && isType(p, 'RISKDEC') && typeof p.fraudcontrolreference === 'string' && p.fraudcontrolreference.length < 256
            ? { ...p, fraudcontrolreference: p.fraudcontrolreference.padEnd(256, '0') }
            : p,
      },
    }),
  }),
  faulty({
    name: 'blind3-store-email-local-64-refused',
    area: 'fields',
    rule: 'FIELD-EMAIL-LOCALPART',
    what: 'refuses a STORE whose billingemail has exactly 64 characters before the @ (it allows 63)',
    build: () => ({
      mutate: {
        request: (req) => {
          if (!isObject(req) || typesOf(req) !== 'STORE' || typeof req.billingemail !== 'string') return req;
          const at = req.billingemail.lastIndexOf('@');
          return at === 64 ? { ...req, billingemail: `x${req.billingemail}` } : req;
        },
      },
    }),
  }),
  faulty({
    name: 'blind3-accountcheck-telephone-brackets-refused',
    area: 'fields',
    rule: 'FIELD-TELEPHONE-ALPHABET',
    what: 'refuses an ACCOUNTCHECK whose billingtelephone holds ( or ) (allowed: digits, spaces, + - ( ))',
    build: () => ({
      mutate: {
        request: (req) =>
          isObject(req) && typesOf(req) === 'ACCOUNTCHECK' && typeof req.billingtelephone === 'string' && /[()]/.test(req.billingtelephone)
            ? { ...req, billingtelephone: req.billingtelephone.replace(/[()]/g, '/') }
            : req,
      },
    }),
  }),
  faulty({
    name: 'blind3-postcode-validated-without-country',
    area: 'fields',
    rule: 'FIELD-POSTCODE-VALIDATION',
    what: 'validates billingpostcode as a GB postcode when billingcountryiso2a is missing (it must not be validated then)',
    build: () => ({
      mutate: {
        request: (req) =>
          isObject(req) && typeof req.billingpostcode === 'string' && req.billingpostcode !== '' && req.billingcountryiso2a === undefined ? { ...req, billingcountryiso2a: 'GB' } : req,
      },
    }),
  }),
  faulty({
    name: 'blind3-enrolled-subscription-auth-without-status',
    area: 'types',
    rule: '3DS-STATUS',
    what: 'leaves status out of the AUTH part of an AUTH+SUBSCRIPTION of an enrolled card (md and pares)',
    build: () => ({ mutate: { part: (p, ctx) => (answers(ctx, 'AUTH', 'SUBSCRIPTION') && isType(p, 'AUTH') ? without(p, 'status') : p) } }),
  }),
  faulty({
    name: 'blind3-store-child-parent-not-echoed',
    area: 'inheritance',
    rule: 'INHERIT-PARENT-ECHO',
    what: 'leaves parenttransactionreference out of a STORE part based on an earlier request',
    build: () => ({ mutate: { part: (p) => (isType(p, 'STORE') ? without(p, 'parenttransactionreference') : p) } }),
  }),
  faulty({
    name: 'blind3-resubmitted-unknown-query-not-followed',
    area: 'states',
    rule: '3DS-NEXT-U',
    what: 'refuses (30000) an AUTH naming a THREEDQUERY of enrolment U that resubmitted an earlier one of the same order: only the first may be followed',
    build: () => {
      const seen = new Set<string>();
      const resubmitted = new Set<string>();
      return {
        mutate: {
          part: (p) => {
            if (isType(p, 'THREEDQUERY') && p.enrolled === 'U' && typeof p.transactionreference === 'string') {
              const key = `${String(p.orderreference)}|${String(p.maskedpan)}|${String(p.baseamount)}`;
              if (seen.has(key)) resubmitted.add(p.transactionreference);
              seen.add(key);
            }
            return p;
          },
          operations: {
            AUTH: (input, next) => {
              const parent = input.prepared.parent;
              return parent && resubmitted.has(parent.transactionreference) ? refuse('AUTH', ERR.invalidField, ['parenttransactionreference']) : next(input);
            },
          },
        },
      };
    },
  }),
  faulty({
    name: 'blind3-fraudcontrolreference-per-order',
    area: 'fields',
    rule: 'RISKDEC-REFERENCE-UNIQUE',
    what: "answers the same fraudcontrolreference for every RISKDEC of one orderreference (the first check's)",
    build: () => {
      const byOrder = new Map<string, string>();
      return {
        mutate: {
          part: (p) => {
            if (!isType(p, 'RISKDEC') || typeof p.fraudcontrolreference !== 'string' || typeof p.orderreference !== 'string') return p;
            const first = byOrder.get(p.orderreference);
            if (first === undefined) {
              byOrder.set(p.orderreference, p.fraudcontrolreference);
              return p;
            }
            return { ...p, fraudcontrolreference: first };
          },
        },
      };
    },
  }),
  faulty({
    name: 'blind3-riskdec-after-3ds-auth-noscore',
    area: 'types',
    rule: 'RISKDEC-SHIELD-VALUES',
    what: 'answers NOSCORE to a RISKDEC whose parent is an authorised AUTH after 3-D Secure (THREEDQUERY then AUTH then RISKDEC)',
    build: () => ({
      mutate: {
        operations: {
          RISKDEC: (input, next) => {
            const out = next(input);
            const parent = input.prepared.parent;
            const grand = parent?.parent !== undefined ? input.uow.get(parent.parent) : undefined;
            return parent?.type === 'AUTH' && parent.errorcode === '0' && grand?.type === 'THREEDQUERY' && out.part.errorcode === '0'
              ? withPart(out, (p) => ({ ...without(p, 'rulecategoryflag', 'rulecategorymessage'), fraudcontrolshieldstatuscode: 'NOSCORE' }))
              : out;
          },
        },
      },
    }),
  }),
  faulty({
    name: 'blind3-store-security-code-matched',
    area: 'types',
    rule: 'STORE-NO-BANK',
    what: 'answers securityresponsesecuritycode 2 (matched) in successful STORE parts, though no bank checked a code (and none may be sent)',
    build: () => ({ mutate: { part: (p) => (isType(p, 'STORE') && p.errorcode === '0' ? { ...p, securityresponsesecuritycode: '2' } : p) } }),
  }),
  benign({
    name: 'blind3-settleduedate-next-day',
    area: 'fields',
    what: 'answers settleduedate as the day after the transaction instead of the same day',
    allowedBy: '"`settleduedate` | Format `YYYY-MM-DD`." and "The full set of settlestatus values and the transitions between them: not shown": no day is fixed',
    build: () => ({ mutate: { part: (p) => (typeof p.settleduedate === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(p.settleduedate) ? { ...p, settleduedate: addDays(p.settleduedate, 1) } : p) } }),
  }),
  benign({
    name: 'blind3-second-part-a-second-later',
    area: 'envelope',
    what: 'stamps the second part of a combined request one second after the first',
    allowedBy: '"they are run in the listed order"; transactionstartedtimestamp is only given a format, and nothing says the parts of one call share an instant',
    build: () => ({
      mutate: {
        envelope: (env) => ({
          ...env,
          response: partsOf(env).map((p, i) => (i > 0 && typeof p.transactionstartedtimestamp === 'string' ? { ...p, transactionstartedtimestamp: addSeconds(p.transactionstartedtimestamp, i) } : p)),
        }),
      },
    }),
  }),
  benign({
    name: 'blind3-threedversion-left-out',
    area: 'fields',
    what: 'leaves threedversion out of every THREEDQUERY part',
    allowedBy: '"`threedversion` ... Returned only for accounts with certain acquiring banks."; "also `threedversion` on some accounts"',
    build: () => ({ mutate: { part: (p) => (isType(p, 'THREEDQUERY') ? without(p, 'threedversion') : p) } }),
  }),
  benign({
    name: 'blind3-fraudcontrol-responsecode-other',
    area: 'fields',
    what: 'answers fraudcontrolresponsecode 0150 in every RISKDEC part',
    allowedBy: '"`fraudcontrolresponsecode` | Numeric, 4 | Code mapped to a description of the results.": the mapping is not given',
    build: () => ({ mutate: { part: (p) => (isType(p, 'RISKDEC') && typeof p.fraudcontrolresponsecode === 'string' ? { ...p, fraudcontrolresponsecode: '0150' } : p) } }),
  }),
  benign({
    name: 'blind3-query-records-newest-first',
    area: 'types',
    what: 'lists the records a TRANSACTIONQUERY found newest first',
    allowedBy: '"The exact payload and response shapes of TRANSACTIONUPDATE and TRANSACTIONQUERY ...: not shown."',
    build: () => ({
      mutate: {
        operations: {
          TRANSACTIONQUERY: (input, next) => withPart(next(input), (p) => (Array.isArray(p.records) ? { ...p, records: [...(p.records as unknown[])].reverse() } : p)),
        },
      },
    }),
  }),
];
