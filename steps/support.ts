/**
 * The words the features use, as parameter types, and the one helper that lets a request step take an optional
 * table of fields. Kept apart from the steps so that a reader of the steps sees only the document's flows.
 */
import { defineParameterType, When, type DataTable } from '@cucumber/cucumber';
import { REQUEST_TYPES } from '../schemas/fields';
import { CARD_ROLES, SECURITY_CHECKED_FIELDS, type CardRole, type ProfileCard, type SecurityCheckedField } from '../src/client/profile';
import { addToDate } from '../src/client/requests';
import { CHANGES } from '../src/suite/changes';
import { ECHOED_FIELDS } from '../schemas/operations';
import { mustEcho } from '../src/validate';
import { ScenarioSkipped, type CardspecWorld } from './world';

/** `the THREEDQUERY`, `the AUTH`, `the first AUTH`: a transaction among the scenario's named parts. */
defineParameterType({
  name: 'txn',
  regexp: new RegExp(`the (?:[a-z]+ )?(?:${REQUEST_TYPES.join('|')})`),
  transformer: (s: string) => s,
});

/** `"not enrolled" card` (after "the"): a test card of the profile, by the outcome the document describes. */
defineParameterType({
  name: 'card',
  regexp: /"([^"]+)" card/,
  transformer: (phrase: string): CardRole => {
    const role = (Object.keys(CARD_ROLES) as CardRole[]).find((r) => CARD_ROLES[r].phrase === phrase);
    if (!role)
      throw new Error(
        `no test card "${phrase}"; the cards are: ${Object.values(CARD_ROLES)
          .map((r) => `"${r.phrase}"`)
          .join(', ')}`,
      );
    return role;
  },
});

/** `` `enrolled`, `xid` and `acsurl` ``: field names, written as the document writes them. */
defineParameterType({
  name: 'fields',
  regexp: /`[a-z0-9]+`(?:(?:,| and| or) `[a-z0-9]+`)*/,
  transformer: (s: string) => [...s.matchAll(/`([a-z0-9]+)`/g)].map((m) => m[1]),
});

/** `AUTH, then SUBSCRIPTION`: request types in order, as the Request types table writes them. */
defineParameterType({
  name: 'types',
  regexp: new RegExp(`(?:${REQUEST_TYPES.join('|')})(?:, then (?:${REQUEST_TYPES.join('|')}))*`),
  transformer: (s: string) => s.split(', then '),
});

/** `cut by its last character`, `with a trailing space`: how a scenario changes a value named exactly (src/suite/changes.ts). */
defineParameterType({
  name: 'change',
  regexp: new RegExp(Object.keys(CHANGES).join('|')),
  transformer: (s: string) => s,
});

/** `user name`, `password`: the credentials of basic authentication. */
defineParameterType({ name: 'credential', regexp: /user name|password/, transformer: (s: string) => s });

/** The profile's card for a role; a scenario that needs a card the profile lacks is skipped before it gets here. */
export function cardOf(world: CardspecWorld, role: CardRole): ProfileCard {
  const card = world.profile.cards[role];
  if (!card) world.fail(`the profile "${world.profile.name}" has no "${CARD_ROLES[role].phrase}" card: tag the scenario @requires:card:${role}`);
  return card;
}

const RESULT_WORDS = { matched: 'matched', 'not matched': 'notMatched', 'not checked': 'notChecked' } as const;

/**
 * The fields of a table, with its few placeholders resolved:
 * `<omit>` leaves the field out; `<today>`, `<today + 2 days>`, `<today + 1 month>` are dates counted from the
 * target's clock; `<matched>`, `<not matched>`, `<not checked>` are the profile's triggers of that security check
 * result for the field (`<not given>` leaves the field out: "the bank was not given the data for the check");
 * `<256 x A>` is 256 times the character `A` (for length limits).
 */
