// Lint config (ESLint 9 flat config + typescript-eslint 8).
// TypeScript is linted with type information (tsconfig.lint.json: src + test);
// the .mjs/.js scripts get the untyped recommended set.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'packages/*/dist/**',
      'generated/**',
      // The bench's synthetic workspace and its runs' copies (ignored by git).
      'bench/.work/**',
      'node_modules/**',
      'editors/**',
      'examples/**',
      // Sample workspaces: inputs the tests feed the compiler, some broken on purpose.
      'test/**/fixtures/**/agentc.config.ts',
      'test/**/fixtures/**/*.{js,mjs}',
    ],
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    extends: [js.configs.recommended],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'vitest.config.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { project: './tsconfig.lint.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // The concurrent runtime: every promise is awaited, returned, or voided on purpose.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Off: the code writes `x[i]!` on indexed reads as a statement that the index is in
      // range (ready for noUncheckedIndexedAccess); with that flag off the rule would strip
      // ~430 of them.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // Off: async methods that implement a Promise-returning interface (session stores,
      // scripted models) need no await; `async` keeps a throw a rejection.
      '@typescript-eslint/require-await': 'off',
      // Off: every String(x) it flags is on a value already narrowed by typeof checks
      // that TypeScript does not carry over to `unknown` (the describe-a-value helpers).
      '@typescript-eslint/no-base-to-string': 'off',
      // Off: our interfaces declare callbacks in method syntax and implement them as
      // closures (no `this`), e.g. the ANSI painters and telemetry's onEvent.
      '@typescript-eslint/unbound-method': 'off',
      // Rejections forward an AbortSignal's reason or a caught error unchanged (typed `any`/
      // `unknown`); a literal non-Error is still reported.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
    },
  },
  {
    // commander hands each action its options as `any`; the actions pass them on to typed
    // command functions, which is where their types are checked.
    files: ['src/cli/main.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // Tests read parsed JSON/CLI output and poke at it: the no-unsafe-* family and `any`
    // would only add casts; failure messages interpolate whatever they hold; expected
    // outputs contain ANSI/control characters on purpose. The promise rules stay on here too.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/restrict-template-expressions': 'off',
      'no-control-regex': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
);
