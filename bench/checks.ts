/**
 * The checking proxy's checks alone (issue 27, "Overhead"): CPU time per exchange of the proxy's main thread, the
 * request's contract checks, every answer check and the session, without the forwarding. N AUTH exchanges (the
 * document's AUTH example, JSON and XML) are recorded once from the reference gateway on loopback, then fed to fresh
 * proxy sessions in turns (JSON, XML, the order rotated every round) and timed with process.cpuUsage: CPU time, not
 * wall time, so that a busy machine changes the figure little.
 *
 *   node -r ./steps/register-ts.js bench/checks.ts [--n 500] [--rounds 15] [--only json|xml]
 *   node -r ./steps/register-ts.js bench/checks.ts --only json --profile json.cpuprofile   (where the time goes)
 *   node -r ./steps/register-ts.js bench/checks.ts --against ../before     (another checkout, timed in turns)
 *   node -r ./steps/register-ts.js bench/checks.ts --steady [--n 10000]    (as the checking thread runs them)
 *   node -r ./steps/register-ts.js bench/checks.ts --steady --fresh        (and every round's transactions new)
 *   node -r ./steps/register-ts.js bench/checks.ts --steady --fresh --max-records 1000   (a smaller ledger window)
 *   node -r ./steps/register-ts.js bench/checks.ts --steady --fresh --profile steady.cpuprofile   (its timed rounds)
 *
 * `--steady`: the exchanges as the checking thread gets them (the bytes as a client and the gateway wrote them, in
 * the forwarding thread's batches, read by `readBatch`), every round into one long-lived session per kit (its
 * observed ledger and flows filling as in a long proxy run), JSON only: the figure to set beside the bench's checks
 * thread CPU per request. With `--fresh` each round's answers carry references the session has not seen (up to 100
 * rounds), as in a long run: the observed ledger and the flows store and judge new transactions rather than find the
 * same ones again.
 *
 * Every exchange must pass: a finding here is a false violation of the proxy, and the script says so.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as path from 'node:path';
import { Session as Inspector } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import { startGateway } from '../src/gateway';
import type { HttpExchange } from '../src/proxy/exchange';
import { answerFraming, scanStatusHead } from '../src/proxy/framing';
import { BatchWriter, readBatch, type Batch } from '../src/proxy/handoff';
import { ProxySession } from '../src/proxy/session';
import { JSON_CONTENT_TYPE, XML_CONTENT_TYPE } from '../src/wire/json';
import type { RequestEnvelope } from '../src/wire/types';
import { buildRequestBlock } from '../src/wire/xml';
import { buildPayloads } from './payloads';

type Form = 'json' | 'xml';

/** One exchange as the forwarding thread hands it over: the headers as the proxy received them, the bodies as bytes. */
function post(url: URL, path: string, headers: Record<string, string>, body: string): Promise<HttpExchange> {
  const bytes = Buffer.from(body, 'utf8');
  const sent = { ...headers, host: url.host, 'content-length': String(bytes.length), connection: 'keep-alive' };
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path, method: 'POST', headers: sent, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ method: 'POST', path, requestHeaders: sent, requestBody: bytes, status: res.statusCode, responseHeaders: res.headers, responseBody: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(bytes);
  });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

async function record(n: number): Promise<Record<Form, HttpExchange[]>> {
  const gw = await startGateway({ control: true, host: '127.0.0.1', port: 0 });
  try {
    const url = new URL(gw.url);
    const p = buildPayloads('unused');
    const xmlBody = buildRequestBlock(JSON.parse(p.auth) as RequestEnvelope);
    const xmlHeaders = { ...p.headers, 'content-type': XML_CONTENT_TYPE, accept: XML_CONTENT_TYPE };
    const out: Record<Form, HttpExchange[]> = { json: [], xml: [] };
    for (let i = 0; i < n; i++) {
      out.json.push(await post(url, '/json/', { ...p.headers, 'content-type': JSON_CONTENT_TYPE }, p.auth));
      out.xml.push(await post(url, '/xml/', xmlHeaders, xmlBody));
    }
    return out;
  } finally {
    agent.destroy();
    await gw.close();
  }
}

type Session = Pick<ProxySession, 'observe'>;

