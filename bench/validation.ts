/**
 * Validation throughput: envelopes validated per second by `validateText` (what `cardspec validate` and the
 * suite's checks run), JSON and XML, requests and responses. The inputs are the reference gateway's AUTH exchange
 * (the AUTH example request and the gateway's answer to it), the XML ones mapped from them by src/wire/xml.ts; each
 * is checked to be valid first, so that the figure is the cost of validating a conforming envelope, text to
 * violations (parsing, XML mapping and schema checks included).
 *
 * Run as a child (fresh process, nothing else on its event loop). Each kind gets a warm-up, then `reps` windows of
 * `windowSec`; every call is timed for p50 / p99. The rate is per second of the process's CPU time, not of the
 * clock: the loop is single-threaded and does nothing but validate, so on a machine shared with other work (where
 * the clock counts the time the process waited for a core) the CPU time is the time validation took.
 */
import { validateText } from '../src/validate';
import { buildRequestBlock, buildResponseBlock } from '../src/wire/xml';
import type { RequestEnvelope, ResponseEnvelope } from '../src/wire/types';
import { failChild, forkBench, tell } from './child';
import type { Answers } from './gateway';
import { median, ms, rate, ratio, verdict, type Row } from './table';

/** Issue 31: "XML within 3x of JSON" for reading and checking a block. */
export const XML_MIN_RATIO = 1 / 3;

export interface ValidationSpec {
  readonly type: 'run';
  readonly jsonRequest: string;
  readonly jsonResponse: string;
  readonly reps: number;
  readonly windowSec: number;
  readonly warmupSec: number;
}

export interface ValidationRep {
  readonly kind: string;
  readonly rate: number;
  readonly p50: number;
  readonly p99: number;
}

const KINDS = ['JSON request', 'JSON response', 'XML request', 'XML response'] as const;
type Kind = (typeof KINDS)[number];

function window(text: string, options: { requested?: string[] }, sec: number): ValidationRep & { calls: number } {
  const budget = BigInt(Math.round(sec * 1e9));
  const times = new Float64Array(2_000_000);
  let n = 0;
  const cpu0 = process.cpuUsage();
  const start = process.hrtime.bigint();
  let now = start;
  while (now - start < budget && n < times.length) {
    const t0 = process.hrtime.bigint();
    validateText(text, options);
    now = process.hrtime.bigint();
    times[n++] = Number(now - t0) / 1e6;
  }
  const cpu = process.cpuUsage(cpu0);
  const sorted = times.slice(0, n).sort();
  const pct = (p: number): number => sorted[Math.min(n - 1, Math.max(0, Math.ceil((p / 100) * n) - 1))];
  const cpuSec = (cpu.user + cpu.system) / 1e6;
  return { kind: '', rate: n / (cpuSec > 0 ? cpuSec : Number(now - start) / 1e9), p50: pct(50), p99: pct(99), calls: n };
}

function childMain(spec: ValidationSpec): void {
  const xmlRequest = buildRequestBlock(JSON.parse(spec.jsonRequest) as RequestEnvelope);
  const xmlResponse = buildResponseBlock(JSON.parse(spec.jsonResponse) as ResponseEnvelope);
  const inputs: Record<Kind, { text: string; options: { requested?: string[] } }> = {
    'JSON request': { text: spec.jsonRequest, options: {} },
    'JSON response': { text: spec.jsonResponse, options: { requested: ['AUTH'] } },
    'XML request': { text: xmlRequest, options: {} },
    'XML response': { text: xmlResponse, options: { requested: ['AUTH'] } },
  };
  const out: ValidationRep[] = [];
  for (const kind of KINDS) {
    const { text, options } = inputs[kind];
    const first = validateText(text, options);
    const errors = first.violations.filter((v) => v.severity !== 'warning');
    if (errors.length) throw new Error(`the ${kind} is not valid, so it would not measure validation of a conforming envelope: ${errors[0].message}`);
    if (spec.warmupSec > 0) window(text, options, spec.warmupSec);
    for (let i = 0; i < spec.reps; i++) out.push({ ...window(text, options, spec.windowSec), kind });
  }
  tell({ type: 'result', data: out });
  setTimeout(() => process.exit(0), 50).unref();
}

if (require.main === module) {
  process.once('message', (m: unknown) => {
    try {
      childMain(m as ValidationSpec);
    } catch (err) {
      failChild(err);
    }
  });
}

export async function validationSection(answers: Answers, reps: number, windowSec: number): Promise<Row[]> {
  const child = forkBench('validation.ts', [], 'validation');
  let data: ValidationRep[];
  try {
    const spec: ValidationSpec = { type: 'run', jsonRequest: answers.payloads.auth, jsonResponse: answers.auth, reps, windowSec, warmupSec: Math.min(0.5, windowSec) };
    child.send(spec);
    const m = await child.next(KINDS.length * (reps * windowSec + 1) * 1000 + 60_000);
    if (m.type !== 'result') throw new Error('validation: unexpected message');
    data = m.data as ValidationRep[];
  } finally {
    await child.stop();
  }
  const by = (kind: Kind) => data.filter((d) => d.kind === kind);
  const medianOf = (kind: Kind) => ({ rate: median(by(kind).map((d) => d.rate)), p50: median(by(kind).map((d) => d.p50)), p99: median(by(kind).map((d) => d.p99)), runs: by(kind).length });
  const m = Object.fromEntries(KINDS.map((k) => [k, medianOf(k)])) as Record<Kind, ReturnType<typeof medianOf>>;
  return KINDS.map((kind) => {
    const x = m[kind];
    const json = kind.startsWith('XML') ? m[kind.replace('XML', 'JSON') as Kind] : undefined;
    return {
      measure: 'Validation (validateText)',
      subject: kind,
      figure: `${rate(x.rate, 'env')} of CPU time`,
      p50: ms(x.p50),
      p99: ms(x.p99),
      ratio: json ? `${ratio(x.rate, json.rate)} of JSON` : '',
      target: json ? `>= ${XML_MIN_RATIO.toFixed(2)} of JSON: ${verdict(x.rate / json.rate, XML_MIN_RATIO)}` : '',
      runs: String(x.runs),
    };
  });
}
