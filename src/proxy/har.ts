/**
 * `cardspec proxy --record FILE.har`: the capture as HAR 1.2, for the tools that read HAR (browser devtools,
 * mitmproxy, Charles, Fiddler, `cardspec audit`). Masked as the JSON-lines capture is (capture.ts): bodies as
 * structures or text, headers by name (Authorization hidden), then each entry whole as text. Entries are written as
 * the traffic goes (the file is the log's head, the entries, and the tail written on close), so memory stays flat;
 * a proxy killed without its close leaves a file without its tail, which `cardspec audit` refuses as no HAR.
 */
import * as fs from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { redact, redactText } from '../redact';
import { kitVersion } from '../report';
import { maskedBody } from './capture';
import { header, type HttpExchange } from './exchange';

/** The creator a HAR of the proxy names: `cardspec audit` reads such a file's masked bodies as the capture's. */
export const HAR_CREATOR = 'cardspec proxy';

interface HarHeader {
  readonly name: string;
  readonly value: string;
}

/** Node's headers as HAR's list, masked by name (the body's encoding is gone: the text is inflated). */
function harHeaders(h: IncomingHttpHeaders | undefined): HarHeader[] {
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(h ?? {})) if (v !== undefined && k !== 'content-encoding' && k !== 'content-length') flat[k] = Array.isArray(v) ? v.join(', ') : v;
  return Object.entries(redact(flat)).map(([name, value]) => ({ name, value: String(value) }));
}

function query(path: string): HarHeader[] {
  const i = path.indexOf('?');
  if (i < 0) return [];
  return [...new URLSearchParams(path.slice(i + 1))].map(([name, value]) => ({ name, value }));
}

export class HarWriter {
  private readonly fd: number;
  private closed = false;
  private count = 0;

  constructor(readonly file: string) {
    this.fd = fs.openSync(file, 'w');
    fs.writeSync(this.fd, `{"log":{"version":"1.2","creator":${JSON.stringify({ name: HAR_CREATOR, version: kitVersion() })},"pages":[],"entries":[\n`);
  }

  write(ex: HttpExchange): void {
    if (this.closed) return;
    const host = header(ex.requestHeaders, 'host') ?? 'proxy';
    const requestText = maskedBody(ex.requestBody, ex.requestHeaders);
    const responseText = ex.responseBody ? maskedBody(ex.responseBody, ex.responseHeaders) : '';
    const entry = {
      startedDateTime: new Date().toISOString(),
      time: 0,
      request: {
        method: ex.method,
        url: `http://${host}${ex.path}`,
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: harHeaders(ex.requestHeaders),
        queryString: query(ex.path),
        ...(requestText !== '' ? { postData: { mimeType: header(ex.requestHeaders, 'content-type') ?? '', text: requestText } } : {}),
        headersSize: -1,
        bodySize: Buffer.byteLength(requestText),
      },
      response: {
        // HAR's way of saying no answer came: status 0, and why in a field of the writer's own (`_`).
        status: ex.fault ? 0 : (ex.status ?? 0),
        statusText: '',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: harHeaders(ex.responseHeaders),
        content: { size: Buffer.byteLength(responseText), mimeType: header(ex.responseHeaders, 'content-type') ?? '', text: responseText },
        redirectURL: '',
        headersSize: -1,
        bodySize: ex.fault ? -1 : Buffer.byteLength(responseText),
        ...(ex.fault ? { _error: `${ex.fault.kind}: ${ex.fault.message}` } : {}),
      },
      cache: {},
      timings: { send: 0, wait: 0, receive: 0 },
    };
    // Masked twice over, as the JSON-lines capture: as structures above, and the whole entry as text.
    fs.writeSync(this.fd, `${this.count++ === 0 ? '' : ',\n'}${redactText(JSON.stringify(entry))}`);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    fs.writeSync(this.fd, '\n]}}\n');
    fs.closeSync(this.fd);
  }
}
