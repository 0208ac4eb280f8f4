// ESLint flat config: typescript-eslint's recommended rules over the kit's TypeScript and JavaScript. Style is
// Prettier's business (.prettierrc.json), so no formatting rule is turned on here.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'reports/', 'test/fixtures/', 'examples/**/fixtures/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `_`-prefixed names are deliberately unused (a callback's position, a destructured part left out).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // A variable a closure reads before its one assignment (a session set right after the gateway it observes).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // The kit rethrows with a masked message on purpose: attaching the original as `cause` would carry the
      // unmasked text to whoever prints the error (util.inspect shows causes).
      'preserve-caught-error': 'off',
      // Reading package.json for the version is the one require a TypeScript module needs.
      '@typescript-eslint/no-require-imports': ['error', { allow: ['/package\\.json$'] }],
    },
  },
  {
    // Tests read arbitrary JSON (schemas, reports) and poke at shapes on purpose; the kit's modules may not.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // CommonJS entry points and scripts (bin/, scripts/, nock.js, bench/*.js).
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
