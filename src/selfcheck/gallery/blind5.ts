/**
 * The fifth blind round: faulty gateways written from the interface document alone, before reading the suite, on
 * payments (AUTH, ACCOUNTCHECK), RISKDEC and the combined requests (RISKDEC+AUTH, AUTH+RISKDEC), the Errors table
 * in each request type it can arise in, field formats at their edges, echoes and the XML form. Each breaks one
 * sentence where a suite is least likely to look: another request type than the example, the later part of a
 * combined request, the XML form, a declined or refused path, an edge value. The benign ones do only what the
 * document leaves open.
 *
 * First run (`selfcheck --only 'blind5-*' --no-fuzz`): 20 of the 34 caught under the rule named, 5 caught under
 * other rules only (accountcheck-amount-14-digits on FIELD-LENGTHS, 60025-code-as-number on FIELD-STRINGS,
 * xml-accountcheck-security-swapped on SEC-RESULT-*, xml-riskdec-parent-unread on ERR-0, FIELD-TRANSACTIONREFERENCE,
 * INHERIT-CHILD and RISKDEC-AFTER-PAYMENT, xml-combined-currency-unread on FIELD-LENGTHS, LIMIT-FIELD-LENGTHS and
 * FIELD-TYPES), 9 escaped (categoryflag-lost-when-combined, fraudcontrolreference-per-payment,
 * riskdec-echoes-parent-order, riskdec-combined-without-fraud-feature, auth-then-riskdec-no-authcode,
 * accountcheck-zero-unsettled-shape, accountcheck-pan-12-refused, postcode-validated-abroad,
 * 60022-refusal-without-status); the 5 benign passed.
 * The proxy's passive score (`src/proxy/score.ts --only <the 34 names>`, then `--benign`): 16 of the 34 faulty named
 * by their rule (categoryflag-lost-when-combined and auth-then-riskdec-no-authcode among them, which the suite
 * missed); 5 of 5 benign clean.
 * Written blind, two repeat the fourth round in substance (riskdec-last-noscore-without-parent,
 * noscore-lost-after-separate-decline); both were caught at once.
 * - Escaped, now caught by an answer invariant held wherever the sentence applies (src/rules/answers.ts):
 *   auth-then-riskdec-no-authcode (`authorised-by-bank`: an AUTH of errorcode 0 carries authcode and
 *   acquirerresponsecode in every request), categoryflag-lost-when-combined (`suspicious-flagged`: a CHALLENGE or DENY
 *   RISKDEC carries rulecategoryflag, first, last or alone), 60022-refusal-without-status
 *   (`unauthenticated-not-contacted` wants status and settlestatus when md and pares were sent, with a scenario of an
 *   md and a pares no ACS issued in errors.feature).
 * - Escaped, now caught by a scenario of the flow: fraudcontrolreference-per-payment (two risk decisions after one
 *   payment), riskdec-echoes-parent-order (a RISKDEC after a payment that sent an orderreference of its own),
 *   riskdec-combined-without-fraud-feature (the RISKDEC of RISKDEC+AUTH and AUTH+RISKDEC on a site without fraud
 *   control), accountcheck-zero-unsettled-shape (an ACCOUNTCHECK of 0 and of 1050 holds every field an AUTH on the
 *   same card holds), accountcheck-pan-12-refused (a card number of 12 and 19 digits an AUTH takes, ACCOUNTCHECK and
 *   RISKDEC take too: the masked-by-length scenarios skip a refused kit-made card, rightly, so the AUTH's answer is
 *   the measure), postcode-validated-abroad (the boundary phase sends a postcode with a symbol for FR and for no
 *   country, taken, in every row that takes one).
 * - Mislabelled, now named by their rule: accountcheck-amount-14-digits and 60025-code-as-number (an over-long
 *   amount breaks "`baseamount` has at most 13 digits", an errorcode that is no string "`errorcode` (string)":
 *   src/rules/attribution.ts; the boundary phase tags an over-long amount LIMIT-BASEAMOUNT),
 *   xml-accountcheck-security-swapped (an XML scenario sends three different results, 4, 1 and 2, and a result found
 *   at another /security place is that place's fault, XML-SECURITY-PATHS; found nowhere, its value's SEC-RESULT
 *   rule), xml-riskdec-parent-unread (an XML scenario of a RISKDEC after a payment, read through
 *   operation/parenttransactionreference).
 * - Left under other rules at first, caught under its rule since: xml-combined-currency-unread. The built-in profile
 *   has one currency (GBP), which the variant keeps, so its change showed only when a boundary example's malformed
 *   currency in a combined XML request was taken (named under the currency's field rules). A currency other than the
 *   profile's, which a target may take ("which ones a site takes is not shown"; the scenario is skipped where it does
 *   not), now goes in XML through RISKDEC+AUTH, AUTH+RISKDEC and AUTH+SUBSCRIPTION, each part's echo read against the
 *   block's billing/amount/@currencycode (xml-envelope.feature).
 * After the fixes (`selfcheck --only 'blind5-*' --no-fuzz`): 33 of 34 caught under their rule, 1 under other rules
 * only (34 of 34 with the currency scenario), 5 of 5 benign passed; every benign variant of the gallery (`selfcheck --only benign --no-fuzz`): 54 of 54. The
 * proxy's passive score: 21 of 34 named by their rule, 54 of 54 benign of the gallery clean (the scenario of an md no ACS issued
 * made the proxy name 3DS-AUTH-ENROLLED on every gateway until src/proxy/answers.ts stopped asking a 60022 for the
 * enrolled and xid of a THREEDQUERY it never saw).
 */
