import { describe, expect, it } from 'vitest';
import { toLeaseApiError } from '../src/lease-api.js';

describe('toLeaseApiError', () => {
  it('never quotes a bearer token fetch refused to send', () => {
    // fetch's own error for a token with a line break quotes the whole header
    let thrown: unknown;
    try {
      new Headers().append('Authorization', 'Bearer SECRET-TOKEN\nPART');
    } catch (error) {
      thrown = error;
    }
    const error = toLeaseApiError(thrown, 'read lease kube-node-lease/n1');
    expect(error.code).toBe('unreachable');
    expect(error.message).toBe(
      'read lease kube-node-lease/n1: cannot reach the API server: Headers.append: "Bearer <redacted>" is an invalid header value.',
    );
  });
});
