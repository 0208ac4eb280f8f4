/**
 * Nothing below src/cli/ reaches for the process's console or its lifetime (docs/architecture.md, src/io.ts): a
 * library call writes to the output it is given, stops on the interrupts it is given, and returns its exit code,
 * so that it can run twice in one process, be captured, or be embedded in a user's script. Fails on a new
 * `console.*`, `process.stdout` / `process.stderr`, `process.exit` or process event listener in library code
 * (src/ outside src/cli/, steps/, schemas/, generators/). Reading `process.env`, `process.platform`, `process.hrtime`
 * and the like is not what this is about: those are the process's facts, not its console.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { LIBRARY_ROOTS, ROOT } from './graph';

/** What writes to the process's console or governs its life. */
const CONSOLE = /\bconsole\s*\.\s*\w+|\bprocess\s*\.\s*(?:stdout|stderr|exit|exitCode|on|once|off|addListener|removeListener|removeAllListeners)\b/g;

/** The few modules that are a process's own entry, each with why it may. */
const EXCEPTIONS: Readonly<Record<string, string>> = {
  'src/selfcheck/worker.ts': "a child process's entry (forked by src/selfcheck/runner.ts): its messages and its exit",
  'steps/world.ts': "in a cucumber worker process only (CUCUMBER_WORKER_ID): that process's own Ctrl-C stops its part of the run",
  'schemas/build.ts': '`npm run schemas` under `require.main === module`: the script says what it wrote',
  'src/proxy/score.ts': 'the passive detection score, a measurement script run by hand (docs/selfcheck.md): it prints its table',
};

function walk(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : walk(p);
    return /\.(ts|js|mjs|cjs)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** The text without its comments, so that a comment saying `console.log` is not a use. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"\\])\/\/.*$/gm, '$1');
}

/** Each use in a module's text, as `line: what`. */
export function uses(text: string): string[] {
  const stripped = code(text);
  return [...stripped.matchAll(CONSOLE)].map((m) => `${stripped.slice(0, m.index).split('\n').length}: ${m[0].replace(/\s+/g, '')}`);
}

const rel = (p: string): string => path.relative(ROOT, p).split(path.sep).join('/');
const library = LIBRARY_ROOTS.flatMap((r) => walk(path.join(ROOT, r))).filter((f) => !rel(f).startsWith('src/cli/'));

describe("the process's console", () => {
  it('is not written to, listened on or exited below src/cli/ (but by the listed entries)', () => {
    assert.ok(library.length > 100, `only ${library.length} modules found`);
    const offenders = library.filter((f) => !(rel(f) in EXCEPTIONS)).flatMap((f) => uses(fs.readFileSync(f, 'utf8')).map((u) => `${rel(f)}:${u}`));
    assert.deepEqual(offenders, [], 'library code writes to the output in its io (src/io.ts) and stops on its interrupts; a process entry goes in src/cli/');
  });

  it('lists no exception that is no longer needed', () => {
    const stale = Object.keys(EXCEPTIONS).filter((f) => !fs.existsSync(path.join(ROOT, f)) || uses(fs.readFileSync(path.join(ROOT, f), 'utf8')).length === 0);
    assert.deepEqual(stale, [], 'an exception whose module no longer uses the console: remove it from the list');
  });

  it('finds a use when there is one, and none in a comment (the check can fail)', () => {
    assert.deepEqual(uses("const a = 1;\nconsole.log('x');\nprocess.stdout.write('y');"), ['2: console.log', '3: process.stdout']);
    assert.deepEqual(uses("process.on('SIGINT', stop);\nprocess.exit(1);"), ['1: process.on', '2: process.exit']);
    assert.deepEqual(uses('// console.log(x)\n/* process.stdout */\nconst url = "http://x"; // process.exit()'), []);
    assert.deepEqual(uses('const p = process.env.X ?? process.platform; process.hrtime.bigint();'), []);
  });
});
