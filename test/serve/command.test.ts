/**
 * `runServe(plan, io)` as a script calls it: a real gateway on loopback, what it prints captured from `io`, stopped
 * by an interrupt the test sends through `io.interrupts` (no signal to the test's own process).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_CONFIG } from '../../src/gateway';
import { runServe, type ServeIo, type ServePlan } from '../../src/serve/command';
import { AUTH_HEADER, card, PAYMENT, USER } from '../gateway/helpers';

/** An io whose interrupt the test sends, with everything written kept. */
function testIo(): { io: ServeIo; out: () => string; interrupt: () => void; listening: () => number } {
  let text = '';
  const listeners = new Set<(signal: string) => void>();
  const sink = { write: (t: string) => void (text += t) };
  return {
    io: {
      out: sink,
      err: sink,
      cwd: process.cwd(),
      interrupts: (on) => {
        listeners.add(on);
        return () => void listeners.delete(on);
      },
    },
    out: () => text,
    interrupt: () => [...listeners].forEach((l) => l('SIGTERM')),
    listening: () => listeners.size,
  };
}

const PLAN: ServePlan = { config: DEFAULT_CONFIG, host: '127.0.0.1', port: 0, basePath: '', control: false, maxRecords: 1000, log: false, contract: false, strict: false };

async function urlOf(out: () => string): Promise<string> {
  for (let i = 0; i < 500; i++) {
    const m = /JSON\s+POST (http:\/\/127\.0\.0\.1:[0-9]+)\/json\//.exec(out());
    if (m && out().includes('Serving until')) return m[1];
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no address printed: ${out()}`);
}

const auth = (url: string): Promise<Response> =>
  fetch(`${url}/json/`, {
    method: 'POST',
    headers: { Authorization: AUTH_HEADER, 'Content-Type': 'application/json' },
    body: JSON.stringify({ alias: USER.alias, version: '1.00', request: [{ requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised') }] }),
  });

describe('runServe', () => {
  it('serves until the interrupt it is given, prints no password, and resolves to 0', async () => {
    const t = testIo();
    const done = runServe(PLAN, t.io);
    const url = await urlOf(t.out);
    const body = (await (await auth(url)).json()) as { response: { errorcode: string }[] };
    assert.equal(body.response[0].errorcode, '0');
    assert.doesNotMatch(t.out(), new RegExp(USER.password));
    assert.equal(t.listening(), 1);
    t.interrupt();
    assert.equal(await done, 0);
    assert.equal(t.listening(), 0, 'the interrupt listener is removed on stop');
    assert.match(t.out(), /cardspec serve: stopped/);
    await assert.rejects(auth(url), 'the gateway is closed');
  });

  it('as the contract gate: a request checked and reported on stop; no request at all is incomplete (3)', async () => {
    const checked = testIo();
    const done = runServe({ ...PLAN, contract: true }, checked.io);
    await auth(await urlOf(checked.out));
    checked.interrupt();
    assert.equal(await done, 0);
    assert.match(checked.out(), /Contract: every request is checked/);
    assert.match(checked.out(), /Requests: 1 \(1 answered: JSON 1/);

    const idle = testIo();
    const nothing = runServe({ ...PLAN, contract: true }, idle.io);
    await urlOf(idle.out);
    idle.interrupt();
    assert.equal(await nothing, 3);
    assert.match(idle.out(), /no request reached the stand-in gateway/);
  });

  it('an address in use is exit 2 with the reason, and starts nothing', async () => {
    const first = testIo();
    const running = runServe(PLAN, first.io);
    const port = Number(/:([0-9]+)$/.exec(await urlOf(first.out))![1]);
    const second = testIo();
    assert.equal(await runServe({ ...PLAN, port }, second.io), 2);
    assert.match(second.out(), new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}: port ${port} is in use`));
    first.interrupt();
    assert.equal(await running, 0);
  });
});
