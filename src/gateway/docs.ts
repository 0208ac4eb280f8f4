/**
 * The test data tables of docs/gateway.md, generated from src/testdata.ts so the README and the code cannot drift
 * (test/gateway/docs.test.ts fails when the document's copy differs). Print them with
 * `node -r ts-node/register/transpile-only -e "console.log(require('./src/gateway/docs').testDataTables())"`.
 */
import { MCC_6012_FIELDS, MCC_6012_VALUES, SECURITY_TRIGGERS, TEST_CARDS, type TestCard } from '../testdata';

function outcome(c: TestCard): string {
  if (c.unknownError) return '99999 for any operation';
  const parts = [c.bank === '0' ? 'authorised' : 'declined 70000', `enrolled ${c.enrolled}`];
  if (c.enrolled === 'Y') parts.push(`ACS ${c.acs}`);
  if (c.no3ds) parts.push('60031 on THREEDQUERY');
  parts.push(`RISKDEC ${c.shield}`);
  return parts.join(', ');
}

export function testDataTables(): string {
  const cards = [
    '| Name | Card number | Expiry | Security code | Scheme | Outcome | Source | Note |',
    '|---|---|---|---|---|---|---|---|',
    ...Object.entries(TEST_CARDS).map(([name, c]) => `| \`${name}\` | \`${c.pan}\` | ${c.expirydate} | ${c.securitycode} | ${c.scheme} | ${outcome(c)} | ${c.source} | ${c.note} |`),
  ];
  const labels = { billingpremise: 'securityresponseaddress', billingpostcode: 'securityresponsepostcode', securitycode: 'securityresponsesecuritycode' } as const;
  const security = [
    '| Field sent | Result field | `2` matched | `4` not matched | `1` not checked | `0` not given |',
    '|---|---|---|---|---|---|',
    ...Object.entries(SECURITY_TRIGGERS).map(
      ([field, t]) => `| \`${field}\` | \`${labels[field as keyof typeof labels]}\` | any other value (e.g. \`${t.matched}\`) | \`${t.notMatched}\` | \`${t.notChecked}\` | not sent |`,
    ),
  ];
  const mcc = ['| Field (site with category 6012) | Example value |', '|---|---|', ...MCC_6012_FIELDS.map((f) => `| \`${f}\` | \`${MCC_6012_VALUES[f]}\` |`)];
  return [cards.join('\n'), security.join('\n'), mcc.join('\n')].join('\n\n');
}
