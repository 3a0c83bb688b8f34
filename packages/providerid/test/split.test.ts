import { describe, expect, it } from 'vitest';
import { nonEmptySegments, splitProviderID } from '../src/kit.js';

describe('splitProviderID', () => {
  it('takes the scheme before the first colon and the "://" separator', () => {
    expect(splitProviderID('aws:///us-east-1a/i-1')).toEqual({
      input: 'aws:///us-east-1a/i-1',
      scheme: 'aws',
      separator: '://',
      rest: '/us-east-1a/i-1',
    });
  });

  it('keeps a single-colon form (kwok:<node>) apart from "://"', () => {
    expect(splitProviderID('kwok:node-1')).toMatchObject({ scheme: 'kwok', separator: ':', rest: 'node-1' });
    expect(splitProviderID('hcloud::1')).toMatchObject({ scheme: 'hcloud', separator: ':', rest: ':1' });
  });

  it('treats strings without a URI scheme as bare', () => {
    for (const input of ['cn-hangzhou.i-1', '/subscriptions/x', '//instance-id', ':x', '1abc:def', '']) {
      expect(splitProviderID(input)).toEqual({ input, scheme: '', separator: '', rest: input });
    }
  });

  it('lists non-empty segments regardless of slash counts', () => {
    expect(nonEmptySegments('//a///b/')).toEqual(['a', 'b']);
    expect(nonEmptySegments('')).toEqual([]);
  });
});
