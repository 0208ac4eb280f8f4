/**
 * "Reports an auditor can trust" (principle 2): a reports folder holds one run's results. A passing run, then a run
 * whose target is not ready (INCOMPLETE), into the same folder: nothing of the first run stays in allure-results
 * (results, containers, attachments) nor in the format folders, so the Allure report cannot show the earlier run's
 * passed tests beside the new verdict. Files the kit did not write (a user's notes, another tool's Allure result)
 * are never deleted, though the folder is the one given to --reports.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPORT_FILES } from '../../src/report';
import { claimReportsFolder, OWNED_LIST, recordReportsFolder } from '../../src/report/owned';

const ROOT = path.join(__dirname, '..', '..');

function cardspecRun(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env };
    delete env.CARDSPEC_UNSAFE_NO_REDACTION;
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'cardspec.js'), 'run', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** A port nothing listens on: one the system gave and took back. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const list = (dir: string): string[] => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []);

test("a run whose target is not ready leaves none of the earlier run's Allure results, and none of a user's files go", async () => {
  const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-reports-folder-'));
  try {
    const allure = path.join(reports, REPORT_FILES.allureResults);
    fs.mkdirSync(allure, { recursive: true });
    fs.mkdirSync(path.join(reports, 'json'), { recursive: true });
    // What the user keeps there: notes, another tool's Allure result (started long ago), a file in a format folder.
    const foreign = {
      'notes.txt': 'keep me',
      [path.join(REPORT_FILES.allureResults, '00000000-0000-4000-8000-000000000000-result.json')]: JSON.stringify({ uuid: 'x', name: 'an SDK test', status: 'passed', start: 1, stop: 2 }),
      [path.join('json', 'my-notes.md')]: 'mine',
    };
    for (const [f, text] of Object.entries(foreign)) fs.writeFileSync(path.join(reports, f), text);

    const first = await cardspecRun(['--tags', '@rule:AUTH-AUTHORISE', '--reports', reports]);
    assert.equal(first.code, 0, first.out.slice(-2000));
    const firstFiles = list(allure).filter((f) => /-(result|container)\.json$|-attachment/.test(f) && !f.startsWith('00000000-'));
    assert.ok(firstFiles.some((f) => f.endsWith('-container.json')) && firstFiles.some((f) => f.endsWith('-result.json')), firstFiles.join(', '));

    const second = await cardspecRun(['--target', `http://127.0.0.1:${await closedPort()}/`, '--reports', reports]);
    assert.equal(second.code, 2, second.out.slice(-2000));
    const summary = JSON.parse(fs.readFileSync(path.join(reports, REPORT_FILES.summaryJson), 'utf8')) as { result: string };
    assert.equal(summary.result, 'incomplete');
    const left = list(allure);
    assert.deepEqual(
      firstFiles.filter((f) => left.includes(f)),
      [],
      'no result, container or attachment of the earlier run stays beside the INCOMPLETE verdict',
    );
    assert.deepEqual(
      list(path.join(reports, 'json')).filter((f) => f !== 'my-notes.md'),
      [],
      "the earlier run's messages, HTML and Allure log are gone",
    );
    for (const [f, text] of Object.entries(foreign)) assert.equal(fs.readFileSync(path.join(reports, f), 'utf8'), text, `${f} is the user's: kept`);
  } finally {
    fs.rmSync(reports, { recursive: true, force: true });
  }
});

test("only listed files in the kit's places are deleted: a list that names a way out of the folder is ignored", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-owned-'));
  try {
    const reports = path.join(root, 'reports');
    fs.mkdirSync(path.join(reports, 'allure-results'), { recursive: true });
    fs.writeFileSync(path.join(root, 'outside.txt'), 'outside');
    fs.writeFileSync(path.join(reports, 'notes.txt'), 'notes');
    fs.writeFileSync(path.join(reports, 'allure-results', 'a-result.json'), '{}');
    fs.writeFileSync(path.join(reports, OWNED_LIST), JSON.stringify({ files: ['../outside.txt', path.join(root, 'outside.txt'), 'notes.txt', 'allure-results/a-result.json'] }));
    const folder = claimReportsFolder(reports);
    assert.deepEqual(folder.removed, ['allure-results/a-result.json']);
    assert.ok(fs.existsSync(path.join(root, 'outside.txt')) && fs.existsSync(path.join(reports, 'notes.txt')));
    // The next list holds what was written after the claim, and what changed; not what stood there untouched.
    fs.writeFileSync(path.join(reports, 'allure-results', 'b-result.json'), '{}');
    fs.writeFileSync(path.join(reports, 'summary.json'), '{}');
    assert.deepEqual(recordReportsFolder(folder), ['allure-results/b-result.json', 'summary.json']);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