import { checkValue } from '../../../schemas/check';
import { FIELD } from '../../../schemas/fields';
import type { OperationInput } from '../../gateway';
import { DEFAULT_CONFIG } from '../../testdata';
import type { Variant } from '../types';
import { answers, benign, changeStored, ERR, faulty, isObject, isType, succeeded, without, withPart, withPrepared, counted } from './helpers';

/** The request types a request object names (empty when it names none readably). */
function typesOf(req: Record<string, unknown>): string[] {
  const list = req.requesttypedescriptions;
  return Array.isArray(list) ? list.filter((t): t is string => typeof t === 'string') : [];
}

/** A request object rewritten by `change` when it is an object (anything else goes on to the gateway's own check). */
const rewriting =
  (change: (req: Record<string, unknown>, format: 'json' | 'xml') => Record<string, unknown> | undefined) =>
  (request: unknown, ctx: { readonly format: 'json' | 'xml' }): unknown =>
    isObject(request) ? (change(request, ctx.format) ?? request) : request;

/** The shield status of the part run just before this one in the same request object, if that part was a RISKDEC. */
const shieldBefore = (input: OperationInput): string | undefined => (input.index > 0 ? input.previous[input.index - 1]?.record?.shield : undefined);

/** Whether a string is all zeros (an amount of zero). */
const zero = (s: unknown): boolean => typeof s === 'string' && /^0+$/.test(s);

/** Whether a postcode would be refused under a country whose postcodes are validated. */
const postcodeInvalidWhenValidated = (postcode: string): boolean =>
  checkValue(FIELD.billingpostcode, 'request', postcode, { [FIELD.billingpostcode.validatedWhen!.field]: FIELD.billingpostcode.validatedWhen!.values[0] }) !== null;

const VALIDATED_COUNTRIES = FIELD.billingpostcode.validatedWhen!.values;

/** The XML response parts of a body, each `<response ...>...</response>` rewritten by `change`. */
function eachXmlPart(body: string, change: (part: string) => string): string {
  return body.replace(/<response [^>]*>[\s\S]*?<\/response>|<response [^>]*\/>/g, change);
}

/** The built-in configuration's sites with and without the fraud-control feature. */
const FRAUD_SITE = DEFAULT_CONFIG.sites.find((s) => s.fraudcontrol && s.mcc !== '6012')?.sitereference;
const NO_FRAUD_SITE = DEFAULT_CONFIG.sites.find((s) => !s.fraudcontrol)?.sitereference;

