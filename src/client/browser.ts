/**
 * Just enough of a browser for the ACS round trip ("Customer redirect to the issuer's ACS (browser, not JSON)"):
 * post a form, and read the forms of the page that comes back (their action and their fields), so that the kit can
 * do what the customer's browser does: submit the ACS page as shown, then follow the form that returns to the
 * merchant's `termurl`. Field names are kept exactly as written: the document says they are case sensitive.
 */
import { httpRequest, HttpFailure, type HttpLimits } from './http';

export interface HtmlForm {
  readonly action: string;
  readonly method: string;
  /** Field name (as written) -> value, for inputs, textareas and the selected option of selects. */
  readonly fields: Readonly<Record<string, string>>;
}

export interface Page {
  readonly url: string;
  readonly status: number;
  readonly contentType: string;
  readonly html: string;
  readonly forms: readonly HtmlForm[];
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'", '#x27': "'", '#x2F': '/', '#x3D': '=' };

function decode(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (m, e: string) => {
    if (ENTITIES[e] !== undefined) return ENTITIES[e];
    if (e.startsWith('#x')) return String.fromCodePoint(parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(parseInt(e.slice(1), 10));
    return m;
  });
}

function attrs(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(/([^\s=<>/"']+)\s*(?:=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g)) {
    out[m[1].toLowerCase()] = decode(m[2] ?? m[3] ?? m[4] ?? '');
  }
  return out;
}

/**
 * The forms of a page. Attribute names are matched without regard to case (HTML's rule); the values, the field
 * names among them, are kept as written.
 */
export function parseForms(html: string, pageUrl: string): HtmlForm[] {
  const forms: HtmlForm[] = [];
  for (const m of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form\s*>/gi)) {
    const a = attrs(m[1]);
    const body = m[2];
    const fields: Record<string, string> = {};
    for (const i of body.matchAll(/<input\b([^>]*)>/gi)) {
      const ia = rawNamedAttrs(i[1]);
      if (ia.name === undefined) continue;
      const type = (ia.type ?? 'text').toLowerCase();
      if (type === 'submit' || type === 'button' || type === 'image' || type === 'reset') continue;
      if ((type === 'radio' || type === 'checkbox') && !/\bchecked\b/i.test(i[1])) continue;
      fields[ia.name] = ia.value ?? '';
    }
    for (const t of body.matchAll(/<textarea\b([^>]*)>([\s\S]*?)<\/textarea\s*>/gi)) {
      const ta = rawNamedAttrs(t[1]);
      if (ta.name !== undefined) fields[ta.name] = decode(t[2]);
    }
    for (const s of body.matchAll(/<select\b([^>]*)>([\s\S]*?)<\/select\s*>/gi)) {
      const sa = rawNamedAttrs(s[1]);
      if (sa.name === undefined) continue;
      const options = [...s[2].matchAll(/<option\b([^>]*)>([\s\S]*?)(?=<option\b|$)/gi)];
      const chosen = options.find((o) => /\bselected\b/i.test(o[1])) ?? options[0];
      if (chosen) fields[sa.name] = attrs(chosen[1]).value ?? decode(chosen[2].replace(/<[^>]*>/g, '').trim());
    }
    let action = a.action ?? '';
    try {
      action = new URL(action || pageUrl, pageUrl).toString();
    } catch {
      /* kept as written: the caller reports it */
    }
    forms.push({ action, method: (a.method ?? 'get').toUpperCase(), fields });
  }
  return forms;
}

/** `name`, `type`, `value` of a tag, the values as written (decoded), the names matched in any case. */
function rawNamedAttrs(tag: string): { name?: string; type?: string; value?: string } {
  const a = attrs(tag);
  return { name: a.name, type: a.type, value: a.value };
}

/**
 * What a browser keeps between the pages of one round trip: its cookies, by host. An ACS may set a session cookie
 * on the POST to `acsurl` and expect it on the page it redirects to; the document fixes only the POST to `acsurl`
 * and the POST back to `termurl`, not how the ACS gets from one to the other.
 */
export class BrowserSession {
  private readonly cookies = new Map<string, Map<string, string>>();

  /** The `Cookie` header for `url`, if the session holds any for its host. */
  cookieFor(url: URL): string | undefined {
    const jar = this.cookies.get(url.host);
    return jar && jar.size > 0 ? [...jar].map(([k, v]) => `${k}=${v}`).join('; ') : undefined;
  }

  /** Keeps the cookies of an answer (`set-cookie`, repeated ones joined with `, `; attributes ignored). */
  keep(url: URL, setCookie: string | undefined): void {
    if (!setCookie) return;
    let jar = this.cookies.get(url.host);
    if (!jar) this.cookies.set(url.host, (jar = new Map()));
    for (const one of setCookie.split(/,\s*(?=[^;,=\s]+=)/)) {
      const m = /^\s*([^;=\s]+)=([^;]*)/.exec(one);
      if (m) jar.set(m[1], m[2].trim());
    }
  }
}

/** Redirects a browser follows before it gives up (browsers allow about 20). */
const MAX_REDIRECTS = 10;

/**
 * Posts a form (`application/x-www-form-urlencoded`) as a browser would, and reads the page that comes back,
 * following redirects as a browser does (301, 302 and 303 become a GET, 307 and 308 repeat the POST) with the
 * session's cookies. The page's `url` is where the browser ended up, so that relative form actions resolve there.
 */
export function postForm(url: string, fields: Readonly<Record<string, string>>, limits: HttpLimits, signal?: AbortSignal, session = new BrowserSession()): Promise<Page> {
  return navigate(url, 'POST', new URLSearchParams(Object.entries(fields)).toString(), limits, signal, session);
}

/**
 * Submits a form of a page as a browser does, by its own method: `GET` puts the fields in the query of the action
 * (in place of any query it had), anything else posts them.
 */
export function submitForm(form: HtmlForm, limits: HttpLimits, signal?: AbortSignal, session = new BrowserSession()): Promise<Page> {
  const encoded = new URLSearchParams(Object.entries(form.fields)).toString();
  if (form.method !== 'GET') return navigate(form.action, 'POST', encoded, limits, signal, session);
  let url = form.action;
  try {
    const u = new URL(form.action);
    u.search = encoded;
    url = u.toString();
  } catch {
    /* an action that is no URL: the request reports it */
  }
  return navigate(url, 'GET', undefined, limits, signal, session);
}

async function navigate(url: string, firstMethod: string, firstBody: string | undefined, limits: HttpLimits, signal: AbortSignal | undefined, session: BrowserSession): Promise<Page> {
  let at = url;
  let method = firstMethod;
  let body: string | undefined = firstBody;
  try {
    for (let hop = 0; ; hop++) {
      const where = new URL(at);
      const cookie = session.cookieFor(where);
      const res = await httpRequest({
        url: at,
        method,
        headers: {
          ...(body !== undefined ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
          Accept: 'text/html,application/xhtml+xml',
          ...(cookie ? { Cookie: cookie } : {}),
        },
        ...(body !== undefined ? { body } : {}),
        limits,
        signal,
      });
      session.keep(where, res.headers['set-cookie']);
      const location = res.headers.location;
      if ([301, 302, 303, 307, 308].includes(res.status) && location) {
        if (hop >= MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects from ${url}`);
        at = new URL(location, at).toString();
        if (res.status !== 307 && res.status !== 308) {
          method = 'GET';
          body = undefined;
        }
        continue;
      }
      const html = res.body.toString('utf8');
      return { url: at, status: res.status, contentType: res.headers['content-type'] ?? '', html, forms: parseForms(html, at) };
    }
  } catch (e) {
    throw new Error(e instanceof HttpFailure ? e.message : e instanceof Error ? e.message : String(e));
  }
}
