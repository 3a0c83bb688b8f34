// The grammars read IDs with character scans where they once split strings and ran
// regexes (for throughput; see docs/benchmarks.md). These properties hold each scan to the
// straightforward reading it replaced, kept here as the reference, on generated IDs that
// lean on what scans get wrong: odd casing, trailing and doubled slashes, empty segments,
// non-ASCII letters that change under toLowerCase (the Kelvin sign, dotted I), white space.
import fc from 'fast-check';
import { type Either, left, right } from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { azureProviderID } from '../src/clouds/azure.js';
import { isToken, splitProviderID } from '../src/kit.js';
import type { ProviderIDError, ProviderIDFields, SplitProviderID } from '../src/types.js';

const RUNS = 12_000;

// Pieces IDs are made of: keywords in several casings, names, and hostile characters.
const KEYWORDS = [
  'subscriptions',
  'resourceGroups',
  'providers',
  'Microsoft.Compute',
  'virtualMachines',
  'virtualMachineScaleSets',
];
const casings = (word: string) => [
  word,
  word.toLowerCase(),
  word.toUpperCase(),
  word.replace('i', '\u0130'),
  word.replace('s', '\u017f'),
  `${word}k`.replace('k', '\u212a'),
];
const keyword = fc.constantFrom(...KEYWORDS.flatMap(casings));
const hostileChar = fc.constantFrom(
  ...[
    '',
    '/',
    '//',
    ' ',
    '\t',
    '\u00a0',
    '\u212a',
    '\u0130',
    'é',
    '%',
    '@',
    '|',
    ':',
    '.',
    '-',
    '_',
    'A',
    'z',
  ],
);
const name = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9_-]{1,10}$/),
  fc.constantFrom('', ' ', 'mc_rg', 'MC_RG', 'aks-pool', '\u212aks-x', '7', '007', 'vm_1a'),
  fc.string({ maxLength: 6 }),
);
const segment = fc.oneof({ weight: 3, arbitrary: keyword }, { weight: 3, arbitrary: name }, hostileChar);

// A path shaped like an ARM resource ID, then bent: segments swapped for hostile ones.
const armPath = fc
  .tuple(
    fc.array(segment, { minLength: 11, maxLength: 11 }),
    // Each segment bent one time in sixteen, so that many paths stay acceptable.
    fc.array(
      fc.nat(15).map((n) => n === 0),
      { minLength: 11, maxLength: 11 },
    ),
    fc.constantFrom(9, 11, 9, 11, 8, 10, 12, 3, 1),
    fc.constantFrom('', '', '', '', '/', '//'),
  )
  .map(([hostile, bend, length, tail]) => {
    const straight = [
      '',
      'subscriptions',
      '00000000-0000-0000-0000-000000000000',
      'resourceGroups',
      'Cluster-RG',
      'providers',
      'Microsoft.Compute',
      length === 9 ? 'virtualMachines' : 'virtualMachineScaleSets',
      'pool-vmss',
      'virtualMachines',
      '3',
      'extra',
    ].slice(0, length);
    return straight.map((s, i) => (i < 11 && bend[i] ? hostile[i]! : s)).join('/') + tail;
  });

