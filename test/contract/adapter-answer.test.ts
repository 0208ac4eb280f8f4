/**
 * Reading an adapter's answer from its output (docs/contract.md, "The adapter protocol" 4): the last JSON line with
 * `parts` or `error`; other output, logs, is ignored, JSON log lines included.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adapterAnswer } from '../../src/cases/adapter';

const ANSWER = { parts: [{ requesttypedescription: 'AUTH', errorcode: '0' }], rawerrormessage: true };
const LOG = JSON.stringify({ level: 30, time: 1764028800000, msg: 'payment request complete' });

describe("the adapter's answer", () => {
  it('is the answer line, even when a structured logger prints JSON lines after it', () => {
    assert.deepEqual(adapterAnswer(`${LOG}\n${JSON.stringify(ANSWER)}\n${LOG}\n${LOG}\n`), ANSWER);
    assert.deepEqual(adapterAnswer(`${JSON.stringify({ error: 'declined' })}\n${LOG}\n`), { error: 'declined' });
  });

  it('is read from indented JSON followed by JSON log lines, with CRLF line ends and a byte order mark', () => {
    const pretty = JSON.stringify(ANSWER, null, 2).replace(/\n/g, '\r\n');
    assert.deepEqual(adapterAnswer(`\uFEFFsome log line\r\n${pretty}\r\n${LOG}\r\n`), ANSWER);
  });

  it('is, without any answer, the last JSON object printed (the case then says it has no "parts"), or none', () => {
    assert.deepEqual(adapterAnswer(`${LOG}\nplain text\n`), JSON.parse(LOG));
    assert.equal(adapterAnswer('plain text only\n[1, 2]\n'), undefined);
  });
});
