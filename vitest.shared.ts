import { defineConfig } from 'vitest/config';

// Tests run against each package's TypeScript source through the `@capi-kit/source`
// export condition, so no build is needed between an edit and a test run. Every project
// (the per-package ones and `integration`) merges this config: vitest projects do not
// inherit the root config's `resolve` on their own.
const conditions = ['@capi-kit/source', 'node', 'import', 'default'];

export const sharedConfig = defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['@capi-kit/source'] } },
});
