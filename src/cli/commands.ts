/**
 * The command table: one line per command. main.ts reads it; it imports nothing of main.ts (no cycle), and each
 * command module is loaded only when its command is run, so that `cardspec validate` does not pay for cucumber.
 */
export interface CommandModule {
  run(args: string[]): Promise<number>;
}

export interface Command {
  readonly summary: string;
  readonly load: () => Promise<CommandModule>;
}

export const COMMANDS: Readonly<Record<string, Command>> = {
  run: { summary: 'Run the conformance suite against a target', load: () => import('./run') },
  validate: { summary: 'Validate a request or response (JSON or XML) against the document', load: () => import('./validate') },
  report: { summary: 'Build the HTML report (Allure) from one or more result folders', load: () => import('./report') },
  serve: { summary: 'Run the reference gateway on loopback', load: () => import('./serve') },
  fuzz: { summary: 'Fuzz a target with generated requests (fast-check)', load: () => import('./fuzz') },
  selfcheck: { summary: 'Run the suite against the gallery of faulty and benign gateways', load: () => import('./selfcheck') },
  openapi: { summary: 'Write an OpenAPI 3.1 document of the JSON interface', load: () => import('./openapi') },
  proxy: { summary: 'Check live traffic: a proxy between a client and any gateway', load: () => import('./proxy') },
  audit: { summary: 'Check captured traffic (HAR, cardspec proxy --record)', load: () => import('./audit') },
};
