/**
 * The AUTH after a THREEDQUERY of a card not enrolled or unknown answers the card's enrolment as that THREEDQUERY
 * found it (3DS-AUTH-NOT-ENROLLED: "1 AUTH part with `enrolled`"), as the AUTH after 3-D Secure of an enrolled
 * card does (3DS-AUTH-ENROLLED): U is not N. Seen by the proxy from the two exchanges alone.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SITE, type Sender } from '../contract/helpers';
import { broken, closedAtEnd } from './helpers';

const { path } = closedAtEnd();

/** A THREEDQUERY of the card of unknown enrolment, then its AUTH with the THREEDQUERY as parent. */
async function unknownThenAuth(client: Sender): Promise<{ query: Record<string, unknown>; auth: Record<string, unknown> }> {
  const query = await client.ok(client.threedquery(await client.token('enrolmentUnknown')));
  assert.equal(query.enrolled, 'U');
  const auth = await client.ok({ requesttypedescriptions: ['AUTH'], sitereference: SITE, parenttransactionreference: String(query.transactionreference) });
  return { query, auth };
}

describe('the enrolment an AUTH after a THREEDQUERY of unknown enrolment answers (3DS-AUTH-NOT-ENROLLED)', () => {
  it("the reference gateway: the THREEDQUERY's U, no gateway error", async () => {
    const { client, proxy } = await path();
    const { auth } = await unknownThenAuth(client);
    assert.equal(auth.enrolled, 'U');
    assert.deepEqual(await broken(proxy, 'gateway'), []);
  });

  it('a gateway that answers N is named under 3DS-AUTH-NOT-ENROLLED', async () => {
    const { client, proxy } = await path('blind3-unknown-enrolment-auth-says-n');
    const { auth } = await unknownThenAuth(client);
    assert.equal(auth.enrolled, 'N');
    assert.deepEqual(await broken(proxy, 'gateway'), ['3DS-AUTH-NOT-ENROLLED']);
  });
});
