import { defineConfig, mergeConfig } from 'vitest/config';
import { sharedConfig } from './vitest.shared.js';

export default mergeConfig(
  sharedConfig,
  defineConfig({
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
  }),
);
