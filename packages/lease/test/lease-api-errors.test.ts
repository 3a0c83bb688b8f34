import { describe, expect, it } from 'vitest';
import { LeaseApiError, type LeaseApiErrorCode } from '../src/errors.js';
import { isTransientFailure, toLeaseApiError, toWatchRequestError } from '../src/lease-api.js';
import { withoutCredentials } from '../src/redact.js';

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

  it('never quotes the password of a server URL fetch refused to request', () => {
    // fetch's own error for a URL with a user name or password quotes the whole URL
    let thrown: unknown;
    try {
      new Request('https://admin:S3CRET@127.0.0.1:6443/apis/coordination.k8s.io/v1');
    } catch (error) {
      thrown = error;
    }
    const error = toLeaseApiError(thrown, 'read lease kube-node-lease/n1');
    expect(error.message).toBe(
      'read lease kube-node-lease/n1: cannot reach the API server: Request cannot be constructed from a URL that includes credentials: https://<redacted>@127.0.0.1:6443/apis/coordination.k8s.io/v1',
    );
  });
});

describe('isTransientFailure (what watch() retries rather than ends with)', () => {
  const failure = (code: LeaseApiErrorCode, status?: number) =>
    new LeaseApiError('list leases in ns', { code, status });

  it('retries a server that cannot be reached or does not answer, 5xx, 429, 408, 410', () => {
    for (const error of [
      failure('unreachable'),
      failure('timeout'),
      failure('server', 500),
      failure('server', 503),
      failure('server', 429),
      failure('server', 408),
      failure('server', 410),
    ]) {
      expect(isTransientFailure(error), `${error.code} ${error.status}`).toBe(true);
    }
  });

  it('ends on an answer it cannot use and on a refusal that asking again would get again', () => {
    for (const error of [
      failure('unreadable-lease', 200),
      failure('unauthorized', 401),
      failure('forbidden', 403),
      failure('not-found', 404),
      failure('invalid', 400),
      failure('conflict', 409),
      failure('server', 405),
      new Error('not a LeaseApiError'),
    ]) {
      expect(isTransientFailure(error), String(error)).toBe(false);
    }
  });
});

describe('toWatchRequestError', () => {
  it("classifies client-node's Watch error by its statusCode", () => {
    const refused = Object.assign(new Error('Forbidden'), { statusCode: 403 });
    expect(toWatchRequestError(refused, 'watch leases in ns')).toMatchObject({
      code: 'forbidden',
      status: 403,
      message: 'watch leases in ns: Forbidden (HTTP 403)',
    });
    const unavailable = Object.assign(new Error('Service Unavailable'), { statusCode: 503 });
    expect(toWatchRequestError(unavailable, 'watch leases in ns')).toMatchObject({
      code: 'server',
      status: 503,
    });
  });

  it('classifies any other failure as toLeaseApiError does', () => {
    const refused = Object.assign(new Error('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    expect(toWatchRequestError(refused, 'watch leases in ns')).toMatchObject({ code: 'unreachable' });
  });
});

describe('withoutCredentials', () => {
  it('replaces bearer tokens and URL user info, and nothing else', () => {
    expect(
      withoutCredentials(
        '"Bearer abc" at https://u:p@h:1/x, http://tok@h, https://h/a@b, mailto:a@b, a://b c@d',
      ),
    ).toBe(
      '"Bearer <redacted>" at https://<redacted>@h:1/x, http://<redacted>@h, https://h/a@b, mailto:a@b, a://b c@d',
    );
  });

  it('scans hostile text in linear time', () => {
    // (each pattern starts at a fixed text and stops at the first character that ends it)
    const long = `${'://'.repeat(200_000)}${'a'.repeat(1_000_000)}Bearer ${'x'.repeat(1_000_000)}`;
    expect(withoutCredentials(long)).toBe(
      `${'://'.repeat(200_000)}${'a'.repeat(1_000_000)}Bearer <redacted>`,
    );
  });
});
