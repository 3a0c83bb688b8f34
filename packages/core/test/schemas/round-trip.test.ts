import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { decode } from '../../src/index.js';
import { readManifest, writeManifest } from '../../src/manifest/index.js';
import { validObjects } from './support/arbitraries.js';
import { laterObjects } from './support/crd-arbitraries.js';
import { loadLaterCrds } from './support/crd-oracle.js';
import { cases } from './support/mutations.js';

// Decoding never drops or rewrites data: for every accepted input, the output deep-equals
// the input (it is the input itself) and the input is left as it was.

// Every version: v1alpha1/v1alpha2 objects written from the Go types, later ones generated from their CRDs.
const arbitraries = { ...validObjects(), ...laterObjects(loadLaterCrds()) };

describe.each(Object.keys(arbitraries))('round trip: %s', (key) => {
  const arbitrary = arbitraries[key]!;

  // Generous timeouts: these properties take seconds, more on a loaded machine; nothing here is about time.
  it('decode(x) deep-equals x for every accepted input, lenient and strict', { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(cases(arbitrary), (c) => {
        const before = structuredClone(c.value);
        for (const strict of [false, true]) {
          const result = decode(c.value, { strict });
          if (E.isRight(result)) {
            expect(result.right).toBe(c.value);
            expect(result.right).toStrictEqual(before);
          }
          expect(c.value).toStrictEqual(before);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('survives writing and reading a manifest, YAML and JSON', { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(fc.array(arbitrary, { minLength: 1, maxLength: 3 }), (objects) => {
        const yaml = readManifest(writeManifest(objects, 'yaml'));
        // toEqual, not toStrictEqual: fast-check also generates null-prototype objects.
        expect(E.isRight(yaml) && yaml.right.map((d) => d.value)).toEqual(objects);
        for (const doc of E.isRight(yaml) ? yaml.right : []) expect(E.isRight(decode(doc.value))).toBe(true);
        const json = readManifest(writeManifest(objects, 'json'));
        const parsed = E.isRight(json) ? json.right[0]?.value : undefined;
        expect(objects.length === 1 ? [parsed] : (parsed as { items: unknown }).items).toEqual(objects);
      }),
      { numRuns: 100 },
    );
  });
});
