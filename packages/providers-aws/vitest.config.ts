import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'providers-aws',
    include: ['test/**/*.test.ts'],
    exclude: ['test/**/*.integration.test.ts'],
  },
});
