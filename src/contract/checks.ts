/**
 * The client's obligations, as a registry of small named checks. Each names the rule of features/rules.yaml it holds
 * the client to (or a rule proposed in rules.ts) and quotes the document's sentence; test/contract/checks.test.ts
 * proves every quote is the document's own words.
 *
 * Field values, lengths, types, required fields, fixed values and forbidden fields are the validator's findings
 * (src/validate, from the dictionary and the Request types table): the checks here only say which obligation each
 * finding breaks. What the validator cannot know (whether `md` and `pares` are the ones issued, whether a parent
 * exists, whether a subscription uses stored credentials) is read from the gateway's ledger, the record of what it
 * issued.
 *
 * Severity: `error` fails the gate; `warning` fails it only with `--strict`. A recommendation of the document
 * ("recommended", "normally") is a warning, and so is anything resting on what the document does not show (the full
 * AUTH field list, the follow-ups' shape, cardspec's body limit): the kit never fails a client on those.
 */
import { fieldsFor, REQUEST_TYPES } from '../../schemas/fields';
import { OPERATIONS, type OperationRow } from '../../schemas/operations';
import type { Ledger, TxRecord } from '../gateway';
import { FILTER_KEYS, readFilter } from '../gateway/operations/followups';
import type { Finding, Severity } from '../rules/findings';
import { SECOND_REQUEST_OBJECT, type Violation } from '../validate';
import type { CheckedCall, RequestView } from './call';
import { locate } from './call';
import { recallOf, remember } from './recall';
import { filterReferences, isRowCombination, SUBSCRIPTION_RULE, threeDsPairFaults } from '../wire/reading';
import { DOCTYPE_PROBLEM } from '../wire/xml';

const subscriptionRuleOf = (field: string): string => SUBSCRIPTION_RULE[field] ?? 'FIELD-SUBSCRIPTION-VALUES';

// The shared vocabulary of checks (src/rules/findings.ts), re-exported for the contract modules.
export type { Finding, Severity } from '../rules/findings';

/** What checks may read besides the call: the gateway's ledger (transactions, issued `md` and `pares`). */
export interface CheckContext {
  readonly ledger: Ledger;
}

/** A call the transport refused before an envelope could be answered (401, 404, 405, 413, 415, 400). */
export interface RefusedCall {
  readonly format?: 'json' | 'xml';
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly reason: string;
}

interface CheckBase {
  /** Stable name, shown in reports. */
  readonly name: string;
  /** The rules its findings name. */
  readonly rules: readonly string[];
  /** The document's sentence the check holds the client to, verbatim. */
  readonly quote: string;
}

export interface RequestCheck extends CheckBase {
  readonly on: 'answered';
  /**
   * The reference gateway answers such a request as any other (docs/contract.md: "Some violations the reference
   * gateway accepts ... they are reported all the same"): the document's obligation, not a refusal. The differential
   * test (test/differential) compares refusals, and leaves these out.
   */
  readonly gatewayAccepts?: true;
  run(call: CheckedCall, ctx: CheckContext): Finding[];
}

export interface TransportCheck extends CheckBase {
  readonly on: 'refused';
  run(call: RefusedCall): Finding[];
}

/** The form the merchant's page had the browser POST to `acsurl`, as the gate read it on its way to the ACS. */
export interface AcsForm {
  readonly md?: string;
  readonly pareq?: string;
  readonly termUrl?: string;
}

export interface AcsFormCheck extends CheckBase {
  readonly on: 'acs-form';
  run(form: AcsForm, ctx: CheckContext): Finding[];
}

export type ContractCheck = RequestCheck | TransportCheck | AcsFormCheck;

// ---- helpers ------------------------------------------------------------------------------------------------------

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The validator's findings of some kinds, with the request object each belongs to (when it belongs to one). */
function schemaFindings(call: CheckedCall, kinds: readonly string[]): { v: Violation; field: string; view?: RequestView }[] {
  const out: { v: Violation; field: string; view?: RequestView }[] = [];
  for (const v of call.schema) {
    if (!kinds.includes(v.rule)) continue;
    const at = locate(v.field);
    out.push({ v, field: at.field, view: at.index === undefined ? undefined : call.requests[at.index] });
  }
  return out;
}

/**
 * The field a finding is about, wherever it sits: `updates.baseamount` is a baseamount ("the new `baseamount`"), held
 * to the same rule as one at the top of the request object.
 */
const leafOf = (field: string): string => field.slice(field.lastIndexOf('.') + 1);

const finding = (rule: string, v: Violation, severity: Severity = v.severity): Finding => ({ rule, field: v.field, severity, message: v.message });

/**
 * The rule of the envelope's shape: the JSON body's ("`{alias, version, request:[ {request object} ]}`"), or in XML
 * the block's ("It has `alias`, `request` with a `type` attribute").
 */
const blockRule = (call: CheckedCall): string => (call.format === 'xml' ? 'XML-REQUEST-BLOCK' : 'TRANSPORT-REQUEST-BODY');

const lower = (a: Severity, b: Severity): Severity => (a === 'warning' || b === 'warning' ? 'warning' : 'error');

/** A host name of this machine: `localhost` and its subdomains, 127.0.0.0/8, `[::1]`. */
const isLoopback = (host: string): boolean => host === 'localhost' || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host) || host === '[::1]';

/** Walks a record and its ancestors (parent links of the ledger), nearest first. */
function* lineage(ledger: Ledger, rec: TxRecord | undefined): Generator<TxRecord> {
  for (let depth = 0; rec && depth < 64; depth++) {
    yield rec;
    rec = rec.parent === undefined ? undefined : ledger.get(rec.parent);
  }
}

/** The record a request object names as its parent: by `parenttransactionreference`, or by `md`/`pares`. */
function parentOf(view: RequestView, ledger: Ledger): TxRecord | undefined {
  const o = view.obj;
  if (!o) return undefined;
  const ref = str(o.parenttransactionreference);
  if (ref !== undefined) return ledger.get(ref);
  const md = str(o.md);
  const pares = str(o.pares);
  if (md !== undefined || pares !== undefined) return ledger.threeDsBy(md, pares);
  return undefined;
}

const FOLLOW_UPS = new Set(['TRANSACTIONUPDATE', 'TRANSACTIONQUERY']);

/**
 * The places the document itself gives fields in the XML block: "sub-blocks `merchant`, `billing` (with `amount`
 * carrying a `currencycode` attribute, `payment`, `postcode`, `premise`) and `operation` (`accounttypedescription`,
 * `sitereference`, `parenttransactionreference`)". Every other path of the dictionary is a public fact or the kit's
 * choice, and an element found elsewhere stays an unknown field (a warning).
 */
const DOCUMENT_XML_PLACES = [
  'operation/accounttypedescription',
  'operation/sitereference',
  'operation/parenttransactionreference',
  'billing/amount/.',
  'billing/amount/@currencycode',
  'billing/payment/',
  'billing/postcode',
  'billing/premise',
];

