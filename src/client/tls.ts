/**
 * How the kit trusts an HTTPS target: the system's roots (node's default), plus a private CA (`--ca FILE`, or
 * CARDSPEC_CA), or not at all (`--insecure`, or CARDSPEC_INSECURE=1: loudly, since the exchanges then prove nothing
 * about who answered). A sandbox with a private CA otherwise fails every scenario with DEPTH_ZERO_SELF_SIGNED_CERT.
 *
 * The setting travels in the environment: the CLI writes it there once (`applyTls`), and every HTTPS exchange of
 * the process reads it (`tlsRequestOptions`): the suite's client, the preflight, the control API, the ACS round
 * trip of the browser flow (an https `acsurl` is trusted alike), and also cucumber's worker processes and the
 * fuzzer's threads, which inherit the environment. One module, so that no client trusts differently.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const CA_ENV = 'CARDSPEC_CA';
export const INSECURE_ENV = 'CARDSPEC_INSECURE';

/** The TLS part of node:https's request and agent options. */
export interface TlsOptions {
  /** The system's roots and the private CA's certificates. */
  readonly ca?: (string | Buffer)[];
  readonly rejectUnauthorized?: boolean;
}

export class TlsConfigError extends Error {}

const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The certificates of a PEM file; throws a `TlsConfigError` saying what is wrong with it. */
export function readCaFile(file: string): string[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new TlsConfigError(`--ca ${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const certs = text.match(PEM_CERT) ?? [];
  if (certs.length === 0) throw new TlsConfigError(`--ca ${file}: no PEM certificate in it (expected "-----BEGIN CERTIFICATE-----")`);
  if (/PRIVATE KEY-----/.test(text)) throw new TlsConfigError(`--ca ${file}: it holds a private key; give the CA's certificate only`);
  return certs;
}

function truthy(v: string | undefined): boolean {
  return v !== undefined && /^(1|true|yes|on)$/i.test(v.trim());
}

let cached: { key: string; options: TlsOptions } | undefined;

/** What every HTTPS exchange of this process uses, from the environment (read once per setting). */
export function tlsRequestOptions(env: NodeJS.ProcessEnv = process.env): TlsOptions {
  const key = `${env[CA_ENV] ?? ''}\u0000${env[INSECURE_ENV] ?? ''}`;
  if (cached && cached.key === key) return cached.options;
  let options: TlsOptions = {};
  if (truthy(env[INSECURE_ENV])) options = { rejectUnauthorized: false };
  else if (env[CA_ENV]) {
    // node's `ca` replaces the system's roots: keep them, so that a public certificate still verifies.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { rootCertificates } = require('node:tls') as typeof import('node:tls');
    options = { ca: [...rootCertificates, ...readCaFile(env[CA_ENV]!)] };
  }
  cached = { key, options };
  return options;
}

export interface TlsChoice {
  /** `--ca FILE`, else CARDSPEC_CA. */
  readonly ca?: string;
  /** `--insecure`, else CARDSPEC_INSECURE. */
  readonly insecure?: boolean;
}

export const INSECURE_WARNING =
  'WARNING: --insecure: the TLS certificate of the target is NOT verified. Anyone between the kit and the target ' +
  'could answer in its place, so this run proves nothing about the target it names. Use --ca FILE with the ' +
  "sandbox's CA certificate instead.";

/**
 * Checks a command's TLS options and writes them to `env` for this process and its workers; returns the warnings
 * to print (the loud one of --insecure). Throws a `TlsConfigError` on a CA file that cannot serve.
 */
export function applyTls(choice: TlsChoice, env: NodeJS.ProcessEnv = process.env): string[] {
  const insecure = choice.insecure === true || truthy(env[INSECURE_ENV]);
  const caGiven = choice.ca ?? env[CA_ENV];
  if (insecure && caGiven && choice.ca !== undefined && choice.insecure === true) throw new TlsConfigError('--ca and --insecure exclude each other: give the CA, or (at your risk) --insecure');
  if (caGiven !== undefined && caGiven !== '') {
    const file = path.resolve(caGiven);
    readCaFile(file);
    env[CA_ENV] = file;
  }
  if (insecure) {
    env[INSECURE_ENV] = '1';
    return [INSECURE_WARNING];
  }
  return [];
}

/** The help lines of the two options, the same in every command that takes them. */
export const TLS_HELP = `  --ca <file>                  trust this CA certificate (PEM) for an https target, besides the system's
                               roots (or CARDSPEC_CA)
  --insecure                   do not verify the target's TLS certificate at all (or CARDSPEC_INSECURE=1); a loud
                               warning says what that costs`;
