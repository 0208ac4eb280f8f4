/**
 * Which oracles a fuzz run uses: `--checks` (names of the built-in oracles, `all`, or modules of the user's own)
 * and `--exclude-checks` (names), as Schemathesis selects its checks. A module is a path (`./limits.js`,
 * `/abs/limits.ts`) exporting `oracles` (or `checks`, or a default export): an array of oracles of the same shape
 * as the built-in ones (src/fuzz/oracles.ts: name, rule, severity, checks, applies, check). A module's oracles always
 * run, beside the built-in ones named (all of them when none is); a bank's lower amount limit is such a module.
 */
import path from 'node:path';
import { RULE_ID } from '../rules/findings';
import { ORACLE, ORACLES, type Oracle } from './oracles';

/** A mistake in --checks or --exclude-checks, or a module that does not hold oracles: a usage error. */
export class ChecksError extends Error {}

/** Oracles loaded from users' modules, by name: the report reads their rule and severity here. */
export const USER_ORACLES = new Map<string, Oracle>();

const isModule = (item: string): boolean => /^\.{0,2}[\\/]/.test(item) || /\.(c|m)?[jt]s$/.test(item);

/** The oracles of a module, checked for the shape every oracle has. */
export function loadOracleModule(spec: string, cwd: string = process.cwd()): Oracle[] {
  const file = path.resolve(cwd, spec);
  let mod: Record<string, unknown>;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a user's module, named at run time
    mod = require(file) as Record<string, unknown>;
  } catch (e) {
    throw new ChecksError(`--checks ${spec}: the module could not be loaded (${(e as Error).message.split('\n')[0]})`);
  }
  const list = mod.oracles ?? mod.checks ?? mod.default;
  if (!Array.isArray(list) || list.length === 0) throw new ChecksError(`--checks ${spec}: the module exports no "oracles" array`);
  return list.map((o: unknown, i: number) => checkShape(o, `${spec} oracle ${i + 1}`));
}

function checkShape(o: unknown, where: string): Oracle {
  const x = (typeof o === 'object' && o !== null ? o : {}) as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof x.name !== 'string' || !/^[a-z0-9][a-z0-9-]*$/.test(x.name)) problems.push('"name" must be lower-case words joined by hyphens');
  else if (ORACLE[x.name]) problems.push(`"name" ${x.name} is a built-in oracle's`);
  if (typeof x.rule !== 'string' || !RULE_ID.test(x.rule)) problems.push('"rule" must be a rule ID such as BANK-AMOUNT-LIMIT');
  if (x.severity !== 'error' && x.severity !== 'warning') problems.push('"severity" must be "error" or "warning"');
  if (typeof x.checks !== 'string' || x.checks.length === 0) problems.push('"checks" must say in one line what it checks');
  if (typeof x.applies !== 'function') problems.push('"applies(run)" must be a function');
  if (typeof x.check !== 'function') problems.push('"check(run, ctx)" must be a function returning undefined or what is wrong');
  if (problems.length > 0) throw new ChecksError(`--checks ${where}: ${problems.join('; ')}`);
  return x as unknown as Oracle;
}

const list = (text: string | undefined): string[] =>
  (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * The oracles of a run. Without --checks: every built-in one. Names select built-in oracles; `all` is every
 * built-in one; modules add theirs (to every built-in one when no name is given). --exclude-checks removes
 * by name. Unknown names are refused with the list of known ones.
 */
export function selectOracles(checks: string | undefined, exclude: string | undefined, load: (spec: string) => Oracle[] = loadOracleModule): readonly Oracle[] {
  const items = list(checks);
  const loaded = items.filter(isModule).flatMap((spec) => load(spec));
  const byName = new Map<string, Oracle>([...ORACLES.map((o): [string, Oracle] => [o.name, o]), ...loaded.map((o): [string, Oracle] => [o.name, o])]);
  if (byName.size !== ORACLES.length + loaded.length) throw new ChecksError('--checks: two oracles have the same name');
  const names = items.filter((i) => !isModule(i));
  const known = (n: string): boolean => n === 'all' || byName.has(n);
  const unknown = [...names, ...list(exclude)].filter((n) => !known(n));
  if (unknown.length > 0) throw new ChecksError(`unknown check ${unknown.join(', ')}: the checks are ${[...byName.keys()].join(', ')}, or all (or a module: ./my-checks.js)`);
  let chosen: Oracle[] = names.length === 0 || names.includes('all') ? [...ORACLES] : [];
  for (const n of names) if (n !== 'all' && !chosen.includes(byName.get(n)!)) chosen.push(byName.get(n)!);
  // A module given is asked for: its oracles always run (with every built-in one when no name is given).
  chosen.push(...loaded.filter((o) => !chosen.includes(o)));
  const excluded = new Set(list(exclude));
  chosen = chosen.filter((o) => !excluded.has(o.name));
  if (chosen.length === 0) throw new ChecksError('--checks/--exclude-checks leave no oracle to run');
  for (const o of loaded) USER_ORACLES.set(o.name, o);
  return chosen;
}
