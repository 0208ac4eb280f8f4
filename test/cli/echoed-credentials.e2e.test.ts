/**
 * A target that echoes the basic-auth token it was sent (an error page, a debug body: "denied: dXNlcjpw...") must
 * not get the credentials into the kit's output: the token is the password, barely encoded (principle 4). Through
 * `cardspec run` (the preflight's message and the reports it leaves) and `cardspec fuzz` (its counterexamples),
 * against a real loopback target.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { runCli } from '../conformance/cli';
import { fuzz } from '../fuzz/run';
import { listenOnLoopback } from '../client/broken-servers';

const USER = 'echo@merchant.test';
const PASSWORD = 'Echo-Pa55word';
const TOKEN = Buffer.from(`${USER}:${PASSWORD}`).toString('base64');

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

describe('a target that echoes the basic-auth token', () => {
  it('never gets the token into the console, the reports or a counterexample', async () => {
    let echoed = 0;
    const server = await listenOnLoopback(
      http.createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          const token = (req.headers.authorization ?? '').split(' ')[1] ?? '';
          if (token === TOKEN) echoed += 1;
          res.writeHead(500, { 'Content-Type': 'text/plain' });
          res.end(`denied: ${token}`);
        });
      }),
    );
    try {
      const r = await runCli(['--target', server.url, '--user', USER, '--password', PASSWORD]);
      assert.equal(r.code, 2, r.out);
      assert.match(r.out, /HTTP 500, text\/plain\): "denied: \*\*\*"/);
      assert.ok(!r.out.includes(TOKEN), r.out);
      for (const file of filesUnder(r.reports)) assert.ok(!fs.readFileSync(file, 'utf8').includes(TOKEN), file);

      const f = await fuzz(['--target', server.url, '--user', USER, '--password', PASSWORD, '--property', 'requests', '--runs', '5', '--max-time', '60']);
      assert.equal(f.code, 1, f.out + f.err);
      assert.match(f.out, /denied: \*\*\*/);
      assert.ok(!(f.out + f.err).includes(TOKEN));
      assert.ok(echoed > 1, 'the target did echo the token');
    } finally {
      await server.close();
    }
  });
});
