/**
 * Runs `cardspec fuzz` in this process (src/cli/fuzz.ts `runCommand`) with its output captured, and reads back
 * the replay command a failure prints.
 */
import { runCommand } from '../../src/cli/fuzz';

export interface Ran {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

export async function fuzz(args: string[]): Promise<Ran> {
  let out = '';
  let err = '';
  const code = await runCommand(args, {
    out: { write: (t: string) => void (out += t) },
    err: { write: (t: string) => void (err += t) },
    tty: false,
    env: {},
  });
  return { code, out, err };
}

/** Splits a command line the way a POSIX shell does for plain and single-quoted words (what the report prints). */
export function shellSplit(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      word += line.slice(i + 1, end);
      i = end;
      inWord = true;
    } else if (c === '\\') {
      word += line[++i];
      inWord = true;
    } else if (c === ' ') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** The arguments of the first `replay:` line of a report (without `cardspec fuzz`). */
export function replayArgs(report: string): string[] {
  const line = report.split('\n').find((l) => l.trim().startsWith('replay: '));
  if (!line) throw new Error(`no replay line in:\n${report}`);
  const words = shellSplit(line.trim().slice('replay: '.length));
  if (words[0] !== 'cardspec' || words[1] !== 'fuzz') throw new Error(`not a cardspec fuzz command: ${line}`);
  return words.slice(2);
}
