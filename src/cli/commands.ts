/** The command table. Each helper adds its own line here and nowhere else. */
import { registerCommand } from './main';

registerCommand('validate', { summary: 'Validate a request or response (JSON or XML) against the document', load: () => import('./validate') });
