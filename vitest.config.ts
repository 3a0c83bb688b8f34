import { defineConfig } from 'vitest/config';

// Tests run against each package's TypeScript source (the `@capi-kit/source` export
// condition), so no build is needed between an edit and a test run.
const conditions = ['@capi-kit/source', 'node', 'import', 'default'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['@capi-kit/source'] } },
  test: {
    // The JSON report feeds scripts/test-summary.mjs (CI's closing line).
    reporters: ['default', ['json', { outputFile: '.tmp/vitest-report.json' }]],
    projects: [
      'packages/*/vitest.config.ts',
      {
        extends: true,
        test: {
          // One real control plane (kube-apiserver + etcd) serves every integration test
          // file; each file gets a fresh namespace. See packages/envtest/README.md.
          name: 'integration',
          include: ['packages/*/test/**/*.integration.test.ts'],
          globalSetup: ['packages/envtest/src/vitest/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