/** CPU µs per exchange of one fresh session fed the exchanges; throws on a finding (every exchange must pass). */
function time(exchanges: readonly HttpExchange[], form: Form, make: () => Session): number {
  const session = make();
  const before = process.cpuUsage();
  for (const ex of exchanges) {
    const found = session.observe(ex);
    if (found.length > 0) throw new Error(`${form}: a passing AUTH found violating: ${found.map((f) => `${f.rule} ${f.field}: ${f.message}`).join('; ')}`);
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / exchanges.length;
}

/** N JSON AUTH exchanges as the forwarding thread hands them over: in batches of 64, the heads and bodies as written. */
async function recordBatches(n: number): Promise<Batch[]> {
  const gw = await startGateway({ control: true, host: '127.0.0.1', port: 0 });
  try {
    const url = new URL(gw.url);
    const p = buildPayloads('unused');
    const body = Buffer.from(p.auth, 'utf8');
    const lines = Object.entries({ host: url.host, ...p.headers, 'content-type': JSON_CONTENT_TYPE, 'content-length': String(body.length) }).map(([k, v]) => `${k}: ${v}\r\n`);
    const head = Buffer.from(`POST /json/ HTTP/1.1\r\n${lines.join('')}\r\n`, 'latin1');
    const answers: { head: Buffer; body: Buffer }[] = [];
    // Four connections, one request at a time on each, the answer read whole by the proxy's own framing.
    await Promise.all(
      [0, 1, 2, 3].map(
        () =>
          new Promise<void>((resolve, reject) => {
            const s = net.connect({ host: url.hostname, port: Number(url.port) });
            let buf = Buffer.alloc(0);
            const send = (): void => void (answers.length >= n ? (s.end(), resolve()) : s.write(Buffer.concat([head, body])));
            s.on('connect', send);
            s.on('error', reject);
            s.on('data', (c: Buffer) => {
              buf = Buffer.concat([buf, c]);
              const h = scanStatusHead(buf);
              const f = h && answerFraming(h, 'POST');
              if (!h || f?.kind !== 'length' || buf.length < h.size + f.length) return;
              answers.push({ head: Buffer.from(buf.subarray(0, h.size)), body: Buffer.from(buf.subarray(h.size, h.size + f.length)) });
              buf = buf.subarray(h.size + f.length);
              send();
            });
          }),
      ),
    );
    const batches: Batch[] = [];
    for (let i = 0; i < n; i += 64) {
      const w = new BatchWriter();
      for (const a of answers.slice(i, Math.min(n, i + 64))) w.add({ requestHead: head, requestBody: [body], answerHead: a.head, answerBody: [a.body] });
      batches.push(w.take()!);
    }
    return batches;
  } finally {
    await gw.close();
  }
}

/** A batch's memory of its own (a posted batch's is moved to the checking thread, and read there once). */
const copied = (b: Batch): Batch => ({ ...b, buffer: b.buffer.slice(0, b.length) });

const REFERENCE = Buffer.from('"transactionreference":"', 'latin1');

/**
 * `--fresh`: the batch with its answers' references made new for round `v` (0 to 99): the reference gateway's
 * `12-9-<seq>` written `1<v / 10>-<v % 10>-<seq>`, as long as before. Each round's transactions are then new to the
 * session, as a long run's are: the observed ledger stores new records and its window slides, the flows judge new
 * steps (with the same references every round, each is only found again).
 */
function renamed(b: Batch, v: number): Batch {
  const buf = Buffer.from(b.buffer.slice(0, b.length));
  for (let at = buf.indexOf(REFERENCE); at >= 0; at = buf.indexOf(REFERENCE, at + 1)) {
    const ref = at + REFERENCE.length;
    buf[ref + 1] = 48 + Math.floor(v / 10);
    buf[ref + 3] = 48 + (v % 10);
  }
  return { ...b, buffer: buf.buffer.slice(buf.byteOffset, buf.byteOffset + b.length) as ArrayBuffer };
}

type Reader = (b: Batch) => HttpExchange[];

/** CPU µs per exchange of the batches read and checked by one long-lived session; throws on a finding. */
function timeSteady(batches: readonly Batch[], session: Session, read: Reader, variant?: number): number {
  const fresh = batches.map((b) => (variant === undefined ? copied(b) : renamed(b, variant % 100)));
  let n = 0;
  const before = process.cpuUsage();
  for (const b of fresh)
    for (const ex of read(b)) {
      n++;
      const found = session.observe(ex);
      if (found.length > 0) throw new Error(`a passing AUTH found violating: ${found.map((f) => `${f.rule} ${f.field}: ${f.message}`).join('; ')}`);
    }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / n;
}

/**
 * `--profile FILE`: a CPU profile of the timed rounds alone (not the recording, the compiling and the warm-up),
 * written when the returned function is called. The inspector's own cost weighs in: the figures printed with a
 * profile are not those without one.
 */
async function profiled(file: string | undefined): Promise<() => Promise<void>> {
  if (file === undefined) return () => Promise.resolve();
  const inspector = new Inspector();
  inspector.connect();
  await inspector.post('Profiler.enable');
  await inspector.post('Profiler.setSamplingInterval', { interval: 100 });
  await inspector.post('Profiler.start');
  return async () => {
    const { profile } = await inspector.post('Profiler.stop');
    fs.writeFileSync(file, JSON.stringify(profile));
    inspector.disconnect();
  };
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      n: { type: 'string' },
      rounds: { type: 'string' },
      only: { type: 'string' },
      profile: { type: 'string' },
      against: { type: 'string' },
      steady: { type: 'boolean' },
      fresh: { type: 'boolean' },
      'max-records': { type: 'string' },
    },
  });
  const maxRecords = values['max-records'] === undefined ? undefined : Number(values['max-records']);
  if (values.steady) return steady(Number(values.n ?? 10_000), Number(values.rounds ?? 9), values.against, values.fresh ?? false, maxRecords, values.profile);
  const n = Number(values.n ?? 500);
  const rounds = Number(values.rounds ?? 15);
  const forms: Form[] = values.only === 'json' ? ['json'] : values.only === 'xml' ? ['xml'] : ['json', 'xml'];
  const recorded = await record(n);
  // --against DIR: another checkout of the kit (the code before a change), its sessions timed in turns with these
  // in the same process, so that both see the same load.
  const kits: { name: string; make: () => Session }[] = [{ name: 'this', make: () => new ProxySession() }];
  if (values.against !== undefined) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const other = require(path.resolve(values.against, 'src', 'proxy', 'session')) as { ProxySession: new () => Session };
    kits.push({ name: 'against', make: () => new other.ProxySession() });
  }
  // Warm up: the schemas compiled, the code optimised.
  for (const k of kits) for (const f of forms) time(recorded[f], f, k.make);
  const results: Record<string, number[]> = {};
  const stop = await profiled(values.profile);
  const runs = kits.flatMap((k) => forms.map((f) => ({ key: `${k.name} ${f}`, f, make: k.make })));
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? runs : [...runs].reverse();
    for (const run of order) (results[run.key] ??= []).push(time(recorded[run.f], run.f, run.make));
  }
  await stop();
  for (const [key, xs] of Object.entries(results))
    // The least of the rounds is the one least disturbed by the rest of the machine (its caches, its other work).
    console.log(`${key}: ${Math.min(...xs).toFixed(1)} µs CPU per AUTH exchange at least, ${median(xs).toFixed(1)} median (${rounds} rounds of ${n})`);
}

