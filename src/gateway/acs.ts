/**
 * The emulated ACS ("Customer redirect to the issuer's ACS"). `acsurl` is `<gateway>/acs/`:
 * 1. the customer's browser POSTs `PaReq`, `TermUrl` and `MD` ("These names are case sensitive") and gets a page
 *    with the outcome preselected from the test card (`Y`, `N`, `A`, `U`; a person may change it) and a submit button;
 * 2. that form POSTs to `<gateway>/acs/complete`, which issues the `PaRes` and answers a page that POSTs `PaRes` and
 *    `MD` back to `TermUrl` ("The browser is returned by HTTPS POST to the `termurl`. The form holds `PaRes` and
 *    `MD`.") by itself, with a visible button when scripts are off.
 * A program does the same with two form POSTs. Element ids and names are stable (docs/gateway.md): a browser test
 * drives these pages. The pages never show or carry a card number.
 */
import { cardFor, type AcsStatus } from '../testdata';
import { classRegExp } from '../../schemas/typeclasses';
import { randomBase64 } from './random';
import type { Runtime } from './runtime';
import type { TxRecord } from './types';

export interface HtmlReply {
  status: number;
  html: string;
  /** Why the request was refused (a 4xx), for the observer: the contract gate judges the merchant's form by it. */
  reason?: string;
}

const OUTCOMES: readonly { value: AcsStatus; label: string }[] = [
  { value: 'Y', label: 'Y: authenticated' },
  { value: 'N', label: 'N: not authenticated' },
  { value: 'A', label: 'A: attempt made but not completed' },
  { value: 'U', label: 'U: unable to authenticate' },
];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

function page(title: string, body: string, script = ''): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=390">',
    `<title>${escapeHtml(title)}</title>`,
    // "The guideline is 390x400 pixels."
    '<style>body{font-family:sans-serif;max-width:390px;min-height:400px;margin:0 auto;padding:8px}</style>',
    '</head><body>',
    body,
    script,
    '</body></html>',
  ].join('\n');
}

function problem(status: number, message: string): HtmlReply {
  return { status, reason: message, html: page('cardspec ACS: request refused', `<h1>Request refused</h1>\n<p id="acs-error">${escapeHtml(message)}</p>`) };
}

const hidden = (name: string, value: string): string => `<input type="hidden" id="${name}" name="${name}" value="${escapeHtml(value)}">`;

/** `TermUrl` must be a URL (the document's `termurl` is "URL", 1024). */
function termUrlProblem(termUrl: string | null): string | undefined {
  if (termUrl === null || termUrl === '') return 'TermUrl is missing (the names PaReq, TermUrl and MD are case sensitive)';
  if (termUrl.length > 1024 || !classRegExp('url').test(termUrl)) return 'TermUrl is not an http(s) URL';
  return undefined;
}

/** The THREEDQUERY that issued `MD` and `PaReq`, or why the ACS refuses the request. */
function findQuery(rt: Runtime, form: URLSearchParams): TxRecord | string {
  const md = form.get('MD');
  const pareq = form.get('PaReq');
  if (md === null || md === '') return 'MD is missing (the names PaReq, TermUrl and MD are case sensitive)';
  if (pareq === null || pareq === '') return 'PaReq is missing (the names PaReq, TermUrl and MD are case sensitive)';
  const query = rt.ledger.threeDsBy(md, undefined);
  if (!query?.threeds || query.threeds.md !== md || query.threeds.pareq !== pareq) return 'MD and PaReq do not match an authentication request of this ACS';
  return query;
}

/** Step 1: the authentication page. `action` is relative, so the pages work behind a proxy that adds a path. */
export function acsForm(rt: Runtime, form: URLSearchParams, action = 'complete'): HtmlReply {
  const query = findQuery(rt, form);
  if (typeof query === 'string') return problem(400, query);
  const termUrl = form.get('TermUrl');
  const bad = termUrlProblem(termUrl);
  if (bad) return problem(400, bad);
  const preset = query.card ? cardFor(query.card.pan).acs : 'Y';
  const options = OUTCOMES.map((o) => `<option value="${o.value}"${o.value === preset ? ' selected' : ''}>${escapeHtml(o.label)}</option>`).join('');
  const body = [
    '<h1>cardspec test ACS</h1>',
    `<p>Amount: <span id="acs-amount">${escapeHtml(String(query.part.baseamount ?? ''))} ${escapeHtml(String(query.part.currencyiso3a ?? ''))}</span>`,
    `<br>Card: <span id="acs-card">${escapeHtml(String(query.part.maskedpan ?? ''))}</span></p>`,
    `<form id="acs-form" method="post" action="${escapeHtml(action)}">`,
    hidden('PaReq', form.get('PaReq')!),
    hidden('TermUrl', termUrl!),
    hidden('MD', form.get('MD')!),
    `<label for="acs-outcome">Outcome</label> <select id="acs-outcome" name="outcome">${options}</select>`,
    '<button type="submit" id="acs-submit">Submit</button>',
    '</form>',
  ].join('\n');
  return { status: 200, html: page('cardspec test ACS', body) };
}

/** Step 2: issues the `PaRes` and returns the browser to `TermUrl` with `PaRes` and `MD`. */
export function acsComplete(rt: Runtime, form: URLSearchParams): HtmlReply {
  const query = findQuery(rt, form);
  if (typeof query === 'string') return problem(400, query);
  const termUrl = form.get('TermUrl');
  const bad = termUrlProblem(termUrl);
  if (bad) return problem(400, bad);
  const chosen = form.get('outcome') ?? (query.card ? cardFor(query.card.pan).acs : 'Y');
  const outcome = OUTCOMES.find((o) => o.value === chosen)?.value;
  if (!outcome) return problem(400, 'outcome must be one of Y, N, A, U');
  const pares = randomBase64(180);
  const md = form.get('MD')!;
  rt.ledger.change(query.transactionreference, (r) => {
    r.threeds = { ...r.threeds!, pares, outcome, used: false };
  });
  const body = [
    '<h1>Returning to the merchant</h1>',
    `<form id="acs-return" method="post" action="${escapeHtml(termUrl!)}">`,
    hidden('PaRes', pares),
    hidden('MD', md),
    '<noscript><button type="submit" id="acs-continue">Continue</button></noscript>',
    '</form>',
  ].join('\n');
  return { status: 200, html: page('cardspec test ACS', body, "<script>document.getElementById('acs-return').submit();</script>") };
}
