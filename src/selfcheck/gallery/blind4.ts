/**
 * A fourth round of faulty variants written from the interface document alone, before reading the features, the
 * steps, src/rules or the earlier rounds' variants (./blind.ts, ./blind2.ts, ./blind3.ts). Each breaks one sentence
 * where a suite is least likely to look: another request type, a combined request's later part, a stored card, a
 * follow-up reading back an earlier result, a refused or declined path, the XML form, a field at its maximum length,
 * a date at a month edge. The benign ones at the end do only what the document leaves open.
 *
 * First run (`selfcheck --only 'blind4-*' --no-fuzz`): 19 of the 33 caught under the rule named, 3 caught under
 * other rules only (query-timestamp-iso on FIELD-LENGTHS, update-auth-ref-moves-sub on SUB-STATE-PENDING and
 * SUB-STATE-ACTIVE, auth-stored-card-cardstore on FIELD-ECHO), 11 escaped (query-sub-accounttype,
 * 3dq-child-of-accountcheck, riskdec-last-declined-no-parent, riskdec-after-declined-scores, modified-md-settle,
 * ac-child-ignores-own-postcode, update-zero-amount, store-postcode-no-country, xml-riskdec-last-categoryflag,
 * query-by-order-unmasked, query-declined-settle-0); the 5 benign passed.
 * The proxy's passive score (`src/proxy/score.ts --only <the 38 names>`): 15 of the 33 faulty named by their rule
 * (riskdec-last-declined-no-parent and modified-md-settle among them, which the suite missed); 5 of 5 benign clean.
 * - Reclassified: query-declined-settle-0 was written as a fault of ERR-70000 ("No funds are transferred"), but the
 *   document gives settlestatus `0` no meaning ("The full set of settlestatus values ...: not shown") and the payment
 *   never settles (100): it is benign now, and the score counts 32 faulty, 6 benign.
 * - Mislabelled, now named by their rule: query-timestamp-iso (a timestamp of another length breaks its format, not
 *   FIELD-LENGTHS: src/rules/attribution.ts), auth-stored-card-cardstore (the invariant `payment-account-type`),
 *   update-auth-ref-moves-sub (a scenario: an update naming the subscription's AUTH leaves the subscription alone).
 * - Escaped, now caught by an answer invariant held wherever the sentence applies (src/rules/answers.ts):
 *   query-sub-accounttype (`subscription-recur` over the records a TRANSACTIONQUERY reads back),
 *   riskdec-last-declined-no-parent (`combined-parent`), modified-md-settle (`unauthenticated-not-contacted`),
 *   ac-child-ignores-own-postcode (`sent-not-given`, with a scenario of an ACCOUNTCHECK child adding a postcode),
 *   xml-riskdec-last-categoryflag (`xml-locations`, with a scenario of AUTH+RISKDEC on the DENY card).
 * - Escaped, now caught by a scenario: 3dq-child-of-accountcheck (a THREEDQUERY on an ACCOUNTCHECK),
 *   riskdec-after-declined-scores (a separate RISKDEC on a declined AUTH), update-zero-amount (an update to 0),
 *   store-postcode-no-country (a STORE's postcode without a country), query-by-order-unmasked (a STORE queried by
 *   its orderreference; a number in full there is STORE-QUERY-MASKED's).
 * - Caught by chance: settleduedate-month-end was caught in the first run only because earlier scenarios' clock
 *   moves left the gateway on a month's last day; a later run missed it. A scenario now moves the clock to the last
 *   day of the month and of the year before a payment.
 * After the fixes: 32 of 32 caught under their rule, 6 of 6 benign passed; the whole gallery (`selfcheck --no-fuzz`,
 * without the generated mutants): 263 of 263 faulty caught, 44 of 44 benign passed.
 */
import { randomBytes } from 'node:crypto';
import { cardFor, MCC_6012_FIELDS, MCC_6012_VALUES } from '../../testdata';
import type { OperationInput, PartOutcome } from '../../gateway';
import { SHIELD_ANSWERS } from '../../gateway/operations/riskdec';
import { errorPart } from '../../gateway/parts';
import type { ResponsePart } from '../../wire/types';
import type { Variant, VariantBuild } from '../types';
import { benign, changeStored, ERR, faulty, filteredReference, isObject, isType, queryRecords, refuse, withPart, withPrepared, without, counted } from './helpers';

