/**
 * allure-commandline (the Allure 2 report generator, a Java program shipped in the npm package) driven from
 * Node: find a Java runtime first and say plainly what to install when there is none, then run
 * `allure generate --clean -o OUT DIR1 DIR2 ...` (several results folders merge into one report; `--open` is
 * served by src/report/open.ts, not `allure open`). Everything it prints is masked before it is shown.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { redactText } from '../redact';

export interface JavaRuntime {
  readonly java: string;
  /** The first line `java -version` printed, e.g. `openjdk version "17.0.15" 2025-04-15`. */
  readonly version: string;
  readonly major: number | null;
}

export const JAVA_MISSING =
  'cardspec report needs a Java runtime to run Allure (allure-commandline), and none was found ' +
  '(neither $JAVA_HOME/bin/java nor `java` on the PATH).\n' +
  'Install Java 17 or later, for example:\n' +
  '  Debian/Ubuntu:  sudo apt-get install -y openjdk-17-jre-headless\n' +
  '  Fedora/RHEL:    sudo dnf install -y java-17-openjdk-headless\n' +
  '  macOS:          brew install openjdk@17\n' +
  'or set JAVA_HOME to an installed JDK/JRE. The JUnit XML, the matrix and the summary need no Java.';

function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** `$JAVA_HOME/bin/java`, else the first `java` on the PATH (as the allure launcher script itself looks). */
export function findJava(env: NodeJS.ProcessEnv = process.env): JavaRuntime | { readonly problem: string } {
  const candidates: string[] = [];
  if (env.JAVA_HOME) candidates.push(path.join(env.JAVA_HOME, 'bin', process.platform === 'win32' ? 'java.exe' : 'java'));
  for (const dir of (env.PATH ?? '').split(path.delimiter)) if (dir) candidates.push(path.join(dir, process.platform === 'win32' ? 'java.exe' : 'java'));
  const java = candidates.find(executable);
  if (!java) return { problem: JAVA_MISSING };
  const r = spawnSync(java, ['-version'], { env, encoding: 'utf8', timeout: 30_000 });
  if (r.error || r.status !== 0) {
    return { problem: redactText(`${java} -version failed (${r.error?.message ?? `exit ${r.status}`}).\n${JAVA_MISSING}`) };
  }
  const first = `${r.stderr ?? ''}${r.stdout ?? ''}`.split('\n').find((l) => l.trim() !== '') ?? '';
  const m = /version "(\d+)(?:\.(\d+))?/.exec(first);
  // Java 8 and older report "1.8.0_..."; 9 and later their major number first.
  const major = m ? (m[1] === '1' && m[2] ? Number(m[2]) : Number(m[1])) : null;
  return { java, version: first.trim(), major };
}

/** The allure launcher inside the npm package. */
export function allureLauncher(): string {
  const pkg = path.dirname(require.resolve('allure-commandline/package.json'));
  return path.join(pkg, 'dist', 'bin', process.platform === 'win32' ? 'allure.bat' : 'allure');
}

export interface AllureRun {
  readonly code: number;
  /** What allure printed, masked. */
  readonly output: string;
}

function javaEnv(java: JavaRuntime, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  // The launcher reads JAVA_HOME first: point it at the runtime found, so that both agree. Allure 2 otherwise
  // reports each generation to Google Analytics and puts Google's tag in the page; a report on a payment interface
  // must not call a third party, so it is switched off (ALLURE_NO_ANALYTICS=true, read by Allure's generator).
  return { ...env, JAVA_HOME: path.dirname(path.dirname(fs.realpathSync(java.java))), ALLURE_NO_ANALYTICS: 'true' };
}

export async function allureGenerate(
  java: JavaRuntime,
  resultsDirs: readonly string[],
  outDir: string,
  options: { singleFile?: boolean; reportName?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<AllureRun> {
  const args = ['generate', '--clean', '-o', outDir];
  if (options.singleFile) args.push('--single-file');
  if (options.reportName) args.push('--name', options.reportName);
  args.push(...resultsDirs);
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(allureLauncher(), args, { env: javaEnv(java, options.env ?? process.env), stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.on('error', (e) => resolve({ code: 2, output: redactText(`could not start allure: ${e.message}`) }));
    child.on('close', (code) => resolve({ code: code ?? 2, output: redactText(output.trim()) }));
  });
}
