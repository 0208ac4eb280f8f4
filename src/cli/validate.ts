/**
 * `cardspec validate <file|->`: one request or response, JSON or XML, against the document. Exit 0 when nothing
 * breaks a rule (warnings are printed but do not fail), 1 when something does, 2 when the input cannot be read or
 * parsed, or the command is misused.
 */
import { promises as fs } from 'fs';
import { redactText } from '../redact';
import { unknownOption } from './usage';
import { InputError, validateText, type TextResult, type Violation } from '../validate';

const HELP = `Usage: cardspec validate <file|-> [--json] [--requested TYPE[,TYPE...]]

Validates one request or response against the interface document, through the JSON Schemas generated from the
field dictionary (schemas/*.schema.json). The input may be JSON (an envelope, a request object or a response part)
or XML (a requestblock or a responseblock); which one is detected from the text. Use - to read standard input.

Options:
  --json                 print the result as JSON: {kind, format, valid, errors, warnings, violations}
  --requested T1,T2      for a response: the request types that were asked for, in order, so that the number
                         and order of the parts are checked too (e.g. --requested AUTH,SUBSCRIPTION)
  -h, --help             this text

Output: one line per violation, "field  rule  message  [section]" (warnings end in "(warning)"), then
"valid <kind> (<format>)" or "invalid <kind> (<format>): ...".
Exit codes: 0 valid (warnings alone do not fail), 1 violations, 2 unreadable or unparseable input, or bad usage.`;

interface Args {
  file?: string;
  json: boolean;
  requested?: string[];
  help: boolean;
  problem?: string;
}

function parseArgs(args: readonly string[]): Args {
  const out: Args = { json: false, help: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--help' || a === '-h') out.help = true;
    else if (a === '--json') out.json = true;
    else if (a === '--requested' || a.startsWith('--requested=')) {
      const value = a.includes('=') ? a.slice(a.indexOf('=') + 1) : args[++i];
      if (!value) out.problem = '--requested needs a list of request types, e.g. --requested AUTH,SUBSCRIPTION';
      else out.requested = value.split(',').map((t) => t.trim()).filter((t) => t !== '');
    } else if (a.startsWith('-') && a !== '-') out.problem = unknownOption(a);
    else if (out.file === undefined) out.file = a;
    else out.problem = `one input at a time (got '${out.file}' and '${a}')`;
  }
  if (!out.help && !out.problem && out.file === undefined) out.problem = 'which file? Give a path, or - to read standard input';
  return out;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

function line(v: Violation): string {
  return `${v.field || '-'}  ${v.rule}  ${v.message}  [${v.section}]${v.severity === 'warning' ? '  (warning)' : ''}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function report(result: TextResult, json: boolean): number {
  const errors = result.violations.filter((v) => v.severity === 'error').length;
  const warnings = result.violations.length - errors;
  if (json) {
    const body = { kind: result.kind, format: result.format, valid: errors === 0, errors, warnings, violations: result.violations };
    console.log(redactText(JSON.stringify(body, null, 2)));
  } else {
    for (const v of result.violations) console.log(redactText(line(v)));
    const summary =
      errors === 0
        ? `valid ${result.kind} (${result.format})${warnings ? `, ${plural(warnings, 'warning')}` : ''}`
        : `invalid ${result.kind} (${result.format}): ${plural(errors, 'error')}${warnings ? `, ${plural(warnings, 'warning')}` : ''}`;
    console.log(summary);
  }
  return errors === 0 ? 0 : 1;
}

export async function run(args: string[]): Promise<number> {
  const parsed = parseArgs(args);
  if (parsed.help) {
    console.log(HELP);
    return 0;
  }
  if (parsed.problem || parsed.file === undefined) {
    console.error(redactText(`cardspec validate: ${parsed.problem ?? 'no input'}\n\n${HELP}`));
    return 2;
  }
  const source = parsed.file === '-' ? 'standard input' : parsed.file;
  let text: string;
  try {
    text = parsed.file === '-' ? await readStdin() : await fs.readFile(parsed.file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : (err as Error).message;
    console.error(redactText(`cardspec validate: cannot read ${source}: ${why}. Give the path of a JSON or XML file, or - for standard input.`));
    return 2;
  }
  let result: TextResult;
  try {
    result = validateText(text, { requested: parsed.requested });
  } catch (err) {
    if (err instanceof InputError) {
      console.error(
        redactText(
          `cardspec validate: cannot validate ${source}: ${err.message}. Give one JSON request or response envelope, a request object or response part, or an XML requestblock or responseblock.`,
        ),
      );
      return 2;
    }
    throw err;
  }
  return report(result, parsed.json);
}
