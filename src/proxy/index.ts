/**
 * Live traffic (docs/proxy.md): the checking proxy in front of any gateway, the session that checks observed
 * exchanges in both directions, and captured traffic (the proxy's JSON lines, HAR 1.2) audited the same way.
 */
export { startProxy, DEFAULT_MAX_BODY, DEFAULT_TIMEOUT_MS, type ProxyOptions, type RunningProxy } from './server';
export { ProxySession, shownExchange, type ProxyFinding, type ProxyReport, type ProxySessionOptions, type RuleCoverage, type Side } from './session';
export { CaptureWriter, CaptureError, readCapture, CAPTURE_KIND, type CaptureLeak, type ReadCapture } from './capture';
export { auditFiles, type AuditOptions, type AuditResult } from './audit';
export { proxyReportJson, proxyReportText, findingLine } from './report';
export { observedJunitXml, type ObservedRun } from './certify';
export { ANSWER_CHECKS } from './answers';
export type { HttpExchange, Fault, FaultKind } from './exchange';
