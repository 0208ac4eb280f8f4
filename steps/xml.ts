/**
 * Checks of the XML blocks as they travel, beyond what the mapping to the JSON form already checked: the root
 * names and version attributes, and where the document places fields (`/security/...`, `/fraudcontrol/...`,
 * `/@type`). They read the text of the exchange (masked; masking never touches element names or structure).
 */
import { defineParameterType, Then, type DataTable } from '@cucumber/cucumber';
import { XMLParser } from 'fast-xml-parser';
import type { CardspecWorld } from './world';
import { echoesToCheck } from './support';
import { FIELDS } from '../schemas/fields';

/** `` `/security/address` and `/@type` ``: element or attribute paths below a `request` or `response` element. */
defineParameterType({
  name: 'xmlpaths',
  regexp: /`\/[A-Za-z@/]+`(?:(?:,| and) `\/[A-Za-z@/]+`)*/,
  transformer: (s: string) => [...s.matchAll(/`([^`]+)`/g)].map((m) => m[1]),
});

// Attributes as `@name`, every value a string, nothing evaluated: the structure is all these steps need. Names
// are read without their namespace prefix, as src/wire/xml.ts reads them (`sp:responseblock` is `responseblock`).
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false, parseAttributeValue: false, processEntities: false, removeNSPrefix: true });

type Node = Record<string, unknown>;
const asList = (v: unknown): Node[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]).filter((x): x is Node => typeof x === 'object' && x !== null);

function parse(world: CardspecWorld, text: string, what: string): Node {
  try {
    return parser.parse(text) as Node;
  } catch (e) {
    return world.fail(`the ${what} is not well-formed XML: ${(e as Error).message.split('\n')[0]}`);
  }
}

/** Whether an element or attribute path exists below `node`; a text-only element counts as present. */
function has(node: Node, path: string): boolean {
  const segs = path.split('/').filter(Boolean);
  let current: unknown[] = [node];
  for (const seg of segs) {
    const next: unknown[] = [];
    for (const n of current) {
      if (typeof n !== 'object' || n === null) continue;
      const v = (n as Node)[seg];
      if (v === undefined) continue;
      next.push(...(Array.isArray(v) ? v : [v]));
    }
    if (next.length === 0) return false;
    current = next;
  }
  return true;
}

Then("the XML answer's root is {string} with the version {string}", function (this: CardspecWorld, root: string, version: string) {
  const doc = parse(this, this.last.exchange.responseText, 'answer');
  const roots = Object.keys(doc).filter((k) => !k.startsWith('?'));
  this.check(roots.length === 1 && roots[0] === root, `the XML answer's root is ${roots.join(', ') || 'missing'}; expected ${root}`);
  const v = asList(doc[root])[0]?.['@version'];
  this.check(v === version, `the XML answer's ${root} has version ${v === undefined ? 'absent' : JSON.stringify(v)}; expected "${version}"`);
});

Then("the XML request's root was {string} with the version {string}", function (this: CardspecWorld, root: string, version: string) {
  const doc = parse(this, this.last.exchange.requestText, 'request');
  const v = asList(doc[root])[0]?.['@version'];
  this.check(v === version, `the XML request block sent had no ${root} with version "${version}"`);
});

Then('the XML request held {xmlpaths}', function (this: CardspecWorld, paths: string[]) {
  const doc = parse(this, this.last.exchange.requestText, 'request');
  const block = asList(doc.requestblock)[0] ?? {};
  const missing = paths.filter((p) => !has(block, p));
  this.check(missing.length === 0, `the XML request block sent did not hold ${missing.join(', ')}`);
});

Then("the XML answer's {word} response holds {xmlpaths}", function (this: CardspecWorld, type: string, paths: string[]) {
  const doc = parse(this, this.last.exchange.responseText, 'answer');
  const responses = asList(asList(doc.responseblock)[0]?.response);
  const part = responses.find((r) => r['@type'] === type);
  if (!part) this.fail(`the XML answer has no response element with type="${type}" (requesttypedescription is the attribute /@type)`);
  const missing = paths.filter((p) => !has(part, p));
  this.check(missing.length === 0, `the ${type} response element does not hold ${missing.join(', ')}`);
});

/**
 * What the block carried reached the target: each field comes back in the answer as it was sent (the fields the
 * answer echoes: Common response fields). A target that reads the JSON form but misses an XML path (the amount's
 * `currencycode` attribute, `merchant/orderreference`) fails here, on the XML request block's rule.
 */
Then('{txn} echoes {fields} as the XML request block carried them', function (this: CardspecWorld, name: string, fields: string[]) {
  const { part, request } = this.entry(name);
  // An echo the part's type is not shown giving back, left out, says nothing of the block's reading (`mustEcho`).
  const wrong = echoesToCheck(this, name, fields).filter((f) => part[f] !== request[f]);
  const show = (v: unknown): string => (v === undefined ? 'absent' : JSON.stringify(v));
  this.check(
    wrong.length === 0,
    {
      message: `${name} does not answer what the XML request block carried: ${wrong.map((f) => `${f}: sent ${show(request[f])}, answered ${show(part[f])}`).join('; ')}`,
      field: wrong[0] ?? fields[0],
      expected: 'the value the request block carried',
      seen: wrong.map((f) => show(part[f])).join('; '),
    },
    'XML-REQUEST-BLOCK',
  );
});

/**
 * "In XML they sit at `/security/address`, `/security/postcode` and `/security/securitycode`": three different results
 * each read at its own place, as the answer's mapping read them (by the document's paths; the exchange's text masks a
 * `securitycode` element). A result found at another of these places is misplaced (XML-SECURITY-PATHS); one found
 * nowhere is a wrong result, the fault of its value's row (SEC-RESULT-4 for "4").
 */
Then("the XML answer's {word} response holds each security result at its own place:", function (this: CardspecWorld, type: string, table: DataTable) {
  const { part } = this.entry(`the ${type}`);
  const expected = table.raw().map(([path, value]) => {
    const field = FIELDS.find((d) => d.response?.xml === path.trim().slice(1))?.name;
    if (!field) this.fail(`${path.trim()} is no place the field dictionary gives a response field`);
    return { path: path.trim(), field, value: value.trim() };
  });
  const at = (field: string): unknown => part[field];
  const wrong = expected.find((e) => at(e.field) !== e.value);
  const elsewhere = wrong && expected.find((e) => e.path !== wrong.path && at(e.field) === wrong.value)?.path;
  const show = wrong === undefined || at(wrong.field) === undefined ? 'nothing' : JSON.stringify(at(wrong.field));
  this.check(
    wrong === undefined,
    {
      message: !wrong
        ? `the ${type} response holds each result at its place`
        : elsewhere
          ? `the ${type} response holds ${show} at ${wrong.path} and the result expected there, "${wrong.value}", at ${elsewhere}: the results are not where the document places them`
          : `the ${type} response holds ${show} at ${wrong.path}; expected "${wrong.value}"`,
      field: (wrong ?? expected[0]).field,
      expected: wrong ? `"${wrong.value}" at ${wrong.path}` : 'each result at its place',
      seen: show,
    },
    !wrong || elsewhere ? 'XML-SECURITY-PATHS' : `SEC-RESULT-${wrong.value}`,
  );
});
