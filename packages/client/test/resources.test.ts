import { ApiException } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { clientErrorFrom, listPageProblem, malformedList } from '../src/errors.js';
import { API_VERSIONS, CAPI_GROUPS, KINDS, kindsOf, resourceInfo } from '../src/resources.js';

describe('the kind/version table', () => {
  it('types every kind of every version with a REST name, scale only on MachineSet and MachineDeployment', () => {
    expect(API_VERSIONS.map((r) => r.apiVersion)).toEqual([
      'cluster.k8s.io/v1alpha1',
      'cluster.x-k8s.io/v1alpha2',
      'cluster.x-k8s.io/v1alpha3',
      'cluster.x-k8s.io/v1alpha4',
      'cluster.x-k8s.io/v1beta1',
      'cluster.x-k8s.io/v1beta2',
    ]);
    expect(CAPI_GROUPS).toEqual(['cluster.k8s.io', 'cluster.x-k8s.io']);
    expect(kindsOf('cluster.k8s.io/v1alpha1')).toEqual([
      'Cluster',
      'Machine',
      'MachineSet',
      'MachineDeployment',
      'MachineClass',
    ]);
    expect(kindsOf('cluster.x-k8s.io/v1beta2')).toEqual([
      'Cluster',
      'Machine',
      'MachineSet',
      'MachineDeployment',
      'MachineHealthCheck',
    ]);
    expect(Object.keys(KINDS)).toHaveLength(6);
    expect(kindsOf('cluster.x-k8s.io/v1alpha2')).toEqual([
      'Cluster',
      'Machine',
      'MachineSet',
      'MachineDeployment',
    ]);
    expect(resourceInfo('cluster.x-k8s.io/v1alpha2', 'MachineDeployment')).toMatchObject({
      group: 'cluster.x-k8s.io',
      version: 'v1alpha2',
      plural: 'machinedeployments',
      scale: true,
    });
    expect(resourceInfo('cluster.x-k8s.io/v1alpha2', 'Machine')?.scale).toBe(false);
    // Lists and kinds a version lacks are not resources.
    expect(resourceInfo('cluster.x-k8s.io/v1alpha2', 'MachineList')).toBeUndefined();
    expect(resourceInfo('cluster.x-k8s.io/v1alpha2', 'MachineClass')).toBeUndefined();
    expect(resourceInfo('cluster.x-k8s.io/v9', 'Machine')).toBeUndefined();
  });
});

describe('client errors', () => {
  const target = { apiVersion: 'cluster.x-k8s.io/v1alpha2', kind: 'Machine', namespace: 'ns', name: 'm' };

  it('names the object, the status, the Status reason and message', () => {
    const body = JSON.stringify({
      kind: 'Status',
      reason: 'Conflict',
      message: 'the object has been modified',
    });
    const error = clientErrorFrom(new ApiException(409, 'x', body, {}), target, 'replace');
    expect(error).toMatchObject({ code: 'conflict', status: 409, reason: 'Conflict' });
    expect(error.message).toBe(
      'replace Machine ns/m (cluster.x-k8s.io/v1alpha2): HTTP 409 Conflict: the object has been modified',
    );
  });

  it('maps statuses to codes, and anything without a status to unreachable', () => {
    const codes = [401, 403, 404, 410, 422, 500].map(
      (status) => clientErrorFrom(new ApiException(status, 'x', '', {}), target, 'get').code,
    );
    expect(codes).toEqual(['unauthorized', 'forbidden', 'not-found', 'gone', 'rejected', 'api']);
    const refused = clientErrorFrom(
      new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') }),
      target,
      'get',
    );
    expect(refused).toMatchObject({ code: 'unreachable' });
    expect(refused.message).toMatch(/no answer from the API server: fetch failed: connect ECONNREFUSED/);
  });

  it('never quotes a bearer token fetch refused to send', () => {
    // fetch's own error for a token with a line break quotes the whole header
    const thrown = (() => {
      try {
        new Headers().append('Authorization', 'Bearer SECRET-TOKEN\nPART');
      } catch (error) {
        return error;
      }
      throw new Error('fetch took a header with a line break');
    })();
    const message = clientErrorFrom(thrown, target, 'get').message;
    expect(message).toContain(
      'no answer from the API server: Headers.append: "Bearer <redacted>" is an invalid header value',
    );
    expect(message).not.toMatch(/SECRET|PART/);
  });

  it('never quotes the password of a server URL fetch refused to request', () => {
    const thrown = (() => {
      try {
        new Request('https://admin:S3CRET@127.0.0.1:6443/apis');
      } catch (error) {
        return error;
      }
      throw new Error('fetch took a URL with a password');
    })();
    const message = clientErrorFrom(thrown, target, 'get').message;
    expect(message).toContain('includes credentials: https://<redacted>@127.0.0.1:6443/apis');
    expect(message).not.toContain('S3CRET');
  });
});

describe('a list page that is no list of objects', () => {
  // A real API server never sends one; a proxy or an impostor can, and get, describe and the
  // informers threw on it ("Cannot read properties of null (reading 'metadata')", exit 70).
  const target = { apiVersion: 'cluster.x-k8s.io/v1beta1', kind: 'Machine', namespace: 'ns' };
  it.each([
    [{ items: [{}, null] }, 'items[1]', 'null', 'an object'],
    [{ items: [{}, {}, 5] }, 'items[2]', 'a number', 'an object'],
    [{ items: [[]] }, 'items[0]', 'an array', 'an object'],
    [{ items: 'abc' }, 'items', 'a string', 'an object list'],
    [{}, 'items', 'missing', 'an object list'],
    [{ metadata: {} }, 'items', 'missing', 'an object list'],
    [null, '', 'null', 'an object'],
    [{ items: [], metadata: 5 }, 'metadata', 'a number', 'an object'],
    [{ items: [], metadata: { resourceVersion: 12345 } }, 'metadata.resourceVersion', 'a number', 'a string'],
    [{ items: [], metadata: { resourceVersion: {} } }, 'metadata.resourceVersion', 'an object', 'a string'],
  ])('%j: %s is %s', (page, path, found, expected) => {
    expect(listPageProblem(page)).toEqual({ path, found, expected });
  });

  it('is refused with the place and what is there', () => {
    expect(listPageProblem({ items: [{ kind: 'Machine' }] })).toBe(undefined);
    expect(listPageProblem({ items: [], metadata: {} })).toBe(undefined);
    expect(listPageProblem({ items: [], metadata: { resourceVersion: '42' } })).toBe(undefined);
    expect(listPageProblem({ items: [], metadata: { resourceVersion: null } })).toBe(undefined);
    expect(malformedList(target, { path: 'items[1]', found: 'null', expected: 'an object' })).toEqual({
      code: 'malformed-list',
      target,
      path: 'items[1]',
      message:
        "list Machine objects in namespace ns (cluster.x-k8s.io/v1beta1): the API server's list is malformed: items[1] is null, not an object",
    });
  });
});