/**
 * The fields the document places, by the name of their element (`amount`: baseamount, `pan`, `postcode`), or of
 * their attribute (`currencycode`: an element of that name is the attribute "`amount` carrying a `currencycode`
 * attribute" written as an element).
 */
const PLACED_BY_ELEMENT: ReadonlyMap<string, { field: string; path: string }> = new Map(
  fieldsFor('request').flatMap((d) => {
    const path = d.request?.xml ?? '';
    const segments = path.split('/');
    const last = segments[segments.length - 1] ?? '';
    // An attribute only where the document names it (the currency); the others are public facts or the kit's choice.
    const named = last.startsWith('@') ? DOCUMENT_XML_PLACES.includes(path) : DOCUMENT_XML_PLACES.some((place) => path === place || path.startsWith(place));
    if (!named) return [];
    const element = last === '.' ? segments[segments.length - 2] : last.replace(/^@/, '');
    return element ? [[element, { field: d.name, path: path.replace(/\/\.$/, '') }] as const] : [];
  }),
);

/** An element of the block that the reader did not know (`merchant/sitereference`) holding a field the document places. */
function misplacedElement(key: string): { field: string; path: string } | undefined {
  if (!key.includes('/')) return undefined;
  const element = key.split('/').pop() ?? '';
  const placed = PLACED_BY_ELEMENT.get(element);
  return placed && placed.path !== key ? placed : undefined;
}

/** The dictionary's field checks (value type, length, class, listed values). */
const FIELD_CHECKS = new Set(['all-values-strings', 'type', 'maxLength', 'minLength', 'pattern', 'enum']);

/**
 * Whether a request object's values pass the dictionary: the gateway refuses one that does not (`30000`) before it
 * looks anything up, so what the ledger would say of it (a parent, an md/pares pair) is not said either.
 */
function valuesPass(call: CheckedCall, view: RequestView, judged: readonly string[] = []): boolean {
  const at = `request[${view.index}]`;
  const own = new Set(judged.map((f) => `${at}.${f}`));
  if (view.types.length === 0 || !view.types.every((t) => (REQUEST_TYPES as readonly string[]).includes(t)) || !isRowCombination(view.types)) return false;
  return !call.schema.some((v) => v.severity === 'error' && FIELD_CHECKS.has(v.rule) && v.field.startsWith(at) && !own.has(v.field));
}

// ---- the operation rows -------------------------------------------------------------------------------------------

/**
 * The rule of each row of the Request types table. Rows whose "Fields" cell is "the fields of AUTH" or "AUTH fields"
 * rest on a list the document does not show ("The full list of fields accepted in an AUTH request: not shown"), and
 * the follow-ups' shape is not shown either: their required fields are warnings.
 */
export const ROW_RULES: Readonly<Record<string, { rule: string; severity: Severity }>> = {
  threedquery: { rule: '3DS-QUERY-REQUEST', severity: 'error' },
  'auth-3ds-enrolled': { rule: '3DS-AUTH-ENROLLED', severity: 'error' },
  'auth-3ds-not-enrolled': { rule: '3DS-AUTH-NOT-ENROLLED', severity: 'error' },
  'subscription-enrolled': { rule: 'SUB-ENROLLED', severity: 'error' },
  'subscription-not-enrolled': { rule: 'SUB-NOT-ENROLLED', severity: 'error' },
  'subscription-no-3ds': { rule: 'SUB-NO-3DS', severity: 'error' },
  auth: { rule: 'FIELD-AUTH-FIELD-LIST', severity: 'warning' },
  accountcheck: { rule: 'AC-SHAPE', severity: 'warning' },
  store: { rule: 'STORE-SHAPE', severity: 'error' },
  'riskdec-card': { rule: 'RISKDEC-CARD', severity: 'error' },
  'riskdec-after-payment': { rule: 'RISKDEC-AFTER-PAYMENT', severity: 'error' },
  'riskdec-then-auth': { rule: 'RISKDEC-FIRST', severity: 'warning' },
  'auth-then-riskdec': { rule: 'RISKDEC-LAST', severity: 'warning' },
  transactionupdate: { rule: 'SUB-UPDATE-SHAPE', severity: 'warning' },
  transactionquery: { rule: 'STORE-QUERY-SHAPE', severity: 'warning' },
};

/** Recommendations that have a check of their own (or none: `credentialsonfile` may be omitted, see below). */
const OWN_RECOMMENDATIONS = new Set(['useragent', 'securitycode', 'credentialsonfile']);

/** One check per row: the fields the row's "Fields" cell names, and the card where the row leaves its source open. */
function rowCheck(row: OperationRow): RequestCheck {
  const { rule, severity } = ROW_RULES[row.id];
  return {
    on: 'answered',
    name: `fields-of-${row.id}`,
    rules: [rule],
    quote: row.quote,
    run: (call) =>
      schemaFindings(call, ['required', 'card-source', 'recommended', 'minProperties', 'not-in-row'])
        .filter(({ v, field, view }) => {
          if (view?.row?.id !== row.id) return false;
          if (v.rule === 'required' && field === 'requesttypedescriptions') return false;
          return v.rule !== 'recommended' || !OWN_RECOMMENDATIONS.has(field);
        })
        .map(({ v }) => finding(rule, v, lower(v.severity, severity))),
  };
}

// ---- the registry -------------------------------------------------------------------------------------------------

