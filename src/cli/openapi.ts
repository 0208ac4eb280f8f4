/**
 * `cardspec openapi [--out FILE] [--server URL] [--yaml]`: writes an OpenAPI 3.1 document of `POST {base_url}/json/`,
 * derived from the committed JSON Schemas, for users to import into their own tools (a mock server, a client
 * generator, an API browser). The document is checked (src/openapi/check.ts) before it is written: a document that
 * fails its own check is a bug of the kit and is not written.
 */
import { promises as fs } from 'fs';
import * as path from 'path';
import { redactText } from '../redact';
import { unknownOption } from './usage';
import { buildOpenApi, checkOpenApi, DEFAULT_SERVER } from '../openapi';

const HELP = `Usage: cardspec openapi [--out FILE] [--server URL] [--yaml]

Writes an OpenAPI 3.1 document of the JSON interface (POST {base_url}/json/, HTTP basic authentication), derived
from the JSON Schemas that cardspec generates from the interface document (schemas/*.schema.json): the request
envelope with one schema per row of the "Request types" table, the response envelope with one schema per request
type's part, and the document's example requests and responses (those without card data).

Options:
  --out FILE      write to FILE instead of standard output (FILE ending in .yaml or .yml is written as YAML)
  --server URL    the default of the {base_url} server variable (default ${DEFAULT_SERVER},
                  where \`cardspec serve --port 8080\` listens)
  --yaml          write YAML instead of JSON
  -h, --help      this text

Not in the document, so cardspec's choices (docs/bench.md, "The OpenAPI document"): status 200 for every envelope,
401 for missing credentials, one server {base_url}; the XML endpoint is not described.
Exit codes: 0 written, 2 bad usage, unwritable file or unreadable schemas.`;

interface Args {
  out?: string;
  server?: string;
  yaml: boolean;
  help: boolean;
  problem?: string;
}

function parseArgs(args: readonly string[]): Args {
  const out: Args = { yaml: false, help: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const eq = a.indexOf('=');
    const name = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a;
    const value = (): string | undefined => (eq > 0 && a.startsWith('--') ? a.slice(eq + 1) : args[++i]);
    if (name === '--help' || name === '-h') out.help = true;
    else if (name === '--yaml') out.yaml = true;
    else if (name === '--out' || name === '-o') {
      const v = value();
      if (!v) out.problem = '--out needs a file name';
      else out.out = v;
    } else if (name === '--server') {
      const v = value();
      if (!v || !/^https?:\/\/[^\s/]+(\/[^\s]*)?$/.test(v)) out.problem = '--server needs an http(s) URL, e.g. --server http://127.0.0.1:8080';
      // The document is meant to be shared: credentials belong in the security scheme, never in the address.
      else if (/^https?:\/\/[^/]*@/.test(v)) out.problem = '--server must not carry credentials (user:password@); the document describes basic authentication instead';
      else out.server = v.replace(/\/+$/, '');
    } else out.problem = a.startsWith('-') ? unknownOption(name) : `unexpected argument '${a}' (this command takes options only)`;
    if (out.problem) break;
  }
  return out;
}

/**
 * Creates the missing folders above the output file one level at a time. Not `mkdir({recursive: true})`: on Node 20
 * that spins forever under a pseudo file system such as /proc, and a bad `--out` must get an answer, not a hang.
 */
async function makeParents(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let d = dir; ; d = path.dirname(d)) {
    try {
      await fs.stat(d);
      break;
    } catch {
      missing.unshift(d);
    }
    if (path.dirname(d) === d) break;
  }
  for (const d of missing) await fs.mkdir(d);
}

export async function run(args: string[]): Promise<number> {
  const opts = parseArgs(args);
  if (opts.help) {
    console.log(HELP);
    return 0;
  }
  if (opts.problem) {
    console.error(`cardspec openapi: ${redactText(opts.problem)}\n\n${HELP}`);
    return 2;
  }
  let doc;
  try {
    doc = buildOpenApi({ server: opts.server });
  } catch (err) {
    console.error(`cardspec openapi: ${redactText((err as Error).message)}`);
    return 2;
  }
  const problems = checkOpenApi(doc);
  if (problems.length) {
    console.error(`cardspec openapi: the generated document fails its own check (a bug of cardspec, please report it):\n${problems.map((p) => `  - ${redactText(p)}`).join('\n')}`);
    return 2;
  }
  const yaml = opts.yaml || (opts.out !== undefined && /\.ya?ml$/i.test(opts.out));
  // Loaded only when asked: JSON output (the default) does not pay for the YAML writer.
  const text = yaml ? (await import('yaml')).stringify(doc, { lineWidth: 0, aliasDuplicateObjects: false }) : JSON.stringify(doc, null, 2) + '\n';
  // The examples are chosen so that masking changes nothing; masking the text anyway keeps the rule of one path out.
  const safe = redactText(text);
  if (!opts.out) {
    process.stdout.write(safe);
    return 0;
  }
  try {
    await makeParents(path.dirname(path.resolve(opts.out)));
    await fs.writeFile(opts.out, safe);
  } catch (err) {
    console.error(`cardspec openapi: cannot write ${redactText(opts.out)} (${redactText((err as Error).message)})`);
    return 2;
  }
  console.log(`cardspec openapi: wrote ${redactText(opts.out)} (OpenAPI ${String(doc.openapi)}, POST /json/)`);
  return 0;
}
