// Preloaded with `node --import`: prints, at exit, every module URL the program loaded
// (one per line on stderr, after a marker line), so a test can tell what start-up imports.
import { registerHooks } from 'node:module';

const loaded = new Set();
registerHooks({
  load(url, context, nextLoad) {
    loaded.add(url);
    return nextLoad(url, context);
  },
});
process.on('exit', () => {
  process.stderr.write(`--- loaded modules ---\n${[...loaded].join('\n')}\n`);
});
