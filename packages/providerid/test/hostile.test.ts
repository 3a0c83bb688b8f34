import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { createProviderIDIndex, parseProviderID, providerIDRegistry, sameInstance } from '../src/index.js';

// Every scanner is hand-written or uses regexes without nested quantifiers, so these
// 1 MiB inputs finish in linear time. The tests check the answers; the absence of a
// timeout is the performance evidence, never a timed assertion.
const MiB = 1 << 20;
const big = (unit: string) => unit.repeat(Math.ceil(MiB / unit.length));

describe('hostile 1 MiB providerIDs', () => {
  it('rejects or accepts them with the right answer', () => {
    const cases: [string, string | false][] = [
      [big('a'), false],
      [big(':'), false],
      [big('x:'), false],
      [big('/'), false],
      [`aws://${big('/')}`, false],
      [`aws://${big('/')}i-0123456789abcdef0`, 'aws'],
      [`azure:///subscriptions/${big('a/')}`, false],
      [
        `azure:///subscriptions/s/resourceGroups/${big('rg')}/providers/Microsoft.Compute/virtualMachines/v`,
        'azure',
      ],
      [`gce://${big('a/')}`, false],
      [`cn-${big('a-')}`, false],
      [`cn-${big('a-')}.i-1`, 'alibaba'],
      [`ocid1.${big('a.')}`, 'oci'],
      [`openstack://${big('r')}/${big('/')}`, false],
      [`kubevirt://${big('a-')}.`, false],
      [`vsphere://${big('0-')}`, false],
      [`${big('a+.-')}://x`, false],
      [`hcloud://${big('9')}`, false],
      [`scaleway://${big('a/')}`, false],
      [`qcloud:///${big('a')}/${big('-')}_`, false],
    ];
    for (const [input, cloud] of cases) {
      const result = parseProviderID(input);
      const label = `${input.slice(0, 24)}… (${input.length} chars)`;
      if (cloud === false) expect(isLeft(result), label).toBe(true);
      else expect(isRight(result) && result.right.cloud, label).toBe(cloud);
    }
  });

  it('applies the generic grammar to a 1 MiB scheme when named', () => {
    const result = parseProviderID(`${big('a+.-')}://x`, { cloud: 'generic' });
    expect(isRight(result) && result.right.fields.id).toBe('x');
  });

  it('parses every cloud grammar against a 1 MiB input by name', () => {
    const input = `${big('a/b:c.')}`;
    for (const cloud of providerIDRegistry.clouds()) {
      expect(isLeft(parseProviderID(input, { cloud })), cloud).toBe(true);
    }
  });

  it('matches and indexes 1 MiB IDs', () => {
    const a = `foo://${big('a/')}`;
    const b = `foo:///${big('a/')}`;
    expect(sameInstance(a, b)).toMatchObject({ match: true });
    expect(sameInstance(a, `${a}x`).match).toBe(false);
    const index = createProviderIDIndex([{ providerID: a, item: 'm' }]);
    expect(index.match([{ providerID: b, item: 'n' }]).matched).toHaveLength(1);
  });
});
