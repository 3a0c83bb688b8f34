import { describe, expect, it } from 'vitest';
import { debugRequested, internalErrorText } from '../src/internal-error.js';

describe('internalErrorText', () => {
  it('escapes a message that would forge a line or reorder the terminal', () => {
    const text = internalErrorText(new Error('bad\ncapi-kit: all fine\u202E'), false);
    expect(text.split('\n')).toEqual([
      'capi-kit: internal error: Error: bad\\x0acapi-kit: all fine\\u{202E}',
      'capi-kit: this is a bug in capi-kit; please report it with the command that caused it (CAPI_KIT_DEBUG=1 shows where it happened)',
      '',
    ]);
  });

  it('describes thrown values that are not Errors, even one without a text form', () => {
    expect(internalErrorText('plain string', false)).toMatch(/^capi-kit: internal error: plain string\n/);
    expect(internalErrorText(Object.create(null), false)).toMatch(
      /^capi-kit: internal error: a thrown object without a text form\n/,
    );
  });

  it('puts the stack, escaped, in place of the advice only when debugging', () => {
    const error = new TypeError('x');
    error.stack = 'TypeError: x\n    at f (/a\u001b[31m.js:1:2)';
    expect(internalErrorText(error, true)).toBe(
      'capi-kit: internal error: TypeError: x\n    at f (/a\\x1b[31m.js:1:2)\n',
    );
    expect(internalErrorText(error, false)).not.toContain(' at ');
  });
});

describe('debugRequested', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['0', false],
    ['1', true],
    ['yes', true],
  ])('CAPI_KIT_DEBUG=%j → %j', (value, expected) => {
    expect(debugRequested({ CAPI_KIT_DEBUG: value })).toBe(expected);
  });
});
