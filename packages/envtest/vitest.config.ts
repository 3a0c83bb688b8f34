import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'envtest',
    include: ['test/**/*.test.ts'],
    exclude: ['test/**/*.integration.test.ts'],
  },
});