export const REQUEST_CHECKS: readonly RequestCheck[] = [
  {
    on: 'answered',
    name: 'envelope-body',
    rules: ['TRANSPORT-REQUEST-BODY', 'XML-REQUEST-BLOCK'],
    quote: '| Request body | `{alias, version, request:[ {request object} ]}` |',
    run: (call) => {
      if (call.format === 'json' && call.envelope === undefined) {
        return [
          {
            rule: 'TRANSPORT-REQUEST-BODY',
            field: 'body',
            severity: 'error',
            message: `the body is not a JSON envelope {alias, version, request:[...]} (${call.problems.join('; ') || 'not an object'})`,
          },
        ];
      }
      return schemaFindings(call, ['required', 'type'])
        .filter(({ v, view }) => view === undefined || (v.rule === 'type' && locate(v.field).field === ''))
        .map(({ v }) => finding(blockRule(call), v));
    },
  },
  {
    on: 'answered',
    name: 'xml-block',
    rules: ['XML-REQUEST-BLOCK', 'VER-XML', 'ENV-ONE-REQUEST-OBJECT'],
    quote: 'The same operations are also offered as an XML request block (root `requestblock` with a `version` attribute).',
    // A DTD that declares anything is refused by the kit's guard against entity expansion, not by the document: a
    // warning. Every other problem of the block is an error.
    run: (call) =>
      call.format !== 'xml'
        ? []
        : call.problems.map((p) => ({
            rule: /version/i.test(p) ? 'VER-XML' : SECOND_REQUEST_OBJECT.test(p) ? 'ENV-ONE-REQUEST-OBJECT' : 'XML-REQUEST-BLOCK',
            field: 'requestblock',
            severity: p === DOCTYPE_PROBLEM ? ('warning' as const) : ('error' as const),
            message: p,
          })),
  },
  {
    on: 'answered',
    name: 'body-encoding',
    rules: ['TRANSPORT-REQUEST-BODY', 'XML-REQUEST-BLOCK'],
    quote: 'Every operation is one HTTPS POST of a JSON body to a single endpoint.',
    // The document names no encoding: what the gateway read all the same (a byte order mark, a charset JSON does not
    // obey, an XML label its bytes do not fit) is a warning, never an error. Bytes that are not text at all are a
    // malformed body: envelope-body and xml-block say so.
    run: (call) => call.notes.map((message) => ({ rule: call.format === 'json' ? 'TRANSPORT-REQUEST-BODY' : 'XML-REQUEST-BLOCK', field: 'body', severity: 'warning' as const, message })),
  },
  {
    on: 'answered',
    name: 'interface-version',
    rules: ['VER-JSON'],
    quote: 'The JSON envelope carries `version` with the value `1.00`, in both the request and the response.',
    run: (call) =>
      schemaFindings(call, ['enum'])
        .filter(({ field, view }) => !view && field === 'version')
        .map(({ v }) => finding('VER-JSON', v)),
  },
  {
    on: 'answered',
    name: 'one-request-object',
    rules: ['ENV-ONE-REQUEST-OBJECT'],
    quote: 'The body holds a list with one request object.',
    run: (call) => schemaFindings(call, ['one-request-object']).map(({ v }) => finding('ENV-ONE-REQUEST-OBJECT', v)),
  },
  {
    on: 'answered',
    name: 'alias-of-the-account',
    rules: ['SEC-ALIAS'],
    quote: 'The request body also carries `alias`, the operator account identifier.',
    run: (call) => {
      const alias = call.envelope?.alias;
      if (typeof alias !== 'string' || alias === call.ctx.user.alias) return [];
      return [{ rule: 'SEC-ALIAS', field: 'alias', severity: 'error', message: `alias is not the operator account of the basic-auth user ${call.ctx.user.username}` }];
    },
  },
  {
    on: 'answered',
    name: 'request-types-named',
    rules: ['ENV-TYPES-NAMED', 'SUB-COMBINED'],
    quote: 'The request object names one or more request types in `requesttypedescriptions`.',
    run: (call) =>
      schemaFindings(call, ['required', 'request-type', 'no-row', 'minItems', 'type'])
        .filter(({ field, view }) => view !== undefined && (field === 'requesttypedescriptions' || field === 'requesttypedescription'))
        .map(({ v, view }) => finding(view!.types.includes('SUBSCRIPTION') && v.rule === 'request-type' ? 'SUB-COMBINED' : 'ENV-TYPES-NAMED', v)),
  },
  {
    on: 'answered',
    name: 'unknown-fields',
    rules: ['FIELD-AUTH-FIELD-LIST'],
    quote: 'The full list of fields accepted in an AUTH request: not shown.',
    // Accepted by every reader, in JSON and XML alike (src/wire/reading.ts): a warning, never an error.
    run: (call) =>
      schemaFindings(call, ['unknown-field'])
        .filter(({ field }) => call.format !== 'xml' || misplacedElement(field) === undefined)
        .map(({ v }) => finding('FIELD-AUTH-FIELD-LIST', v, 'warning')),
  },
  {
    on: 'answered',
    name: 'xml-sub-blocks',
    rules: ['XML-REQUEST-BLOCK'],
    quote:
      'sub-blocks `merchant`, `billing` (with `amount` carrying a `currencycode` attribute, `payment`, `postcode`, `premise`) and `operation` (`accounttypedescription`, `sitereference`, `parenttransactionreference`)',
    // A field the document places, sent in another sub-block: the reader does not find it where the block puts it
    // (an unknown element to the reader, and the field missing), so the sentence it breaks is the block's.
    run: (call) =>
      call.format !== 'xml'
        ? []
        : schemaFindings(call, ['unknown-field']).flatMap(({ v, field }) => {
            const placed = misplacedElement(field);
            if (!placed) return [];
            return [{ rule: 'XML-REQUEST-BLOCK', field: v.field, severity: 'error' as const, message: `${field} holds ${placed.field}, which the block places at ${placed.path}` }];
          }),
  },
  {
    on: 'answered',
    name: 'values-are-strings',
    rules: ['FIELD-STRINGS', 'XML-REQUEST-BLOCK'],
    quote: 'All values in JSON requests and responses are strings, including numbers.',
    // XML text is a string: a value read as a list or an object there is an element repeated, or one holding
    // elements where the block has text, and the sentence it breaks is the block's.
    run: (call) =>
      schemaFindings(call, ['all-values-strings'])
        .filter(({ field }) => call.format !== 'xml' || !call.problems.some((p) => SECOND_REQUEST_OBJECT.exec(p)?.[1] === field))
        .map(({ v, field }) =>
          call.format === 'xml'
            ? {
                rule: 'XML-REQUEST-BLOCK',
                field: v.field,
                severity: v.severity,
                message: `${field} is not one text value in the block (an element repeated, or one holding elements): the block carries each field once`,
              }
            : finding('FIELD-STRINGS', v),
        ),
  },
  {
    on: 'answered',
    name: 'field-lengths',
    rules: ['FIELD-LENGTHS', 'LIMIT-BASEAMOUNT'],
    quote: 'The number is the maximum length, unless a range is given.',
    run: (call) => schemaFindings(call, ['maxLength', 'minLength']).map(({ v, field }) => finding(leafOf(field) === 'baseamount' ? 'LIMIT-BASEAMOUNT' : 'FIELD-LENGTHS', v)),
  },
  {
    on: 'answered',
    name: 'field-types',
    rules: ['FIELD-TYPES', 'FIELD-BASEAMOUNT-MINOR-UNITS', 'FIELD-POSTCODE-VALIDATION'],
    quote: 'Types below follow the notation Alpha, Numeric, Alphanumeric and Char.',
    run: (call) =>
      schemaFindings(call, ['pattern']).map(({ v, field }) =>
        finding(leafOf(field) === 'baseamount' ? 'FIELD-BASEAMOUNT-MINOR-UNITS' : leafOf(field) === 'billingpostcode' ? 'FIELD-POSTCODE-VALIDATION' : 'FIELD-TYPES', v),
      ),
  },
  {
    on: 'answered',
    name: 'listed-values',
    rules: ['SUB-TRANSACTIONACTIVE-VALUES', 'FIELD-TELEPHONETYPE', 'FIELD-TYPES'],
    quote: 'Subscription status: `0` inactive, `1` active, `2` pending (default).',
    run: (call) =>
      schemaFindings(call, ['enum'])
        .filter(({ field, view }) => view !== undefined && field !== 'accounttypedescription' && field !== 'requesttypedescriptions')
        .map(({ v, field }) => finding(leafOf(field) === 'transactionactive' ? 'SUB-TRANSACTIONACTIVE-VALUES' : leafOf(field) === 'billingtelephonetype' ? 'FIELD-TELEPHONETYPE' : 'FIELD-TYPES', v)),
  },
  {
    on: 'answered',
    name: 'account-type-per-operation',
    rules: ['FIELD-ACCOUNTTYPE-PAYMENTS', 'FIELD-ACCOUNTTYPE-THREEDQUERY', 'STORE-SHAPE', 'RISKDEC-CARD', 'RISKDEC-AFTER-PAYMENT'],
    quote: '`ECOM` or `MOTO` for payments; `ECOM` only for THREEDQUERY; `CARDSTORE` for STORE; `FRAUDCONTROL` for RISKDEC.',
    run: (call) => {
      const found = schemaFindings(call, ['fixed', 'enum']).filter(({ field, view }) => view !== undefined && field === 'accounttypedescription');
      // A value outside every list breaks the row's fixed value too: one finding, the row's.
      const fixed = new Set(found.filter(({ v }) => v.rule === 'fixed').map(({ view }) => view!.index));
      return found
        .filter(({ v, view }) => v.rule === 'fixed' || !fixed.has(view!.index))
        .map(({ v, view }) => {
          const id = view!.row?.id;
          const rule =
            id === 'threedquery'
              ? 'FIELD-ACCOUNTTYPE-THREEDQUERY'
              : id === 'store'
                ? 'STORE-SHAPE'
                : id === 'riskdec-card'
                  ? 'RISKDEC-CARD'
                  : id === 'riskdec-after-payment'
                    ? 'RISKDEC-AFTER-PAYMENT'
                    : 'FIELD-ACCOUNTTYPE-PAYMENTS';
          return finding(rule, v);
        });
    },
  },
  ...OPERATIONS.map(rowCheck),
  {
    on: 'answered',
    name: 'securitycode-not-in-store',
    rules: ['FIELD-SECURITYCODE-NOT-IN-STORE'],
    quote: 'Must not be sent in STORE.',
    run: (call) => schemaFindings(call, ['forbidden']).map(({ v }) => finding('FIELD-SECURITYCODE-NOT-IN-STORE', v)),
  },
  {
    on: 'answered',
    name: 'subscription-values',
    rules: ['SUB-NUMBER-START', 'SUB-BEGINDATE', 'SUB-FREQUENCY', 'FIELD-SUBSCRIPTION-VALUES'],
    quote: 'Allowed values of `subscriptiontype` and `subscriptionunit` other than those in the examples: not shown.',
    // One reading (src/wire/reading.ts `subscriptionFaults`): the gateway's choices are warnings, never errors.
    run: (call) =>
      schemaFindings(call, ['subscription-value', 'subscription-choice']).map(({ v, field }) => finding(subscriptionRuleOf(field), v, v.rule === 'subscription-choice' ? 'warning' : v.severity)),
  },
  {
    on: 'answered',
    name: 'baseamount-above-zero',
    rules: ['FIELD-BASEAMOUNT-POSITIVE'],
    quote: 'It must be greater than zero, except that ACCOUNTCHECK allows `0`.',
    run: (call) => schemaFindings(call, ['amount-above-zero']).map(({ v }) => finding('FIELD-BASEAMOUNT-POSITIVE', v)),
  },
  {
    on: 'answered',
    name: 'useragent-recommended',
    rules: ['3DS-USERAGENT'],
    quote: 'Strongly recommended; omitting it may forfeit the liability shift.',
    run: (call) =>
      schemaFindings(call, ['recommended'])
        .filter(({ field }) => field === 'useragent')
        .map(({ v }) => finding('3DS-USERAGENT', v, 'warning')),
  },
  {
    on: 'answered',
    name: 'securitycode-recommended',
    rules: ['FIELD-SECURITYCODE-OPTIONAL'],
    quote: 'Not strictly required, but recommended for security code checks; some banks decline without it.',
    // Only where the card itself is sent: a cache token carries the code's check, and a child inherits it.
    run: (call) =>
      schemaFindings(call, ['recommended'])
        .filter(({ field, view }) => field === 'securitycode' && view?.obj?.pan !== undefined)
        .map(({ v }) => finding('FIELD-SECURITYCODE-OPTIONAL', v, 'warning')),
  },
  {
    on: 'answered',
    name: 'md-pares-as-issued',
    rules: ['3DS-MD-PARES-UNMODIFIED'],
    quote: 'The ACS return values `md` and `pares` must be submitted in full and unmodified.',
    run: (call, { ledger }) => {
      const out: Finding[] = [];
      for (const view of call.requests) {
        const md = str(view.obj?.md);
        const pares = str(view.obj?.pares);
        // A value of the pair that breaks its field (a PaRes kept with the form's line breaks) is also a modified
        // value: it is compared with what was issued, which the ledger finds by the other of the two.
        if ((md === undefined && pares === undefined) || !valuesPass(call, view, ['md', 'pares'])) continue;
        const at = `request[${view.index}].`;
        const issued = ledger.threeDsBy(md, pares)?.threeds;
        // The pair authenticates one AUTH (src/wire/reading.ts): this call's own AUTH is the one that used it.
        const mine = view.parts.find((p) => p.requesttypedescription === 'AUTH')?.transactionreference;
        const usedBefore = issued?.used === true && issued.usedBy !== mine;
        const faults = threeDsPairFaults(issued, md, pares, usedBefore);
        const fail = (field: string, message: string): void => void out.push({ rule: '3DS-MD-PARES-UNMODIFIED', field: at + field, severity: 'error', message });
        if (!issued) {
          fail('md', 'neither md nor pares is one the gateway and its ACS issued: they must be submitted in full and unmodified');
          continue;
        }
        if (faults.length === 0) continue;
        if (md !== undefined && md !== issued.md)
          fail('md', `md is not the md the THREEDQUERY answered (${md.length} characters sent, ${issued.md?.length ?? 0} issued): it must be submitted in full and unmodified`);
        // A missing md or pares is the row's finding (fields-of-auth-3ds-enrolled), not said twice here.
        if (pares === undefined) {
          // nothing more to compare
        } else if (issued.pares === undefined) fail('pares', 'pares was sent, but the ACS has returned no PaRes for this md yet: it must be the value returned by the ACS');
        else if (pares !== issued.pares) fail('pares', `pares is not the PaRes the ACS returned (${pares.length} characters sent, ${issued.pares.length} issued): it must be submitted unmodified`);
        if (md === issued.md && pares === issued.pares && usedBefore) {
          fail('md', `md and pares were already used by the AUTH ${issued.usedBy ?? 'before this one'}: an issued pair authenticates one AUTH (a reused pair is answered 60022)`);
        }
      }
      return out;
    },
  },
  {
    on: 'answered',
    name: 'references-name-something',
    rules: ['FIELD-SITEREFERENCE'],
    quote: '| `sitereference` | Alphanumeric incl. underscore | 50 | The merchant site identifier. |',
    // What the gateway refuses with 30000 for a reason of the caller's account (validate, which does not see the
    // account, cannot say it). A cache token the service no longer holds is not the client's doing: not recorded.
    run: (call) =>
      call.requests.flatMap((view) => {
        const out: Finding[] = [];
        const site = str(view.obj?.sitereference);
        if (site !== undefined && !call.ctx.user.sites.includes(site)) {
          out.push({
            rule: 'FIELD-SITEREFERENCE',
            field: `request[${view.index}].sitereference`,
            severity: 'error',
            message: `sitereference names no site of the account of ${call.ctx.user.username}`,
          });
        }
        return out;
      }),
  },
  {
    on: 'answered',
    name: 'termurl-https',
    rules: ['3DS-QUERY-REQUEST'],
    quote: 'The browser is returned by HTTPS POST to the `termurl`.',
    // The THREEDQUERY's termurl, the merchant's address the ACS returns the browser to: one that is not HTTPS cannot
    // be returned to as the document says. The row's rule: ACS-TO-MERCHANT is the return itself, which a request
    // does not show. A merchant's test server on its own machine (a loopback host) is not reported, as the kit itself
    // serves plain HTTP on loopback (TRANSPORT-HTTPS). A termurl that is no URL at all is field-types' finding.
    run: (call) =>
      call.requests.flatMap((view) => {
        const termurl = str(view.obj?.termurl);
        const url = termurl === undefined || !URL.canParse(termurl) ? undefined : new URL(termurl);
        if (!url || url.protocol === 'https:' || isLoopback(url.hostname)) return [];
        return [
          {
            rule: '3DS-QUERY-REQUEST',
            field: `request[${view.index}].termurl`,
            severity: 'error' as const,
            message: `termurl is an ${url.protocol.slice(0, 10)} address, not https: "The browser is returned by HTTPS POST to the termurl"`,
          },
        ];
      }),
  },
  {
    on: 'answered',
    name: 'parent-exists',
    rules: ['FIELD-PARENT'],
    quote: '`transactionreference` of an earlier request whose data is inherited.',
    run: (call, { ledger }) =>
      call.requests.flatMap((view) => {
        const ref = str(view.obj?.parenttransactionreference);
        if (ref === undefined || view.types.some((t) => FOLLOW_UPS.has(t)) || !valuesPass(call, view)) return [];
        const rec = ledger.get(ref);
        if (rec && call.ctx.user.sites.includes(rec.sitereference)) return [];
        return [
          {
            rule: 'FIELD-PARENT',
            field: `request[${view.index}].parenttransactionreference`,
            severity: 'error' as const,
            message: 'parenttransactionreference names no earlier transaction of this account',
          },
        ];
      }),
  },
  {
    on: 'answered',
    name: 'enrolled-card-goes-to-the-acs',
    gatewayAccepts: true,
    rules: ['3DS-NEXT-Y'],
    quote: "Send the customer's browser to `acsurl`. After the customer returns, send AUTH with `md` and `pares`.",
    // The THREEDQUERY is found by the parent reference, or by the cache token it was sent with: the token is "the
    // customer's payment details, as posted to the merchant after the customer submits the payment form", one
    // checkout, so an ordinary AUTH on it skips the ACS just as an AUTH on the reference does (src/contract/recall.ts).
    run: (call, { ledger }) => {
      const tokens = recallOf(ledger).enrolledTokens;
      return call.requests.flatMap((view) => {
        const o = view.obj;
        const token = str(o?.cachetoken);
        if (o && token !== undefined && view.types.includes('THREEDQUERY')) {
          const q = view.parts.find((p) => p.requesttypedescription === 'THREEDQUERY');
          const ref = str(q?.transactionreference);
          if (q?.enrolled === 'Y' && q.errorcode === '0' && ref !== undefined) remember(tokens, token, ref);
        }
        if (!o || !view.types.includes('AUTH') || o.md !== undefined || o.pares !== undefined) return [];
        const parent = parentOf(view, ledger);
        if (parent?.type === 'THREEDQUERY' && parent.threeds?.enrolled === 'Y' && parent.errorcode === '0') {
          return [
            {
              rule: '3DS-NEXT-Y',
              field: `request[${view.index}].parenttransactionreference`,
              severity: 'error' as const,
              message: `the parent THREEDQUERY ${parent.transactionreference} answered enrolled Y with errorcode 0: the next step is the ACS, then an AUTH with md and pares, not an AUTH on parenttransactionreference`,
            },
          ];
        }
        const query = token === undefined || parent !== undefined || view.types.includes('THREEDQUERY') ? undefined : tokens.get(token);
        if (query === undefined) return [];
        return [
          {
            rule: '3DS-NEXT-Y',
            field: `request[${view.index}].cachetoken`,
            severity: 'error' as const,
            message: `the cache token is the one the THREEDQUERY ${query} was sent with, answered enrolled Y with errorcode 0: the next step is the ACS, then an AUTH with md and pares, not an AUTH on the same payment details`,
          },
        ];
      });
    },
  },
  {
    on: 'answered',
    name: 'riskdec-parent-is-a-payment',
    rules: ['RISKDEC-AFTER-PAYMENT'],
    quote: "`parenttransactionreference` (the payment's reference)",
    run: (call, { ledger }) =>
      call.requests.flatMap((view) => {
        if (view.row?.id !== 'riskdec-after-payment') return [];
        const parent = parentOf(view, ledger);
        if (!parent || parent.type === 'AUTH') return [];
        return [
          {
            rule: 'RISKDEC-AFTER-PAYMENT',
            field: `request[${view.index}].parenttransactionreference`,
            severity: 'error' as const,
            message: `a risk decision after a payment names the payment's reference; ${parent.transactionreference} is a ${parent.type}`,
          },
        ];
      }),
  },
  {
    on: 'answered',
    name: 'deny-is-not-transacted',
    rules: ['RISKDEC-SHIELD-VALUES'],
    quote: '`DENY` (suspicious, do not transact)',
    // A payment sent on a risk decision that said DENY. The shield status "recommends accepting, investigating or
    // refusing a transaction": a recommendation, so a warning. In ["RISKDEC","AUTH"] the service itself acts on it
    // ("Authorised transactions are automatically suspended"), and a THREEDQUERY on it is answered 60107 (rule 5):
    // neither is the client's choice to transact.
    run: (call, { ledger }) =>
      call.requests.flatMap((view) => {
        if (!view.obj || !view.types.includes('AUTH') || view.types.includes('RISKDEC')) return [];
        const parent = parentOf(view, ledger);
        if (parent?.type !== 'RISKDEC' || parent.shield !== 'DENY') return [];
        return [
          {
            rule: 'RISKDEC-SHIELD-VALUES',
            field: `request[${view.index}].parenttransactionreference`,
            severity: 'warning' as const,
            message: `a payment on the risk decision ${parent.transactionreference}, which answered DENY: "suspicious, do not transact"`,
          },
        ];
      }),
  },
  {
    on: 'answered',
    name: 'payment-on-a-failed-payment',
    rules: ['ERR-NONZERO-FAILED'],
    quote: 'A non-zero code in a part means that part failed.',
    // A payment whose parent is a payment that failed (declined 70000, not authenticated 60022): it inherits the card
    // of a part that failed, an authentication that failed included. The document does not forbid it in so many
    // words, so a warning. Not judged: a RISKDEC on a declined AUTH (NOSCORE is documented for it), an AUTH on a
    // THREEDQUERY that failed (rule 1, "the merchant may run an ordinary AUTH").
    run: (call, { ledger }) =>
      call.requests.flatMap((view) => {
        const o = view.obj;
        if (!o || !view.types.includes('AUTH') || o.md !== undefined || o.pares !== undefined) return [];
        const parent = parentOf(view, ledger);
        if ((parent?.type !== 'AUTH' && parent?.type !== 'ACCOUNTCHECK') || parent.errorcode === '0' || parent.errorcode === '') return [];
        return [
          {
            rule: 'ERR-NONZERO-FAILED',
            field: `request[${view.index}].parenttransactionreference`,
            severity: 'warning' as const,
            message: `the parent ${parent.type} ${parent.transactionreference} failed (errorcode ${parent.errorcode}): a payment on it builds on a part that failed`,
          },
        ];
      }),
  },
  {
    on: 'answered',
    name: 'credentialsonfile-for-stored-credentials',
    gatewayAccepts: true,
    rules: ['FIELD-CREDENTIALSONFILE'],
    quote: 'It must also be sent as `1` when a new subscription uses previously stored credentials.',
    run: (call, { ledger }) =>
      call.requests.flatMap((view) => {
        const o = view.obj;
        if (!o || !view.types.includes('SUBSCRIPTION') || o.pan !== undefined || o.cachetoken !== undefined || o.credentialsonfile === '1' || !valuesPass(call, view)) return [];
        // The card comes from an earlier transaction: stored when one of its line is a STORE, or was sent with
        // credentialsonfile 1 ("`1` states that the submitted credentials are stored").
        const stored = [...lineage(ledger, parentOf(view, ledger))].find((r) => r.type === 'STORE' || r.fields.credentialsonfile === '1');
        if (!stored) return [];
        return [
          {
            rule: 'FIELD-CREDENTIALSONFILE',
            field: `request[${view.index}].credentialsonfile`,
            severity: 'error' as const,
            message: `a new subscription on previously stored credentials (${stored.type} ${stored.transactionreference}) must send credentialsonfile "1"`,
          },
        ];
      }),
  },
  {
    on: 'answered',
    name: 'amount-change-on-the-subscription',
    rules: ['SUB-AMOUNT-UPDATE'],
    quote: 'then sending a TRANSACTIONUPDATE with the SUBSCRIPTION reference and the new `baseamount`',
    // The AUTH part of an AUTH+SUBSCRIPTION is the first payment; when the SUBSCRIPTION part failed there is no
    // subscription at all ("A non-zero code in a part means that part failed"), only that AUTH (src/contract/recall.ts).
    run: (call, { ledger }) => {
      const failed = recallOf(ledger).failedSubscriptions;
      for (const view of call.requests) {
        if (view.types.join() !== 'AUTH,SUBSCRIPTION') continue;
        const [auth, sub] = view.parts;
        const ref = str(auth?.transactionreference);
        const code = str(sub?.errorcode);
        if (auth?.requesttypedescription === 'AUTH' && sub?.requesttypedescription === 'SUBSCRIPTION' && ref !== undefined && code !== undefined && code !== '0') remember(failed, ref, code);
      }
      return call.requests.flatMap((view) => {
        const o = view.obj;
        if (!o || view.types.join() !== 'TRANSACTIONUPDATE') return [];
        const updates = o.updates;
        if (typeof updates !== 'object' || updates === null || !('baseamount' in updates)) return [];
        const ref = filterReferences(o.filter)[0];
        const rec = ref === undefined ? undefined : ledger.get(ref);
        // The AUTH part of an AUTH+SUBSCRIPTION: the first payment, not the subscription.
        const sub = rec?.type === 'AUTH' ? ledger.children(rec.transactionreference).find((c) => c.type === 'SUBSCRIPTION') : undefined;
        const code = rec?.type === 'AUTH' ? failed.get(rec.transactionreference) : undefined;
        if (!sub && code !== undefined) {
          return [
            {
              rule: 'SUB-AMOUNT-UPDATE',
              field: `request[${view.index}].filter.transactionreference`,
              severity: 'error' as const,
              message: `the amount of a subscription is changed on the SUBSCRIPTION's reference; ${rec!.transactionreference} is the AUTH part of an AUTH+SUBSCRIPTION whose SUBSCRIPTION part failed (errorcode ${code}): no subscription was made`,
            },
          ];
        }
        if (!sub) return [];
        return [
          {
            rule: 'SUB-AMOUNT-UPDATE',
            field: `request[${view.index}].filter.transactionreference`,
            severity: 'error' as const,
            message: `the amount of a subscription is changed on the SUBSCRIPTION's reference (${sub.transactionreference}), not on the AUTH part's (${rec!.transactionreference})`,
          },
        ];
      });
    },
  },
  {
    on: 'answered',
    name: 'stored-card-states',
    rules: ['STORE-STATE-DISABLE', 'STORE-STATE-REENABLE'],
    quote: '| `1` | TRANSACTIONUPDATE | value `0` | `0` disabled for future requests | |',
    // A stored card is `1` enabled or `0` disabled (the Card store table; "`transactionactive` (`0` or `1`, default
    // `1`)"): an update of a STORE to another value, `2` (a subscription's pending) included, is neither transition.
    // Which fields an update may carry is not shown; this is the value of a field the table names for it.
    // And a request on a stored card that is `0`, "disabled for future requests" (the reference gateway refuses it,
    // 30000 naming parenttransactionreference): the client names a card the table says it may no longer use.
    run: (call, { ledger }) =>
      call.requests.flatMap((view) => {
        const o = view.obj;
        const parent = o && !view.types.some((t) => FOLLOW_UPS.has(t)) ? parentOf(view, ledger) : undefined;
        if (parent?.type === 'STORE' && parent.transactionactive === '0' && call.ctx.user.sites.includes(parent.sitereference)) {
          return [
            {
              rule: 'STORE-STATE-DISABLE',
              field: `request[${view.index}].parenttransactionreference`,
              severity: 'error' as const,
              message: `the stored card ${parent.transactionreference} was updated to transactionactive 0: "disabled for future requests"`,
            },
          ];
        }
        if (!o || view.types.join() !== 'TRANSACTIONUPDATE' || typeof o.updates !== 'object' || o.updates === null || Array.isArray(o.updates)) return [];
        const value = (o.updates as Record<string, unknown>).transactionactive;
        const at = `request[${view.index}].updates.transactionactive`;
        if (typeof value !== 'string' || value === '0' || value === '1' || call.schema.some((v) => v.field === at)) return [];
        const filter = readFilter(o.filter, FILTER_KEYS.TRANSACTIONUPDATE);
        const refs = filter instanceof Map ? (filter.get('transactionreference') ?? []) : [];
        return refs.flatMap((ref) => {
          const rec = ledger.get(ref);
          if (rec?.type !== 'STORE' || !call.ctx.user.sites.includes(rec.sitereference)) return [];
          const rule = rec.transactionactive === '0' ? 'STORE-STATE-REENABLE' : 'STORE-STATE-DISABLE';
          return [{ rule, field: at, severity: 'error' as const, message: `${at} is "${value}" on the stored card ${ref}: a stored card is updated to 0 (disabled) or 1 (enabled)` }];
        });
      }),
  },
  {
    on: 'answered',
    name: 'follow-up-shape',
    rules: ['SUB-UPDATE-SHAPE', 'STORE-QUERY-SHAPE'],
    quote: 'The exact payload and response shapes of TRANSACTIONUPDATE and TRANSACTIONQUERY, the updatable fields, and the list of request types that accept a stored-card reference: not shown.',
    // The shape is not shown, so never an error; but a follow-up the gateway refuses for its shape (the public one:
    // `filter` an object of lists of {"value": ...}, `updates` an object) is said, not passed over in silence. The
    // gateway's own reading of `filter` is used. A missing `filter` or `updates` is the row's finding.
    run: (call, { ledger }) =>
      call.requests.flatMap((view) => {
        const o = view.obj;
        const type = view.types.length === 1 ? view.types[0] : undefined;
        if (!o || (type !== 'TRANSACTIONUPDATE' && type !== 'TRANSACTIONQUERY')) return [];
        const rule = type === 'TRANSACTIONUPDATE' ? 'SUB-UPDATE-SHAPE' : 'STORE-QUERY-SHAPE';
        const at = `request[${view.index}].`;
        const warn = (field: string, message: string): Finding => ({ rule, field: at + field, severity: 'warning', message });
        const out: Finding[] = [];
        // What another check already says of the filter (a value that is not a string, too long, an empty filter) is
        // not said twice; the validator's `type` findings of its members are said by no other check.
        const said = call.schema.some((v) => v.field.startsWith(`${at}filter`) && v.rule !== 'type');
        if (o.filter !== undefined && !said) {
          const filter = readFilter(o.filter, FILTER_KEYS[type]);
          if (!(filter instanceof Map)) {
            const [key] = filter.errordata;
            out.push(
              warn(
                key === 'filter' ? 'filter' : `filter.${key}`,
                `filter is not in the public shape the reference gateway reads: an object of non-empty lists of {"value": "..."}, keys among ${FILTER_KEYS[type].join(', ')}, each value valid for its field (${key === 'filter' ? 'filter' : `filter.${key}`} is not; answered 30000; the shape is not shown)`,
              ),
            );
          } else if (type === 'TRANSACTIONUPDATE') {
            const refs = filter.get('transactionreference') ?? [];
            if (refs.length !== 1)
              out.push(
                warn('filter.transactionreference', `an update names the one transaction it changes: filter.transactionreference holds ${refs.length} (the reference gateway refuses it with 30000)`),
              );
            else {
              const rec = ledger.get(refs[0]);
              if (!rec || !call.ctx.user.sites.includes(rec.sitereference)) out.push(warn('filter.transactionreference', 'filter.transactionreference names no transaction of this account'));
            }
          }
        }
        if (type === 'TRANSACTIONUPDATE' && o.updates !== undefined && (typeof o.updates !== 'object' || o.updates === null || Array.isArray(o.updates) || Object.keys(o.updates).length === 0)) {
          out.push(warn('updates', 'updates is not in the public shape, an object of the fields to change (the shape is not shown; the reference gateway refuses it with 30000)'));
        }
        return out;
      }),
  },
  {
    on: 'answered',
    name: 'maestro-ecom-uses-3ds',
    rules: ['3DS-MAESTRO'],
    quote: 'E-commerce Maestro transactions must use 3-D Secure.',
    // The card's scheme is the one the service answered (`paymenttypedescription`); which numbers are Maestro is not
    // in the document, so this is a warning.
    run: (call, { ledger }) =>
      call.requests.flatMap((view) => {
        const o = view.obj;
        if (!o || !view.types.includes('AUTH') || o.md !== undefined || o.pares !== undefined) return [];
        const auth = view.parts.find((p) => p.requesttypedescription === 'AUTH');
        if (auth?.paymenttypedescription !== 'MAESTRO' || auth.accounttypedescription !== 'ECOM') return [];
        if (parentOf(view, ledger)?.type === 'THREEDQUERY') return [];
        return [{ rule: '3DS-MAESTRO', field: `request[${view.index}]`, severity: 'warning' as const, message: 'an e-commerce AUTH on a Maestro card without 3-D Secure (no THREEDQUERY before it)' }];
      }),
  },
  {
    on: 'answered',
    name: 'endpoint-path',
    rules: ['TRANSPORT-JSON-PATH'],
    quote: '| Method and path | `POST {base_url}/json/` |',
    // The gateway also answers `/json` (its leniency, docs/gateway.md), so a client that drops the slash keeps working
    // here; the document's path is `/json/`. The XML endpoint's address is not shown: never a finding.
    run: (call) =>
      call.format !== 'json' || call.path === '/json/'
        ? []
        : [{ rule: 'TRANSPORT-JSON-PATH', field: 'path', severity: 'error', message: `POST ${call.path.slice(0, 100)}: the document's path is {base_url}/json/, with the final slash` }],
  },
  {
    on: 'answered',
    name: 'accept-json',
    rules: ['TRANSPORT-HEADERS'],
    quote: '| Request headers | `Content-type: application/json`, `Accept: application/json`, and basic authentication (see Authentication). |',
    run: (call) => {
      // The XML form's headers are not in the document (public facts only): never a finding.
      if (call.format !== 'json') return [];
      const accept = call.headers.accept;
      if (accept === undefined) return [{ rule: 'TRANSPORT-HEADERS', field: 'header Accept', severity: 'warning', message: 'no Accept header; the document sends Accept: application/json' }];
      if (acceptsJson(accept)) return [];
      return [{ rule: 'TRANSPORT-HEADERS', field: 'header Accept', severity: 'error', message: 'the Accept header does not accept application/json, the form every answer comes in' }];
    },
  },
];

