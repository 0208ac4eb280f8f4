/** The command table. Each helper adds its own line here and nowhere else. */
import { registerCommand } from './main';

registerCommand('validate', { summary: 'Validate a request or response (JSON or XML) against the document', load: () => import('./validate') });
registerCommand('report', { summary: 'Build the HTML report (Allure) from one or more result folders', load: () => import('./report') });
registerCommand('run', { summary: 'Run the conformance suite against a target', load: () => import('./run') });
registerCommand('serve', { summary: 'Run the reference gateway on loopback', load: () => import('./serve') });
registerCommand('openapi', { summary: 'Write an OpenAPI 3.1 document of the JSON interface', load: () => import('./openapi') });
registerCommand('fuzz', { summary: 'Fuzz a target with generated requests (fast-check)', load: () => import('./fuzz') });
registerCommand('selfcheck', { summary: 'Run the suite against the gallery of faulty and benign gateways', load: () => import('./selfcheck') });
