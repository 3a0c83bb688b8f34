import { toV1alpha1 } from '@capi-kit/conversion';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { awsConversionPlugin } from '@capi-kit/providers-aws';
import { vsphereConversionPlugin } from '@capi-kit/providers-vsphere';
import * as E from 'fp-ts/lib/Either.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CapiClient, connect } from '../src/index.js';
import {
  capiCrdDirs,
  unwrap,
  unwrapLeft,
  v1alpha1Machine,
  v1alpha2Machine,
  v1alpha2MachineSet,
} from './helpers/fixtures.js';
import { pollUntil } from './helpers/poll.js';

const cp = useControlPlane();

describe.skipIf(noControlPlane())('typed access on a real API server', () => {
  let client: CapiClient;

  beforeAll(async () => {
    for (const dir of capiCrdDirs) await cp.installCRDs(dir);
    client = unwrap(
      await connect(cp.kubeConfig, {
        conversion: { plugins: [awsConversionPlugin, vsphereConversionPlugin] },
      }),
    );
  });

  describe('discovery', () => {
    it('finds both Cluster API versions and the kinds each serves', () => {
      const byVersion = Object.fromEntries(client.discovery.served.map((v) => [v.apiVersion, v.kinds]));
      expect(byVersion['cluster.k8s.io/v1alpha1']).toEqual([
        'Cluster',
        'Machine',
        'MachineSet',
        'MachineDeployment',
        'MachineClass',
      ]);
      expect(byVersion['cluster.x-k8s.io/v1alpha2']).toEqual([
        'Cluster',
        'Machine',
        'MachineSet',
        'MachineDeployment',
      ]);
      expect(client.serves('cluster.x-k8s.io/v1alpha2', 'MachineClass')).toBe(false);
      expect(unwrap(client.resource('cluster.k8s.io/v1alpha1', 'MachineClass')).info.plural).toBe(
        'machineclasses',
      );
      // v1alpha2 has no MachineClass: not offered, with a reason.
      const missing = unwrapLeft(client.resource('cluster.x-k8s.io/v1alpha2', 'MachineClass' as never));
      expect(missing).toMatchObject({
        code: 'not-served',
        message: expect.stringMatching(/has no kind MachineClass/),
      });
    });

    it('reports a Cluster API version it does not type, without failing', async () => {
      // A later, unknown version under the cluster.x-k8s.io group. v0alpha1 sorts below
      // v1alpha2, so the group's preferred version (which other tests read) does not change.
      await cp.installCRDs([
        {
          apiVersion: 'apiextensions.k8s.io/v1',
          kind: 'CustomResourceDefinition',
          metadata: { name: 'capikitprobes.cluster.x-k8s.io' },
          spec: {
            group: 'cluster.x-k8s.io',
            names: {
              kind: 'CapiKitProbe',
              plural: 'capikitprobes',
              singular: 'capikitprobe',
              listKind: 'CapiKitProbeList',
            },
            scope: 'Namespaced',
            versions: [
              {
                name: 'v0alpha1',
                served: true,
                storage: true,
                schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
              },
            ],
          },
        },
      ]);
      const fresh = unwrap(await connect(cp.kubeConfig));
      expect(fresh.discovery.unknown.map((u) => u.apiVersion)).toContain('cluster.x-k8s.io/v0alpha1');
      expect(
        fresh.discovery.unknown.find((u) => u.apiVersion === 'cluster.x-k8s.io/v0alpha1')?.message,
      ).toMatch(/not typed by this client/);
      expect(fresh.serves('cluster.x-k8s.io/v1alpha2', 'Machine')).toBe(true);
    });
  });

  describe('typed access', () => {
    it('creates, gets, lists page by page, patches three ways, replaces and deletes with preconditions', async () => {
      const ns = cp.namespace;
      const machines = unwrap(client.resource('cluster.x-k8s.io/v1alpha2', 'Machine'));
      for (let i = 0; i < 5; i++) unwrap(await machines.create(v1alpha2Machine(ns, `m-${i}`)));

      const got = unwrap(await machines.get(ns, 'm-0'));
      expect(got.spec?.infrastructureRef.kind).toBe('AWSMachine');
      const listed = unwrap(await machines.list({ namespace: ns, pageSize: 2 }));
      expect(listed.items.map((m) => m.metadata?.name).sort()).toEqual(['m-0', 'm-1', 'm-2', 'm-3', 'm-4']);
      expect(listed.invalid).toEqual([]);
      expect(listed.resourceVersion).not.toBe('');

      const merged = unwrap(
        await machines.patch(ns, 'm-0', { type: 'merge', patch: { metadata: { labels: { role: 'db' } } } }),
      );
      expect(merged.metadata?.labels?.role).toBe('db');
      const jsonPatched = unwrap(
        await machines.patch(ns, 'm-0', {
          type: 'json',
          patch: [{ op: 'add', path: '/spec/providerID', value: 'aws:///eu-west-1a/i-0123' }],
        }),
      );
      expect(jsonPatched.spec?.providerID).toBe('aws:///eu-west-1a/i-0123');
      const applied = unwrap(
        await machines.patch(ns, 'm-0', {
          type: 'apply',
          fieldManager: 'capi-kit-test',
          force: true,
          patch: {
            apiVersion: 'cluster.x-k8s.io/v1alpha2',
            kind: 'Machine',
            metadata: { name: 'm-0', namespace: ns, annotations: { owner: 'capi-kit' } },
          },
        }),
      );
      expect(applied.metadata?.annotations?.owner).toBe('capi-kit');
      expect(
        applied.metadata?.managedFields?.some(
          (f) => f.manager === 'capi-kit-test' && f.operation === 'Apply',
        ),
      ).toBe(true);

      // Replace with a stale resourceVersion: the server refuses, nothing is written.
      const stale = { ...got, metadata: { ...got.metadata, labels: { stale: 'yes' } } };
      const conflict = unwrapLeft(await machines.replace(stale));
      expect(conflict.code).toBe('conflict');
      expect(conflict.message).toMatch(/replace Machine .*\/m-0 \(cluster.x-k8s.io\/v1alpha2\): HTTP 409/);
      const fresh = unwrap(await machines.get(ns, 'm-0'));
      const replaced = unwrap(
        await machines.replace({ ...fresh, metadata: { ...fresh.metadata, labels: { r: '1' } } }),
      );
      expect(replaced.metadata?.labels).toEqual({ r: '1' });

      // Delete with preconditions: a wrong resourceVersion is refused, the right one deletes.
      expect(
        unwrapLeft(await machines.delete(ns, 'm-1', { preconditions: { resourceVersion: '1' } })).code,
      ).toBe('conflict');
      const m1 = unwrap(await machines.get(ns, 'm-1'));
      unwrap(await machines.delete(ns, 'm-1', { preconditions: { uid: m1.metadata?.uid ?? '' } }));
      const gone = unwrapLeft(await machines.get(ns, 'm-1'));
      expect(gone.code).toBe('not-found');
    });

    it('scales MachineSets through the scale subresource, guarded by resourceVersion', async () => {
      const ns = cp.namespace;
      const sets = unwrap(client.resource('cluster.x-k8s.io/v1alpha2', 'MachineSet'));
      unwrap(await sets.create(v1alpha2MachineSet(ns, 'workers', 2)));
      const scale = unwrap(await sets.getScale(ns, 'workers'));
      expect(scale.replicas).toBe(2);
      const scaled = unwrap(
        await sets.setScale(ns, 'workers', { replicas: 5, resourceVersion: scale.resourceVersion }),
      );
      expect(scaled.replicas).toBe(5);
      expect(unwrap(await sets.get(ns, 'workers')).spec?.replicas).toBe(5);
      // The old resourceVersion is stale now: refused, replicas stay 5.
      expect(
        unwrapLeft(
          await sets.setScale(ns, 'workers', { replicas: 1, resourceVersion: scale.resourceVersion }),
        ).code,
      ).toBe('conflict');
      expect(unwrap(await sets.getScale(ns, 'workers')).replicas).toBe(5);
      expect(
        unwrapLeft(
          await sets.setScale(ns, 'workers', { replicas: -1, resourceVersion: scaled.resourceVersion }),
        ).code,
      ).toBe('precondition-failed');
      const machines = unwrap(client.resource('cluster.x-k8s.io/v1alpha2', 'Machine'));
      expect(unwrapLeft(await machines.getScale(ns, 'workers')).code).toBe('not-served');
    });

    it('returns an object that does not decode raw with its JSON-path errors, never dropping it', async () => {
      const ns = cp.namespace;
      const v1 = unwrap(client.resource('cluster.k8s.io/v1alpha1', 'Machine'));
      const bad = v1alpha1Machine(ns, 'bad-taint');
      // The v1alpha1 CRD leaves taints unchecked; core's codec wants a string key.
      const body = { ...bad, spec: { ...bad.spec, taints: [{ key: 5, effect: 'NoSchedule' }] } };
      const created = unwrapLeft(await v1.create(body as never));
      expect(created.code).toBe('invalid-object');
      const got = unwrapLeft(await v1.get(ns, 'bad-taint'));
      expect(got).toMatchObject({
        code: 'invalid-object',
        path: 'spec.taints[0].key',
        name: 'bad-taint',
        namespace: ns,
      });
      if (got.code !== 'invalid-object') throw new Error('unreachable');
      expect((got.object as typeof body).spec.taints[0]?.key).toBe(5);
      expect(got.errors[0]?.message).toMatch(/spec\.taints\[0\]\.key: expected string, got 5/);
      unwrap(await v1.create(v1alpha1Machine(ns, 'good')));
      const listed = unwrap(await v1.list({ namespace: ns }));
      expect(listed.items.map((m) => m.metadata?.name)).toContain('good');
      expect(listed.invalid.map((i) => i.code === 'invalid-object' && i.name)).toEqual(['bad-taint']);
      unwrap(await v1.delete(ns, 'bad-taint'));
    });
  });

  describe('version view', () => {
    it('reads v1alpha1 Machines as v1alpha2, losslessly: converting back gives the object as served', async () => {
      const ns = await cp.createNamespace('client-view');
      const v1 = unwrap(client.resource('cluster.k8s.io/v1alpha1', 'Machine'));
      const served = unwrap(
        await v1.create(
          v1alpha1Machine(ns, 'legacy-0', 'legacy', { providerID: 'aws:///eu-west-1a/i-0abc' }),
        ),
      );
      unwrap(
        await unwrap(client.resource('cluster.x-k8s.io/v1alpha2', 'Machine')).create(
          v1alpha2Machine(ns, 'modern-0'),
        ),
      );

      const view = unwrap(client.view('Machine', { as: 'cluster.x-k8s.io/v1alpha2' }));
      const viewed = unwrap(await view.get(ns, 'legacy-0'));
      expect(viewed.apiVersion).toBe('cluster.x-k8s.io/v1alpha2');
      expect(viewed.spec?.providerID).toBe('aws:///eu-west-1a/i-0abc');
      expect(viewed.metadata?.labels?.['cluster.x-k8s.io/cluster-name']).toBe('legacy');
      expect(viewed.spec?.infrastructureRef.kind).toBe('AWSMachine');

      const back = toV1alpha1(viewed);
      if (E.isLeft(back)) throw new Error(back.left.message);
      expect(back.right.object).toStrictEqual(JSON.parse(JSON.stringify(served)));

      const listed = unwrap(await view.list({ namespace: ns }));
      expect(listed.items.map((m) => `${m.apiVersion} ${m.metadata?.name}`).sort()).toEqual([
        'cluster.x-k8s.io/v1alpha2 legacy-0',
        'cluster.x-k8s.io/v1alpha2 modern-0',
      ]);
      expect(listed.invalid).toEqual([]);
    });

    it('a v1alpha1 object no plug-in can convert comes back raw as conversion-failed', async () => {
      const ns = await cp.createNamespace('client-view-fail');
      const bare = unwrap(await connect(cp.kubeConfig));
      const v1 = unwrap(bare.resource('cluster.k8s.io/v1alpha1', 'Machine'));
      unwrap(await v1.create(v1alpha1Machine(ns, 'legacy-1')));
      const view = unwrap(bare.view('Machine', { as: 'cluster.x-k8s.io/v1alpha2' }));
      const failed = unwrapLeft(await view.get(ns, 'legacy-1'));
      expect(failed.code).toBe('conversion-failed');
      expect(failed.message).toMatch(/no conversion plug-in handles providerSpec/);
      const listed = unwrap(await view.list({ namespace: ns }));
      expect(listed.items).toEqual([]);
      expect(listed.invalid).toHaveLength(1);
    });
  });

  describe('watches', () => {
    it('a typed watch from a list resourceVersion sees adds, changes and deletes, and undecodable objects raw', async () => {
      const ns = await cp.createNamespace('client-watch');
      const v1 = unwrap(client.resource('cluster.k8s.io/v1alpha1', 'Machine'));
      const start = unwrap(await v1.list({ namespace: ns })).resourceVersion;
      const seen: string[] = [];
      const handle = await v1.watch({ namespace: ns, resourceVersion: start }, (event) => {
        if (event.type === 'INVALID')
          seen.push(
            `INVALID ${event.event} ${event.error.code === 'invalid-object' ? event.error.path : ''}`,
          );
        else if (event.type !== 'BOOKMARK') seen.push(`${event.type} ${event.object.metadata?.name}`);
      });
      unwrap(await v1.create(v1alpha1Machine(ns, 'w-0')));
      unwrap(
        await v1.patch(ns, 'w-0', { type: 'merge', patch: { metadata: { labels: { changed: 'yes' } } } }),
      );
      const bad = v1alpha1Machine(ns, 'w-bad');
      await v1.create({ ...bad, spec: { ...bad.spec, taints: [{ key: 7, effect: 'NoSchedule' }] } } as never);
      unwrap(await v1.delete(ns, 'w-0'));
      await pollUntil('four events', () => seen.length >= 4);
      handle.stop();
      expect(await handle.done).toBeUndefined();
      expect(seen).toEqual(['ADDED w-0', 'MODIFIED w-0', 'INVALID ADDED spec.taints[0].key', 'DELETED w-0']);
    });

    it('an informer keeps objects that do not decode apart, and moves them when they are fixed', async () => {
      const ns = await cp.createNamespace('client-informer-invalid');
      const v1 = unwrap(client.resource('cluster.k8s.io/v1alpha1', 'Machine'));
      const bad = v1alpha1Machine(ns, 'i-bad');
      await v1.create({ ...bad, spec: { ...bad.spec, taints: [{ key: 7, effect: 'NoSchedule' }] } } as never);
      unwrap(await v1.create(v1alpha1Machine(ns, 'i-good')));
      const informer = unwrap(client.informer('cluster.k8s.io/v1alpha1', 'Machine', { namespace: ns }));
      const invalid: string[] = [];
      informer.on('invalid', (u) => invalid.push(u.message));
      try {
        await informer.start();
        expect(informer.list().map((m) => m.metadata?.name)).toEqual(['i-good']);
        expect(
          informer.invalid().map((u) => (u.code === 'invalid-object' ? `${u.name} ${u.path}` : '')),
        ).toEqual(['i-bad spec.taints[0].key']);
        expect(invalid[0]).toMatch(
          /Machine .*\/i-bad \(cluster\.k8s\.io\/v1alpha1\) does not decode: spec\.taints\[0\]\.key/,
        );
        expect(informer.byIndex('clusterName', 'legacy').map((m) => m.metadata?.name)).toEqual(['i-good']);
        await v1.patch(ns, 'i-bad', {
          type: 'json',
          patch: [{ op: 'replace', path: '/spec/taints/0/key', value: 'fixed' }],
        });
        await pollUntil('the fixed Machine joins the cache', () => informer.get(ns, 'i-bad') !== undefined);
        expect(informer.invalid()).toEqual([]);
        expect(informer.byIndex('clusterName', 'legacy')).toHaveLength(2);
      } finally {
        informer.stop();
      }
    });
  });
});
