/**
 * The environment an adapter starts in is the command's (`serve`'s io.env, through runClientCases' `env`), the
 * case's variables added: a script that runs the client cases with an environment of its own gives the adapter
 * that one, not the test process's.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runAdapter } from '../../src/cases/adapter';

const SCRIPT = `process.stdout.write(JSON.stringify({ given: process.env.FROM_IO ?? null, kase: process.env.FROM_CASE ?? null, home: process.env.HOME ?? null }))`;
const command = `"${process.execPath}" -e ${JSON.stringify(SCRIPT)}`;

describe('the adapter environment', () => {
  it('is the base given, with the case variables added, and nothing of the process beyond it', async () => {
    const run = await runAdapter(command, {}, { FROM_CASE: 'case' }, 30_000, undefined, { PATH: process.env.PATH, FROM_IO: 'io' });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), { given: 'io', kase: 'case', home: null });
  });
});
