/**
 * Client conformance cases (docs/contract.md, "Client cases"): the catalogue generated from the document's tables,
 * the adapter protocol that plays each case to an SDK, and the client report. They drive the stand-in gateway of
 * src/contract, which knows nothing of them.
 */
export { CASE_GROUPS, type ClientCase, type CaseGroup } from './case';
export { CLIENT_CASES, uncoveredRows, errorRows, THREEDS_STATES } from './catalogue';
export { runClientCases, runAdapter, selectCases, caseKey, ADAPTER_ADVICE, type AdapterInput, type CaseOutcome, type ClientCaseResult, type RunCasesOptions } from './adapter';
export { CASE_FORMATS, ENDPOINT_PATH, formatsOf, type CaseFormat, type FormatChoice, type XmlCaseInput } from './xml';
