/**
 * A second round of faulty variants written from the interface document alone, before reading the suite (see
 * ./blind.ts for the first). Each breaks one sentence where it is least expected: a combined request, a child of a
 * stored card, a follow-up on the second transition, one card length, one format, one field of a nested XML block.
 * The benign ones at the end bound the checks added for the escapes: what the document leaves open stays open.
 */
import type { Variant } from '../types';
import { answers, benign, billingNotInherited, ERR, faulty, filteredReference, isObject, isType, partsOf, queryRecords, refuse, without, withPart } from './helpers';

/** An XML answer with one element renamed inside one block (`<block>...<from>x</from>...</block>`). */
function renameInBlock(body: string, block: string, from: string, to: string): string {
  const re = new RegExp(`<${block}>[\\s\\S]*?</${block}>`, 'g');
  return body.replace(re, (inner) => inner.replace(new RegExp(`<${from}>([\\s\\S]*?)</${from}>`, 'g'), `<${to}>$1</${to}>`));
}

export const BLIND2: readonly Variant[] = [
  faulty({
    name: 'blind2-auth-riskdec-parent-is-self',
    area: 'types',
    rule: 'RISKDEC-LAST',
    what: "puts the RISKDEC's own reference in parenttransactionreference of the RISKDEC part of AUTH+RISKDEC, not the AUTH's",
    build: () => ({
      mutate: {
        part: (p, ctx) => (answers(ctx, 'AUTH', 'RISKDEC') && isType(p, 'RISKDEC') && typeof p.transactionreference === 'string' ? { ...p, parenttransactionreference: p.transactionreference } : p),
      },
    }),
  }),
  faulty({
    name: 'blind2-xml-subscription-accounttype-ecom',
    area: 'xml',
    rule: 'SUB-RECUR',
    what: 'answers accounttypedescription ECOM instead of RECUR in the SUBSCRIPTION part of XML answers (XML only: the JSON form keeps RECUR)',
    formats: ['xml'],
    build: () => ({ mutate: { part: (p, ctx) => (ctx.format === 'xml' && isType(p, 'SUBSCRIPTION') && p.accounttypedescription === 'RECUR' ? { ...p, accounttypedescription: 'ECOM' } : p) } }),
  }),
  faulty({
    name: 'blind2-subscription-shares-auth-reference',
    area: 'types',
    rule: 'SUB-OWN-REFERENCE',
    what: "answers the AUTH's transactionreference in the SUBSCRIPTION part of AUTH+SUBSCRIPTION (each part must have its own)",
    build: () => ({
      mutate: {
        envelope: (env, ctx) => {
          if (!answers(ctx, 'AUTH', 'SUBSCRIPTION')) return env;
          const parts = partsOf(env);
          const auth = parts.find((p) => isType(p, 'AUTH'));
          if (!auth || typeof auth.transactionreference !== 'string') return env;
          return { ...env, response: parts.map((p) => (isType(p, 'SUBSCRIPTION') && typeof p.transactionreference === 'string' ? { ...p, transactionreference: auth.transactionreference } : p)) };
        },
      },
    }),
  }),
  faulty({
    name: 'blind2-short-card-masked-to-16',
    area: 'fields',
    rule: 'FIELD-MASKEDPAN',
    what: 'masks every card number not 16 digits long (15-digit AMEX, 19-digit cards) as 16 characters: first 6, ######, last 4',
    build: () => ({
      mutate: {
        part: (p) => (typeof p.maskedpan === 'string' && p.maskedpan.length !== 16 && p.maskedpan.length >= 10 ? { ...p, maskedpan: `${p.maskedpan.slice(0, 6)}######${p.maskedpan.slice(-4)}` } : p),
      },
    }),
  }),
  faulty({
    name: 'blind2-xml-security-postcode-renamed',
    area: 'xml',
    rule: 'XML-SECURITY-PATHS',
    what: 'writes the postcode result at /security/postcoderesult instead of /security/postcode (XML only: the element path)',
    formats: ['xml'],
    build: () => ({ mutate: { wire: (r, ctx) => (ctx.format === 'xml' ? { ...r, body: renameInBlock(r.body, 'security', 'postcode', 'postcoderesult') } : r) } }),
  }),
  faulty({
    name: 'blind2-xml-fraudcontrol-categoryflag-renamed',
    area: 'xml',
    rule: 'XML-FRAUDCONTROL-PATHS',
    what: 'writes the rule category flag at /fraudcontrol/ruleflag instead of /fraudcontrol/categoryflag (XML only: the element path)',
    formats: ['xml'],
    build: () => ({ mutate: { wire: (r, ctx) => (ctx.format === 'xml' ? { ...r, body: renameInBlock(r.body, 'fraudcontrol', 'categoryflag', 'ruleflag') } : r) } }),
  }),
  faulty({
    name: 'blind2-query-masks-with-x',
    area: 'fields',
    rule: 'FIELD-MASKEDPAN',
    what: 'masks the card number of the records a TRANSACTIONQUERY finds with X instead of #',
    build: () => ({ mutate: queryRecords((r) => (typeof r.maskedpan === 'string' ? { ...r, maskedpan: r.maskedpan.replace(/#/g, 'X') } : r)) }),
  }),
  faulty({
    name: 'blind2-xml-zero-accountcheck-refused',
    area: 'xml',
    rule: 'FIELD-BASEAMOUNT-POSITIVE',
    what: 'refuses an ACCOUNTCHECK of baseamount 0 with 30000 in XML (XML only: the JSON form accepts it)',
    formats: ['xml'],
    build: () => ({
      mutate: {
        operations: {
          ACCOUNTCHECK: (input, next) =>
            input.env.ctx.format === 'xml' && /^0+$/.test(input.prepared.fields.baseamount ?? '') ? refuse('ACCOUNTCHECK', ERR.invalidField, ['baseamount']) : next(input),
        },
      },
    }),
  }),
  faulty({
    name: 'blind2-stored-card-child-code-matched',
    area: 'inheritance',
    rule: 'STORE-KEEPS-CARD',
    what: 'answers securityresponsesecuritycode 2 (matched) for an AUTH on a stored card sent without a security code, as if STORE had kept it',
    build: () => ({
      mutate: {
        operations: {
          AUTH: (input, next) => {
            const out = next(input);
            const parent = input.prepared.parent;
            return parent?.type === 'STORE' && input.prepared.own.securitycode === undefined && out.part.securityresponsesecuritycode === '0'
              ? withPart(out, (p) => ({ ...p, securityresponsesecuritycode: '2' }))
              : out;
          },
        },
      },
    }),
  }),
  faulty({
    name: 'blind2-not-enrolled-auth-with-cavv',
    area: 'types',
    rule: '3DS-CAVV-ECI',
    what: 'returns cavv and eci in the AUTH after 3-D Secure of a card not enrolled (N)',
    build: () => ({ mutate: { part: (p) => (isType(p, 'AUTH') && p.enrolled === 'N' ? { ...p, cavv: 'AAABBBCCCDDDEEEFFF0011223344', eci: '07' } : p) } }),
  }),
  faulty({
    name: 'blind2-unknown-enrolment-auth-with-status',
    area: 'types',
    rule: '3DS-STATUS',
    what: 'returns status U in the AUTH after 3-D Secure of a card whose enrolment is unknown (U); status is returned only if enrolled',
    build: () => ({ mutate: { part: (p) => (isType(p, 'AUTH') && p.enrolled === 'U' ? { ...p, status: 'U' } : p) } }),
  }),
  faulty({
    name: 'blind2-subscription-60022-message',
    area: 'errors',
    rule: 'ERR-60022',
    what: 'answers errormessage "Not authenticated" instead of "Unauthenticated" for 60022 in the parts of AUTH+SUBSCRIPTION',
    build: () => ({ mutate: { part: (p, ctx) => (answers(ctx, 'AUTH', 'SUBSCRIPTION') && p.errorcode === '60022' ? { ...p, errormessage: 'Not authenticated' } : p) } }),
  }),
  faulty({
    name: 'blind2-xml-60022-acquirer-contacted',
    area: 'xml',
    rule: '3DS-60022-SETTLE',
    what: 'answers an acquirerresponsecode in the AUTH part of 60022 (the acquirer was not contacted) in XML answers (XML only)',
    formats: ['xml'],
    build: () => ({ mutate: { part: (p, ctx) => (ctx.format === 'xml' && isType(p, 'AUTH') && p.errorcode === '60022' ? { ...p, acquirerresponsecode: '05' } : p) } }),
  }),
  faulty({
    name: 'blind2-store-contacts-bank',
    area: 'types',
    rule: 'STORE-NO-BANK',
    what: 'answers authcode and acquirerresponsecode in a successful STORE part, as if the bank had been contacted',
    build: () => ({ mutate: { part: (p) => (isType(p, 'STORE') && p.errorcode === '0' ? { ...p, authcode: 'TEST12', acquirerresponsecode: '00' } : p) } }),
  }),
  faulty({
    name: 'blind2-declined-auth-riskdec-accepts',
    area: 'types',
    rule: 'RISKDEC-SHIELD-VALUES',
    what: 'answers ACCEPT instead of NOSCORE in the RISKDEC part of AUTH+RISKDEC whose AUTH was declined',
    build: () => ({ mutate: { part: (p) => (isType(p, 'RISKDEC') && p.fraudcontrolshieldstatuscode === 'NOSCORE' ? { ...p, fraudcontrolshieldstatuscode: 'ACCEPT' } : p) } }),
  }),
  faulty({
    name: 'blind2-xml-auth-riskdec-order-swapped',
    area: 'xml',
    rule: 'ENV-ORDER',
    what: 'answers the parts of AUTH+RISKDEC as RISKDEC then AUTH in XML (XML only: the JSON form keeps the order)',
    formats: ['xml'],
    build: () => ({ mutate: { envelope: (env, ctx) => (ctx.format === 'xml' && answers(ctx, 'AUTH', 'RISKDEC') ? { ...env, response: [...partsOf(env)].reverse() } : env) } }),
  }),
  faulty({
    name: 'blind2-threedquery-moto-accepted',
    area: 'fields',
    rule: 'FIELD-ACCOUNTTYPE-THREEDQUERY',
    what: 'runs a THREEDQUERY sent with accounttypedescription MOTO as if ECOM (ECOM only for THREEDQUERY), echoing MOTO',
    build: () => {
      let moto = false;
      return {
        mutate: {
          request: (req) => {
            moto = isObject(req) && Array.isArray(req.requesttypedescriptions) && req.requesttypedescriptions.join(',') === 'THREEDQUERY' && req.accounttypedescription === 'MOTO';
            return moto && isObject(req) ? { ...req, accounttypedescription: 'ECOM' } : req;
          },
          part: (p) => (moto && isType(p, 'THREEDQUERY') ? { ...p, accounttypedescription: 'MOTO' } : p),
        },
      };
    },
  }),
  faulty({
    name: 'blind2-resumed-subscription-number-reset',
    area: 'fields',
    rule: 'SUB-NUMBER-RESUME',
    what: 'answers subscriptionnumber 1 in the SUBSCRIPTION part of a resumed subscription (sent with 4 after 3 payments)',
    build: () => ({ mutate: { part: (p) => (isType(p, 'SUBSCRIPTION') && typeof p.subscriptionnumber === 'string' && p.subscriptionnumber !== '1' ? { ...p, subscriptionnumber: '1' } : p) } }),
  }),
  faulty({
    name: 'blind2-store-reenable-ignored',
    area: 'states',
    rule: 'STORE-STATE-REENABLE',
    what: 'answers Ok to a TRANSACTIONUPDATE setting a disabled stored card (0) back to 1 but leaves it disabled',
    build: () => ({
      mutate: {
        operations: {
          TRANSACTIONUPDATE: (input, next) => {
            const ref = filteredReference(input.prepared.filter);
            const rec = ref ? input.uow.get(ref) : undefined;
            const updates = input.prepared.updates;
            if (rec?.type === 'STORE' && rec.transactionactive === '0' && isObject(updates) && updates.transactionactive === '1' && Object.keys(updates).length === 1) {
              const out = next(input);
              input.uow.update(rec.transactionreference, (r) => {
                r.transactionactive = '0';
              });
              return out;
            }
            return next(input);
          },
        },
      },
    }),
  }),
  faulty({
    name: 'blind2-accountcheck-child-loses-billing',
    area: 'inheritance',
    rule: 'AC-INHERITED',
    what: 'does not let a child of an ACCOUNTCHECK inherit its billing fields (the premise and postcode results of the child are 0)',
    build: () => ({
      mutate: billingNotInherited((input) => input.prepared.parent?.type === 'ACCOUNTCHECK'),
    }),
  }),
  benign({
    name: 'blind2-subscription-number-left-out',
    area: 'fields',
    what: 'leaves subscriptionnumber out of the SUBSCRIPTION part (a resumed subscription too)',
    allowedBy:
      'the echoed fields are `baseamount`, `currencyiso3a`, `orderreference`, `accounttypedescription`, `credentialsonfile`; the SUBSCRIPTION part is checked for "`transactionactive`, the timing fields and the amount"',
    build: () => ({ mutate: { part: (p) => (isType(p, 'SUBSCRIPTION') ? without(p, 'subscriptionnumber') : p) } }),
  }),
];
