/**
 * What an observer knows of the transactions it saw: the gateway's own Ledger (src/gateway/ledger.ts), filled from
 * the answers that went by instead of from a gateway's work. The contract's request checks (src/contract/checks.ts)
 * read a parent, an issued `md`, a subscription's line from a Ledger; giving them one built from observed traffic
 * is how the proxy reuses them unchanged. References are the upstream's own (any form: the ledger is made with a
 * `format`, so it keeps them by reference), and it is bounded the way the gateway's is (the window of `maxRecords`).
 *
 * Only what an answer said is held: the part's type, code and reference, the request's inheritable fields (own and inherited, never
 * the card number, the security code, md or pares), the 3-D Secure values the THREEDQUERY answered. No card data.
 */
import { REQUEST_TYPES, type RequestType } from '../../schemas/fields';
import { Ledger, DEFAULT_MAX_RECORDS } from '../gateway/ledger';
import type { SecurityResult, TxRecord } from '../gateway/transaction';
import type { Enrolment } from '../testdata';
import { NOT_INHERITED, passedOn } from '../wire/reading';
import type { RequestObject, ResponsePart } from '../wire/types';

const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);
const mdForm = (md: string): string => md.trim().toLowerCase();
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const isRequestType = (t: unknown): t is RequestType => typeof t === 'string' && (REQUEST_TYPES as readonly string[]).includes(t);

/** One request object and the parts that answered it. */
export interface AnsweredObject {
  readonly obj: RequestObject | undefined;
  readonly types: readonly string[];
  readonly parts: readonly ResponsePart[];
}

export class ObservedLedger {
  readonly ledger: Ledger;
  /** md as issued, by its form without case and surrounding space (bounded as the ledger's window). */
  private readonly mdForms = new Map<string, string>();
  private readonly maxForms: number;

  constructor(maxRecords: number = DEFAULT_MAX_RECORDS) {
    // The identity `format`: the ledger then keeps records by their reference, whatever form the upstream writes.
    this.ledger = new Ledger((standard) => standard, maxRecords);
    this.maxForms = maxRecords;
  }

  get(ref: string | undefined): TxRecord | undefined {
    return ref === undefined ? undefined : this.ledger.get(ref);
  }

  /** The THREEDQUERY that answered this `md` (or whose `pares` was seen), when it was observed. */
  threeDs(md: string | undefined, pares: string | undefined): TxRecord | undefined {
    return this.ledger.threeDsBy(md, pares);
  }

  /**
   * The THREEDQUERY whose md this one is but for letter case and surrounding space: an md changed on its way back
   * (the exact lookup finds nothing), still known as the answer to an observed THREEDQUERY.
   */
  threeDsLike(md: string): TxRecord | undefined {
    const issued = this.mdForms.get(mdForm(md));
    return issued === undefined ? undefined : this.threeDs(issued, undefined);
  }

  /** The parent a request object names, when it was observed: by `md`/`pares`, else by `parenttransactionreference`. */
  parentOf(obj: RequestObject | undefined): TxRecord | undefined {
    if (!obj) return undefined;
    const md = str(obj.md);
    const pares = str(obj.pares);
    if (md !== undefined || pares !== undefined) return this.threeDs(md, pares);
    return this.get(str(obj.parenttransactionreference));
  }

  /**
   * An AUTH with `md` and `pares` whose THREEDQUERY was observed but whose ACS round trip was not (the browser's
   * traffic went elsewhere): the PaRes the ACS returned is not known, so the one sent is taken as it. What cannot be
   * seen is not held against the client; the md is still compared with the one answered.
   */
  acceptUnseenPares(obj: RequestObject | undefined): void {
    const md = str(obj?.md);
    const pares = str(obj?.pares);
    if (md === undefined || pares === undefined) return;
    const rec = this.ledger.threeDsBy(md, undefined);
    if (!rec?.threeds || rec.threeds.pares !== undefined) return;
    this.ledger.change(rec.transactionreference, (r) => {
      r.threeds = { ...r.threeds!, pares };
    });
  }

  /** Records the transactions an answer made. */
  record(answered: readonly AnsweredObject[]): void {
    for (const { obj, types, parts } of answered) {
      if (!obj || types.length === 0 || types.includes('TRANSACTIONUPDATE') || types.includes('TRANSACTIONQUERY')) continue;
      const named = this.parentOf(obj);
      let previous: TxRecord | undefined;
      for (let i = 0; i < parts.length; i++) {
        const part = parts[i];
        const ref = str(part.transactionreference);
        if (ref === undefined) continue;
        const asked = types[i];
        const type = isRequestType(part.requesttypedescription) ? part.requesttypedescription : isRequestType(asked) ? asked : undefined;
        if (type === undefined) continue;
        // A later part of a combined request is based on the part before it (RISKDEC+AUTH, AUTH+SUBSCRIPTION).
        const parentRef = str(part.parenttransactionreference) ?? (i > 0 ? previous?.transactionreference : named?.transactionreference);
        const parent = parentRef === undefined ? undefined : (this.get(parentRef) ?? (previous?.transactionreference === parentRef ? previous : undefined));
        const fields: Record<string, string> = {};
        // Walked in place: every part of every exchange comes here.
        if (parent) for (const k in parent.fields) if (hasOwn(parent.fields, k) && passedOn(k, parent.type)) fields[k] = parent.fields[k];
        for (const k in obj) {
          const v = obj[k];
          if (hasOwn(obj, k) && typeof v === 'string' && v !== '' && !NOT_INHERITED.has(k)) fields[k] = v;
        }
        const enrolled = str(part.enrolled);
        const rec: TxRecord = {
          transactionreference: ref,
          seq: this.ledger.drawSequence(),
          type,
          sitereference: str(obj.sitereference) ?? parent?.sitereference ?? '',
          parent: parentRef,
          createdAt: str(part.transactionstartedtimestamp) ?? '',
          fields,
          securitycodeResult: (str(part.securityresponsesecuritycode) ?? '0') as SecurityResult,
          errorcode: str(part.errorcode) ?? '',
          // What the checks read of a record is above; the part itself is not kept (no answer text is held).
          part: { requesttypedescription: type, errorcode: str(part.errorcode) ?? '', transactionreference: ref },
          settlestatus: str(part.settlestatus),
          settleduedate: str(part.settleduedate),
          transactionactive: str(part.transactionactive),
          threeds: type === 'THREEDQUERY' && enrolled !== undefined ? { enrolled: enrolled as Enrolment, xid: str(part.xid) ?? '', md: str(part.md), pareq: str(part.pareq) } : undefined,
          shield: str(part.fraudcontrolshieldstatuscode) as TxRecord['shield'],
        };
        this.ledger.store(rec);
        if (rec.threeds?.md !== undefined) {
          if (this.mdForms.size >= this.maxForms) this.mdForms.delete(this.mdForms.keys().next().value as string);
          this.mdForms.set(mdForm(rec.threeds.md), rec.threeds.md);
        }
        previous = rec;
      }
    }
  }
}
