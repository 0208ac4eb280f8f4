/**
 * Client-side contract testing (docs/contract.md): the stand-in gateway that checks what a client sends against the
 * document, the check registry, the documented flows, and the report (the client
 * conformance cases that drive it are in src/cases).
 */
export { createContractGateway, startContractGateway, REPORT_PATH, type ContractGateway, type ContractOptions, type RunningContractGateway } from './gateway';
export { ContractSession, type SessionOptions, type AnsweredCall } from './session';
export { CHECKS, REQUEST_CHECKS, TRANSPORT_CHECKS, ROW_RULES, type ContractCheck, type Finding, type Severity } from './checks';
export { FLOWS, type FlowDef } from './flows';
export { reportJson, reportText, type CaseResult, type ContractReport, type ContractViolation } from './report';
export { dispatch, type BufferedReply, type BufferedRequest } from './memory';
export { PROPOSED_RULES, ruleText, ruleTexts } from '../rules/contract';
