/**
 * Runs the nock example of examples/payments-client (a client's own test, certified in-process with cardspec/nock)
 * inside `npm test`, for both `https.request` and `fetch`. The example lives in examples/ so that it reads as what an
 * SDK's author writes; scripts/test.js finds test files under test/ only.
 */
import '../../examples/payments-client/client.test';
