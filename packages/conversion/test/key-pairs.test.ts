import { writeManifest } from '@capi-kit/core/manifest';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { awsConversionPlugin } from '../../providers-aws/src/conversion/index.js';
import {
  type ChainOptions,
  CONVERSION_DATA_ANNOTATION,
  type ConversionPlugin,
  convertManifest,
  convertObject,
  convertTo,
  type JsonObject,
  V1ALPHA1,
  V1ALPHA2,
} from '../src/index.js';
import { chainConverter } from '../src/webhook.js';
import { secretDataOf } from './support/secret-store.js';
import { left, right, stashOf, withForgedPatch } from './support/stash-text.js';

// A v1alpha1 Cluster's key pairs become Secrets going up; their private keys must not also
// be written into the Cluster's stash annotation, which whoever may read Clusters can read.

const CA_CERT = 'Q0EgY2VydGlmaWNhdGU=';
const CA_KEY = 'Q0EgcHJpdmF0ZSBrZXkgLS0gc2VjcmV0';
const SA_CERT = 'U0EgcHVibGljIGtleQ==';
const SA_KEY = 'U0EgcHJpdmF0ZSBrZXkgLS0gc2VjcmV0';

const v1Cluster = (): JsonObject => ({
  apiVersion: V1ALPHA1,
  kind: 'Cluster',
  metadata: { name: 'prod', namespace: 'team-a' },
  spec: {
    clusterNetwork: {
      services: { cidrBlocks: ['10.96.0.0/12'] },
      pods: { cidrBlocks: ['192.168.0.0/16'] },
      serviceDomain: 'cluster.local',
    },
    providerSpec: {
      value: {
        apiVersion: 'awsprovider/v1alpha1',
        kind: 'AWSClusterProviderSpec',
        region: 'us-east-1',
        caKeyPair: { cert: CA_CERT, key: CA_KEY },
        saKeyPair: { cert: SA_CERT, key: SA_KEY },
      },
    },
  },
});

const plugins = [awsConversionPlugin];

/** The v1alpha2 manifest `capi-kit convert` writes for the Cluster: Cluster, AWSCluster, Secrets. */
function upManifest(): readonly JsonObject[] {
  const text = writeManifest([v1Cluster()], 'yaml');
  return right(convertManifest(text, { to: V1ALPHA2, plugins })).documents as JsonObject[];
}

