/**
 * `cardspec openapi`: the document is structurally valid OpenAPI 3.1, derived from the committed schemas (not
 * retyped), agrees with the kit's own validator, holds no secret, and Stoplight Prism can serve it.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildOpenApi, checkOpenApi, componentValidator, findPrism, startPrism, type Json, type RunningPrism } from '../../src/openapi';
import { run } from '../../src/cli/openapi';
import { OPERATIONS } from '../../schemas/operations';
import { REQUEST_TYPES } from '../../schemas/fields';
import { findCardNumbers, redactText } from '../../src/redact';
import { validateRequestEnvelope, validateResponseEnvelope } from '../../src/validate';
import { DEFAULT_CONFIG } from '../../src/testdata';

const ROOT = path.join(__dirname, '..', '..');
const EXAMPLES = path.join(ROOT, 'test', 'fixtures', 'examples');
const readJson = (file: string): Json => JSON.parse(fs.readFileSync(file, 'utf8')) as Json;
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const USER = DEFAULT_CONFIG.users[0];

function envelope(requestObject: Json): Json {
  return { alias: USER.alias, version: '1.00', request: [requestObject] };
}

function allRefs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => allRefs(n, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else allRefs(v, out);
    }
  }
  return out;
}

const doc = buildOpenApi();
const schemas = (doc.components as Json).schemas as Json;
const post = ((doc.paths as Json)['/json/'] as Json).post as Json;

describe('the OpenAPI document', () => {
  it('passes the structural OpenAPI 3.1 check (required fields, refs, schemas compile, examples match)', () => {
    assert.deepEqual(checkOpenApi(doc), []);
    assert.equal(doc.openapi, '3.1.0');
    assert.deepEqual(doc.security, [{ basicAuth: [] }]);
    assert.deepEqual((doc.components as Json).securitySchemes, { basicAuth: (doc.components as Json & { securitySchemes: Json }).securitySchemes.basicAuth });
    assert.equal(((doc.components as Json & { securitySchemes: Json }).securitySchemes.basicAuth as Json).scheme, 'basic');
    assert.ok(post.requestBody && post.responses);
  });

  it('the check finds what is wrong (it can fail)', () => {
    const broken = (edit: (d: Json) => void): string[] => {
      const d = clone(doc);
      edit(d);
      return checkOpenApi(d);
    };
    assert.match(broken((d) => (d.openapi = '3.0.3')).join(), /3\.1/);
    assert.match(broken((d) => delete (d.info as Json).title).join(), /info\.title/);
    assert.match(broken((d) => ((d.components as Json & { schemas: Json }).schemas.RequestEnvelope = { $ref: '#/components/schemas/Nowhere' })).join(), /does not resolve/);
    assert.match(broken((d) => (d.security = [{ digest: [] }])).join(), /digest/);
    assert.match(
      broken((d) => {
        const responses = (((d.paths as Json)['/json/'] as Json).post as Json).responses as Json;
        responses['20'] = { description: 'x' };
      }).join(),
      /not a status code/,
    );
    assert.match(
      broken((d) => {
        const content = ((((d.paths as Json)['/json/'] as Json).post as Json).requestBody as Json).content as Json;
        const examples = (content['application/json'] as Json).examples as Json;
        ((examples.threedquery as Json).value as Json & { request: Json[] }).request[0].baseamount = 1050;
      }).join(),
      /example "threedquery" does not match/,
    );
    assert.match(broken((d) => (d.servers = [{ url: '{base}' }])).join(), /\{base\} needs a string default/);
  });

  it('describes POST /json/ with every row of the Request types table and every part shape', () => {
    const rowComponents = OPERATIONS.map((r) => `row.${r.id}`);
    for (const c of rowComponents) assert.ok(schemas[c], `component ${c}`);
    const reqRefs = allRefs(schemas.RequestObject);
    assert.deepEqual([...reqRefs].sort(), rowComponents.map((c) => `#/components/schemas/${c}`).sort());
    // oneOf over the request-type lists: as many alternatives as distinct lists in the table.
    const lists = new Set(OPERATIONS.map((r) => r.requesttypes.join(',')));
    assert.equal(((schemas.RequestObject as Json).oneOf as Json[]).length, lists.size);
    const partRefs = allRefs(schemas.ResponsePart);
    assert.deepEqual(
      partRefs,
      REQUEST_TYPES.map((t) => `#/components/schemas/part.${t}`),
    );
    assert.deepEqual(Object.keys(post.responses as Json), ['200', '401']);
  });

  it('is derived from the committed schemas: every field definition is carried over unchanged', () => {
    const fields = readJson(path.join(ROOT, 'schemas', 'fields.schema.json')).$defs as Json;
    for (const [name, def] of Object.entries(fields)) {
      const carried = JSON.stringify(def).replace(/"#\/\$defs\//g, '"#/components/schemas/');
      assert.equal(JSON.stringify(schemas[name]), carried, name);
    }
    const pan = schemas['request.pan'] as Json;
    assert.equal(pan.maxLength, (fields['request.pan'] as Json).maxLength);
    // Only local references: tools need not resolve the schemas' $id-relative ones.
    for (const ref of allRefs(doc)) assert.match(ref, /^#\/components\/schemas\/[A-Za-z0-9.\-_]+/);
    assert.ok(!JSON.stringify(doc).includes('"$id"'));
  });

  it("agrees with the kit's validator on the document's example requests and on broken ones", () => {
    const validRequest = componentValidator(doc, 'RequestEnvelope');
    for (const row of OPERATIONS) {
      const obj = readJson(path.join(EXAMPLES, 'requests', `${row.id}.json`));
      const env = envelope(obj);
      const kitErrors = validateRequestEnvelope(env).filter((v) => v.severity !== 'warning');
      assert.deepEqual(kitErrors, [], `the kit accepts ${row.id}`);
      assert.equal(validRequest(env), true, `the OpenAPI schema accepts ${row.id}`);
    }
    const auth = readJson(path.join(EXAMPLES, 'requests', 'auth.json'));
    const tooLong = envelope({ ...auth, pan: '4111111111111111111' + '1' });
    const { baseamount: _amount, ...noAmount } = auth;
    const missing = envelope(noAmount);
    const unknownType = envelope({ ...auth, requesttypedescriptions: ['REFUND'] });
    const twoObjects = { ...envelope(auth), request: [auth, auth] };
    for (const bad of [tooLong, missing, unknownType, twoObjects]) {
      assert.ok(
        validateRequestEnvelope(bad).some((v) => v.severity !== 'warning'),
        'the kit refuses it',
      );
      assert.equal(validRequest(bad), false, 'the OpenAPI schema refuses it');
    }
  });

  it("agrees with the kit's validator on the example responses", () => {
    const validResponse = componentValidator(doc, 'ResponseEnvelope');
    const envelopeFixture = readJson(path.join(EXAMPLES, 'envelopes', 'subscription.response.json'));
    assert.equal(validResponse(envelopeFixture), true);
    for (const type of REQUEST_TYPES) {
      const part = readJson(path.join(EXAMPLES, 'responses', `${type}.json`));
      const env = { requestreference: 'A0bc12345', version: '1.00', response: [part], secrand: 'Zmt9k8kIJTK8' };
      assert.deepEqual(
        validateResponseEnvelope(env, [type]).filter((v) => v.severity !== 'warning'),
        [],
        type,
      );
      assert.equal(validResponse(env), true, type);
      const wrongMessage = { ...env, response: [{ ...part, errorcode: '0', errormessage: 'Approved' }] };
      assert.equal(validResponse(wrongMessage), false, `${type}: errorcode 0 needs errormessage Ok`);
    }
  });

  it('holds no secret: examples are published only where masking changes nothing', () => {
    const text = JSON.stringify(doc, null, 2);
    assert.equal(redactText(text), text);
    assert.deepEqual(findCardNumbers(text), []);
    assert.ok(!/"securitycode"\s*:\s*"[0-9]/.test(text));
    assert.ok(!text.includes(USER.password));
    const requestExamples = Object.keys((((post.requestBody as Json).content as Json)['application/json'] as Json).examples as Json);
    // The AUTH example carries a card number: it is left out; the THREEDQUERY one (a cachetoken) is in.
    assert.ok(!requestExamples.includes('auth'));
    assert.ok(requestExamples.includes('threedquery'));
  });

  it('is deterministic', () => {
    assert.equal(JSON.stringify(buildOpenApi()), JSON.stringify(doc));
  });
});

describe('cardspec openapi', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-openapi-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes the document to --out (JSON), with --server as the base_url default', async () => {
    const file = path.join(dir, 'sub', 'openapi.json');
    assert.equal(await run(['--out', file, '--server', 'http://127.0.0.1:9999/']), 0);
    const written = readJson(file);
    assert.deepEqual(checkOpenApi(written), []);
    const server = (written.servers as Json[])[0] as Json & { variables: { base_url: Json } };
    assert.equal(server.variables.base_url.default, 'http://127.0.0.1:9999');
    assert.equal(JSON.stringify(written.paths), JSON.stringify(doc.paths));
  });

  it('writes YAML for a .yaml file', async () => {
    const file = path.join(dir, 'openapi.yaml');
    assert.equal(await run(['--out', file]), 0);
    const yaml = (await import('yaml')).parse(fs.readFileSync(file, 'utf8')) as Json;
    assert.equal(JSON.stringify(yaml), JSON.stringify(doc));
  });

  it('answers bad usage with exit 2 and a message, never a crash', async () => {
    assert.equal(await run(['--bogus']), 2);
    assert.equal(await run(['--out']), 2);
    assert.equal(await run(['--server', 'ftp://x']), 2);
    assert.equal(await run(['--server', 'http://user:cardspec-password-1@127.0.0.1:8080']), 2);
    assert.equal(await run(['--out', dir]), 2, 'a folder is not a file');
    assert.equal(await run(['--help']), 0);
  });

  it('prints the document on standard output through the real CLI', () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'cardspec.js'), 'openapi'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(JSON.stringify(JSON.parse(r.stdout)), JSON.stringify(doc));
  });
});

describe('Stoplight Prism serves the document', () => {
  const prismInstalled = findPrism();
  const skip = prismInstalled ? false : 'Stoplight Prism is not installed (npm install --save-dev @stoplight/prism-cli)';
  if (skip) console.log(`# skipped: ${skip}`);
  let prism: RunningPrism | undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-prism-'));
  const file = path.join(dir, 'openapi.json');
  const auth = 'Basic ' + Buffer.from(`${USER.username}:${USER.password}`).toString('base64');

  before(async () => {
    if (skip) return;
    fs.writeFileSync(file, JSON.stringify(doc));
    // A guard, not a speed: Prism started in 2 s at load 7 on two cores; its default 30 s could run out beside two
    // busy test files.
    prism = await startPrism(file, { startTimeoutMs: 300_000 });
  });
  after(async () => {
    await prism?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const post = (body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
    fetch(`${prism!.url}/json/`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: auth, ...headers }, body: JSON.stringify(body) });

  it('answers an AUTH request with an AUTH envelope the kit accepts', { skip }, async () => {
    const obj = readJson(path.join(EXAMPLES, 'requests', 'auth-3ds-not-enrolled.json'));
    const res = await post(envelope(obj));
    assert.equal(res.status, 200);
    const env = (await res.json()) as Json & { response: Json[] };
    assert.equal(env.response[0].requesttypedescription, 'AUTH');
    assert.deepEqual(
      validateResponseEnvelope(env, ['AUTH']).filter((v) => v.severity !== 'warning'),
      [],
    );
  });

  it('serves the named example a client asks for (Prefer: example=THREEDQUERY)', { skip }, async () => {
    const obj = readJson(path.join(EXAMPLES, 'requests', 'threedquery.json'));
    const res = await post(envelope(obj), { prefer: 'example=THREEDQUERY' });
    assert.equal(res.status, 200);
    const env = (await res.json()) as Json & { response: Json[] };
    assert.equal(env.response[0].requesttypedescription, 'THREEDQUERY');
  });

  it('refuses what the schemas refuse, and a call without basic authentication', { skip }, async () => {
    const obj = readJson(path.join(EXAMPLES, 'requests', 'auth-3ds-not-enrolled.json'));
    const invalid = await post(envelope({ ...obj, parenttransactionreference: 'not a reference!' }));
    assert.equal(invalid.status, 422);
    await invalid.body?.cancel();
    const anonymous = await fetch(`${prism!.url}/json/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(envelope(obj)) });
    assert.equal(anonymous.status, 401);
    await anonymous.body?.cancel();
  });
});
