/**
 * Report rendering: a failure in a report is the target's cause without the kit's stack or local paths; a rule's
 * quote is rendered (a quoted table row is not left as raw pipes and backticks); descriptions are reflowed.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { cleanDetails, withoutLocalPaths } from '../../src/report/allure';
import { quoteHtml, quoteMarkdown, reflow } from '../../src/report/text';

const ROOT = path.join(__dirname, '..', '..');

describe('report rendering', () => {
  it("a failed check carries its cause, not the kit's stack trace", () => {
    const d = { message: '[FIELD-MASKEDPAN] the AUTH\'s maskedpan is "4111**1111"', trace: `Error: x\n    at CardspecWorld.expectRule (${ROOT}/steps/world.ts:230:11)` };
    cleanDetails(d);
    assert.equal(d.trace, undefined);
    assert.match(d.message, /^\[FIELD-MASKEDPAN\]/);
    const q = { message: '[FIELD-LENGTHS:billingemail] too long', trace: 'at x' };
    cleanDetails(q);
    assert.equal(q.trace, undefined, 'a rule qualified by its field names a rule too');
  });

  it("any other error keeps its trace, without the machine's paths", () => {
    const d = { message: `TypeError: boom in ${ROOT}/src/x.ts`, trace: `TypeError: boom\n    at f (${ROOT}/src/client/target.ts:1:2)\n    at g (file://${ROOT}/steps/world.ts:3:4)` };
    cleanDetails(d);
    assert.ok(!d.trace!.includes(ROOT) && !d.message.includes(ROOT), d.trace);
    assert.match(d.trace!, /at f \(src\/client\/target\.ts:1:2\)/);
    // Another machine's checkout, built so that this file holds no machine path itself.
    const elsewhere = path.posix.join('/', 'home', 'u', 'proj');
    assert.equal(withoutLocalPaths(`at h (${elsewhere}/node_modules/@cucumber/x.js:1:1)`), 'at h (node_modules/@cucumber/x.js:1:1)');
  });

  it('a quoted table row is rendered as its cells, inline code as code', () => {
    const row = '| Response | `response` | array of response objects | One per request type, in the order of `requesttypedescriptions`. |';
    assert.equal(quoteMarkdown(row), 'Response · `response` · array of response objects · One per request type, in the order of `requesttypedescriptions`.');
    assert.equal(quoteHtml(row), 'Response · <code>response</code> · array of response objects · One per request type, in the order of <code>requesttypedescriptions</code>.');
    assert.equal(quoteHtml('Amount <b> & `x`'), 'Amount &lt;b&gt; &amp; <code>x</code>');
    assert.equal(quoteMarkdown('A plain sentence.'), 'A plain sentence.');
  });

  it('descriptions written with hard line breaks are reflowed, paragraphs kept', () => {
    assert.equal(
      reflow('  "The number is the maximum length".\n  For every request field:\n  the longest value\n\n  Second paragraph\n  here.'),
      '"The number is the maximum length". For every request field: the longest value\n\nSecond paragraph here.',
    );
  });
});