export const BLIND5: readonly Variant[] = [
  // ---- RISKDEC and the combined requests ------------------------------------------------------------------------
  faulty({
    name: 'blind5-riskdec-last-noscore-without-parent',
    area: 'types',
    rule: 'RISKDEC-LAST',
    what: 'leaves parenttransactionreference out of the RISKDEC part of AUTH+RISKDEC when the AUTH was declined (NOSCORE)',
    build: counted((hit) => ({
      part: (p, ctx) => {
        if (!answers(ctx, 'AUTH', 'RISKDEC') || !isType(p, 'RISKDEC') || p.fraudcontrolshieldstatuscode !== 'NOSCORE') return p;
        hit();
        return without(p, 'parenttransactionreference');
      },
    })),
  }),
  faulty({
    name: 'blind5-riskdec-first-suspicious-auth-orphan',
    area: 'types',
    rule: 'RISKDEC-FIRST',
    what: 'leaves parenttransactionreference out of the AUTH part of RISKDEC+AUTH when the RISKDEC gave CHALLENGE or DENY',
    build: counted((hit) => ({
      operations: {
        AUTH: (input, next) => {
          const out = next(input);
          const shield = shieldBefore(input);
          if (shield !== 'CHALLENGE' && shield !== 'DENY') return out;
          hit();
          return withPart(out, (p) => without(p, 'parenttransactionreference'));
        },
      },
    })),
  }),
  faulty({
    name: 'blind5-noscore-lost-after-separate-decline',
    area: 'types',
    rule: 'RISKDEC-SHIELD-VALUES',
    what: 'answers ACCEPT (not NOSCORE) to a separate RISKDEC after a payment whose AUTH was declined',
    build: counted((hit) => ({
      operations: {
        RISKDEC: (input, next) => {
          const out = next(input);
          const parent = input.prepared.parent;
          if (input.index !== 0 || parent?.type !== 'AUTH' || parent.errorcode === '0' || out.part.fraudcontrolshieldstatuscode !== 'NOSCORE') return out;
          hit();
          return withPart(out, (p) => ({ ...p, fraudcontrolshieldstatuscode: 'ACCEPT', acquirerrecommendedaction: 'C', fraudcontrolresponsecode: '0100' }));
        },
      },
    })),
  }),
  faulty({
    name: 'blind5-challenge-combined-not-suspended',
    area: 'states',
    rule: 'RISKDEC-SUSPEND-BEFORE-AUTH',
    what: 'leaves the AUTH of RISKDEC+AUTH unsuspended (settlestatus 0) when the RISKDEC gave CHALLENGE (it suspends on DENY only)',
    build: counted((hit) => ({
      operations: {
        AUTH: (input, next) => {
          const out = next(input);
          if (shieldBefore(input) !== 'CHALLENGE' || out.part.settlestatus !== '2') return out;
          hit();
          changeStored(input, out, (r) => (r.settlestatus = '0'));
          return withPart(out, (p) => ({ ...p, settlestatus: '0' }));
        },
      },
    })),
  }),
  faulty({
    name: 'blind5-deny-parent-not-suspended',
    area: 'states',
    rule: 'RISKDEC-SUSPEND-BEFORE-AUTH',
    what: 'leaves an AUTH unsuspended whose parenttransactionreference is an earlier, separate RISKDEC that gave DENY',
    build: counted((hit) => ({
      operations: {
        AUTH: (input, next) => {
          const out = next(input);
          const parent = input.prepared.parent;
          if (input.index !== 0 || parent?.type !== 'RISKDEC' || parent.shield !== 'DENY' || out.part.settlestatus !== '2') return out;
          hit();
          changeStored(input, out, (r) => (r.settlestatus = '0'));
          return withPart(out, (p) => ({ ...p, settlestatus: '0' }));
        },
      },
    })),
  }),
  faulty({
    name: 'blind5-categoryflag-lost-when-combined',
    area: 'types',
    rule: 'RISKDEC-CATEGORYFLAG',
    what: 'leaves rulecategoryflag out of a CHALLENGE or DENY RISKDEC part when the RISKDEC runs before an AUTH in one request',
    build: counted((hit) => ({
      part: (p, ctx) => {
        if (!answers(ctx, 'RISKDEC', 'AUTH') || !isType(p, 'RISKDEC') || p.rulecategoryflag === undefined) return p;
        hit();
        return without(p, 'rulecategoryflag', 'rulecategorymessage');
      },
    })),
  }),
  faulty({
    name: 'blind5-fraudcontrolreference-per-payment',
    area: 'types',
    rule: 'RISKDEC-REFERENCE-UNIQUE',
    what: 'derives fraudcontrolreference from the payment checked, so two risk decisions after one payment share it',
    build: counted((hit) => ({
      part: (p, ctx) => {
        if (!answers(ctx, 'RISKDEC') || !isType(p, 'RISKDEC') || typeof p.parenttransactionreference !== 'string') return p;
        hit();
        return { ...p, fraudcontrolreference: `FC-${p.parenttransactionreference}` };
      },
    })),
  }),
  faulty({
    name: 'blind5-auth-echoes-fraudcontrol-type',
    area: 'fields',
    rule: 'FIELD-ECHO',
    what: "echoes accounttypedescription FRAUDCONTROL (the RISKDEC part's) in the AUTH part of RISKDEC+AUTH instead of the account type sent",
    build: counted((hit) => ({
      part: (p, ctx) => {
        if (!answers(ctx, 'RISKDEC', 'AUTH') || !isType(p, 'AUTH') || p.accounttypedescription === undefined) return p;
        hit();
        return { ...p, accounttypedescription: 'FRAUDCONTROL' };
      },
    })),
  }),
  faulty({
    name: 'blind5-riskdec-echoes-parent-order',
    area: 'fields',
    rule: 'FIELD-ECHO',
    what: "echoes the payment's orderreference in a RISKDEC after a payment that sent an orderreference of its own",
    build: counted((hit) => ({
      operations: {
        RISKDEC: (input, next) => {
          const out = next(input);
          const parent = input.prepared.parent;
          const own = input.prepared.own.orderreference;
          const inherited = parent?.fields.orderreference;
          if (input.index !== 0 || !parent || own === undefined || inherited === undefined || inherited === own) return out;
          hit();
          return withPart(out, (p) => ({ ...p, orderreference: inherited }));
        },
      },
    })),
  }),
  faulty({
    name: 'blind5-riskdec-combined-without-fraud-feature',
    area: 'transport',
    rule: 'SEC-FEATURES-ENABLED',
    what: 'runs a RISKDEC combined with an AUTH on a site without the fraud-control feature (a separate RISKDEC is refused)',
    build: counted((hit) => {
      return {
        request: rewriting((req) => {
          const types = typesOf(req);
          if (types.length < 2 || !types.includes('RISKDEC') || req.sitereference !== NO_FRAUD_SITE || !FRAUD_SITE) return undefined;
          hit();
          return { ...req, sitereference: FRAUD_SITE };
        }),
      };
    }),
  }),

  // ---- AUTH and ACCOUNTCHECK --------------------------------------------------------------------------------------
  faulty({
    name: 'blind5-accountcheck-decline-no-bank-code',
    area: 'types',
    rule: 'AUTH-BANK-CONTACTED',
    what: 'leaves acquirerresponsecode out of an ACCOUNTCHECK the bank declined (70000), though the bank was contacted',
    build: counted((hit) => ({
      part: (p) => {
        if (!isType(p, 'ACCOUNTCHECK') || p.errorcode !== ERR.decline.code || p.acquirerresponsecode === undefined) return p;
        hit();
        return without(p, 'acquirerresponsecode');
      },
    })),
  }),
  faulty({
    name: 'blind5-auth-then-riskdec-no-authcode',
    area: 'types',
    rule: 'AUTH-BANK-CONTACTED',
    what: 'leaves authcode out of the authorised AUTH part of AUTH+RISKDEC',
    build: counted((hit) => ({
      part: (p, ctx) => {
        if (!answers(ctx, 'AUTH', 'RISKDEC') || !isType(p, 'AUTH') || !succeeded(p) || p.authcode === undefined) return p;
        hit();
        return without(p, 'authcode');
      },
    })),
  }),
  faulty({
    name: 'blind5-accountcheck-zero-unsettled-shape',
    area: 'types',
    rule: 'AC-SHAPE',
    what: 'answers an ACCOUNTCHECK of baseamount 0 without settlestatus and settleduedate (not shaped as an AUTH part)',
    build: counted((hit) => ({
      part: (p) => {
        if (!isType(p, 'ACCOUNTCHECK') || !zero(p.baseamount) || p.settlestatus === undefined) return p;
        hit();
        return without(p, 'settlestatus', 'settleduedate');
      },
    })),
  }),
  faulty({
    name: 'blind5-accountcheck-zero-refused-xml',
    area: 'xml',
    rule: 'FIELD-BASEAMOUNT-POSITIVE',
    formats: ['xml'],
    what: 'refuses an ACCOUNTCHECK of baseamount 0 sent as an XML block (the JSON form is accepted); XML only, by its nature',
    build: counted((hit) => {
      return {
        request: rewriting((req, format) => {
          if (format !== 'xml' || !typesOf(req).includes('ACCOUNTCHECK') || !zero(req.baseamount)) return undefined;
          hit();
          return { ...req, baseamount: 'ZERO' };
        }),
      };
    }),
  }),
  faulty({
    name: 'blind5-accountcheck-amount-14-digits',
    area: 'fields',
    rule: 'LIMIT-BASEAMOUNT',
    what: 'accepts an ACCOUNTCHECK whose baseamount has 14 digits (it reads the first 13 and echoes the amount sent)',
    build: counted((hit) => {
      let sent: string | undefined;
      return {
        request: rewriting((req) => {
          sent = undefined;
          const amount = req.baseamount;
          if (!typesOf(req).includes('ACCOUNTCHECK') || typeof amount !== 'string' || !/^\d{14,20}$/.test(amount)) return undefined;
          hit();
          sent = amount;
          return { ...req, baseamount: amount.slice(0, 13) };
        }),
        part: (p) => (sent !== undefined && isType(p, 'ACCOUNTCHECK') && p.baseamount !== undefined ? { ...p, baseamount: sent } : p),
      };
    }),
  }),

  // ---- Field formats at their edges --------------------------------------------------------------------------------
  faulty({
    name: 'blind5-riskdec-zero-amount-accepted',
    area: 'fields',
    rule: 'FIELD-BASEAMOUNT-POSITIVE',
    what: 'accepts a RISKDEC on card data with baseamount 0 (only ACCOUNTCHECK allows 0)',
    build: counted((hit) => {
      let sent: string | undefined;
      return {
        request: rewriting((req) => {
          sent = undefined;
          const types = typesOf(req);
          if (types.length !== 1 || types[0] !== 'RISKDEC' || !zero(req.baseamount)) return undefined;
          hit();
          sent = req.baseamount as string;
          return { ...req, baseamount: '1' };
        }),
        part: (p) => (sent !== undefined && isType(p, 'RISKDEC') && p.baseamount !== undefined ? { ...p, baseamount: sent } : p),
      };
    }),
  }),
  faulty({
    name: 'blind5-riskdec-orderreference-255-refused',
    area: 'fields',
    rule: 'FIELD-LENGTHS',
    what: 'refuses a RISKDEC whose orderreference is exactly 255 characters long (its limit taken as 254)',
    build: counted((hit) => {
      return {
        request: rewriting((req) => {
          if (!typesOf(req).includes('RISKDEC') || typeof req.orderreference !== 'string' || req.orderreference.length !== 255) return undefined;
          hit();
          return { ...req, orderreference: `${req.orderreference}x` };
        }),
      };
    }),
  }),
  faulty({
    name: 'blind5-accountcheck-pan-12-refused',
    area: 'fields',
    rule: 'FIELD-LENGTHS',
    what: 'refuses an ACCOUNTCHECK on a 12-digit card number (the bottom of the range 12-19)',
    build: counted((hit) => {
      return {
        request: rewriting((req) => {
          if (!typesOf(req).includes('ACCOUNTCHECK') || typeof req.pan !== 'string' || req.pan.length !== 12) return undefined;
          hit();
          return { ...req, pan: `${req.pan}X` };
        }),
      };
    }),
  }),
  faulty({
    name: 'blind5-postcode-validated-abroad',
    area: 'fields',
    rule: 'FIELD-POSTCODE-VALIDATION',
    what: 'refuses an ACCOUNTCHECK whose postcode is not alphanumeric though the country is none of the US, GB and CA',
    build: counted((hit) => {
      return {
        request: rewriting((req) => {
          const country = req.billingcountryiso2a;
          const postcode = req.billingpostcode;
          if (!typesOf(req).includes('ACCOUNTCHECK') || typeof postcode !== 'string' || typeof country !== 'string') return undefined;
          if (VALIDATED_COUNTRIES.includes(country) || !postcodeInvalidWhenValidated(postcode)) return undefined;
          hit();
          return { ...req, billingcountryiso2a: VALIDATED_COUNTRIES[0] };
        }),
      };
    }),
  }),
  faulty({
    name: 'blind5-postcode-unvalidated-canada',
    area: 'fields',
    rule: 'FIELD-POSTCODE-VALIDATION',
    what: 'accepts an AUTH whose postcode is not alphanumeric when the country is Canada (it validates US and GB only)',
    build: counted((hit) => {
      return {
        request: rewriting((req) => {
          const postcode = req.billingpostcode;
          if (!typesOf(req).includes('AUTH') || req.billingcountryiso2a !== 'CA' || typeof postcode !== 'string' || !postcodeInvalidWhenValidated(postcode)) return undefined;
          hit();
          return { ...req, billingcountryiso2a: 'FR' };
        }),
      };
    }),
  }),
  faulty({
    name: 'blind5-riskdec-after-payment-iso-timestamp',
    area: 'fields',
    rule: 'FIELD-TIMESTAMP',
    what: 'writes transactionstartedtimestamp as `YYYY-MM-DDTHH:MM:SS` in a RISKDEC after a payment',
    build: counted((hit) => ({
      part: (p, ctx) => {
        if (!answers(ctx, 'RISKDEC') || !isType(p, 'RISKDEC') || p.parenttransactionreference === undefined || typeof p.transactionstartedtimestamp !== 'string') return p;
        hit();
        return { ...p, transactionstartedtimestamp: p.transactionstartedtimestamp.replace(' ', 'T') };
      },
    })),
  }),
  faulty({
    name: 'blind5-short-card-masked-with-stars',
    area: 'fields',
    rule: 'FIELD-MASKEDPAN',
    what: 'masks the middle digits of 12- and 13-digit card numbers with `*` instead of `#` in RISKDEC parts',
    build: counted((hit) => ({
      part: (p) => {
        const m = p.maskedpan;
        if (!isType(p, 'RISKDEC') || typeof m !== 'string' || m.length > 13) return p;
        hit();
        return { ...p, maskedpan: m.replace(/#/g, '*') };
      },
    })),
  }),

  // ---- The Errors table in each request type -------------------------------------------------------------------------
  faulty({
    name: 'blind5-60025-accountcheck-coded-30000',
    area: 'errors',
    rule: 'ERR-60025',
    what: 'answers 30000 for an ACCOUNTCHECK missing the fields mandated for category 6012 (its AUTH answers 60025)',
    build: counted((hit) => ({
      part: (p) => {
        if (!isType(p, 'ACCOUNTCHECK') || p.errorcode !== ERR.mcc6012.code) return p;
        hit();
        return { ...p, errorcode: ERR.invalidField.code, errormessage: ERR.invalidField.message };
      },
    })),
  }),
  faulty({
    name: 'blind5-60025-skipped-after-riskdec',
    area: 'errors',
    rule: 'ERR-60025',
    what: 'authorises the AUTH of RISKDEC+AUTH on a category-6012 site without the mandated fields (a separate AUTH answers 60025)',
    build: counted((hit) => ({
      operations: {
        AUTH: (input, next) => {
          const site = input.prepared.site;
          if (input.index === 0 || !site || site.config.mcc !== '6012') return next(input);
          hit();
          return next(withPrepared(input, { site: { ...site, config: { ...site.config, mcc: '5969' } } }));
        },
      },
    })),
  }),
  faulty({
    name: 'blind5-99999-accountcheck-as-decline',
    area: 'errors',
    rule: 'ERR-99999',
    what: 'answers 70000 "Decline" where an ACCOUNTCHECK meets an unknown error (99999)',
    build: counted((hit) => ({
      part: (p) => {
        if (!isType(p, 'ACCOUNTCHECK') || p.errorcode !== ERR.unknown.code) return p;
        hit();
        return { ...p, errorcode: ERR.decline.code, errormessage: ERR.decline.message };
      },
    })),
  }),
  faulty({
    name: 'blind5-riskdec-first-ok-capitalised',
    area: 'errors',
    rule: 'ERR-0',
    what: 'answers errormessage "OK" (not "Ok") in the successful RISKDEC part of RISKDEC+AUTH',
    build: counted((hit) => ({
      part: (p, ctx) => {
        if (!answers(ctx, 'RISKDEC', 'AUTH') || !isType(p, 'RISKDEC') || !succeeded(p)) return p;
        hit();
        return { ...p, errormessage: 'OK' };
      },
    })),
  }),
  faulty({
    name: 'blind5-60025-code-as-number',
    area: 'errors',
    rule: 'ERR-PART-FIELDS',
    formats: ['json'],
    what: 'writes the errorcode of a 60025 ACCOUNTCHECK part as a JSON number; JSON only (an XML text has no number type)',
    build: counted((hit) => ({
      part: (p) => {
        if (!isType(p, 'ACCOUNTCHECK') || p.errorcode !== ERR.mcc6012.code) return p;
        hit();
        return { ...p, errorcode: Number(ERR.mcc6012.code) };
      },
    })),
  }),
  faulty({
    name: 'blind5-60022-refusal-without-status',
    area: 'errors',
    rule: '3DS-60022-SETTLE',
    what: 'answers 60022 to an AUTH whose md matches no enrolment check without `status` N and settlestatus 3',
    build: counted((hit) => ({
      part: (p) => {
        if (!isType(p, 'AUTH') || p.errorcode !== ERR.unauthenticated.code || p.transactionreference !== undefined) return p;
        hit();
        return without(p, 'status', 'settlestatus');
      },
    })),
  }),

  // ---- The XML form ------------------------------------------------------------------------------------------------
  faulty({
    name: 'blind5-xml-deny-lowercase',
    area: 'xml',
    rule: 'RISKDEC-SHIELD-VALUES',
    formats: ['xml'],
    what: 'writes the shield status DENY as `deny` in the XML form; XML only (the JSON form is right)',
    build: counted((hit) => {
      return {
        wire: (reply, ctx) => {
          if (ctx.format !== 'xml' || !reply.body.includes('<shieldstatuscode>DENY<')) return reply;
          hit();
          return { ...reply, body: reply.body.replace(/<shieldstatuscode>DENY</g, '<shieldstatuscode>deny<') };
        },
      };
    }),
  }),
  faulty({
    name: 'blind5-xml-accountcheck-security-swapped',
    area: 'xml',
    rule: 'XML-SECURITY-PATHS',
    formats: ['xml'],
    what: 'writes the address result at /security/postcode and the postcode result at /security/address in XML ACCOUNTCHECK parts',
    build: counted((hit) => {
      return {
        wire: (reply, ctx) => {
          if (ctx.format !== 'xml') return reply;
          const body = eachXmlPart(reply.body, (part) =>
            !part.startsWith('<response type="ACCOUNTCHECK"')
              ? part
              : part.replace(/<address>(\d)<\/address><postcode>(\d)<\/postcode>/, (all, a: string, pc: string) => {
                  if (a !== pc) hit();
                  return `<address>${pc}</address><postcode>${a}</postcode>`;
                }),
          );
          return body === reply.body ? reply : { ...reply, body };
        },
      };
    }),
  }),
  faulty({
    name: 'blind5-xml-categoryflag-renamed',
    area: 'xml',
    rule: 'XML-FRAUDCONTROL-PATHS',
    formats: ['xml'],
    what: 'writes the rule category flag at /fraudcontrol/rulecategoryflag instead of /fraudcontrol/categoryflag',
    build: counted((hit) => {
      return {
        wire: (reply, ctx) => {
          if (ctx.format !== 'xml' || !reply.body.includes('<categoryflag>')) return reply;
          hit();
          return { ...reply, body: reply.body.replace(/<(\/?)categoryflag>/g, '<$1rulecategoryflag>') };
        },
      };
    }),
  }),
  faulty({
    name: 'blind5-xml-combined-version',
    area: 'xml',
    rule: 'VER-XML',
    formats: ['xml'],
    what: 'writes version="3.6" on the responseblock when it holds more than one part (a combined request)',
    build: counted((hit) => {
      return {
        wire: (reply, ctx) => {
          if (ctx.format !== 'xml' || (reply.body.match(/<response /g) ?? []).length < 2) return reply;
          hit();
          return { ...reply, body: reply.body.replace(/<responseblock version="3\.67"/, '<responseblock version="3.6"') };
        },
      };
    }),
  }),
  faulty({
    name: 'blind5-xml-riskdec-parent-unread',
    area: 'xml',
    rule: 'XML-REQUEST-BLOCK',
    formats: ['xml'],
    what: 'does not read operation/parenttransactionreference from an XML RISKDEC request (a risk decision after a payment)',
    build: counted((hit) => {
      return {
        request: rewriting((req, format) => {
          const types = typesOf(req);
          if (format !== 'xml' || types.length !== 1 || types[0] !== 'RISKDEC' || req.parenttransactionreference === undefined) return undefined;
          hit();
          const out = { ...req };
          delete out.parenttransactionreference;
          return out;
        }),
      };
    }),
  }),
  faulty({
    name: 'blind5-xml-combined-currency-unread',
    area: 'xml',
    rule: 'XML-REQUEST-BLOCK',
    formats: ['xml'],
    what: 'ignores the currencycode attribute of billing/amount in combined XML requests and takes GBP',
    build: counted((hit) => {
      return {
        request: rewriting((req, format) => {
          if (format !== 'xml' || typesOf(req).length < 2 || typeof req.currencyiso3a !== 'string' || req.currencyiso3a === 'GBP') return undefined;
          hit();
          return { ...req, currencyiso3a: 'GBP' };
        }),
      };
    }),
  }),

  // ---- Benign: only what the document leaves open -----------------------------------------------------------------
  benign({
    name: 'blind5-benign-bank-amount-limit-12',
    area: 'fields',
    allowedBy: '"`baseamount` has at most 13 digits, and the maximum can be lower depending on the acquiring bank." (Limits 2)',
    what: 'refuses a baseamount of 13 digits with 30000 naming baseamount (its acquiring bank allows 12)',
    build: () => ({
      mutate: {
        request: rewriting((req) => (typeof req.baseamount === 'string' && /^\d{13}$/.test(req.baseamount) ? { ...req, baseamount: `${req.baseamount}0` } : undefined)),
      },
    }),
  }),
  benign({
    name: 'blind5-benign-field-errors-other-code',
    area: 'errors',
    allowedBy: '30000 is listed for THREEDQUERY only; "Other codes exist; the full list of error codes is not shown." (Errors)',
    what: 'refuses an invalid field of an AUTH, ACCOUNTCHECK or RISKDEC with 30010 "Invalid data" (errordata kept) instead of 30000',
    build: () => ({
      mutate: {
        part: (p) =>
          p.errorcode === ERR.invalidField.code && (isType(p, 'AUTH') || isType(p, 'ACCOUNTCHECK') || isType(p, 'RISKDEC')) ? { ...p, errorcode: '30010', errormessage: 'Invalid data' } : p,
      },
    }),
  }),
  benign({
    name: 'blind5-benign-long-fraud-texts',
    area: 'types',
    allowedBy: '`rulecategorymessage`: "Text, no defined length"; `fraudcontrolreference`: "Alphanumeric, 255" (RISKDEC response fields)',
    what: 'gives CHALLENGE and DENY a 600-character rulecategorymessage with punctuation and a 200-character fraudcontrolreference',
    build: () => ({
      mutate: {
        operations: {
          // Through the handler, so that what is stored is what was answered.
          RISKDEC: (input, next) => {
            const out = next(input);
            const ref = out.record?.transactionreference;
            if (ref === undefined) return out;
            const p = out.part;
            const reference = `FCR${ref.replace(/-/g, '')}`.padEnd(200, 'Z');
            const message = typeof p.rulecategorymessage === 'string' ? `${p.rulecategorymessage}: velocity, device & address rules (score 87/100; "manual review"). `.padEnd(600, '.') : undefined;
            const part = { ...p, fraudcontrolreference: reference, ...(message ? { rulecategorymessage: message } : {}) };
            changeStored(input, out, (r) => (r.part = part));
            return { ...out, part };
          },
        },
      },
    }),
  }),
  benign({
    name: 'blind5-benign-xml-error-first',
    area: 'xml',
    formats: ['xml'],
    allowedBy: 'The document places fields in the XML block by path only; the order of the elements of a response is not given (Endpoints > Transport)',
    what: 'writes the error element first in each XML response part; XML only (element order)',
    build: () => ({
      mutate: {
        wire: (reply, ctx) => {
          if (ctx.format !== 'xml') return reply;
          const body = eachXmlPart(reply.body, (part) => {
            const m = /^(<response [^>]*>)([\s\S]*?)(<error>[\s\S]*?<\/error>)([\s\S]*)$/.exec(part);
            return m ? `${m[1]}${m[3]}${m[2]}${m[4]}` : part;
          });
          return { ...reply, body };
        },
      },
    }),
  }),
  benign({
    name: 'blind5-benign-xml-single-quotes-indented',
    area: 'xml',
    formats: ['xml'],
    allowedBy: 'XML 1.0 allows single-quoted attributes and whitespace between elements; the document fixes neither (Versioning 2)',
    what: 'writes XML attributes in single quotes and puts a line break and indentation before each response element; XML only',
    build: () => ({
      mutate: {
        wire: (reply, ctx) => {
          if (ctx.format !== 'xml') return reply;
          const body = reply.body
            .replace(/ (version|type|currencycode)="([^"<>']*)"/g, " $1='$2'")
            .replace(/<response /g, '\n  <response ')
            .replace(/<\/responseblock>/, '\n</responseblock>');
          return { ...reply, body };
        },
      },
    }),
  }),
];
