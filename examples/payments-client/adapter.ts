/**
 * The example client's adapter for the client conformance cases (docs/contract.md, "The adapter protocol"):
 *
 *   cardspec serve --client-cmd "node -r ts-node/register/transpile-only examples/payments-client/adapter.ts"
 *
 * It reads the case from standard input, sends the case's request object once through the client, and prints the
 * parts the client gives back as one JSON line: what the client reported, which cardspec compares with what the
 * gateway answered. An SDK's adapter does the same with the SDK's own call and result objects.
 */
import { PaymentsClient, type RequestFields } from './client';

interface CaseInput {
  case: string;
  url: string;
  username: string;
  password: string;
  alias: string;
  request: RequestFields;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function main(): Promise<void> {
  const input = JSON.parse(await readStdin()) as CaseInput;
  const client = new PaymentsClient({ baseUrl: input.url, username: input.username, password: input.password, alias: input.alias, transport: 'http' });
  try {
    const parts = await client.send(input.request);
    // This client hands back the parts as answered, messages untouched: it declares the raw text. It keeps no
    // envelope, so the cases about the envelope are informational for it.
    process.stdout.write(JSON.stringify({ parts, rawerrormessage: true }) + '\n');
  } catch (err) {
    process.stdout.write(JSON.stringify({ error: err instanceof Error ? err.message : String(err) }) + '\n');
  }
}

void main();
