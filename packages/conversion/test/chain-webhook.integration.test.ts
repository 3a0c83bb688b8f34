import { join } from 'node:path';
import { type ControlPlane, loadCrds, restRequest, startControlPlane } from '@capi-kit/envtest';
import { createCertificateAuthority } from '@capi-kit/envtest/pki';
import { noControlPlane } from '@capi-kit/envtest/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONVERSION_DATA_ANNOTATION } from '../src/index.js';
import { type ConversionWebhookServer, serveConversionWebhook } from '../src/webhook.js';

// The upstream multi-version CRDs, installed with `strategy: Webhook` pointing at
// serveConversionWebhook (handleConversionReview) over HTTPS on loopback: the API server
// itself asks our engine to convert. Each release gets a control plane of its own, since
// both releases define the same CRD names (and the run's shared control plane holds the
// v1alpha2 ones other files use).
const crdRoot = join(import.meta.dirname, '../../../testdata/crds/later');
const group = 'cluster.x-k8s.io';
const ns = 'default';

type Obj = Record<string, unknown> & { metadata: Record<string, unknown>; spec?: Record<string, unknown> };

interface Release {
  readonly tag: string;
  readonly served: string;
  readonly stored: string;
  /** One object per kind, in the served (older) version, and what to see in the stored one. */
  readonly objects: readonly { plural: string; object: Obj; stored: (o: Obj) => void }[];
}

/** The value at `path` under the object's spec (undefined where the path ends early). */
const spec = (o: Obj, ...path: string[]): unknown =>
  path.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], o.spec);

/** The v1beta1 Machine template the MachineSet and MachineDeployment cases share. */
const workerTemplate = {
  metadata: { labels: { set: 'a' } },
  spec: {
    clusterName: 'c1',
    bootstrap: { dataSecretName: 's' },
    infrastructureRef: {
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
      kind: 'DockerMachineTemplate',
      name: 't',
    },
  },
};