describe('private keys stay out of the stash', () => {
  it('going up, the stash names the Secrets instead of keeping the keys', () => {
    const [cluster, ...generated] = upManifest();
    const stash = stashOf(cluster);
    for (const key of [CA_KEY, SA_KEY]) expect(stash).not.toContain(key);
    // the certificates are public: the stash keeps them, to check the Secret on the way back
    expect(stash).toContain(CA_CERT);
    const patch = JSON.parse(stash).patch as unknown[];
    expect(patch).toContainEqual({ pair: ['spec', 'providerSpec', 'value', 'caKeyPair'], secret: 'prod-ca' });
    expect(patch).toContainEqual({ pair: ['spec', 'providerSpec', 'value', 'saKeyPair'], secret: 'prod-sa' });
    const secrets = generated.filter((o) => o.kind === 'Secret');
    expect(secrets.map((s) => s.data)).toEqual([
      { 'tls.crt': CA_CERT, 'tls.key': CA_KEY },
      { 'tls.crt': SA_CERT, 'tls.key': SA_KEY },
    ]);
  });

  it('converting the whole manifest back down reads the keys from its Secrets', () => {
    const text = writeManifest(upManifest(), 'yaml');
    const down = right(convertManifest(text, { to: V1ALPHA1 }));
    const cluster = down.documents.find((d) => (d as JsonObject).kind === 'Cluster');
    expect(cluster).toStrictEqual(v1Cluster());
    const report = down.report.documents[0]!.objects[0]!;
    expect(report.restored).toContain('spec.providerSpec.value.caKeyPair.key');
  });

  it('the chain to v1beta2 and back to v1alpha1 keeps them in the Secrets too', () => {
    const options: ChainOptions = { plugins };
    const up = right(convertTo(v1Cluster(), 'cluster.x-k8s.io/v1beta2', options));
    expect(JSON.stringify(up.object)).not.toContain(CA_KEY);
    const back = right(convertTo(up.object, V1ALPHA1, { secretData: secretDataOf(up.generated) }));
    expect(back.object).toStrictEqual(v1Cluster());
  });

  it('without the Secret, the way down refuses instead of losing the key', () => {
    const [cluster] = upManifest();
    const alone = left(convertObject(cluster, V1ALPHA1));
    expect(alone).toMatchObject({ code: 'secret-missing', path: 'spec.providerSpec.value.caKeyPair' });
    expect(alone.message).toContain('Secret team-a/prod-ca (tls.key)');
    const notFound = left(convertObject(cluster, V1ALPHA1, { secretData: () => undefined }));
    expect(notFound.message).toContain('that Secret was not found');
  });

  it('a Secret holding another certificate gives no key', () => {
    const [cluster] = upManifest();
    const other = { 'tls.crt': 'b3RoZXIgY2VydA==', 'tls.key': 'b3RoZXIga2V5' };
    const result = left(convertObject(cluster, V1ALPHA1, { secretData: () => other }));
    expect(result).toMatchObject({ code: 'secret-key-mismatch', path: 'spec.providerSpec.value.caKeyPair' });
    const noKey = left(convertObject(cluster, V1ALPHA1, { secretData: () => ({ 'tls.crt': CA_CERT }) }));
    expect(noKey.code).toBe('secret-key-mismatch');
  });

  it('up again after a way down that restored the reference (no plug-in runs), the keys stay out while their Secrets are given', () => {
    const [cluster, ...generated] = upManifest();
    const secrets = new Map(
      generated.map((o) => [(o.metadata as { name: string }).name, o.data as JsonObject]),
    );
    const secretData = (_: string | undefined, name: string) => secrets.get(name);
    // An edited reference is kept for the way back up, so the plug-in is not asked again.
    ((cluster!.spec as JsonObject).infrastructureRef as JsonObject).name = 'prod-renamed';
    const down = right(convertObject(cluster, V1ALPHA1, { secretData })).object;
    const again = right(convertObject(down, V1ALPHA2, { plugins, secretData }));
    expect(again.generated).toEqual([]);
    for (const key of [CA_KEY, SA_KEY]) expect(stashOf(again.object)).not.toContain(key);
    expect(right(convertObject(again.object, V1ALPHA1, { secretData })).object).toStrictEqual(down);
    // Without the Secrets the key has nowhere else to go: it stays in the stash, and the report says so.
    const unsure = right(convertObject(down, V1ALPHA2, { plugins }));
    expect(stashOf(unsure.object)).toContain(CA_KEY);
    expect(unsure.reports[0]!.warnings).toContain(
      'spec.providerSpec.value.caKeyPair.key is kept in the stash annotation: Secret prod-ca holding this pair was not given (convert it together with the Secret to keep the key out)',
    );
  });

  it('the conversion webhook, which drops generated Secrets, keeps the keys in the stash and round-trips', () => {
    const convert = chainConverter({ plugins });
    const up = right(convert(v1Cluster(), V1ALPHA2));
    expect(stashOf(up)).toContain(CA_KEY);
    expect(right(convert(up, V1ALPHA1))).toStrictEqual(v1Cluster());
  });
});