/** `--steady`: each kit's one session fed the same batches every round, the kits in turns (the order alternating). */
async function steady(n: number, rounds: number, against: string | undefined, fresh: boolean, maxRecords: number | undefined, profile?: string): Promise<void> {
  const batches = await recordBatches(n);
  const kits: { name: string; session: Session; read: Reader }[] = [{ name: 'this', session: new ProxySession({ maxRecords }), read: readBatch }];
  if (against !== undefined) {
    /* eslint-disable @typescript-eslint/no-require-imports */
    const other = require(path.resolve(against, 'src', 'proxy', 'session')) as { ProxySession: new (opts: { maxRecords?: number }) => Session };
    const handoff = require(path.resolve(against, 'src', 'proxy', 'handoff')) as { readBatch: Reader };
    /* eslint-enable @typescript-eslint/no-require-imports */
    kits.push({ name: 'against', session: new other.ProxySession({ maxRecords }), read: handoff.readBatch });
  }
  // The first round warms up: the code optimised, the ledger filling.
  for (const k of kits) timeSteady(batches, k.session, k.read, fresh ? 0 : undefined);
  const results = new Map<string, number[]>(kits.map((k) => [k.name, []]));
  const stop = await profiled(profile);
  for (let r = 0; r < rounds; r++) for (const k of r % 2 === 0 ? kits : [...kits].reverse()) results.get(k.name)!.push(timeSteady(batches, k.session, k.read, fresh ? r + 1 : undefined));
  await stop();
  const how = fresh ? 'new references every round' : 'the same references every round';
  for (const [name, xs] of results)
    console.log(
      `${name} json steady: ${Math.min(...xs).toFixed(1)} µs CPU per AUTH exchange at least, ${median(xs).toFixed(1)} median (${rounds} rounds of ${n}, one session, read from batches, ${how})`,
    );
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