const releases: readonly Release[] = [
  {
    tag: 'v0.4.8',
    served: 'v1alpha3',
    stored: 'v1alpha4',
    objects: [
      {
        plural: 'clusters',
        object: {
          kind: 'Cluster',
          metadata: { name: 'c1' },
          spec: { controlPlaneEndpoint: { host: 'api.example', port: 6443 }, paused: true },
        },
        stored: (o) => expect(spec(o, 'controlPlaneEndpoint')).toEqual({ host: 'api.example', port: 6443 }),
      },
      {
        plural: 'machines',
        object: {
          kind: 'Machine',
          metadata: { name: 'm1', labels: { 'cluster.x-k8s.io/cluster-name': 'c1' } },
          spec: {
            clusterName: 'c1',
            // v1alpha4 has no bootstrap.data: upstream loses it for good; the stash keeps it.
            bootstrap: { data: 'IyEvYmluL3NoCg==' },
            infrastructureRef: {
              apiVersion: 'infrastructure.cluster.x-k8s.io/v1alpha3',
              kind: 'DockerMachine',
              name: 'm1',
            },
            nodeDrainTimeout: '1m30.5s',
          },
        },
        stored: (o) => {
          expect(spec(o, 'bootstrap', 'data')).toBeUndefined();
          expect((o.metadata.annotations as Record<string, string>)[CONVERSION_DATA_ANNOTATION]).toContain(
            'IyEvYmluL3NoCg==',
          );
        },
      },
      {
        plural: 'machinesets',
        object: {
          kind: 'MachineSet',
          metadata: { name: 'ms1' },
          spec: {
            clusterName: 'c1',
            replicas: 2,
            selector: { matchLabels: { set: 'a' } },
            template: {
              // name and generateName: gone from v1alpha4 template metadata (upstream drops them)
              metadata: { name: 'tpl', generateName: 'tpl-', labels: { set: 'a' } },
              spec: {
                clusterName: 'c1',
                bootstrap: { dataSecretName: 's' },
                infrastructureRef: { kind: 'DockerMachineTemplate', name: 't' },
              },
            },
          },
        },
        stored: (o) => expect(spec(o, 'template', 'metadata')).toEqual({ labels: { set: 'a' } }),
      },
      {
        plural: 'machinedeployments',
        object: {
          kind: 'MachineDeployment',
          metadata: { name: 'md1' },
          spec: {
            clusterName: 'c1',
            replicas: 3,
            selector: { matchLabels: { set: 'a' } },
            strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
            template: {
              metadata: { namespace: ns, labels: { set: 'a' } },
              spec: {
                clusterName: 'c1',
                bootstrap: { data: 'eA==' },
                infrastructureRef: { kind: 'DockerMachineTemplate', name: 't' },
              },
            },
          },
        },
        stored: (o) => expect(spec(o, 'template', 'spec', 'bootstrap')).toBeUndefined(),
      },
      {
        plural: 'machinehealthchecks',
        object: {
          kind: 'MachineHealthCheck',
          metadata: { name: 'mhc1' },
          spec: {
            clusterName: 'c1',
            selector: { matchLabels: { set: 'a' } },
            unhealthyConditions: [{ type: 'Ready', status: 'Unknown', timeout: '300s' }],
            maxUnhealthy: '40%',
          },
        },
        stored: (o) => expect(spec(o, 'maxUnhealthy')).toBe('40%'),
      },
    ],
  },
  {
    tag: 'v1.14.0',
    served: 'v1beta1',
    stored: 'v1beta2',
    objects: [
      {
        plural: 'clusters',
        object: {
          kind: 'Cluster',
          metadata: { name: 'c1' },
          spec: {
            controlPlaneEndpoint: { host: 'api.example', port: 6443 },
            infrastructureRef: {
              apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
              kind: 'DockerCluster',
              name: 'c1',
              namespace: ns,
            },
          },
        },
        stored: (o) =>
          expect(spec(o, 'infrastructureRef')).toEqual({
            apiGroup: 'infrastructure.cluster.x-k8s.io',
            kind: 'DockerCluster',
            name: 'c1',
          }),
      },
      {
        plural: 'machines',
        object: {
          kind: 'Machine',
          metadata: { name: 'm1' },
          spec: {
            clusterName: 'c1',
            bootstrap: { dataSecretName: 'm1-bootstrap' },
            infrastructureRef: {
              apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
              kind: 'DockerMachine',
              name: 'm1',
            },
            // v1beta2 keeps whole seconds (upstream truncates); the stash keeps the rest.
            nodeDrainTimeout: '1m30.5s',
          },
        },
        stored: (o) => expect(spec(o, 'deletion')).toEqual({ nodeDrainTimeoutSeconds: 90 }),
      },
      {
        plural: 'machinesets',
        object: {
          kind: 'MachineSet',
          metadata: { name: 'ms1' },
          spec: {
            clusterName: 'c1',
            replicas: 2,
            deletePolicy: 'Oldest',
            minReadySeconds: 5,
            selector: { matchLabels: { set: 'a' } },
            template: workerTemplate,
          },
        },
        stored: (o) => {
          expect(spec(o, 'deletion')).toEqual({ order: 'Oldest' });
          expect(spec(o, 'template', 'spec', 'minReadySeconds')).toBe(5);
        },
      },
      {
        plural: 'machinedeployments',
        object: {
          kind: 'MachineDeployment',
          metadata: { name: 'md1' },
          spec: {
            clusterName: 'c1',
            replicas: 3,
            revisionHistoryLimit: 4,
            selector: { matchLabels: { set: 'a' } },
            strategy: {
              type: 'RollingUpdate',
              rollingUpdate: { maxSurge: 1, maxUnavailable: 0, deletePolicy: 'Newest' },
            },
            template: workerTemplate,
          },
        },
        stored: (o) => {
          expect(spec(o, 'rollout')).toEqual({
            strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
          });
          expect(spec(o, 'deletion')).toEqual({ order: 'Newest' });
          expect(spec(o, 'revisionHistoryLimit')).toBeUndefined();
        },
      },
      {
        plural: 'machinehealthchecks',
        object: {
          kind: 'MachineHealthCheck',
          metadata: { name: 'mhc1' },
          spec: {
            clusterName: 'c1',
            selector: { matchLabels: { set: 'a' } },
            unhealthyConditions: [{ type: 'Ready', status: 'Unknown', timeout: '5m0s' }],
            nodeStartupTimeout: '10m0s',
            maxUnhealthy: '40%',
          },
        },
        stored: (o) =>
          expect(spec(o, 'checks')).toEqual({
            nodeStartupTimeoutSeconds: 600,
            unhealthyNodeConditions: [{ type: 'Ready', status: 'Unknown', timeoutSeconds: 300 }],
          }),
      },
    ],
  },
];