/** Whether an Accept header admits `application/json` (directly, `application/*` or `*\/*`, with a q above 0). */
export function acceptsJson(header: string): boolean {
  return header.split(',').some((range) => {
    const [type, ...params] = range.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) return false;
    return type === 'application/json' || type === 'application/*' || type === '*/*';
  });
}

/** Paths that are not the client's to call: the browser's ACS pages and the kit's own control calls. */
const NOT_THE_CLIENTS = /^\/(acs|_cardspec)(\/|$)/;

export const TRANSPORT_CHECKS: readonly TransportCheck[] = [
  {
    on: 'refused',
    name: 'basic-authentication',
    rules: ['SEC-BASIC-AUTH'],
    quote: 'Every call uses HTTP basic authentication: a user name and password, sent as `<USERNAME>:<PASSWORD>`.',
    run: (call) =>
      call.status !== 401
        ? []
        : [
            {
              rule: 'SEC-BASIC-AUTH',
              field: 'header Authorization',
              severity: 'error',
              message: 'no basic authentication of a configured user (no Authorization header, not Basic, or a wrong user name or password)',
            },
          ],
  },
  {
    on: 'refused',
    name: 'content-type',
    rules: ['TRANSPORT-HEADERS'],
    quote: '| Request headers | `Content-type: application/json`, `Accept: application/json`, and basic authentication (see Authentication). |',
    // The document names the JSON form's Content-type; a body compressed in a way the gateway does not read, or an XML
    // body in an encoding it does not decode, is not the document's to rule on: a warning, as the XML form's type is.
    run: (call) => {
      if (call.status !== 415 || NOT_THE_CLIENTS.test(call.path)) return [];
      const encoding = /Content-Encoding|encoding "/.test(call.reason);
      const field = /Content-Encoding/.test(call.reason) ? 'header Content-Encoding' : 'header Content-Type';
      return [{ rule: 'TRANSPORT-HEADERS', field, severity: call.format === 'json' && !encoding ? 'error' : 'warning', message: call.reason }];
    },
  },
  {
    on: 'refused',
    name: 'method-and-path',
    rules: ['TRANSPORT-JSON-PATH'],
    quote: '| Method and path | `POST {base_url}/json/` |',
    // HEAD and OPTIONS carry no operation (a health check, a CORS preflight): what a client asks beside the operations
    // is not the document's to rule on, a warning. Any other method or path is an operation sent astray: an error.
    run: (call) =>
      (call.status !== 404 && call.status !== 405) || NOT_THE_CLIENTS.test(call.path)
        ? []
        : [
            {
              rule: 'TRANSPORT-JSON-PATH',
              field: 'path',
              severity: call.method === 'HEAD' || call.method === 'OPTIONS' ? 'warning' : 'error',
              message: `${call.method} ${call.path.slice(0, 100)}: every operation is one POST to {base_url}/json/`,
            },
          ],
  },
  {
    on: 'refused',
    name: 'body-readable',
    rules: ['TRANSPORT-REQUEST-BODY'],
    quote: '| Request body | `{alias, version, request:[ {request object} ]}` |',
    // A body over cardspec's limit is a warning: "Rate limits and the maximum number of request objects per call: not shown".
    run: (call) =>
      (call.status !== 400 && call.status !== 413) || NOT_THE_CLIENTS.test(call.path)
        ? []
        : [{ rule: 'TRANSPORT-REQUEST-BODY', field: 'body', severity: call.status === 413 ? 'warning' : 'error', message: call.reason }],
  },
  {
    on: 'refused',
    name: 'headers-within-limit',
    rules: ['TRANSPORT-HEADERS'],
    quote: '| Request headers | `Content-type: application/json`, `Accept: application/json`, and basic authentication (see Authentication). |',
    // Request headers over the HTTP server's limit (a 431): the limit is not the document's, a warning.
    run: (call) => (call.status !== 431 ? [] : [{ rule: 'TRANSPORT-HEADERS', field: 'headers', severity: 'warning', message: call.reason }]),
  },
  {
    on: 'refused',
    name: 'merchant-to-acs',
    rules: ['ACS-MERCHANT-TO-ACS'],
    quote: "The customer's browser sends an HTTPS POST to `acsurl` with form fields `PaReq` (from `pareq`), `TermUrl` (the merchant's `termurl`) and `MD` (from `md`). These names are case sensitive.",
    // The form the merchant's page has the browser POST to `acsurl` (the ACS's own pages after it are not the
    // merchant's). A form encoding other than URL-encoding is not the document's to refuse: a warning.
    run: (call) => {
      if (!/^\/acs\/?$/.test(call.path) || (call.status !== 400 && call.status !== 405 && call.status !== 415)) return [];
      return [{ rule: 'ACS-MERCHANT-TO-ACS', field: 'acsurl form', severity: call.status === 415 ? 'warning' : 'error', message: `the ACS refused the merchant's form: ${call.reason}` }];
    },
  },
];

