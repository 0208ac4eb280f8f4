/**
 * features/field-boundaries.feature, written from the boundary cases (./cases.ts): one Scenario Outline per row of
 * the Request types table, one Examples block per field and rule, so that each example is tagged with the rule it
 * checks, qualified by the field. `npm run boundaries` writes the file; test/boundary keeps it current.
 */
import { OPERATION } from '../../schemas/operations';
import { BOUNDARY_ROWS, boundaryCases, type BoundaryCase } from './cases';
import { responseCases } from './responses';
import { mustEcho } from '../validate';

export const BOUNDARY_FEATURE = 'features/field-boundaries.feature';

const cell = (s: string): string => s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|');

export function boundaryFeature(): string {
  const cases = boundaryCases();
  const out: string[] = [
    '# Written by `npm run boundaries` from schemas/fields.ts and schemas/operations.ts (src/boundary): do not edit.',
    '# Resources and their fields (types, lengths, value lists, formats); Limits, 1; Endpoints > Request types.',
    '@phase:boundary',
    'Feature: Field boundaries',
    '  "The number is the maximum length, unless a range is given." For every request field each operation carries:',
    '  the longest value is taken and one longer refused, a value with a character outside its type class refused,',
    '  each listed value taken and an unlisted one refused, a malformed date, URL or email refused; a required field',
    '  left out refused, a recommended one taken. Where the document names no error code the kit checks only that',
    '  the part failed (THREEDQUERY: 30000, "Invalid field").',
  ];
  for (const r of BOUNDARY_ROWS) {
    const row = OPERATION[r.id];
    const mine = cases.filter((c) => c.row === r.id);
    if (mine.length === 0) continue;
    const tags = [...(r.requires ?? []).map((q) => `@requires:${q}`), ...[...new Set(row.requesttypes)].map((t) => `@type:${t}`)];
    const source = r.cachetoken ? 'with a cache token for the "authorised" card' : 'with the "authorised" card';
    out.push('', `  ${tags.join(' ')}`, `  Scenario Outline: ${row.title}: <field> <case>`);
    out.push(`    When the merchant sends "${row.title}" ${source}, <field> "<case>"`);
    out.push('    Then <field> "<case>" is <outcome>');
    const groups = new Map<string, BoundaryCase[]>();
    for (const c of mine) {
      const key = `${c.field} ${c.rule} ${c.jsonOnly ? 'json' : ''}`;
      groups.set(key, [...(groups.get(key) ?? []), c]);
    }
    for (const group of groups.values()) {
      const g = group[0];
      const width = Math.max(5, ...group.map((c) => cell(c.label).length + 2));
      out.push('', `    ${[g.rule, ...(g.alsoRules ?? [])].map((r) => `@rule:${r}`).join(' ')}${g.jsonOnly ? ' @format:json' : ''}`, '    Examples:');
      out.push(`      | field${' '.repeat(Math.max(0, g.field.length - 5))} | ${'case'.padEnd(width)} | outcome  |`);
      for (const c of group) {
        out.push(`      | ${g.field.padEnd(5)} | ${cell(c.label).padEnd(width)} | ${(c.expect === 'takes' ? 'taken' : 'refused').padEnd(8)} |`);
      }
    }
  }
  // ---- the answers: every response field a row's answer carries, in its documented form.
  const answers = responseCases();
  for (const r of BOUNDARY_ROWS) {
    const row = OPERATION[r.id];
    const mine = answers.filter((c) => c.row === r.id);
    if (mine.length === 0) continue;
    const tags = [...(r.requires ?? []).map((q) => `@requires:${q}`), ...[...new Set(row.requesttypes)].map((t) => `@type:${t}`)];
    const source = r.cachetoken ? 'with a cache token for the "authorised" card' : 'with the "authorised" card';
    out.push('', `  ${tags.join(' ')}`, `  Scenario Outline: ${row.title}: the <type> part's <field> is in its documented form`);
    out.push(`    When the merchant has the answer to "${row.title}" ${source}`);
    out.push("    Then the <type> part's <field> is in its documented form");
    for (const c of mine) {
      out.push('', `    @rule:${c.rule}`, '    Examples:', `      | type | field |`, `      | ${c.type} | ${c.field} |`);
    }
    const held = mine.filter((c) => c.presence);
    if (held.length === 0) continue;
    out.push('', `  ${tags.join(' ')}`, `  Scenario Outline: ${row.title}: the <type> part holds <field>`);
    out.push(`    When the merchant has the answer to "${row.title}" ${source}`);
    out.push('    Then the <type> part holds <field>');
    for (const c of held) {
      // An echo whose XML location is cardspec's choice is required of the JSON answer only (`mustEcho`).
      const jsonOnly = c.presence!.startsWith('FIELD-ECHO:') && mustEcho(c.type, c.field, 'json') && !mustEcho(c.type, c.field, 'xml');
      out.push('', `    @rule:${c.presence}${jsonOnly ? ' @format:json' : ''}`, '    Examples:', `      | type | field |`, `      | ${c.type} | ${c.field} |`);
    }
  }
  return out.join('\n') + '\n';
}
