/**
 * `cardspec <command>`: one file per command under src/cli/, each exporting `run(args): Promise<number>` that
 * returns the exit code (0 clean, 1 a finding, 2 usage or configuration error). The command table is
 * src/cli/commands.ts; commands are loaded lazily so that `cardspec validate` does not pay for cucumber's start-up.
 */
import { redactText } from '../redact';
import { COMMANDS } from './commands';
import { unknownOption } from './usage';

export function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`);
  return [
    'Usage: cardspec <command> [options]',
    '',
    'Commands:',
    ...lines,
    `  ${'help'.padEnd(10)} help <command>: the options of a command (the same as cardspec <command> --help)`,
    '',
    'Options:',
    '  -V, --version  the version of cardspec',
    '  -h, --help     this text',
    '',
    'Run `cardspec help <command>` (or `cardspec <command> --help`) for the options of a command.',
  ].join('\n');
}

function version(): string {
  return (require('../../package.json') as { version: string }).version;
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name) {
    console.error(usage());
    return 2;
  }
  if (name === '--help' || name === '-h') {
    console.log(usage());
    return 0;
  }
  if (name === '--version' || name === '-V') {
    console.log(version());
    return 0;
  }
  if (name === 'help') {
    if (rest.length === 0) {
      console.log(usage());
      return 0;
    }
    const topic = COMMANDS[rest[0]];
    if (!topic || rest.length > 1) {
      console.error(redactText(`cardspec help: no such command '${rest.join(' ')}'\n\n${usage()}`));
      return 2;
    }
    return (await topic.load()).run(['--help']);
  }
  const command = COMMANDS[name];
  if (!command) {
    const what = name.startsWith('-') ? unknownOption(name) : `unknown command '${name}'`;
    console.error(redactText(`cardspec: ${what}\n\n${usage()}`));
    return 2;
  }
  return (await command.load()).run(rest);
}
