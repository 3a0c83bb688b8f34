import { defineConfig } from 'vitest/config';

// Tests run against each package's TypeScript source through the `@capi-kit/source`
// export condition, so no build is needed between an edit and a test run. Every project
// (the per-package ones and `integration`) merges this config: vitest projects do not
// inherit the root config's `resolve` on their own.
const conditions = ['@capi-kit/source', 'node', 'import', 'default'];

export const sharedConfig = defineConfig({
  // Liveness bounds, not speed checks (no test asserts a duration): on a loaded 2-core
  // machine a 2 000-run property test or a child process can take many times its usual
  // few seconds, so vitest's 5 s default would fail tests that are not broken. A hung
  // test still fails, after a minute.
  test: { testTimeout: 60_000, hookTimeout: 60_000 },
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['@capi-kit/source'] } },
});
