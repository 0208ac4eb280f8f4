/**
 * The CLI habits users bring from other tools (issue 18): `help <command>`, `-V`, `-h` on every command, one wording
 * for an unknown option, every option of a command in its help. Each through bin/cardspec.js, as a user runs it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { COMMANDS } from '../../src/cli/commands';
import { SERVE_OPTIONS } from '../../src/cli/serve';
import { cardspec } from './spawn';

const NAMES = Object.keys(COMMANDS);

describe('cardspec CLI habits', () => {
  test('-V and --version print the version, and the top-level help lists them', () => {
    const version = (require('../../package.json') as { version: string }).version;
    for (const flag of ['-V', '--version']) {
      const r = cardspec([flag]);
      assert.equal(r.code, 0, flag);
      assert.equal(r.stdout.trim(), version, flag);
    }
    const help = cardspec(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /-V, --version/);
    assert.match(help.stdout, /help <command>/);
  });

  for (const name of NAMES) {
    test(`${name}: -h, --help and help ${name} print the command's own help`, () => {
      const short = cardspec([name, '-h']);
      assert.equal(short.code, 0, short.stderr);
      assert.match(short.stdout, new RegExp(`^Usage: cardspec ${name}\\b`, 'm'));
      assert.match(short.stdout, /-h, --help/, 'the help lists -h');
      assert.equal(cardspec([name, '--help']).stdout, short.stdout);
      const viaHelp = cardspec(['help', name]);
      assert.equal(viaHelp.code, 0);
      assert.equal(viaHelp.stdout, short.stdout, `cardspec help ${name} is the command's help, not the top-level one`);
    });

    test(`${name}: an unknown option is told in the one wording, exit 2`, () => {
      const r = cardspec([name, '--no-such-option']);
      assert.equal(r.code, 2);
      assert.match(r.stderr, new RegExp(`^cardspec ${name}: unknown option '--no-such-option'$`, 'm'), r.stderr);
    });
  }

  test('an option without its value is told in the one wording too', () => {
    for (const args of [
      ['run', '--target', '--verbose'],
      ['fuzz', '--seed'],
    ]) {
      const r = cardspec(args);
      assert.equal(r.code, 2);
      assert.match(r.stderr, new RegExp(`^cardspec ${args[0]}: option '${args[1]}' needs a value`, 'm'), r.stderr);
    }
  });

  test('an unknown option at the top level, and help of an unknown command', () => {
    const r = cardspec(['--nope']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^cardspec: unknown option '--nope'$/m);
    const h = cardspec(['help', 'nope']);
    assert.equal(h.code, 2);
    assert.match(h.stderr, /no such command 'nope'/);
  });

  test('serve --help lists every option serve takes', () => {
    const help = cardspec(['serve', '--help']).stdout;
    for (const [name, spec] of Object.entries(SERVE_OPTIONS)) {
      assert.match(help, new RegExp(`--${name}\\b`), `--${name} missing from serve --help`);
      if (spec.short) assert.match(help, new RegExp(`-${spec.short}, --${name}`));
    }
  });
});
