/**
 * The vocabulary of the self-check: a variant of the reference gateway (faulty or benign), how it is built, and
 * what a run of the suite and of the fuzzer made of it. Kept apart so that the gallery, the runner, its worker
 * processes and the tables share one set of shapes (everything here that crosses a process is plain JSON).
 */
import type { GatewayMutation } from '../gateway';
import type { GatewayConfig } from '../testdata';
import type { Format } from '../wire/types';

/** Where in the document a variant departs from (or stays within) it: the list, one word each. */
export const AREAS = {
  envelope: 'the JSON envelope (order, parts, version, strings, secrand)',
  fields: 'fields: lengths, formats, masks, timestamps, references',
  types: 'the request types (AUTH, THREEDQUERY, ACCOUNTCHECK, STORE, RISKDEC, SUBSCRIPTION, follow-ups)',
  states: 'the state machines (subscription, card store, 3-D Secure, settlement)',
  errors: 'the error codes of the Errors table',
  inheritance: 'inheritance through parenttransactionreference',
  acs: 'the ACS browser round trip',
  xml: 'the XML envelope',
  transport: 'transport and authentication',
} as const;
export type Area = keyof typeof AREAS;

/**
 * What sits in front of the gateway when the mutation hook cannot reach a behaviour (basic authentication, the
 * emulated ACS pages): a loopback proxy that may rewrite a request on its way in and an answer on its way out.
 * Bodies are text; the proxy fixes `Content-Length`.
 */
export interface Front {
  request?(req: FrontRequest): FrontRequest;
  response?(res: FrontResponse, req: FrontRequest): FrontResponse;
}

export interface FrontRequest {
  readonly method: string;
  /** Path and query, as the client sent them. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface FrontResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** How one instance of a variant is built: the mutation hook, a configuration, a front. Built fresh per start. */
export interface VariantBuild {
  readonly mutate?: GatewayMutation;
  readonly config?: GatewayConfig;
  readonly front?: Front;
  /**
   * How many answers the change touched so far: a mutant restricted to one context counts them, so that one no
   * exchange of the suite reached is told apart from one the suite met and missed.
   */
  readonly reached?: () => number;
}

interface VariantBase {
  /** Unique, kebab-case: how the table, `--only` and the worker processes name it. */
  readonly name: string;
  readonly area: Area;
  /** Completes "a gateway that ...". */
  readonly what: string;
  /**
   * The formats to run (default both). A variant limited to one names why in `what` (a JSON number has no XML
   * form; an XML element path has no JSON one).
   */
  readonly formats?: readonly Format[];
  /** Called once per gateway started, so that a variant's own state (a closure) never leaks between runs. */
  build(): VariantBuild;
}

/** A gateway that breaks one rule of features/rules.yaml. */
export interface FaultyVariant extends VariantBase {
  readonly kind: 'faulty';
  /** The rule ID it breaks: a scenario tagged `@rule:<rule>` must fail. */
  readonly rule: string;
}

/** A gateway that differs only where the document allows: it must pass the whole suite. */
export interface BenignVariant extends VariantBase {
  readonly kind: 'benign';
  /** What the document allows, in its words or the public fact followed. */
  readonly allowedBy: string;
}

export type Variant = FaultyVariant | BenignVariant;

/** A scenario of a run, as little as a verdict and a table need (plain JSON: it crosses from a worker). */
export interface ScenarioOutcome {
  readonly format: Format;
  readonly uri: string;
  readonly line: number;
  readonly name: string;
  readonly rules: readonly string[];
  /** The rules a failure broke (its failed checks' rules; src/rules/checks.ts). */
  readonly broken?: readonly string[];
  readonly verdict: 'passed' | 'failed' | 'skipped';
  /** A kit problem (a step without a definition, an unfinished scenario): never a catch, never a pass. */
  readonly kitProblem: boolean;
  /** First line of the error or of the skip reason, masked. */
  readonly why?: string;
}

/** What the short fuzz run found: each error failure by the rule its oracle or model names. */
export interface FuzzOutcome {
  readonly ran: boolean;
  readonly failures: readonly { readonly rule: string; readonly what: string }[];
  /** Why it did not run or stopped (masked). */
  readonly problems: readonly string[];
  readonly durationMs: number;
}

/**
 * The scenarios (`features/<file>:<line>`) in which a mutant changed an answer in the census (./census.ts), per
 * format, each in the order to run them; both empty: it changed none in the whole suite.
 */
export interface Focus {
  readonly json: readonly string[];
  readonly xml: readonly string[];
  /** How many of each list come first because they are tagged with the mutant's rule. */
  readonly tagged?: Readonly<Record<Format, number>>;
}

/** One variant run through the suite (and the fuzzer). */
export interface VariantRun {
  readonly name: string;
  /** The cucumber tag expression of the scenarios judged (`@rule:<ID>` when those caught a faulty variant, else none). */
  readonly tags: string;
  /** The scenarios judged are the whole suite's (a benign variant, or a faulty one its rule's scenarios missed). */
  readonly wholeSuite?: boolean;
  readonly formats: readonly Format[];
  readonly scenarios: readonly ScenarioOutcome[];
  /** Problems outside the scenarios: the gateway did not start, cucumber could not run (masked). */
  readonly problems: readonly string[];
  readonly fuzz?: FuzzOutcome;
  /** Answers the change touched in the suite's runs, where the variant counts them (`VariantBuild.reached`). */
  readonly reached?: number;
  /**
   * Run on the census's scenarios (./census.ts): `focused` scenario runs chosen by it; `unreached`, it changed no
   * answer in the census's run of the whole suite and needed no run of its own.
   */
  readonly census?: { readonly focused: number } | 'unreached';
  readonly durationMs: number;
}

/** The verdict of one variant. */
export interface VariantVerdict {
  readonly name: string;
  readonly kind: Variant['kind'];
  readonly area: Area;
  readonly rule?: string;
  readonly what: string;
  /** Faulty: its rule failed in a run of the suite. Benign: passed every scenario (and the fuzz run). */
  readonly ok: boolean;
  /** Faulty: the scenarios that failed on its rule (`file:line [format]`). */
  readonly caughtBy: readonly string[];
  /** Faulty: the name of the first of them. */
  readonly catcherName?: string;
  /** Why the verdict is what it is, in one line (masked). */
  readonly note: string;
  /** The fuzz run alone: faulty, a failure naming the rule; benign, no failure. Undefined when fuzz did not run. */
  readonly fuzzOk?: boolean;
  /** Faulty variants the fuzz flagged under other rules than the one broken. */
  readonly fuzzRules: readonly string[];
  readonly scenariosRun: number;
  /** Answers the change touched in the suite's runs, where the variant counts them. */
  readonly reached?: number;
  readonly durationMs: number;
}
