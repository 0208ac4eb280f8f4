/**
 * One step's answers in the two forms, compared after mapping. "The same operations are also offered as an XML
 * request block": a step that runs in both formats sends the same request object twice (once per run of the suite)
 * and must be answered with the same values, wherever the XML mapping (src/wire/xml*.ts) reads them from. A value
 * that is trimmed, reformatted, read from another element or swapped with another in one form only differs here,
 * even where each answer alone has a valid form.
 *
 * The two runs are two series of transactions against one target, made at different times, so some values differ
 * by nature: what the kit made fresh for each run (an order reference, a cache token, a date counted from the
 * target's clock) and what the target generates per transaction (references, timestamps, 3-D Secure values). They
 * are compared by where they came from, not by their text: each run's own value is given a name (the request field
 * it was sent in, the answer field that generated it) and an answer's value that is one of them is read as that
 * name, in each form. So an echo of the run's order reference is "the order reference sent" in both forms, a
 * parent reference is "the transactionreference of the first answer" in both, and a value that names something
 * else (a reference swapped with its parent's, an order reference cut short) differs. Which generated fields may
 * differ is `GENERATED`, each with the document's words that make it per transaction.
 */
import { FIELD } from '../../schemas/fields';
import { OPERATIONS } from '../../schemas/operations';
import type { RequestObject, ResponsePart } from './types';

/** One call of a step: the request object sent and the parts of its answer (JSON form, XML mapped). */
export interface TwinCall {
  readonly request: RequestObject;
  readonly parts: readonly ResponsePart[];
}

/** A response field whose value the target generates per transaction: it may differ between the two runs. */
export interface Generated {
  readonly field: string;
  /** The document's words that make it per transaction (or per call, or per moment). */
  readonly quote: string;
}

/**
 * The answer fields that legitimately differ between the two forms' runs, with the document's words. A value of
 * these is still compared by where it came from: one that names another transaction's value in one form only (a
 * reference that is its parent's) differs.
 */
export const GENERATED: readonly Generated[] = [
  { field: 'transactionreference', quote: 'It identifies the transaction and is the value used as `parenttransactionreference` later.' },
  { field: 'transactionstartedtimestamp', quote: 'Format `YYYY-MM-DD HH:MM:SS`.' },
  { field: 'settleduedate', quote: 'Format `YYYY-MM-DD`.' },
  { field: 'xid', quote: 'Transaction identifier assigned by the service acting as the merchant plug-in.' },
  { field: 'md', quote: '3-D Secure reference of the transaction.' },
  { field: 'pareq', quote: 'Authentication request, returned only for enrolled cards.' },
  { field: 'acsurl', quote: 'ACS address; returned only for enrolled cards.' },
  { field: 'cavv', quote: 'Returned if enrolled and authenticated.' },
  { field: 'authcode', quote: 'Bank authorisation code and bank response code; present when the bank was contacted.' },
  { field: 'fraudcontrolreference', quote: 'Unique reference of the check.' },
];

const GENERATED_FIELDS: ReadonlySet<string> = new Set(GENERATED.map((g) => g.field));

/**
 * Only what the document defines is compared: where it says "not shown" the kit never fails a target. A part of a
 * request type whose shape is not shown (TRANSACTIONQUERY, TRANSACTIONUPDATE: "shape not shown") and a field the
 * document does not name in an answer (one of public facts, such as `errordata`, or one of the target's own) may
 * differ between the forms.
 */
const SHAPE_NOT_SHOWN: ReadonlySet<string> = new Set(OPERATIONS.filter((o) => o.publicShape).flatMap((o) => o.requesttypes));

