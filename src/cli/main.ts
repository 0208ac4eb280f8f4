/**
 * `cardspec <command>`: one file per command under src/cli/, each exporting `run(args): Promise<number>` that
 * returns the exit code (0 clean, 1 a finding, 2 usage or configuration error). Commands are loaded lazily so that
 * `cardspec validate` does not pay for cucumber's start-up.
 */
import { redactText } from '../redact';

type Command = { summary: string; load: () => Promise<{ run(args: string[]): Promise<number> }> };

const COMMANDS: Record<string, Command> = {};

export function registerCommand(name: string, command: Command): void {
  COMMANDS[name] = command;
}

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`);
  return ['Usage: cardspec <command> [options]', '', 'Commands:', ...lines, '', 'Run `cardspec <command> --help` for the options of a command.'].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  await import('./commands');
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(usage());
    return name ? 0 : 2;
  }
  if (name === '--version') {
    console.log(require('../../package.json').version);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    console.error(`cardspec: unknown command '${redactText(name)}'\n\n${usage()}`);
    return 2;
  }
  const mod = await command.load();
  return mod.run(rest);
}
