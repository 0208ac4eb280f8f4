/**
 * The adapter as a process (`serve --client-cmd`): a case ends when the adapter ends, whatever it leaves behind. An
 * adapter that starts a helper in the background (a daemon, a log shipper, `setsid ... &`) leaves it holding the
 * output pipes, out of reach of the group kill; the case must neither wait for that helper (the run must end) nor
 * count it against the adapter (it answered and exited 0).
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { adapterAnswer, runAdapter } from '../../src/cases/adapter';

// A helper in its own session-like group (detached), holding the adapter's stdout and stderr; its pid goes to stderr
// so that the test can end it.
const HOLDER = `const h = require('node:child_process').spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120000)'], { detached: true, stdio: ['ignore', 'inherit', 'inherit'] }); h.unref(); process.stderr.write('holder ' + h.pid + '\\n');`;
const node = (script: string): string => `"${process.execPath}" -e ${JSON.stringify(script)}`;

const holders: number[] = [];
const remember = (stderr: string): void => {
  for (const m of stderr.matchAll(/holder (\d+)/g)) holders.push(Number(m[1]));
};
after(() => {
  for (const pid of holders) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
});

describe('an adapter that leaves a process behind', { timeout: 120_000 }, () => {
  it('answered and exited 0: its answer is read and the case is not timed out', async () => {
    const run = await runAdapter(node(`${HOLDER} process.stdout.write(JSON.stringify({ parts: [] }) + '\\n');`), {}, {}, 60_000);
    remember(run.stderr);
    assert.equal(holders.length, 1, run.stderr);
    assert.equal(run.timedOut, false);
    assert.equal(run.code, 0);
    assert.match(run.stdout, /\{"parts":\[\]\}/);
  });

  it('hung: it is killed at the time limit and the run ends, the helper still running', async () => {
    // The helper must be started before the limit, or there is nothing to outlive the adapter: two node starts take
    // 0.3-0.5 s on two busy cores, so a limit that came first is doubled and the case run again.
    let run: Awaited<ReturnType<typeof runAdapter>>;
    for (let limit = 1000; ; limit *= 2) {
      run = await runAdapter(node(`${HOLDER} setInterval(() => {}, 1000);`), {}, {}, limit);
      remember(run.stderr);
      if (/holder \d+/.test(run.stderr) || limit >= 8000) break;
    }
    const helper = Number(/holder (\d+)/.exec(run.stderr)?.[1]);
    assert.ok(helper > 0, `the adapter started no helper: ${run.stderr}`);
    assert.equal(run.timedOut, true);
    assert.notEqual(run.code, 0);
    const alive = ((): boolean => {
      try {
        process.kill(helper, 0);
        return true;
      } catch {
        return false;
      }
    })();
    assert.ok(alive, 'the helper outlived the adapter, so the run did not wait for it');
  });
});

describe("an adapter's output", { timeout: 30_000 }, () => {
  it('is read from its end: an answer after megabytes of debug log is found', async () => {
    const run = await runAdapter(node(`for (let i = 0; i < 20000; i++) console.log('DEBUG wire ' + 'x'.repeat(100)); console.log(JSON.stringify({ parts: [] }));`), {}, {}, 30_000);
    assert.equal(run.code, 0);
    assert.ok(run.stdout.length <= 1024 * 1024, `${run.stdout.length} characters kept`);
    assert.deepEqual(adapterAnswer(run.stdout), { parts: [] });
  });

  it('is decoded whole: a character whose bytes come in two writes is not broken', async () => {
    // "ë" is C3 AB in UTF-8: the two bytes are written apart, as a pipe may deliver them.
    const script = `process.stdout.write('{"parts":[{"billingfirstname":"Zo'); process.stdout.write(Buffer.from([0xc3])); setTimeout(() => { process.stdout.write(Buffer.from([0xab])); process.stdout.write('"}]}\\n'); }, 200);`;
    const run = await runAdapter(node(script), {}, {}, 30_000);
    assert.deepEqual(adapterAnswer(run.stdout), { parts: [{ billingfirstname: 'Zoë' }] });
  });
});