describe('a stash naming Secrets is data from whoever could annotate the object', () => {
  /** The up-converted Cluster with its stash's patch edited. */
  const forged = (edit: (patch: JsonObject[]) => JsonObject[]): JsonObject =>
    withForgedPatch(upManifest()[0]!, edit);
  // The real Secrets, as the manifest holds them: only the records are forged.
  const anySecret = {
    secretData: (_: string | undefined, name: string) =>
      name === 'prod-sa'
        ? { 'tls.crt': SA_CERT, 'tls.key': SA_KEY }
        : { 'tls.crt': CA_CERT, 'tls.key': CA_KEY },
  };

  it('a record naming a Secret not named after the object is refused', () => {
    const cluster = forged((patch) => [
      ...patch,
      { pair: ['spec', 'providerSpec', 'value', 'caKeyPair'], secret: 'admin-token' },
    ]);
    const result = left(convertObject(cluster, V1ALPHA1, anySecret));
    expect(result.code).toBe('stash-key-pair');
    expect(result.message).toContain('only Secrets named prod-<suffix>');
  });

  it('a record outside the providerSpec value is refused', () => {
    const cluster = forged((patch) => [...patch, { pair: ['metadata', 'labels'], secret: 'prod-ca' }]);
    expect(left(convertObject(cluster, V1ALPHA1, anySecret)).code).toBe('stash-key-pair');
  });

  it('a record whose pair the stash does not put back is refused', () => {
    const cluster = forged((patch) => [
      ...patch,
      { pair: ['spec', 'providerSpec', 'value', 'nothing'], secret: 'prod-ca' },
    ]);
    expect(left(convertObject(cluster, V1ALPHA1, anySecret)).code).toBe('stash-key-pair');
  });

  it('a malformed record is refused, and so is a record on a way it never applies', () => {
    const malformed = forged((patch) => [...patch, { pair: 'spec', secret: 1 }]);
    expect(left(convertObject(malformed, V1ALPHA1, anySecret)).code).toBe('stash-malformed');
    const v1 = {
      ...v1Cluster(),
      metadata: {
        name: 'prod',
        namespace: 'team-a',
        annotations: {
          [CONVERSION_DATA_ANNOTATION]: JSON.stringify({
            restores: V1ALPHA2,
            patch: [{ pair: ['spec', 'providerSpec', 'value', 'caKeyPair'], secret: 'prod-ca' }],
          }),
        },
      },
    };
    expect(left(convertObject(v1, V1ALPHA2, { plugins })).code).toBe('stash-key-pair');
  });

  it('a later hop refuses a record (only v1alpha1 has key pairs)', () => {
    const v3 = right(convertTo(v1Cluster(), 'cluster.x-k8s.io/v1alpha3', { plugins })).object;
    const annotations = (v3.metadata as { annotations: Record<string, string> }).annotations;
    annotations[CONVERSION_DATA_ANNOTATION] = JSON.stringify({
      restores: V1ALPHA2,
      patch: [{ pair: ['spec', 'x'], secret: 'prod-ca' }],
    });
    expect(left(convertTo(v3, V1ALPHA2, {})).code).toBe('stash-key-pair');
  });
});

describe('plug-in claims are checked against what the plug-in made', () => {
  const claiming = (claim: { field: string; secret: string }): ConversionPlugin => ({
    ...awsConversionPlugin,
    cluster: (input) => {
      const made = awsConversionPlugin.cluster(input);
      return E.isLeft(made) ? made : E.right({ ...made.right, keyPairs: [claim] });
    },
  });

  it('a claim on a Secret the plug-in did not make is refused', () => {
    const result = left(
      convertObject(v1Cluster(), V1ALPHA2, {
        plugins: [claiming({ field: 'caKeyPair', secret: 'prod-sa' })],
      }),
    );
    expect(result).toMatchObject({ code: 'plugin-refused', path: 'spec.providerSpec.value' });
    expect(result.message).toContain('made no such Secret holding its cert and key');
  });

  it('a claim on a Secret not named after the object is refused', () => {
    const result = left(
      convertObject(v1Cluster(), V1ALPHA2, { plugins: [claiming({ field: 'caKeyPair', secret: 'ca' })] }),
    );
    expect(result.message).toContain('which is not named prod-<suffix>');
  });

  it('a claim on a field that is not a key pair is refused', () => {
    const result = left(
      convertObject(v1Cluster(), V1ALPHA2, { plugins: [claiming({ field: 'region', secret: 'prod-ca' })] }),
    );
    expect(result.message).toContain('region is not a {cert, key} pair');
  });
});
