import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The CLI package's version, read from its package.json so it never drifts. */
export const version: string = (require('../package.json') as { version: string }).version;
