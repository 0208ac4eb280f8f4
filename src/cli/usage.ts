/**
 * The one wording of a command-line mistake, whichever parser met it (node:util's parseArgs or a command's own
 * loop): every command says `cardspec <command>: unknown option '--x'` and where the options are listed.
 */

/** The message for an option the command does not know. */
export function unknownOption(option: string): string {
  return `unknown option '${option}'`;
}

/** The hint that follows a usage error: where the command's options are listed. */
export function seeHelp(command: string): string {
  return `Run \`cardspec ${command} --help\` for its options.`;
}

interface ParseArgsError {
  readonly code?: string;
  readonly message: string;
}

/**
 * node:util's parseArgs errors in the kit's words: its unknown-option message (long, about positionals) becomes
 * `unknown option '--x'`; a missing value becomes `option '--x' needs a value`; others are kept.
 */
export function parseArgsMessage(e: unknown): string {
  const err = e as ParseArgsError;
  const message = String(err?.message ?? e);
  if (err?.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const m = /^Unknown option '([^']*)'/.exec(message);
    return unknownOption(m ? m[1] : message);
  }
  if (err?.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const m = /Unexpected argument '([^']*)'/.exec(message);
    return `unexpected argument '${m ? m[1] : message}' (this command takes options only)`;
  }
  if (err?.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const m = /^Option '([^']*)'/.exec(message);
    // "argument missing" (last on the line) or "argument is ambiguous" (followed by another option).
    if (m && /argument (missing|is ambiguous)/.test(message)) {
      const name = m[1].replace(/^-\w, /, '').replace(/ <value>$/, '');
      return `option '${name}' needs a value (a value that starts with '-' is written ${name}=-...)`;
    }
  }
  return message;
}
