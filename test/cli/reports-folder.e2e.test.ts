/**
 * `cardspec run --reports X` where X cannot be a folder (a file stands there, or above it) is told before anything
 * is sent, with what to do (exit 2); it used to run the whole suite first and end on node's "ENOTDIR: not a
 * directory, mkdir ...". Against a loopback target that counts what reaches it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { runCli, tempDir } from '../conformance/cli';
import { listenOnLoopback } from '../client/broken-servers';

describe('cardspec run: a reports folder that cannot be written', () => {
  for (const where of ['a file', 'a folder under a file'] as const) {
    it(`--reports naming ${where} exits 2 before any request, saying what to give`, async () => {
      let requests = 0;
      const server = await listenOnLoopback(
        http.createServer((req, res) => {
          requests += 1;
          req.resume();
          res.end('{}');
        }),
      );
      const file = path.join(tempDir('reports-file'), 'summary.md');
      fs.writeFileSync(file, 'not a folder');
      const reports = where === 'a file' ? file : path.join(file, 'sub');
      try {
        const r = await runCli(['--target', server.url, '--reports', reports]);
        assert.equal(r.code, 2, r.out);
        assert.match(r.out, /^cardspec run: cannot write the reports to .*: it, or a folder above it, is a file\. Give --reports a folder you can write to \(it is made if missing\)\.$/m);
        assert.equal(requests, 0, 'nothing was sent');
      } finally {
        await server.close();
      }
    });
  }
});
