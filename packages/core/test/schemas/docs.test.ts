import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// Runs every ```ts block of docs/schemas.md. Each block becomes a module next to this file
// (so `fp-ts` and `node:` imports resolve as in the package) with the `@capi-kit/core`
// specifiers pointed at the source entry points; the blocks assert their own results.

const docsFile = join(import.meta.dirname, '../../../../docs/schemas.md');
const source = join(import.meta.dirname, '../../src');
const entryPoints: Record<string, string> = {
  '@capi-kit/core': join(source, 'index.ts'),
  '@capi-kit/core/v1alpha1': join(source, 'v1alpha1/index.ts'),
  '@capi-kit/core/v1alpha2': join(source, 'v1alpha2/index.ts'),
  '@capi-kit/core/v1alpha3': join(source, 'v1alpha3/index.ts'),
  '@capi-kit/core/v1alpha4': join(source, 'v1alpha4/index.ts'),
  '@capi-kit/core/v1beta1': join(source, 'v1beta1/index.ts'),
  '@capi-kit/core/v1beta2': join(source, 'v1beta2/index.ts'),
  '@capi-kit/core/manifest': join(source, 'manifest/index.ts'),
};

const blocks = [...readFileSync(docsFile, 'utf8').matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
const dir = mkdtempSync(join(import.meta.dirname, '.docs-examples-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function pointAtSource(code: string): string {
  return code.replace(/from '(@capi-kit\/core(?:\/[a-z0-9]+)?)'/g, (_whole, specifier: string) => {
    const target = entryPoints[specifier];
    if (target === undefined) throw new Error(`docs import an unknown entry point: ${specifier}`);
    return `from ${JSON.stringify(target)}`;
  });
}

describe('docs/schemas.md examples', () => {
  it('has examples', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(6);
  });

  it.each(blocks.map((code, i) => [i + 1, code] as const))('example %i runs', async (i, code) => {
    const file = join(dir, `example-${i}.ts`);
    writeFileSync(file, pointAtSource(code));
    await import(file);
  });
});
