/**
 * The messages writer of a run (writeRedactedNdjson, src/report/files.ts): records masked and written a line each as
 * they come, in chunks of whole lines; the file is whole once closed; a record that cannot be written never throws
 * into the caller's event (cucumber's), and the failure is thrown by close, once.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { writeRedactedNdjson } from '../../src/report/files';

function inDir<T>(f: (dir: string) => T): T {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-ndjson-'));
  try {
    return f(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('the NDJSON writer of the reports', () => {
  it('writes every record, masked, a line each, through `finish` a chunk of whole lines at a time', () =>
    inDir((dir) => {
      const file = path.join(dir, 'sub', 'messages.ndjson');
      const chunks: string[] = [];
      const w = writeRedactedNdjson(file, (lines) => {
        chunks.push(lines);
        return lines.replace(/HERE/g, 'there');
      });
      const text = 'x'.repeat(10_000);
      for (let i = 0; i < 300; i++) w.write({ i, text, at: 'HERE', card: '4000000000000002' });
      w.close();
      const lines = fs.readFileSync(file, 'utf8').split('\n');
      assert.equal(lines.pop(), '');
      assert.equal(lines.length, 300);
      assert.deepEqual(JSON.parse(lines[299]), { i: 299, text, at: 'there', card: '400000######0002' });
      // Over 3 MB: more than one chunk, each ending at a line's end.
      assert.ok(chunks.length > 1);
      for (const c of chunks) assert.ok(c.endsWith('}\n'));
    }));

  it('a record that cannot be written: write goes on, close throws once, the file holds the records before it', () =>
    inDir((dir) => {
      const file = path.join(dir, 'messages.ndjson');
      const w = writeRedactedNdjson(file);
      w.write({ first: 1 });
      const loop: Record<string, unknown> = {};
      loop.self = loop;
      assert.doesNotThrow(() => w.write(loop));
      w.write({ after: 1 });
      assert.throws(() => w.close(), /could not write .*messages\.ndjson/);
      assert.doesNotThrow(() => w.close());
      assert.equal(fs.readFileSync(file, 'utf8'), '{"first":1}\n');
    }));
});