async function call(plane: ControlPlane, method: 'GET' | 'POST', path: string, body?: unknown) {
  return restRequest(plane.kubeConfig, method, path, body);
}

const base = (version: string, plural: string) => `/apis/${group}/${version}/namespaces/${ns}/${plural}`;

/** What the server adds: compared objects leave it out. */
function withoutServerFields(o: Obj): Obj {
  const { uid, resourceVersion, creationTimestamp, generation, managedFields, ...metadata } =
    o.metadata as Record<string, unknown>;
  void uid;
  void resourceVersion;
  void creationTimestamp;
  void generation;
  void managedFields;
  const { status, ...rest } = o;
  void status;
  return { ...rest, metadata } as Obj;
}

for (const release of releases) {
  describe.skipIf(noControlPlane('private-local'))(
    `${release.tag} CRDs (${release.served} served, ${release.stored} stored) converted by our webhook`,
    () => {
      let plane: ControlPlane;
      let webhook: ConversionWebhookServer;
      beforeAll(async () => {
        const ca = await createCertificateAuthority('capi-kit-conversion-webhook-test');
        const serving = await ca.issueServerCertificate(['127.0.0.1', 'localhost']);
        webhook = await serveConversionWebhook({ cert: serving.certPem, key: serving.keyPem, port: 0 });
        plane = await startControlPlane({ backend: 'local', log: () => {} });
        const caBundle = Buffer.from(ca.certPem).toString('base64');
        const crds = loadCrds(join(crdRoot, release.tag)).map(({ crd }) => ({
          ...crd,
          spec: {
            ...(crd.spec as Record<string, unknown>),
            conversion: {
              strategy: 'Webhook',
              webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: webhook.url, caBundle } },
            },
          },
        }));
        await plane.installCRDs(crds);
      }, 180_000);
      afterAll(async () => {
        await plane?.stop();
        await webhook?.close();
      });

      for (const { plural, object, stored } of release.objects) {
        it(`${object.kind}: created as ${release.served}, read as ${release.stored} and back, unchanged`, async () => {
          const sent: Obj = {
            apiVersion: `${group}/${release.served}`,
            ...object,
            metadata: { ...object.metadata, namespace: ns },
          };
          const created = await call(plane, 'POST', base(release.served, plural), sent);
          expect(created.status, JSON.stringify(created.body)).toBe(201);
          const name = String(object.metadata.name);
          const asStored = await call(plane, 'GET', `${base(release.stored, plural)}/${name}`);
          expect(asStored.status).toBe(200);
          const storedObject = asStored.body as Obj;
          expect(storedObject.apiVersion).toBe(`${group}/${release.stored}`);
          stored(storedObject);
          const back = await call(plane, 'GET', `${base(release.served, plural)}/${name}`);
          expect(back.status).toBe(200);
          expect(withoutServerFields(back.body as Obj)).toStrictEqual(sent);
        });
      }

      it('a conversion that fails (a stash that would rename the object) is the API server’s error', async () => {
        const hostile: Obj = {
          apiVersion: `${group}/${release.served}`,
          kind: 'Machine',
          metadata: {
            name: 'hostile',
            namespace: ns,
            annotations: {
              [CONVERSION_DATA_ANNOTATION]: JSON.stringify({
                restores: `${group}/${release.stored}`,
                patch: [{ p: ['metadata', 'name'], v: 'evil' }],
              }),
            },
          },
          spec: {
            clusterName: 'c1',
            bootstrap: { dataSecretName: 's' },
            infrastructureRef: {
              apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
              kind: 'DockerMachine',
              name: 'h',
            },
          },
        };
        const res = await call(plane, 'POST', base(release.served, 'machines'), hostile);
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(JSON.stringify(res.body)).toMatch(/conversion webhook.*refused/s);
        const gone = await call(plane, 'GET', `${base(release.served, 'machines')}/hostile`);
        expect(gone.status).toBe(404);
      });
    },
  );
}