function documentedAnswerField(path: string): boolean {
  const def = FIELD[path.split(/[.[]/)[0]];
  return def !== undefined && def.response !== undefined && def.source !== 'public-facts';
}

/** Where the two answers of one call differ. `path` is the part's field path (`maskedpan`, `records[0].baseamount`). */
export interface TwinDifference {
  /** The call's index within the step sequence of the scenario. */
  readonly call: number;
  readonly part: number;
  /** The part's request type (the first run's), when it names one. */
  readonly partType?: string;
  /** The part's errorcode in the first run. */
  readonly errorcode?: string;
  readonly path: string;
  /** The field's own name: the last name of `path`. */
  readonly field: string;
  /** The value in each form, as read (undefined: not returned). */
  readonly first?: string;
  readonly second?: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The leaves of a value: path -> text. Empty and null values are not returned (src/wire/reading.ts, readAnswer). */
function leaves(value: unknown, prefix: string, out: Map<string, string>): Map<string, string> {
  if (value === undefined || value === null || value === '') return out;
  if (Array.isArray(value)) value.forEach((v, i) => leaves(v, `${prefix}[${i}]`, out));
  else if (isRecord(value)) for (const [k, v] of Object.entries(value)) leaves(v, prefix ? `${prefix}.${k}` : k, out);
  else out.set(prefix, typeof value === 'string' ? value : JSON.stringify(value));
  return out;
}

const leafName = (path: string): string => {
  const names = path.split(/[.[\]]/).filter((s) => s !== '' && !/^\d+$/.test(s));
  return names[names.length - 1] ?? path;
};

/** Each run's own values, by the name of where they came from (the same name in both runs). */
class Names {
  private readonly first = new Map<string, string>();
  private readonly second = new Map<string, string>();

  /** Names a pair of values (the first run's, the second's) unless either already has a name. */
  add(name: string, a: string | undefined, b: string | undefined): void {
    if (a !== undefined && !this.first.has(a)) this.first.set(a, name);
    if (b !== undefined && !this.second.has(b)) this.second.set(b, name);
  }

  nameOf(side: 'first' | 'second', value: string): string | undefined {
    return (side === 'first' ? this.first : this.second).get(value);
  }
}

/**
 * Two requests are the same step when they hold the same fields; the values the two runs made differently (an
 * order reference, a cache token, a parent reference, a date from the target's clock) must then be values each
 * run made, named alike. False: not the same request (a step that built another request in the other run).
 */
function sameRequest(call: number, a: RequestObject, b: RequestObject, names: Names): boolean {
  const la = leaves(a, '', new Map());
  const lb = leaves(b, '', new Map());
  if (la.size !== lb.size || [...la.keys()].some((k) => !lb.has(k))) return false;
  for (const [path, va] of la) {
    const vb = lb.get(path)!;
    if (va === vb) continue;
    const na = names.nameOf('first', va);
    const nb = names.nameOf('second', vb);
    // A value taken from an earlier answer (a parent reference) must be the same earlier value in both runs.
    if (na !== undefined || nb !== undefined) {
      if (na !== nb) return false;
      continue;
    }
    names.add(`the ${path} sent in call ${call + 1}`, va, vb);
  }
  return true;
}

/**
 * The differences between the answers of the same steps in two runs (the first run's calls and the second's, in
 * the order the scenario made them; `undefined` for a call not compared, an answer that was no envelope or a
 * refusal). Calls whose requests are not the same step end the comparison: what follows is not the same sequence.
 */
export function compareTwins(first: readonly (TwinCall | undefined)[], second: readonly (TwinCall | undefined)[]): TwinDifference[] {
  const names = new Names();
  const out: TwinDifference[] = [];
  const calls = Math.min(first.length, second.length);
  for (let c = 0; c < calls; c++) {
    const a = first[c];
    const b = second[c];
    if (!a || !b) continue;
    if (!sameRequest(c, a.request, b.request, names)) break;
    // An answer's value that is a value of the request is read as that request field (an echo): named alike.
    const reqA = leaves(a.request, '', new Map());
    const reqB = leaves(b.request, '', new Map());
    for (const [path, va] of reqA) names.add(`the ${path} sent in call ${c + 1}`, va, reqB.get(path));
    const parts = Math.max(a.parts.length, b.parts.length);
    for (let p = 0; p < parts; p++) {
      const la = leaves(a.parts[p], '', new Map());
      const lb = leaves(b.parts[p], '', new Map());
      const partType = typeof a.parts[p]?.requesttypedescription === 'string' ? (a.parts[p].requesttypedescription as string) : undefined;
      const errorcode = typeof a.parts[p]?.errorcode === 'string' ? (a.parts[p].errorcode as string) : undefined;
      const generatedHere: [string, string | undefined, string | undefined][] = [];
      if (partType !== undefined && SHAPE_NOT_SHOWN.has(partType)) continue;
      for (const path of new Set([...la.keys(), ...lb.keys()])) {
        if (!documentedAnswerField(path)) continue;
        const va = la.get(path);
        const vb = lb.get(path);
        const field = leafName(path);
        if (va === vb) continue;
        const na = va === undefined ? undefined : names.nameOf('first', va);
        const nb = vb === undefined ? undefined : names.nameOf('second', vb);
        if (na !== undefined && na === nb) continue;
        // A fresh value in both runs of a field the target makes per transaction: the two transactions' own.
        if (GENERATED_FIELDS.has(field) && va !== undefined && vb !== undefined && na === undefined && nb === undefined) {
          generatedHere.push([`the ${path} of part ${p + 1} of answer ${c + 1}`, va, vb]);
          continue;
        }
        out.push({
          call: c,
          part: p,
          ...(partType ? { partType } : {}),
          ...(errorcode !== undefined ? { errorcode } : {}),
          path,
          field,
          ...(va !== undefined ? { first: va } : {}),
          ...(vb !== undefined ? { second: vb } : {}),
        });
      }
      // Named after the part is read, so that a part's own values do not name each other.
      for (const [name, va, vb] of generatedHere) names.add(name, va, vb);
    }
  }
  return out;
}
