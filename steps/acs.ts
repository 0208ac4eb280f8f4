/**
 * The customer's browser between the merchant and the issuer's ACS ("Customer redirect to the issuer's ACS
 * (browser, not JSON)"): a form POST of `PaReq`, `TermUrl` and `MD` to `acsurl`, the ACS's own page submitted as
 * the customer would, and the form that returns `PaRes` and `MD` to the merchant's `termurl`.
 */
import { Then, When } from '@cucumber/cucumber';
import { BrowserSession, postForm, submitForm, type Page } from '../src/client/browser';
import { redact } from '../src/redact';
import type { CardspecWorld, NamedPart } from './world';

const pages = new WeakMap<CardspecWorld, { query: NamedPart; page: Page; session: BrowserSession }>();

function attachPage(world: CardspecWorld, what: string, page: Page): void {
  world.attach(JSON.stringify(redact({ what, url: page.url, status: page.status, contentType: page.contentType, forms: page.forms }), null, 2), 'application/json');
}

async function postToAcs(world: CardspecWorld, name: string, names: { pareq: string; termurl: string; md: string }): Promise<Page> {
  const query = world.entry(name);
  const { acsurl, pareq, md } = query.part;
  const termurl = query.request.termurl;
  if (typeof acsurl !== 'string' || typeof pareq !== 'string' || typeof md !== 'string') {
    world.fail(`${name} holds no acsurl, pareq and md to send the browser with`, ['3DS-NEXT-Y']);
  }
  if (typeof termurl !== 'string') world.fail(`${name} was sent without a termurl`, ['3DS-NEXT-Y']);
  const session = new BrowserSession();
  const page = await postForm(acsurl, { [names.pareq]: pareq, [names.termurl]: termurl, [names.md]: md }, world.profile.limits, world.stop?.signal, session).catch((e: Error) =>
    world.fail(`the ACS at acsurl could not be reached: ${e.message}`, ['ACS-MERCHANT-TO-ACS']),
  );
  attachPage(world, `browser POST to acsurl with ${Object.values(names).join(', ')}`, page);
  pages.set(world, { query, page, session });
  return page;
}

/**
 * Submits the ACS page as shown (its preselected answer, by the form's own method) and reads the page the ACS answers with. An ACS that
 * shows the customer nothing (frictionless) answers the POST to `acsurl` with the form back to `termurl` at once:
 * that page is then the return itself, and nothing is submitted.
 */
async function submitAcsPage(world: CardspecWorld): Promise<{ query: NamedPart; returned: Page | undefined }> {
  const state = pages.get(world);
  if (!state) world.fail("the customer's browser has not been sent to the ACS yet");
  const termurl = String(state.query.request.termurl);
  if (state.page.status >= 200 && state.page.status <= 299 && state.page.forms.some((f) => sameUrl(f.action, termurl))) return { query: state.query, returned: state.page };
  const form = state.page.forms[0];
  if (state.page.status < 200 || state.page.status > 299 || !form) return { query: state.query, returned: undefined };
  const returned = await submitForm(form, world.profile.limits, world.stop?.signal, state.session).catch((e: Error) =>
    world.fail(`the ACS page's form could not be submitted: ${e.message}`, ['ACS-TO-MERCHANT']),
  );
  attachPage(world, 'the customer submits the ACS page', returned);
  return { query: state.query, returned };
}

function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).toString() === new URL(b).toString();
  } catch {
    return a === b;
  }
}

When("the customer's browser posts PaReq, TermUrl and MD to the acsurl of {txn}", async function (this: CardspecWorld, name: string) {
  const page = await postToAcs(this, name, { pareq: 'PaReq', termurl: 'TermUrl', md: 'MD' });
  this.check(page.status >= 200 && page.status <= 299, `the ACS answered HTTP ${page.status} to the form PaReq, TermUrl, MD`, ['ACS-MERCHANT-TO-ACS']);
  this.check(page.forms.length > 0, 'the ACS answered a page without a form for the customer to submit', ['ACS-MERCHANT-TO-ACS']);
});

When("the customer's browser posts pareq, termurl and md, in lower case, to the acsurl of {txn}", async function (this: CardspecWorld, name: string) {
  await postToAcs(this, name, { pareq: 'pareq', termurl: 'termurl', md: 'md' });
});

Then('the ACS returns the browser to the termurl with PaRes and MD', async function (this: CardspecWorld) {
  const { query, returned } = await submitAcsPage(this);
  const rules = ['ACS-TO-MERCHANT'];
  if (!returned) this.fail('the ACS page had no form to submit', rules);
  const termurl = String(query.request.termurl);
  const back = returned.forms.find((f) => sameUrl(f.action, termurl));
  if (!back) this.fail(`the ACS answered no form posting to the termurl (forms post to: ${returned.forms.map((f) => f.action).join(', ') || 'none'})`, rules);
  this.check(back.method === 'POST', `the form back to the termurl uses ${back.method}; the browser is returned by HTTPS POST`, rules);
  const names = Object.keys(back.fields);
  this.check('PaRes' in back.fields && 'MD' in back.fields, `the form back to the termurl holds ${names.join(', ') || 'no field'}; it must hold PaRes and MD (case sensitive)`, rules);
  this.check(back.fields.MD === query.part.md, 'the MD returned to the termurl is not the md of the THREEDQUERY: the merchant could not find the customer session with it', rules);
  query.acs = { md: back.fields.MD, pares: back.fields.PaRes };
});

Then('the ACS does not return the browser to the termurl with PaRes', async function (this: CardspecWorld) {
  const { query, returned } = await submitAcsPage(this);
  const termurl = String(query.request.termurl);
  const back = returned?.forms.find((f) => sameUrl(f.action, termurl) && 'PaRes' in f.fields && f.fields.PaRes !== '');
  this.check(!back, 'the ACS returned a PaRes to the termurl for a form whose field names were not PaReq, TermUrl and MD (the names are case sensitive)', ['ACS-MERCHANT-TO-ACS']);
});

When('the customer completes 3-D Secure at the ACS for {txn}', async function (this: CardspecWorld, name: string) {
  const page = await postToAcs(this, name, { pareq: 'PaReq', termurl: 'TermUrl', md: 'MD' });
  this.check(page.status >= 200 && page.status <= 299 && page.forms.length > 0, `the ACS answered HTTP ${page.status} without a form to the form PaReq, TermUrl, MD`, ['ACS-MERCHANT-TO-ACS']);
  const { query, returned } = await submitAcsPage(this);
  const back = returned?.forms.find((f) => sameUrl(f.action, String(query.request.termurl)));
  if (!back || !('PaRes' in back.fields) || !('MD' in back.fields)) this.fail('the ACS did not return the browser to the termurl with PaRes and MD', ['ACS-TO-MERCHANT']);
  query.acs = { md: back.fields.MD, pares: back.fields.PaRes };
});
