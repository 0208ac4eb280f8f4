/**
 * `cardspec validate` as CI uses it: malformed bodies are findings (exit 1) naming what is wrong, a request type
 * that does not exist in `--requested` is a usage error (exit 2), and the output is capped (issue 18: an envelope of
 * 200,000 request objects printed a million lines).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { cardspec } from '../cli/spawn';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-findings-'));
const file = (name: string, text: string): string => {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
};

test('malformed envelopes are findings that name what is wrong (exit 1)', () => {
  const cases: [string, string, RegExp][] = [
    ['object.json', '{"foo":1}', /^alias {2}required .*\n.*^request {2}required /ms],
    ['list.json', '[1,2,3]', /^body {2}envelope {2}the body is a list/m],
    ['root.xml', '<requestBlock version="3.67"><request type="AUTH"/></requestBlock>', /root element is <requestBlock>; .*<requestblock> \(XML names are case-sensitive\)/],
    ['open.xml', '<requestblock version="3.67">\n<request type="AUTH"><alias>a', /<alias> \(opened at line 2, column 22\) is never closed/],
    ['doctype.xml', '<!DOCTYPE requestblock [<!ENTITY x "y">]><requestblock version="3.67"/>', /a DOCTYPE is not accepted/],
    ['v100.xml', '<requestblock version="1.00"><alias>a</alias><request type="AUTH"/></requestblock>', /version is "1\.00"; the document's is "3\.67"/],
  ];
  for (const [name, text, pattern] of cases) {
    const r = cardspec(['validate', file(name, text)]);
    assert.equal(r.code, 1, `${name}: ${r.stdout}${r.stderr}`);
    assert.match(r.stdout, pattern, name);
    assert.doesNotMatch(r.stdout, /Invalid '\[|found\.\./, "never the parser's own wording");
  }
});

test('--requested naming no request type is a usage error (exit 2); --max-findings caps the output, counts stay whole', () => {
  const resp = file('resp.json', '{"requestreference":"A1","version":"1.00","response":[],"secrand":"x"}');
  const bad = cardspec(['validate', '--requested', 'FOO', resp]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--requested 'FOO': not a request type/);
  const objects = Array.from({ length: 5000 }, () => ({ requesttypedescriptions: ['AUTH'], baseamount: 5 }));
  const big = file('big.json', JSON.stringify({ alias: 'a', version: '1.00', request: objects }));
  const capped = cardspec(['validate', '--max-findings', '5', big]);
  assert.equal(capped.code, 1);
  const lines = capped.stdout.trim().split('\n');
  assert.equal(lines.length, 7, capped.stdout);
  assert.match(lines[5], /^\.\.\. and \d+ more findings not printed \(--max-findings 5; 0 prints all\)$/);
  assert.match(capped.stdout, /request holds 5000 request objects: "One request object per call"/);
  assert.match(lines[6], /^invalid request \(json\): \d+ errors/);
  const byDefault = cardspec(['validate', big]);
  assert.equal(byDefault.stdout.trim().split('\n').length, 52);
});

test.after(() => fs.rmSync(dir, { recursive: true, force: true }));