/**
 * The form the ACS accepted (what it refuses is merchant-to-acs'). The names and the pair are the ACS's to judge; the
 * TermUrl is the merchant's own address, which only the THREEDQUERY shows: the ACS would return the browser elsewhere.
 */
export const ACS_FORM_CHECKS: readonly AcsFormCheck[] = [
  {
    on: 'acs-form',
    name: 'termurl-is-the-merchants',
    rules: ['ACS-MERCHANT-TO-ACS'],
    quote: "`TermUrl` (the merchant's `termurl`)",
    run: (form, { ledger }) => {
      if (form.md === undefined || form.termUrl === undefined) return [];
      const query = ledger.threeDsBy(form.md, undefined);
      // A pair the ACS does not know is refused by it, and said by merchant-to-acs.
      if (query?.type !== 'THREEDQUERY' || query.threeds?.md !== form.md || query.threeds.pareq !== form.pareq) return [];
      const termurl = str(query.fields.termurl);
      if (termurl === undefined || termurl === form.termUrl) return [];
      return [
        {
          rule: 'ACS-MERCHANT-TO-ACS',
          field: 'acsurl form TermUrl',
          severity: 'error',
          message: `TermUrl is not the termurl the THREEDQUERY ${query.transactionreference} sent: the ACS returns the browser to the TermUrl of the form, which is the merchant's termurl`,
        },
      ];
    },
  },
];

export const CHECKS: readonly ContractCheck[] = [...REQUEST_CHECKS, ...TRANSPORT_CHECKS, ...ACS_FORM_CHECKS];