describe('Azure resource paths: the in-place scan reads what split("/") read', () => {
  // The reading the scan replaced: split, then compare keywords lower-cased.
  const same = (a: string | undefined, b: string) => a !== undefined && a.toLowerCase() === b.toLowerCase();
  const fail = (code: ProviderIDError['code'], field?: string) =>
    left<ProviderIDError, ProviderIDFields>({
      code,
      message: '',
      cloud: 'azure',
      ...(field ? { field } : {}),
    });
  function reference(path: string, scheme: string): Either<ProviderIDError, ProviderIDFields> {
    const s = path.split('/');
    if (s[0] !== '' || !same(s[1], 'subscriptions')) return fail('malformed');
    if (!same(s[3], 'resourceGroups') || !same(s[5], 'providers') || !same(s[6], 'Microsoft.Compute'))
      return fail('malformed');
    const subscriptionId = s[2] ?? '';
    const resourceGroup = s[4] ?? '';
    if (!isToken(subscriptionId)) return fail('invalid-field', 'subscriptionId');
    if (!isToken(resourceGroup)) return fail('invalid-field', 'resourceGroup');
    const base = { scheme, subscriptionId, resourceGroup };
    if (s.length === 9 && same(s[7], 'virtualMachines')) {
      const vmName = s[8]!;
      if (!isToken(vmName)) return fail('invalid-field', 'vmName');
      return right({ ...base, resourceType: 'virtualMachines', vmName, variant: 'vm' });
    }
    if (s.length === 11 && same(s[7], 'virtualMachineScaleSets') && same(s[9], 'virtualMachines')) {
      const vmssName = s[8]!;
      const vmssInstanceId = s[10]!;
      if (!isToken(vmssName)) return fail('invalid-field', 'vmssName');
      if (!isToken(vmssInstanceId)) return fail('invalid-field', 'vmssInstanceId');
      const fields: Record<string, string | boolean> = { ...base, resourceType: 'virtualMachineScaleSets' };
      Object.assign(fields, { vmssName, vmssInstanceId });
      fields.variant = /^[0-9]+$/.test(vmssInstanceId) ? 'vmss-uniform' : 'vmss-flex';
      if (resourceGroup.toLowerCase().startsWith('mc_') && vmssName.toLowerCase().startsWith('aks-'))
        fields.aks = true;
      return right(fields as ProviderIDFields);
    }
    return fail('malformed');
  }
  // Fields exactly; for errors, which error (code, field), not the wording.
  const verdict = (r: Either<ProviderIDError, ProviderIDFields>) =>
    r._tag === 'Right' ? r.right : { code: r.left.code, field: r.left.field };

  it('gives the same fields or the same error on generated paths', () => {
    let accepted = 0;
    fc.assert(
      fc.property(armPath, fc.constantFrom('azure://', ''), (path, prefix) => {
        // A bare string reaches the path reader only when it starts with '/'.
        if (prefix === '' && !path.startsWith('/')) prefix = 'azure://';
        const id: SplitProviderID = splitProviderID(prefix + path);
        const ours = verdict(azureProviderID.parse(id, true));
        if (ours && !('code' in ours)) accepted++;
        expect(ours).toEqual(verdict(reference(path, prefix === '' ? '' : 'azure')));
      }),
      { numRuns: RUNS },
    );
    // The generator reaches the accepting paths too, not only the errors.
    expect(accepted).toBeGreaterThan(RUNS / 20);
  });
});

describe('splitProviderID: the scheme scan reads what the scheme regex read', () => {
  const URI_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/;
  function reference(input: string): SplitProviderID {
    const colon = input.indexOf(':');
    if (colon > 0) {
      const scheme = input.slice(0, colon);
      if (URI_SCHEME.test(scheme)) {
        if (input.startsWith('//', colon + 1))
          return { input, scheme, separator: '://', rest: input.slice(colon + 3) };
        return { input, scheme, separator: ':', rest: input.slice(colon + 1) };
      }
    }
    return { input, scheme: '', separator: '', rest: input };
  }
  const piece = fc.constantFrom(
    ...[
      'aws',
      'AWS',
      'gce',
      'x+y',
      'a.b-c',
      '1a',
      '-a',
      '\u212a',
      'é',
      ' ',
      '',
      ':',
      '://',
      ':/',
      '/',
      '//',
      '@',
      'i-1',
    ],
  );
  const input = fc.oneof(
    fc.array(piece, { maxLength: 6 }).map((p) => p.join('')),
    fc.string(),
    fc.string({ unit: 'binary' }),
  );

  it('splits every generated string the same way', () => {
    fc.assert(
      fc.property(input, (s) => {
        expect(splitProviderID(s)).toEqual(reference(s));
      }),
      { numRuns: RUNS },
    );
  });
});
