import { defineProject, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.js';

export default mergeConfig(
  sharedConfig,
  defineProject({
    test: {
      name: 'migrate',
      include: ['test/**/*.test.ts'],
      exclude: ['test/**/*.integration.test.ts'],
    },
  }),
);
