/**
 * `cardspec validate <file|->`: one request or response, JSON or XML, against the document. Exit 0 when nothing
 * breaks a rule (warnings are printed but do not fail), 1 when something does (a body that is not an envelope
 * included: an SDK's malformed body is a finding), 2 when the input cannot be read or is empty, or the command is
 * misused (`--requested` naming something that is not a request type).
 */
import { createReadStream } from 'fs';
import { redactText } from '../redact';
import { unknownOption } from './usage';
import { REQUEST_TYPES } from '../../schemas/fields';
import { decodeInput, InputError, MAX_INPUT_BYTES, validateText, type TextResult, type Violation } from '../validate';

/** Findings printed before the rest is counted: an envelope of 200,000 request objects must not print a million lines. */
const DEFAULT_MAX_FINDINGS = 50;

const HELP = `Usage: cardspec validate <file|-> [--json] [--requested TYPE[,TYPE...]] [--max-findings N]

Validates one request or response against the interface document, through the JSON Schemas generated from the
field dictionary (schemas/*.schema.json). The input may be JSON (an envelope, a request object or a response part)
or XML (a requestblock or a responseblock); which one is detected from the text. Use - to read standard input.

Options:
  --json                 print the result as JSON: {kind, format, valid, errors, warnings, violations}
  --requested T1,T2      for a response: the request types that were asked for, in order, so that the number
                         and order of the parts are checked too (e.g. --requested AUTH,SUBSCRIPTION); each
                         must be a request type of the document (${REQUEST_TYPES.join(', ')})
  --max-findings N       print the first N findings, then how many more there are (default ${DEFAULT_MAX_FINDINGS};
                         0 prints all); the counts and the exit code always cover every finding
  -h, --help             this text

Output: one line per violation, "field  rule  message  [section]" (warnings end in "(warning)"), then
"valid <kind> (<format>)" or "invalid <kind> (<format>): ...".
A body that is not an envelope (not JSON, not well-formed XML, another shape, another root element) is reported
as a finding that names what is wrong.
Exit codes: 0 valid (warnings alone do not fail), 1 violations, 2 unreadable or empty input (also UTF-16/UTF-32 text, or more than 64 MiB), or bad usage.`;

interface Args {
  file?: string;
  json: boolean;
  requested?: string[];
  maxFindings: number;
  help: boolean;
  problem?: string;
}

function parseArgs(args: readonly string[]): Args {
  const out: Args = { json: false, help: false, maxFindings: DEFAULT_MAX_FINDINGS };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--help' || a === '-h') out.help = true;
    else if (a === '--json') out.json = true;
    else if (a === '--requested' || a.startsWith('--requested=')) {
      const value = a.includes('=') ? a.slice(a.indexOf('=') + 1) : args[++i];
      if (!value) out.problem = '--requested needs a list of request types, e.g. --requested AUTH,SUBSCRIPTION';
      else {
        out.requested = value
          .split(',')
          .map((t) => t.trim())
          .filter((t) => t !== '');
        const unknown = out.requested.filter((t) => !(REQUEST_TYPES as readonly string[]).includes(t));
        if (out.requested.length === 0) out.problem = '--requested needs a list of request types, e.g. --requested AUTH,SUBSCRIPTION';
        else if (unknown.length > 0) out.problem = `--requested ${unknown.map((t) => `'${t}'`).join(', ')}: not a request type; use ${REQUEST_TYPES.join(', ')}`;
      }
    } else if (a === '--max-findings' || a.startsWith('--max-findings=')) {
      const value = a.includes('=') ? a.slice(a.indexOf('=') + 1) : args[++i];
      if (value === undefined || !/^[0-9]+$/.test(value)) out.problem = '--max-findings needs a whole number (0 prints every finding)';
      else out.maxFindings = Number(value);
    } else if (a.startsWith('-') && a !== '-') out.problem = unknownOption(a);
    else if (out.file === undefined) out.file = a;
    else out.problem = `one input at a time (got '${out.file}' and '${a}')`;
  }
  if (!out.help && !out.problem && out.file === undefined) out.problem = 'which file? Give a path, or - to read standard input';
  return out;
}

/** A file or standard input, up to MAX_INPUT_BYTES: past that, the reading stops and says so (InputError). */
async function readInput(stream: NodeJS.ReadableStream & { destroy?: () => void }): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buf.length;
    if (size > MAX_INPUT_BYTES) {
      stream.destroy?.();
      throw new InputError(`the input is larger than ${MAX_INPUT_BYTES / (1024 * 1024)} MiB (a request or a response of the service is a few kilobytes)`);
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks, size);
}

function line(v: Violation): string {
  return `${v.field || '-'}  ${v.rule}  ${v.message}  [${v.section}]${v.severity === 'warning' ? '  (warning)' : ''}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function report(result: TextResult, json: boolean, max: number): number {
  const errors = result.violations.filter((v) => v.severity === 'error').length;
  const warnings = result.violations.length - errors;
  const shown = max > 0 ? result.violations.slice(0, max) : result.violations;
  const omitted = result.violations.length - shown.length;
  if (json) {
    const body = { kind: result.kind, format: result.format, valid: errors === 0, errors, warnings, violations: shown, ...(omitted > 0 ? { omitted } : {}) };
    console.log(redactText(JSON.stringify(body, null, 2)));
  } else {
    for (const v of shown) console.log(redactText(line(v)));
    if (omitted > 0) console.log(`... and ${plural(omitted, 'more finding')} not printed (--max-findings ${max}; 0 prints all)`);
    const summary =
      errors === 0
        ? `valid ${result.kind} (${result.format})${warnings ? `, ${plural(warnings, 'warning')}` : ''}`
        : `invalid ${result.kind} (${result.format}): ${plural(errors, 'error')}${warnings ? `, ${plural(warnings, 'warning')}` : ''}`;
    console.log(summary);
  }
  return errors === 0 ? 0 : 1;
}

function inputError(source: string, err: InputError): number {
  console.error(
    redactText(`cardspec validate: cannot validate ${source}: ${err.message}. Give one JSON request or response envelope, a request object or response part, or an XML requestblock or responseblock.`),
  );
  return 2;
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
    text = decodeInput(await readInput(parsed.file === '-' ? process.stdin : createReadStream(parsed.file)));
  } catch (err) {
    if (err instanceof InputError) return inputError(source, err);
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : (err as Error).message;
    console.error(redactText(`cardspec validate: cannot read ${source}: ${why}. Give the path of a JSON or XML file, or - for standard input.`));
    return 2;
  }
  let result: TextResult;
  try {
    result = validateText(text, { requested: parsed.requested });
  } catch (err) {
    if (err instanceof InputError) return inputError(source, err);
    throw err;
  }
  return report(result, parsed.json, parsed.maxFindings);
}