/** The answer and the record of a payment both given `status` as their settlestatus (what the part says is stored). */
function settledAs(input: OperationInput, out: PartOutcome, status: string): PartOutcome {
  return withPart(
    changeStored(input, out, (r) => (r.settlestatus = status)),
    (p) => ({ ...p, settlestatus: status }),
  );
}

/** The stored record a TRANSACTIONQUERY record stands for. */
const storedOf = (r: ResponsePart, input: OperationInput) => (typeof r.transactionreference === 'string' ? input.uow.get(r.transactionreference) : undefined);

/** The filter of a follow-up names this key. */
const filterHas = (input: OperationInput, key: string): boolean => isObject(input.prepared.filter) && key in input.prepared.filter;

/** `YYYY-MM-DD` one day on, written as a naive "day + 1" would: past the month's last day it is no date at all. */
function naiveNextDay(date: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const last = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  return d === last ? `${m[1]}-${m[2]}-${String(d + 1).padStart(2, '0')}` : undefined;
}

/** The XML `<response>` elements of a block whose `type` attribute is `type`, each changed by `change`. */
function xmlResponses(body: string, type: string, change: (element: string) => string): string {
  return body.replace(new RegExp(`<response\\b[^>]*\\btype="${type}"[^>]*>[\\s\\S]*?</response>`, 'g'), change);
}

/** A build that changes, in XML answers (those `applies` to), the elements of the parts of `type`; counted where it changed one. */
function xmlRewrite(type: string, change: (element: string) => string, applies: (body: string) => boolean = () => true): () => VariantBuild {
  return counted((hit) => ({
    wire: (reply, ctx) => {
      if (ctx.format !== 'xml' || !applies(reply.body)) return reply;
      const body = xmlResponses(reply.body, type, change);
      if (body !== reply.body) hit();
      return { ...reply, body };
    },
  }));
}

