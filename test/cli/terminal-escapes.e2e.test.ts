/**
 * A target's words reach the kit's console and Markdown reports (an errormessage, a reference, a field name):
 * escape sequences in them must not drive the terminal (clear it, hide a failure line with "conceal", retitle the
 * window) nor a lone carriage return overwrite the line it stands on. Every printed text goes through `redactText`
 * (src/redact.ts), which shows such characters as \uXXXX. Here against a real loopback target that answers with
 * them, through `cardspec run` and `cardspec fuzz`, and `cardspec validate` on a file holding them.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { redact, redactText } from '../../src/redact';
import { run as validate } from '../../src/cli/validate';
import { runCli, tempDir } from '../conformance/cli';
import { fuzz } from '../fuzz/run';
import { listenOnLoopback } from '../client/broken-servers';
import { captured } from '../console';

// eslint-disable-next-line no-control-regex -- what must not be printed
const RAW_CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]|\r(?!\n)/;

/** An envelope whose texts carry a clear-screen, a colour, "conceal", a window title and a lone CR. */
function hostileEnvelope(): string {
  return JSON.stringify({
    requestreference: 'A\u001b]0;pwned\u0007',
    version: '1.00',
    secrand: 'abcdefghijklmnop',
    response: [{ errorcode: '0', errormessage: 'Ok\u001b[2J\u001b[31m', requesttypedescription: 'ACCOUNTCHECK', transactionreference: '1-2-3\u001b[8m\rPASSED', settlestatus: '0' }],
  });
}

describe('text from a target cannot drive the terminal', () => {
  it('redactText shows control characters as \\uXXXX, keeps tabs and line ends; redact keeps a structure as it is', () => {
    assert.equal(redactText('a\u001b[2Jb\u0007c\u009bd\re\r\nf\tg\nh'), 'a\\u001b[2Jb\\u0007c\\u009bd\\u000de\r\nf\tg\nh');
    assert.deepEqual(redact({ errormessage: 'Ok\u001b[2J' }), { errormessage: 'Ok\u001b[2J' });
  });

  it('cardspec run and cardspec fuzz against a target answering escape sequences print none, nor write them to the summary', async () => {
    const server = await listenOnLoopback(
      http.createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end(hostileEnvelope());
        });
      }),
    );
    try {
      const r = await runCli(['--target', server.url, '--tags', '@rule:AUTH-AUTHORISE', '--verbose']);
      assert.equal(r.code, 1, r.out);
      assert.match(r.out, /seen Ok\\u001b\[2J\\u001b\[31m/);
      assert.doesNotMatch(r.out, RAW_CONTROL);
      assert.doesNotMatch(fs.readFileSync(path.join(r.reports, 'summary.md'), 'utf8'), RAW_CONTROL);

      const f = await fuzz(['--target', server.url, '--property', 'requests', '--runs', '10', '--max-time', '60']);
      assert.equal(f.code, 1, f.out + f.err);
      assert.match(f.out, /\\u001b/);
      assert.doesNotMatch(f.out + f.err, RAW_CONTROL);
    } finally {
      await server.close();
    }
  });

  it('cardspec validate prints a field name holding an escape sequence as \\u001b', async () => {
    const file = path.join(tempDir('escape'), 'request.json');
    fs.writeFileSync(file, '{"alias":"a","version":"1.00","request":[{"requesttypedescriptions":["ACCOUNTCHECK"],"x\\u001b[2J":1}]}');
    const { code, out } = await captured(() => validate([file]));
    assert.equal(code, 1, out);
    assert.match(out, /request\[0\]\.x\\u001b\[2J {2}unknown-field/);
    assert.doesNotMatch(out, RAW_CONTROL);
  });
});
