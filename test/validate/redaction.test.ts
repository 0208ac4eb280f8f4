/**
 * No violation message carries a card number or a security code: messages never quote a field's value (so this
 * holds even with masking switched off), and what does come from the input (field names, parser errors) goes
 * through redactText.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TEST_CARDS } from '../../src/testdata';
import { InputError, validateRequestEnvelope, validateRequestObject, validateResponseEnvelope, validateResponsePart, validateText, type Violation } from '../../src/validate';
import { example } from '../schemas/fixtures';

const PAN = TEST_CARDS.authorised.pan;
const AMEX = TEST_CARDS.amex.pan;
/** A security code that appears nowhere else in the fixtures or messages. */
const CODE = '8642';

function leaks(vs: readonly Violation[]): string[] {
  const text = JSON.stringify(vs);
  const out: string[] = [];
  for (const secret of [PAN, AMEX, CODE, PAN.slice(0, 12)]) if (text.includes(secret)) out.push(secret);
  const run = /[0-9]{12,}/.exec(text);
  if (run) out.push(run[0]);
  return out;
}

/** Requests and parts that put the card data where it breaks a rule, every way the dictionary allows. */
function offenders(): Violation[][] {
  const auth = example('requests', 'auth');
  const store = example('requests', 'store');
  return [
    validateRequestObject({ ...auth, pan: `${PAN}0000` }),
    validateRequestObject({ ...auth, pan: PAN.slice(0, 11) }),
    validateRequestObject({ ...auth, pan: `${PAN.slice(0, 8)} ${PAN.slice(8)}` }),
    validateRequestObject({ ...auth, pan: Number(PAN) }),
    validateRequestObject({ ...auth, pan: [PAN] }),
    validateRequestObject({ ...auth, pan: AMEX, securitycode: `${CODE}1` }),
    validateRequestObject({ ...auth, securitycode: Number(CODE) }),
    validateRequestObject({ ...auth, securitycode: `${CODE.slice(0, 2)}x${CODE.slice(3)}` }),
    validateRequestObject({ ...store, securitycode: CODE }),
    validateRequestObject({ ...auth, orderreference: `${PAN}\n`, baseamount: PAN }),
    validateRequestObject({ requesttypedescriptions: [PAN], pan: PAN, securitycode: CODE }),
    validateRequestEnvelope({ alias: PAN, version: CODE, request: [{ ...auth, securitycode: `${CODE}${CODE}` }, { pan: PAN }] }),
    validateResponsePart({ ...example('responses', 'STORE'), maskedpan: PAN }),
    validateResponsePart({ ...example('responses', 'STORE'), maskedpan: `${PAN}####` }),
    validateResponseEnvelope({ requestreference: PAN, version: '1.00', secrand: CODE, response: [{ requesttypedescription: PAN, errorcode: '0', errormessage: 'Ok' }] }, [PAN]),
    validateResponsePart({ requesttypedescription: PAN, errorcode: PAN, errormessage: CODE }),
  ];
}

test('no violation message or field carries a card number or a security code', () => {
  const all = offenders();
  assert.ok(
    all.every((vs) => vs.length > 0),
    'every offender is reported',
  );
  assert.deepEqual(all.map(leaks).flat(), []);
});

test('messages never quote the card data even with masking switched off: they do not hold values at all', () => {
  const saved = process.env.CARDSPEC_UNSAFE_NO_REDACTION;
  process.env.CARDSPEC_UNSAFE_NO_REDACTION = '1';
  try {
    const found = offenders().map(leaks).flat();
    assert.deepEqual(found, []);
  } finally {
    if (saved === undefined) delete process.env.CARDSPEC_UNSAFE_NO_REDACTION;
    else process.env.CARDSPEC_UNSAFE_NO_REDACTION = saved;
  }
});

test('a card number used as a field name is masked where the field is named', () => {
  const vs = validateRequestObject({ ...example('requests', 'transactionquery'), filter: { [PAN]: 'x' } });
  assert.equal(vs.length, 1);
  assert.ok(vs[0].field.includes('411111######1111'), vs[0].field);
  assert.deepEqual(leaks(vs), []);
});

test('unparseable input: the finding says what is wrong without repeating the card number', () => {
  for (const text of [`{"pan": ${PAN}, "securitycode": "${CODE}"`, `{"request":[{"pan":"${PAN}"}]]}`, `<requestblock version="3.67"><pan>${PAN}</pan`]) {
    const { violations } = validateText(text);
    assert.ok(
      violations.some((v) => v.severity === 'error'),
      text,
    );
    const all = JSON.stringify(violations);
    assert.ok(!all.includes(PAN) && !all.includes(CODE), all);
  }
  assert.throws(
    () => validateText('  '),
    (err: unknown) => err instanceof InputError,
  );
});