export const BLIND4: readonly Variant[] = [
  faulty({
    name: 'blind4-query-store-mask-star',
    area: 'fields',
    rule: 'FIELD-MASKEDPAN',
    what: 'masks the card number of a STORE read back by TRANSACTIONQUERY with `*` instead of `#` ("with the middle digits replaced by `#`")',
    build: counted((hit) =>
      queryRecords((r) => {
        if (r.requesttypedescription !== 'STORE' || typeof r.maskedpan !== 'string') return r;
        hit();
        return { ...r, maskedpan: r.maskedpan.replace(/#/g, '*') };
      }),
    ),
  }),
  faulty({
    name: 'blind4-echo-orderref-later-part',
    area: 'fields',
    rule: 'FIELD-ECHO',
    what: 'cuts the `orderreference` echoed in the later part of a combined request to 64 characters ("`orderreference` ... Echoed from the request"; its length is 255)',
    build: counted((hit) => ({
      part: (p, ctx) => {
        if ((ctx.index ?? 0) === 0 || typeof p.orderreference !== 'string' || p.orderreference.length <= 64) return p;
        hit();
        return { ...p, orderreference: p.orderreference.slice(0, 64) };
      },
    })),
  }),
  faulty({
    name: 'blind4-sub-auth-drops-cof-echo',
    area: 'fields',
    rule: 'FIELD-ECHO',
    what: 'leaves the `credentialsonfile` sent out of the AUTH part of AUTH+SUBSCRIPTION (only the SUBSCRIPTION part echoes it: "`credentialsonfile` | Echoed from the request")',
    build: counted((hit) => ({
      operations: {
        AUTH: (input, next) => {
          const out = next(input);
          if (!input.prepared.types.includes('SUBSCRIPTION') || input.prepared.own.credentialsonfile === undefined || out.part.credentialsonfile === undefined) return out;
          hit();
          return withPart(out, (p) => without(p, 'credentialsonfile'));
        },
      },
    })),
  }),
  faulty({
    name: 'blind4-query-timestamp-iso',
    area: 'fields',
    rule: 'FIELD-TIMESTAMP',
    what: 'reads back `transactionstartedtimestamp` in TRANSACTIONQUERY records as ISO 8601 (`YYYY-MM-DDTHH:MM:SSZ`; "Format `YYYY-MM-DD HH:MM:SS`")',
    build: counted((hit) =>
      queryRecords((r) => {
        if (typeof r.transactionstartedtimestamp !== 'string') return r;
        hit();
        return { ...r, transactionstartedtimestamp: `${r.transactionstartedtimestamp.replace(' ', 'T')}Z` };
      }),
    ),
  }),
  faulty({
    name: 'blind4-settleduedate-month-end',
    area: 'fields',
    rule: 'FIELD-SETTLEDUEDATE',
    what: 'answers a payment made on the last day of a month with the day after written as day + 1 (`2026-11-31`, no date; "`settleduedate` | Format `YYYY-MM-DD`")',
    build: counted((hit) => ({
      part: (p) => {
        const next = typeof p.settleduedate === 'string' ? naiveNextDay(p.settleduedate) : undefined;
        if (next === undefined) return p;
        hit();
        return { ...p, settleduedate: next };
      },
    })),
  }),
  faulty({
    name: 'blind4-query-sub-accounttype',
    area: 'types',
    rule: 'SUB-RECUR',
    what: 'reads back a SUBSCRIPTION in TRANSACTIONQUERY with the account type its request sent (`ECOM`) instead of `RECUR` ("In a response, the SUBSCRIPTION part carries `RECUR`")',
    build: counted((hit) =>
      queryRecords((r, input) => {
        if (r.requesttypedescription !== 'SUBSCRIPTION') return r;
        const sent = storedOf(r, input)?.fields.accounttypedescription ?? 'ECOM';
        if (sent === r.accounttypedescription) return r;
        hit();
        return { ...r, accounttypedescription: sent };
      }),
    ),
  }),
  faulty({
    name: 'blind4-update-auth-ref-moves-sub',
    area: 'states',
    rule: 'SUB-OWN-REFERENCE',
    what: 'applies a TRANSACTIONUPDATE naming a subscription\'s AUTH to the SUBSCRIPTION instead ("The SUBSCRIPTION reference is needed for later queries and updates of the subscription")',
    build: counted((hit) => ({
      operations: {
        TRANSACTIONUPDATE: (input, next) => {
          const ref = filteredReference(input.prepared.filter);
          const rec = ref === undefined ? undefined : input.uow.get(ref);
          if (rec?.type !== 'AUTH' || !isObject(input.prepared.filter)) return next(input);
          const sub = input.env.runtime.ledger.children(rec.transactionreference).find((c) => c.type === 'SUBSCRIPTION');
          if (!sub) return next(input);
          hit();
          return next(withPrepared(input, { filter: { ...input.prepared.filter, transactionreference: [{ value: sub.transactionreference }] } }));
        },
      },
    })),
  }),
  faulty({
    name: 'blind4-sub-resume-number-echo',
    area: 'types',
    rule: 'SUB-NUMBER-RESUME',
    what: 'answers a resumed subscription (`subscriptionnumber` sent as `4`) with `subscriptionnumber` `1` in its SUBSCRIPTION part ("To resume a former subscription, send the next number")',
    build: counted((hit) => ({
      part: (p) => {
        if (!isType(p, 'SUBSCRIPTION') || p.subscriptionnumber === undefined || p.subscriptionnumber === '1') return p;
        hit();
        return { ...p, subscriptionnumber: '1' };
      },
    })),
  }),
  faulty({
    name: 'blind4-store-child-of-auth-authcode',
    area: 'types',
    rule: 'STORE-NO-BANK',
    what: 'copies the parent AUTH\'s `authcode` and `acquirerresponsecode` into a STORE made from it ("The acquiring bank is not contacted")',
    build: counted((hit) => ({
      operations: {
        STORE: (input, next) => {
          const out = next(input);
          const parent = input.prepared.parent;
          if (parent?.type !== 'AUTH' || parent.part.authcode === undefined || out.part.errorcode !== '0') return out;
          hit();
          return withPart(out, (p) => ({ ...p, authcode: parent.part.authcode, acquirerresponsecode: parent.part.acquirerresponsecode }));
        },
      },
    })),
  }),
  faulty({
    name: 'blind4-3dq-child-of-accountcheck',
    area: 'inheritance',
    rule: 'AC-INHERITED',
    what: 'refuses a THREEDQUERY whose parent is an ACCOUNTCHECK for a currency or amount it did not send itself ("Fields sent in an ACCOUNTCHECK are inherited by its child requests")',
    build: counted((hit) => ({
      operations: {
        THREEDQUERY: (input, next) => {
          if (input.prepared.parent?.type !== 'ACCOUNTCHECK') return next(input);
          const missing = ['currencyiso3a', 'baseamount'].find((f) => input.prepared.own[f] === undefined);
          if (missing === undefined) return next(input);
          hit();
          return refuse('THREEDQUERY', ERR.invalidField, [missing]);
        },
      },
    })),
  }),
  faulty({
    name: 'blind4-6012-own-fields-only',
    area: 'inheritance',
    rule: 'INHERIT-CHILD',
    what: 'refuses a child AUTH at a category-6012 site with 60025 when the mandated fields came from its parent, not its own request ("a child request inherits ... from its parent")',
    build: counted((hit) => ({
      operations: {
        AUTH: (input, next) => {
          const p = input.prepared;
          if (p.site?.config.mcc !== '6012' || !p.parent) return next(input);
          const missing = MCC_6012_FIELDS.filter((f) => p.own[f] === undefined && p.fields[f] !== undefined);
          if (missing.length === 0) return next(input);
          hit();
          return refuse('AUTH', ERR.mcc6012, missing);
        },
      },
    })),
  }),
  faulty({
    name: 'blind4-riskdec-last-declined-no-parent',
    area: 'types',
    rule: 'RISKDEC-LAST',
    what: 'leaves `parenttransactionreference` out of the RISKDEC part of AUTH+RISKDEC when the AUTH was declined ("the RISKDEC part carries the AUTH\'s reference in `parenttransactionreference`")',
    build: counted((hit) => ({
      part: (p, ctx) => {
        if (ctx.requesttypes.join(',') !== 'AUTH,RISKDEC' || !isType(p, 'RISKDEC') || p.fraudcontrolshieldstatuscode !== 'NOSCORE') return p;
        hit();
        return without(p, 'parenttransactionreference');
      },
    })),
  }),
  faulty({
    name: 'blind4-riskdec-after-declined-scores',
    area: 'types',
    rule: 'RISKDEC-SHIELD-VALUES',
    what: 'scores a separate RISKDEC after a declined AUTH as the card would score instead of `NOSCORE` ("`NOSCORE` (the parent AUTH was declined before checks ran)")',
    build: counted((hit) => ({
      operations: {
        RISKDEC: (input, next) => {
          const out = next(input);
          const parent = input.prepared.parent;
          if (input.index !== 0 || parent?.type !== 'AUTH' || parent.errorcode === '0' || out.part.fraudcontrolshieldstatuscode !== 'NOSCORE' || !input.prepared.card) return out;
          const shield = cardFor(input.prepared.card.pan).shield;
          const a: { action: string; responsecode: string; flag?: string; message?: string } = SHIELD_ANSWERS[shield];
          hit();
          return withPart(out, (p) => {
            const q: ResponsePart = { ...p, fraudcontrolshieldstatuscode: shield, acquirerrecommendedaction: a.action, fraudcontrolresponsecode: a.responsecode };
            if (a.flag !== undefined) q.rulecategoryflag = a.flag;
            if (a.message !== undefined) q.rulecategorymessage = a.message;
            return q;
          });
        },
      },
    })),
  }),
  faulty({
    name: 'blind4-suspend-only-combined',
    area: 'states',
    rule: 'RISKDEC-SUSPEND-BEFORE-AUTH',
    what: 'suspends an AUTH after a CHALLENGE or DENY only in RISKDEC+AUTH, not in a separate AUTH whose parent is the RISKDEC ("RISKDEC performed before AUTH ... Authorised transactions are automatically suspended")',
    build: counted((hit) => ({
      operations: {
        AUTH: (input, next) => {
          const out = next(input);
          if (input.index !== 0 || input.prepared.parent?.type !== 'RISKDEC' || out.part.settlestatus !== '2') return out;
          hit();
          return settledAs(input, out, '0');
        },
      },
    })),
  }),
  faulty({
    name: 'blind4-ac-6012-skipped',
    area: 'errors',
    rule: 'ERR-60025',
    what: 'runs the category-6012 check on AUTH only: an ACCOUNTCHECK without the mandated fields succeeds ("`60025` | AUTH, ACCOUNTCHECK")',
    build: counted((hit) => ({
      operations: {
        ACCOUNTCHECK: (input, next) => {
          const p = input.prepared;
          if (p.site?.config.mcc !== '6012' || MCC_6012_FIELDS.every((f) => p.fields[f] !== undefined)) return next(input);
          hit();
          return next(withPrepared(input, { fields: { ...MCC_6012_VALUES, ...p.fields } }));
        },
      },
    })),
  }),
  faulty({
    name: 'blind4-sub-60022-message',
    area: 'errors',
    rule: 'ERR-60022',
    what: 'answers 60022 in the AUTH part of AUTH+SUBSCRIPTION with `errormessage` `Customer not authenticated` ("`errormessage` is `Unauthenticated`")',
    build: counted((hit) => ({
      part: (p, ctx) => {
        if (ctx.requesttypes.join(',') !== 'AUTH,SUBSCRIPTION' || !isType(p, 'AUTH') || p.errorcode !== '60022') return p;
        hit();
        return { ...p, errormessage: 'Customer not authenticated' };
      },
    })),
  }),
  faulty({
    name: 'blind4-modified-md-settle',
    area: 'states',
    rule: '3DS-60022-SETTLE',
    what: 'answers the 60022 of an AUTH whose `md` or `pares` was modified with settlestatus `0` (only the ACS\'s own N gets `3`: "`status` is `N` and settlestatus is `3`")',
    build: counted((hit) => ({
      operations: {
        AUTH: (input, next) => {
          const out = next(input);
          if (!input.prepared.threeds || input.prepared.threeds.intact || out.part.errorcode !== '60022') return out;
          hit();
          return settledAs(input, out, '0');
        },
      },
    })),
  }),
  faulty({
    name: 'blind4-auth-after-u-no-enrolled',
    area: 'types',
    rule: '3DS-AUTH-NOT-ENROLLED',
    what: 'leaves `enrolled` out of the AUTH after a THREEDQUERY that answered `U` (only `N` is reported: "card not enrolled or unknown ... 1 AUTH part with `enrolled`")',
    build: counted((hit) => ({
      operations: {
        AUTH: (input, next) => {
          const out = next(input);
          const parent = input.prepared.parent;
          if (input.prepared.threeds || parent?.type !== 'THREEDQUERY' || parent.threeds?.enrolled !== 'U' || out.part.enrolled === undefined) return out;
          hit();
          return withPart(out, (p) => without(p, 'enrolled'));
        },
      },
    })),
  }),
  faulty({
    name: 'blind4-3dq-stored-card-md-n',
    area: 'types',
    rule: '3DS-ONLY-ENROLLED',
    what: 'answers an `md` to a THREEDQUERY of a stored card that is not enrolled ("It is returned only for enrolled cards")',
    build: counted((hit) => ({
      operations: {
        THREEDQUERY: (input, next) => {
          const out = next(input);
          if (input.prepared.parent?.type !== 'STORE' || out.part.enrolled !== 'N') return out;
          hit();
          return withPart(out, (p) => ({ ...p, md: randomBytes(48).toString('base64') }));
        },
      },
    })),
  }),
  faulty({
    name: 'blind4-sub-md-modified-accepted',
    area: 'acs',
    rule: '3DS-MD-PARES-UNMODIFIED',
    what: 'authenticates the AUTH of AUTH+SUBSCRIPTION (enrolled card) even when its `md` or `pares` was modified ("must be submitted in full and unmodified")',
    build: counted((hit) => ({
      operations: {
        AUTH: (input, next) => {
          const t = input.prepared.threeds;
          if (!input.prepared.types.includes('SUBSCRIPTION') || !t || t.intact) return next(input);
          hit();
          return next(withPrepared(input, { threeds: { ...t, intact: true } }));
        },
      },
    })),
  }),
  faulty({
    name: 'blind4-3dq-store-parent-no-echo',
    area: 'inheritance',
    rule: 'INHERIT-PARENT-ECHO',
    what: 'leaves `parenttransactionreference` out of a THREEDQUERY based on a stored card ("Present when the response part was based on an earlier request")',
    build: counted((hit) => ({
      operations: {
        THREEDQUERY: (input, next) => {
          const out = next(input);
          if (input.prepared.parent?.type !== 'STORE' || out.part.parenttransactionreference === undefined) return out;
          hit();
          return withPart(out, (p) => without(p, 'parenttransactionreference'));
        },
      },
    })),
  }),
  faulty({
    name: 'blind4-ac-child-ignores-own-postcode',
    area: 'inheritance',
    rule: 'INHERIT-EXTRA-FIELDS',
    what: 'ignores a `billingpostcode` an ACCOUNTCHECK child adds that its parent lacked (its check answers 0, not given: "Extra fields may be added to the child that the parent lacked")',
    build: counted((hit) => ({
      operations: {
        ACCOUNTCHECK: (input, next) => {
          const out = next(input);
          const p = input.prepared;
          if (!p.parent || p.parent.fields.billingpostcode !== undefined || p.own.billingpostcode === undefined) return out;
          if (out.part.securityresponsepostcode === undefined || out.part.securityresponsepostcode === '0') return out;
          hit();
          return withPart(out, (q) => ({ ...q, securityresponsepostcode: '0' }));
        },
      },
    })),
  }),
  faulty({
    name: 'blind4-update-zero-amount',
    area: 'fields',
    rule: 'FIELD-BASEAMOUNT-POSITIVE',
    what: 'accepts a TRANSACTIONUPDATE setting a subscription\'s `baseamount` to `0` ("It must be greater than zero, except that ACCOUNTCHECK allows `0`")',
    build: counted((hit) => ({
      operations: {
        TRANSACTIONUPDATE: (input, next) => {
          const u = input.prepared.updates;
          const ref = filteredReference(input.prepared.filter);
          const rec = ref === undefined ? undefined : input.uow.get(ref);
          if (!isObject(u) || Object.keys(u).length !== 1 || typeof u.baseamount !== 'string' || !/^0+$/.test(u.baseamount)) return next(input);
          if (rec?.type !== 'SUBSCRIPTION' || rec.errorcode !== '0' || !rec.subscription) return next(input);
          hit();
          const amount = u.baseamount;
          input.uow.update(rec.transactionreference, (r) => (r.subscription = { ...r.subscription!, baseamount: amount }));
          return { part: errorPart('TRANSACTIONUPDATE', ERR.ok) };
        },
      },
    })),
  }),
  faulty({
    name: 'blind4-deactivate-final-zero-only',
    area: 'states',
    rule: 'SUB-STATE-DEACTIVATE',
    what: 'refuses to deactivate a subscription whose `subscriptionfinalnumber` is not `0` (60017; reading "Used to end a subscription whose `subscriptionfinalnumber` is `0`" as the only case)',
    build: counted((hit) => ({
      operations: {
        TRANSACTIONUPDATE: (input, next) => {
          const u = input.prepared.updates;
          const ref = filteredReference(input.prepared.filter);
          const rec = ref === undefined ? undefined : input.uow.get(ref);
          if (!isObject(u) || u.transactionactive !== '0' || rec?.type !== 'SUBSCRIPTION' || !rec.subscription || rec.subscription.finalNumber === 0) return next(input);
          hit();
          return refuse('TRANSACTIONUPDATE', ERR.notUpdatable, ['transactionactive']);
        },
      },
    })),
  }),
  faulty({
    name: 'blind4-store-email-64',
    area: 'fields',
    rule: 'FIELD-EMAIL-LOCALPART',
    what: 'refuses a STORE whose `billingemail` has exactly 64 characters before the `@` (an off-by-one: "At most 64 characters before the `@`")',
    build: counted((hit) => ({
      operations: {
        STORE: (input, next) => {
          const email = input.prepared.own.billingemail;
          if (email === undefined || email.indexOf('@') !== 64) return next(input);
          hit();
          return refuse('STORE', ERR.invalidField, ['billingemail']);
        },
      },
    })),
  }),
  faulty({
    name: 'blind4-store-postcode-no-country',
    area: 'fields',
    rule: 'FIELD-POSTCODE-VALIDATION',
    what: 'validates the `billingpostcode` of a STORE without a country (refusing a `-` in it: "It is not validated for other or missing countries")',
    build: counted((hit) => ({
      operations: {
        STORE: (input, next) => {
          const own = input.prepared.own;
          if (own.billingpostcode === undefined || own.billingcountryiso2a !== undefined || /^[A-Za-z0-9 ]*$/.test(own.billingpostcode)) return next(input);
          hit();
          return refuse('STORE', ERR.invalidField, ['billingpostcode']);
        },
      },
    })),
  }),
  faulty({
    name: 'blind4-xml-ac-securitycode-path',
    area: 'xml',
    rule: 'XML-SECURITY-PATHS',
    what: 'writes the security code result of an ACCOUNTCHECK at `/security/securitycoderesult` (XML only: "In XML they sit at ... `/security/securitycode`")',
    formats: ['xml'],
    build: xmlRewrite('ACCOUNTCHECK', (el) => el.replace(/<securitycode>([^<]*)<\/securitycode>/, '<securitycoderesult>$1</securitycoderesult>')),
  }),
  faulty({
    name: 'blind4-xml-riskdec-last-categoryflag',
    area: 'xml',
    rule: 'XML-FRAUDCONTROL-PATHS',
    what: 'writes the rule category flag of the RISKDEC part of AUTH+RISKDEC at `/fraudcontrol/rulecategoryflag` (XML only: "`/fraudcontrol/categoryflag`")',
    formats: ['xml'],
    build: xmlRewrite(
      'RISKDEC',
      (el) => el.replace(/<categoryflag>([^<]*)<\/categoryflag>/, '<rulecategoryflag>$1</rulecategoryflag>'),
      // The RISKDEC part after the AUTH part: AUTH+RISKDEC.
      (body) => {
        const auth = body.indexOf('type="AUTH"');
        return auth >= 0 && body.indexOf('type="RISKDEC"') > auth;
      },
    ),
  }),
  faulty({
    name: 'blind4-query-by-order-unmasked',
    area: 'fields',
    rule: 'STORE-QUERY-MASKED',
    what: 'reads back a STORE found by `orderreference` (not by its reference) with the whole card number in `maskedpan` ("the card number is masked in the response")',
    build: counted((hit) =>
      queryRecords((r, input) => {
        const pan = storedOf(r, input)?.card?.pan;
        if (r.requesttypedescription !== 'STORE' || !filterHas(input, 'orderreference') || pan === undefined) return r;
        hit();
        return { ...r, maskedpan: pan };
      }),
    ),
  }),
  faulty({
    name: 'blind4-3dq-u-resubmit-refused',
    area: 'types',
    rule: '3DS-NEXT-U',
    what: 'refuses the same THREEDQUERY sent again after `U` as a duplicate order ("The same THREEDQUERY may be resubmitted")',
    build: () => {
      let n = 0;
      const seen = new Set<string>();
      return {
        mutate: {
          operations: {
            THREEDQUERY: (input, next) => {
              const own = input.prepared.own;
              const key = `${input.prepared.site?.config.sitereference}|${own.orderreference}|${own.baseamount}|${input.prepared.card?.pan}`;
              if (seen.has(key)) {
                n++;
                return refuse('THREEDQUERY', ERR.invalidField, ['orderreference']);
              }
              const out = next(input);
              if (out.part.enrolled === 'U') seen.add(key);
              return out;
            },
          },
        },
        reached: () => n,
      };
    },
  }),
  faulty({
    name: 'blind4-auth-stored-card-cardstore',
    area: 'inheritance',
    rule: 'FIELD-ACCOUNTTYPE-PAYMENTS',
    what: 'answers an AUTH of a stored card with the STORE\'s account type `CARDSTORE` ("`ECOM` or `MOTO` for payments")',
    build: counted((hit) => ({
      operations: {
        AUTH: (input, next) => {
          const out = next(input);
          if (input.prepared.parent?.type !== 'STORE' || out.part.errorcode !== '0') return out;
          hit();
          return withPart(out, (p) => ({ ...p, accounttypedescription: 'CARDSTORE' }));
        },
      },
    })),
  }),
  faulty({
    name: 'blind4-update-answer-number',
    area: 'envelope',
    rule: 'FIELD-STRINGS',
    what: 'answers a TRANSACTIONUPDATE with `errorcode` as a JSON number (JSON only, an XML value has no type: "All values in JSON requests and responses are strings")',
    formats: ['json'],
    build: counted((hit) => ({
      part: (p) => {
        if (!isType(p, 'TRANSACTIONUPDATE') || typeof p.errorcode !== 'string') return p;
        hit();
        return { ...p, errorcode: Number(p.errorcode) };
      },
    })),
  }),
  // Written as a fault of ERR-70000 ("No funds are transferred"); on a second reading the document gives `0` no
  // meaning ("The full set of settlestatus values ...: not shown") and the payment still never settles (100).
  benign({
    name: 'blind4-query-declined-settle-0',
    area: 'errors',
    what: 'reads back a declined (70000) AUTH in TRANSACTIONQUERY with settlestatus `0`; it never settles (100)',
    allowedBy: '"The full set of settlestatus values and the transitions between them: not shown."; only `100` (settled) would say funds were transferred',
    build: () => ({ mutate: queryRecords((r) => (r.errorcode === '70000' && r.settlestatus !== '0' ? { ...r, settlestatus: '0' } : r)) }),
  }),

  benign({
    name: 'blind4-store-livestatus-1',
    area: 'fields',
    what: 'answers `livestatus` `1` in STORE parts',
    allowedBy: '"`livestatus` and `dccenabled` carry `0` in the examples ... The meaning of their values: not shown."',
    build: () => ({ mutate: { part: (p) => (isType(p, 'STORE') && p.livestatus !== undefined ? { ...p, livestatus: '1' } : p) } }),
  }),
  benign({
    name: 'blind4-query-newest-first',
    area: 'types',
    what: 'lists the records of a TRANSACTIONQUERY newest first',
    allowedBy: '"The exact payload and response shapes of TRANSACTIONUPDATE and TRANSACTIONQUERY ...: not shown."',
    build: () => ({
      mutate: {
        operations: {
          TRANSACTIONQUERY: (input, next) => withPart(next(input), (p) => (Array.isArray(p.records) ? { ...p, records: [...(p.records as unknown[])].reverse() } : p)),
        },
      },
    }),
  }),
  benign({
    name: 'blind4-update-answer-timestamp',
    area: 'types',
    what: 'adds `transactionstartedtimestamp` (well formed) to the TRANSACTIONUPDATE part',
    allowedBy: '"The exact payload and response shapes of TRANSACTIONUPDATE and TRANSACTIONQUERY ...: not shown."',
    build: () => ({
      mutate: {
        operations: {
          TRANSACTIONUPDATE: (input, next) => withPart(next(input), (p) => ({ ...p, transactionstartedtimestamp: input.env.timestamp })),
        },
      },
    }),
  }),
  benign({
    name: 'blind4-bank-max-12-digits',
    area: 'fields',
    what: 'refuses a `baseamount` of 13 digits (30000, `errordata` `baseamount`): its bank allows 12',
    allowedBy: '"`baseamount` has at most 13 digits, and the maximum can be lower depending on the acquiring bank."',
    build: () => {
      const cap = (type: 'AUTH' | 'ACCOUNTCHECK' | 'RISKDEC' | 'THREEDQUERY') => (input: OperationInput, next: (i: OperationInput) => ReturnType<typeof refuse>) =>
        (input.prepared.own.baseamount?.length ?? 0) >= 13 ? refuse(type, ERR.invalidField, ['baseamount']) : next(input);
      return { mutate: { operations: { AUTH: cap('AUTH'), ACCOUNTCHECK: cap('ACCOUNTCHECK'), RISKDEC: cap('RISKDEC'), THREEDQUERY: cap('THREEDQUERY') } } };
    },
  }),
  benign({
    name: 'blind4-riskdec-long-category-message',
    area: 'types',
    what: 'answers a `rulecategorymessage` of 3000 characters on CHALLENGE and DENY',
    allowedBy: '"`rulecategorymessage` | Text, no defined length"',
    build: () => ({
      mutate: {
        part: (p) => (isType(p, 'RISKDEC') && typeof p.rulecategorymessage === 'string' ? { ...p, rulecategorymessage: `${p.rulecategorymessage} `.repeat(60).slice(0, 3000) } : p),
      },
    }),
  }),
];
