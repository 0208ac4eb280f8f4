/**
 * Example Bank's own check. A step file of a user: cucumber's `Then` (the kit's copy of @cucumber/cucumber, so
 * the step joins the kit's step library) and the kit's World: `this.entry(...)` is a transaction the scenario
 * sent, `this.check(...)` fails the scenario under its @rule tags, with the message masked like the kit's own.
 * Installed from npm, the import reads `import type { CardspecWorld } from 'cardspec/steps/world';`.
 */
import { Then } from '@cucumber/cucumber';
import type { CardspecWorld } from '../../../steps/world';

Then("{txn} is declined by the bank's amount limit of {int}", function (this: CardspecWorld, name: string, limit: number) {
  const { part, request } = this.entry(name);
  const sent = Number(request.baseamount);
  // A check of the answer, not of what was sent: the amount only says whether the limit applies.
  this.check(sent > limit, `${name} was sent with baseamount ${String(request.baseamount)}, not above the bank's limit of ${limit}: the scenario is wrong`);
  this.check(
    typeof part.errorcode === 'string' && part.errorcode !== '0',
    `${name} of baseamount ${sent} has errorcode ${JSON.stringify(part.errorcode)}: the bank declines payments above ${limit}, so a non-zero errorcode is due`,
  );
});
