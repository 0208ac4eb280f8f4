/**
 * A user's own checks without a fork (`cardspec run --features DIR --require FILE --rules FILE`): feature files
 * that use the kit's step library and World (target, masking, rule tags), step files of their own, and a rule
 * catalogue in the format of features/rules.yaml whose rules join the kit's, so that the matrix, the summary and
 * the JUnit file list them under their own IDs. A user rule may not reuse a kit ID: one ID, one sentence.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_CATALOGUE, loadCatalogue, type CatalogueRule } from '../rules/catalogue';

export class ExtensionError extends Error {}

export interface Extensions {
  /** Globs of the user's feature files (absolute). */
  readonly features: readonly string[];
  /** The user's step files (absolute). */
  readonly require: readonly string[];
  /** The user's rule catalogue (absolute), when given. */
  readonly rules?: string;
  /** The user's rules, read and checked. */
  readonly userRules: readonly CatalogueRule[];
}

function walk(dir: string, keep: (f: string) => boolean): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : walk(p, keep);
    return keep(e.name) ? [p] : [];
  });
}

function stat(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch {
    return undefined;
  }
}

/** Checks what the user gave and says what is wrong in plain words (an `ExtensionError`). */
export function readExtensions(given: { features?: readonly string[]; require?: readonly string[]; rules?: string }, cwd = process.cwd()): Extensions {
  const features: string[] = [];
  for (const f of given.features ?? []) {
    const abs = path.resolve(cwd, f);
    const s = stat(abs);
    if (!s) throw new ExtensionError(`--features ${f}: no such folder or file`);
    if (s.isFile()) {
      if (!abs.endsWith('.feature')) throw new ExtensionError(`--features ${f}: not a .feature file or a folder of them`);
      features.push(abs);
    } else {
      if (walk(abs, (n) => n.endsWith('.feature')).length === 0) throw new ExtensionError(`--features ${f}: no .feature file in it`);
      features.push(path.join(abs, '**', '*.feature'));
    }
  }
  const require: string[] = [];
  for (const r of given.require ?? []) {
    const abs = path.resolve(cwd, r);
    const s = stat(abs);
    if (!s) throw new ExtensionError(`--require ${r}: no such file or folder`);
    const code = (n: string): boolean => /\.(ts|js|cjs)$/.test(n) && !n.endsWith('.d.ts');
    if (s.isFile()) require.push(abs);
    else require.push(...walk(abs, code).sort());
  }
  let userRules: CatalogueRule[] = [];
  let rules: string | undefined;
  if (given.rules !== undefined) {
    rules = path.resolve(cwd, given.rules);
    const user = loadCatalogue(rules);
    if (user.problems.length > 0) throw new ExtensionError(`--rules ${given.rules}: ${user.problems.join('; ')}`);
    if (user.rules.length === 0) throw new ExtensionError(`--rules ${given.rules}: no rule in it`);
    const kit = new Set(loadCatalogue(DEFAULT_CATALOGUE).rules.map((r) => r.id));
    const taken = user.rules.filter((r) => kit.has(r.id)).map((r) => r.id);
    if (taken.length > 0)
      throw new ExtensionError(`--rules ${given.rules}: ${taken.join(', ')} ${taken.length === 1 ? 'is' : 'are'} the kit's own rule ID(s); give your rules IDs of their own (a prefix such as BANK-)`);
    userRules = user.rules;
  }
  if (features.length === 0 && (require.length > 0 || rules !== undefined)) {
    // Steps or rules without features of the user's still make sense (new steps for... nothing): say so plainly.
    if (require.length > 0) throw new ExtensionError('--require adds step files for your own features: give --features DIR too');
  }
  return { features, require, rules, userRules };
}

/** The kit's rules and the user's, as one catalogue file beside the reports (the catalogue the run was judged by). */
export function writeMergedCatalogue(ext: Extensions, dir: string): string | undefined {
  if (ext.userRules.length === 0) return undefined;
  const kit = loadCatalogue(DEFAULT_CATALOGUE).rules;
  const file = path.join(dir, 'rules.yaml');
  fs.mkdirSync(dir, { recursive: true });
  const header = `# The rule catalogue of this run: the kit's (features/rules.yaml) and ${path.basename(ext.rules ?? '')}'s.\n`;
  // Loaded here: a run without --rules (and a packed kit's catalogue, read from JSON) loads no YAML library.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { stringify } = require('yaml') as typeof import('yaml');
  fs.writeFileSync(file, header + stringify([...kit, ...ext.userRules], { lineWidth: 0 }));
  return file;
}
