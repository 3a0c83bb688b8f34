import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allProviderIDGrammars } from '../src/cloud-table.js';
import type { CloudProviderIDGrammar } from '../src/kit.js';

// The layout promises one module per cloud, named after the cloud, and one table listing
// them: a module left out of the table, or a table row from elsewhere, breaks that promise.
const cloudsDir = new URL('../src/clouds/', import.meta.url);
const modules = readdirSync(cloudsDir)
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.slice(0, -'.ts'.length))
  .sort();

const isGrammar = (value: unknown): value is CloudProviderIDGrammar =>
  typeof value === 'object' && value !== null && 'cloud' in value && 'parse' in value;

describe('the cloud table', () => {
  it('lists one grammar per module of src/clouds, named after the module', () => {
    expect(allProviderIDGrammars.map((g) => g.cloud).sort()).toEqual(modules);
  });

  it.each(modules)('clouds/%s exports exactly the grammar the table lists', async (cloud) => {
    const module: Record<string, unknown> = await import(new URL(`${cloud}.ts`, cloudsDir).href);
    const grammars = Object.values(module).filter(isGrammar);
    expect(grammars.map((g) => g.cloud)).toEqual([cloud]);
    expect(allProviderIDGrammars).toContain(grammars[0]);
  });
});