export async function tableFields(world: CardspecWorld, table: DataTable | undefined): Promise<Record<string, string | undefined>> {
  const out: Record<string, string | undefined> = {};
  if (!table) return out;
  let today: string | undefined;
  for (const [field, raw] of table.raw()) {
    const value = raw.trim();
    const date = /^<today(?: ([+-]) (\d+) (day|days|month|months))?>$/.exec(value);
    if (value === '<omit>' || value === '<not given>') out[field] = undefined;
    else if (date) {
      today ??= await world.today();
      out[field] = date[1] ? addToDate(today, Number(date[2]) * (date[1] === '-' ? -1 : 1), date[3].startsWith('day') ? 'day' : 'month') : today;
    } else if (/^<(matched|not matched|not checked)>$/.test(value)) {
      const which = RESULT_WORDS[value.slice(1, -1) as keyof typeof RESULT_WORDS];
      if (!(SECURITY_CHECKED_FIELDS as readonly string[]).includes(field)) world.fail(`${value} applies to ${SECURITY_CHECKED_FIELDS.join(', ')} only, not ${field}`);
      const triggers = world.profile.security;
      if (!triggers) world.fail(`the profile "${world.profile.name}" lists no security check triggers: tag the scenario @requires:security`);
      out[field] = triggers[field as SecurityCheckedField][which];
    } else if (/^<\d+ x .>$/.test(value)) {
      const [count, char] = value.slice(1, -1).split(' x ');
      out[field] = char.repeat(Number(count));
    } else if (/^<.*>$/.test(value)) {
      world.fail(`unknown placeholder ${value} for ${field} (known: <omit>, <today>, <today + N days>, <today + N months>, <matched>, <not matched>, <not checked>, <not given>, <N x c>)`);
    } else out[field] = value;
  }
  return out;
}

type StepImpl = (this: CardspecWorld, args: unknown[], table: DataTable | undefined, name: string | undefined) => Promise<unknown>;

/** Cucumber checks a step function's declared length against the step's parameters; a wrapper must keep it. */
function withLength<F extends (...args: never[]) => unknown>(length: number, fn: F): F {
  Object.defineProperty(fn, 'length', { value: length });
  return fn;
}

/**
 * A request step, in four forms: `<expression>`; `<expression> as {txn}`, naming the transaction ("as the second
 * AUTH") when the scenario needs two of a kind; and either of them followed by ` and:` and a table of fields
 * (`| transactionactive | 1 |`). All reach `impl`, with the table and the name `undefined` when not given.
 */
export function requestStep(expression: string, impl: StepImpl): void {
  const params = (expression.match(/\{[a-z]+\}/g) ?? []).length;
  for (const named of [false, true]) {
    const base = named ? `${expression} as {txn}` : expression;
    const n = params + (named ? 1 : 0);
    When(
      base,
      withLength(n, function (this: CardspecWorld, ...all: unknown[]) {
        // Cucumber appends a callback to every call; the step's own arguments are the first n.
        const args = all.slice(0, n);
        const name = named ? (args.pop() as string) : undefined;
        return impl.call(this, args, undefined, name);
      }),
    );
    When(
      `${base} and:`,
      withLength(n + 1, function (this: CardspecWorld, ...all: unknown[]) {
        const args = all.slice(0, n + 1);
        const table = args.pop() as DataTable;
        const name = named ? (args.pop() as string) : undefined;
        return impl.call(this, args, table, name);
      }),
    );
  }
}

/**
 * The fields of an echo step to hold the part to: those it carries, and those left out that its type must give back
 * (`mustEcho`) or that are no echo of the Common response fields. None of them: nothing to check, a skip.
 */
export function echoesToCheck(world: CardspecWorld, name: string, fields: readonly string[]): string[] {
  const { part } = world.entry(name);
  const type = String(part.requesttypedescription);
  const checked = fields.filter((f) => part[f] !== undefined || !ECHOED_FIELDS.includes(f) || mustEcho(type, f, world.format));
  if (checked.length === 0) throw new ScenarioSkipped(`${name} gives back none of ${fields.join(', ')}, and the document does not show a ${type} part giving them back: no echo to check`);
  return checked;
}
