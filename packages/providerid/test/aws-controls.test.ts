import { isRight } from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { awsProviderID } from '../src/clouds/aws.js';
import { createProviderIDRegistry } from '../src/index.js';

const registry = createProviderIDRegistry([awsProviderID]);

// DEL and the C1 controls (U+009B is CSI, an escape sequence on many terminals) are refused
// like C0 controls and spaces, naming the field they are in.
describe('awsProviderID refuses DEL and C1 controls', () => {
  it.each([
    ['aws:///us-east-1a/i-0123\u009b31m\u007f', 'instanceId'],
    ['aws:///us-east-1a/i-0123\u007f', 'instanceId'],
    ['aws:///us-east-1a/i-0123\u0080', 'instanceId'],
    ['aws:///us-east-1a/i-0123\u009f', 'instanceId'],
    ['aws://us-east\u009b-1a/i-0123', 'zone'],
    ['aws:///us-east-1a/a\u0085b/i-0123', 'middle'],
    ['aws:///us-east-1a/tok\u007f/fargate-ip-10-0-0-1', 'middle'],
  ])('refuses %j, naming the %s', (input, field) => {
    for (const options of [{ cloud: 'aws' }, {}]) {
      const r = registry.parse(input, options);
      if (isRight(r)) throw new Error('parsed');
      expect(r.left).toMatchObject({
        field,
        message: expect.stringContaining(`the ${field} contains white space or a control character`),
      });
    }
  });

  it('still reads the characters next to them (U+007E, U+00A1) as before', () => {
    for (const input of ['aws:///us-east-1a/i-0123~', 'aws:///us-east-1a/i-0123\u00a1']) {
      expect(isRight(registry.parse(input, { cloud: 'aws' }))).toBe(true);
    }
  });
});
