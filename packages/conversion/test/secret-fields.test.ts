import { writeManifest } from '@capi-kit/core/manifest';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { vsphereConversionPlugin } from '../../providers-vsphere/src/conversion/index.js';
import {
  CONVERSION_DATA_ANNOTATION,
  type ConversionPlugin,
  convertManifest,
  convertObject,
  convertTo,
  type JsonObject,
  STASHED_FOR_DATA_KEY,
  V1ALPHA1,
  V1ALPHA2,
} from '../src/index.js';
import { chainConverter } from '../src/webhook.js';
import { secretDataOf } from './support/secret-store.js';
import { left, right, stashOf, withForgedPatch } from './support/stash-text.js';

// A v1alpha1 vSphere Cluster's vCenter user and password have no v1alpha2 field. Going up they
// must not be written into the Cluster's stash annotation, which whoever may read Clusters can
// read: they go into a Secret made for the way back, which the stash names.

const USER = 'administrator@vsphere.local';
const PASSWORD = 'correct horse \u00e4 battery';

const v1Cluster = (value: JsonObject = {}): JsonObject => ({
  apiVersion: V1ALPHA1,
  kind: 'Cluster',
  metadata: { name: 'lab', namespace: 'team-v' },
  spec: {
    clusterNetwork: {
      services: { cidrBlocks: ['10.96.0.0/12'] },
      pods: { cidrBlocks: ['192.168.0.0/16'] },
      serviceDomain: 'cluster.local',
    },
    providerSpec: {
      value: {
        apiVersion: 'vsphere.cluster.k8s.io/v1alpha1',
        kind: 'VsphereClusterProviderSpec',
        server: 'vc.example.com',
        username: USER,
        password: PASSWORD,
        ...value,
      },
    },
  },
});

const plugins = [vsphereConversionPlugin];
const VALUE = ['spec', 'providerSpec', 'value'];
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** The v1alpha2 manifest `capi-kit convert` writes for the Cluster: Cluster, VSphereCluster, Secret. */
function upManifest(cluster: JsonObject = v1Cluster()): readonly JsonObject[] {
  const text = writeManifest([cluster], 'yaml');
  return right(convertManifest(text, { to: V1ALPHA2, plugins })).documents as JsonObject[];
}

const credentialsData = {
  username: b64(USER),
  password: b64(PASSWORD),
  [STASHED_FOR_DATA_KEY]: b64('lab'),
};

describe('credentials stay out of the stash', () => {
  it('going up, the stash names the Secret instead of keeping them', () => {
    const [cluster, ...generated] = upManifest();
    const stash = stashOf(cluster);
    for (const secret of [USER, PASSWORD, b64(PASSWORD)]) expect(stash).not.toContain(secret);
    const patch = JSON.parse(stash).patch as unknown[];
    expect(patch).toContainEqual({ field: [...VALUE, 'username'], secret: 'lab-vsphere-credentials' });
    expect(patch).toContainEqual({ field: [...VALUE, 'password'], secret: 'lab-vsphere-credentials' });
    const secret = generated.find((o) => o.kind === 'Secret');
    expect(secret).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 'lab-vsphere-credentials',
        namespace: 'team-v',
        labels: { 'cluster.x-k8s.io/cluster-name': 'lab' },
      },
      type: 'Opaque',
      data: credentialsData,
    });
  });

  it('the report says where they went and that no v1alpha2 object reads them', () => {
    const result = right(convertObject(v1Cluster(), V1ALPHA2, { plugins }));
    const report = result.reports[0]!;
    expect(report.moves).toContainEqual(
      expect.objectContaining({
        from: 'spec.providerSpec.value.password',
        to: 'Secret team-v/lab-vsphere-credentials data["password"]',
      }),
    );
    expect(report.warnings).toContainEqual(
      expect.stringMatching(
        /^username, password went into Secret team-v\/lab-vsphere-credentials only for the way back/,
      ),
    );
    expect(report.warnings.join('\n')).not.toMatch(/password has no v1alpha2 field/);
  });

  it('a ClusterList holding two Clusters of one name is refused: one Secret would get both passwords', () => {
    // (before, convertObject returned both Secrets, and applying them kept the later)
    const list = (a: string, b: string): JsonObject => ({
      apiVersion: V1ALPHA1,
      kind: 'ClusterList',
      items: [v1Cluster({ password: a }), v1Cluster({ password: b })],
    });
    for (const convert of [convertObject, convertTo] as const) {
      const error = left(convert(list('a', 'b'), V1ALPHA2, { plugins }));
      expect(error).toMatchObject({ code: 'duplicate-output', path: 'items[1]' });
      expect(error.message).toBe(
        'Secret team-v/lab-vsphere-credentials would be written twice, with different content (also by items[0]); do two items share a name?',
      );
    }
    // The same Cluster twice makes one Secret, written once.
    const same = right(convertObject(list(PASSWORD, PASSWORD), V1ALPHA2, { plugins }));
    expect(same.generated.filter((o) => o.kind === 'Secret')).toHaveLength(1);
  });

  it('converting the whole manifest back down reads them from its Secret', () => {
    const text = writeManifest(upManifest(), 'yaml');
    const down = right(convertManifest(text, { to: V1ALPHA1 }));
    const cluster = down.documents.find((d) => (d as JsonObject).kind === 'Cluster');
    expect(cluster).toStrictEqual(v1Cluster());
    expect(down.report.documents[0]!.objects[0]!.restored).toEqual(
      expect.arrayContaining(['spec.providerSpec.value.username', 'spec.providerSpec.value.password']),
    );
  });

  it('v0.3 names its fields vsphereUser / vspherePassword; the name of a credential Secret stays in the stash', () => {
    const v03 = v1Cluster();
    const value = {
      apiVersion: 'vsphereproviderconfig/v1alpha1',
      kind: 'VsphereClusterProviderConfig',
      vsphereServer: 'vc',
      vsphereUser: USER,
      vspherePassword: PASSWORD,
      vsphereCredentialSecret: 'vc-creds',
    };
    ((v03.spec as JsonObject).providerSpec as JsonObject).value = value;
    const [cluster, ...generated] = upManifest(v03);
    expect(stashOf(cluster)).not.toContain(PASSWORD);
    expect(stashOf(cluster)).toContain('vc-creds');
    expect(generated.find((o) => o.kind === 'Secret')?.data).toEqual({
      vsphereUser: b64(USER),
      vspherePassword: b64(PASSWORD),
      [STASHED_FOR_DATA_KEY]: b64('lab'),
    });
    const down = right(convertManifest(writeManifest([cluster!, ...generated], 'yaml'), { to: V1ALPHA1 }));
    expect(down.documents[0]).toStrictEqual(v03);
  });

  it('text with no exact UTF-8 form (a lone surrogate) stays in the stash, with the warning, and round-trips', () => {
    const odd = v1Cluster({ password: '\uD800x' });
    const up = right(convertObject(odd, V1ALPHA2, { plugins }));
    const secret = up.generated.find((o) => o.kind === 'Secret');
    expect(secret?.data).toEqual({ username: b64(USER), [STASHED_FOR_DATA_KEY]: b64('lab') });
    expect(up.reports[0]!.warnings).toContain(
      'spec.providerSpec.value.password has no v1alpha2 field; it is kept only in the stash annotation',
    );
    const data = secret?.data as JsonObject;
    const back = right(convertObject(up.object, V1ALPHA1, { secretData: () => data }));
    expect(back.object).toStrictEqual(odd);
  });

  it('the chain to v1beta2 and back to v1alpha1 keeps them in the Secret too', () => {
    const up = right(convertTo(v1Cluster(), 'cluster.x-k8s.io/v1beta2', { plugins }));
    expect(JSON.stringify(up.object)).not.toContain(PASSWORD);
    const back = right(convertTo(up.object, V1ALPHA1, { secretData: secretDataOf(up.generated) }));
    expect(back.object).toStrictEqual(v1Cluster());
  });

  it('without the Secret, the way down refuses instead of losing them', () => {
    const [cluster] = upManifest();
    const alone = left(convertObject(cluster, V1ALPHA1));
    expect(alone).toMatchObject({ code: 'secret-missing', path: 'spec.providerSpec.value.username' });
    expect(alone.message).toContain('Secret team-v/lab-vsphere-credentials (username)');
    const notFound = left(convertObject(cluster, V1ALPHA1, { secretData: () => undefined }));
    expect(notFound.message).toContain('that Secret was not found');
  });

  it('up again after a way down that restored the reference (no plug-in runs), they stay out while their Secret is given', () => {
    const [cluster, ...generated] = upManifest();
    const data = generated.find((o) => o.kind === 'Secret')?.data as JsonObject;
    const secretData = (_: string | undefined, name: string) =>
      name === 'lab-vsphere-credentials' ? data : undefined;
    ((cluster!.spec as JsonObject).infrastructureRef as JsonObject).name = 'lab-renamed';
    const down = right(convertObject(cluster, V1ALPHA1, { secretData })).object;
    const again = right(convertObject(down, V1ALPHA2, { plugins, secretData }));
    expect(again.generated).toEqual([]);
    expect(stashOf(again.object)).not.toContain(PASSWORD);
    expect(right(convertObject(again.object, V1ALPHA1, { secretData })).object).toStrictEqual(down);
    // A Secret holding another password is not this one: the value stays in the stash, reported.
    const stale = { ...data, password: b64('old') };
    const unsure = right(convertObject(down, V1ALPHA2, { plugins, secretData: () => stale }));
    expect(stashOf(unsure.object)).toContain(PASSWORD);
    expect(stashOf(unsure.object)).not.toContain(USER);
    expect(unsure.reports[0]!.warnings).toContain(
      'spec.providerSpec.value.password is kept in the stash annotation: Secret lab-vsphere-credentials holding this field was not given (convert it together with the Secret to keep the value out)',
    );
  });

  it('the conversion webhook, which drops generated Secrets, keeps them in the stash and round-trips', () => {
    const convert = chainConverter({ plugins });
    const up = right(convert(v1Cluster(), V1ALPHA2));
    expect(stashOf(up)).toContain(PASSWORD);
    expect(right(convert(up, V1ALPHA1))).toStrictEqual(v1Cluster());
  });
});

describe('a Secret named in the stash is read only when the conversion made it for the object', () => {
  const [cluster] = upManifest();

  it('an application Secret of that name (no marker, or another owner) is not read', () => {
    const app = { username: b64('app'), password: b64('app-password') };
    const unmarked = left(convertObject(cluster, V1ALPHA1, { secretData: () => app }));
    expect(unmarked).toMatchObject({
      code: 'secret-field-mismatch',
      path: 'spec.providerSpec.value.username',
    });
    expect(unmarked.message).toContain('was not made for lab by the conversion');
    const other = { ...credentialsData, [STASHED_FOR_DATA_KEY]: b64('lab2') };
    expect(left(convertObject(cluster, V1ALPHA1, { secretData: () => other })).code).toBe(
      'secret-field-mismatch',
    );
  });

  it('data that is not canonical base64 of UTF-8 text is refused, not decoded leniently', () => {
    for (const password of ['not base64!', 'cGFzcw', 'cGFzcx==', '//79', 12]) {
      const data = { ...credentialsData, password };
      const result = left(convertObject(cluster, V1ALPHA1, { secretData: () => data }));
      expect(result).toMatchObject({
        code: 'secret-field-mismatch',
        path: 'spec.providerSpec.value.password',
      });
      expect(result.message).toContain('holds no password as base64 of UTF-8 text');
    }
  });

  it('an invalid value millions of characters long is refused as such, not as too-deep', () => {
    // A regular expression's repeated group overflows V8's stack on such a value, which
    // surfaced as too-deep instead of naming the field.
    const data = { ...credentialsData, password: `${'A'.repeat(8_000_000)}!` };
    expect(left(convertObject(cluster, V1ALPHA1, { secretData: () => data }))).toMatchObject({
      code: 'secret-field-mismatch',
      path: 'spec.providerSpec.value.password',
    });
  });

  it('data is read exactly when it is canonical base64 of UTF-8 (the scan agrees with the grammar)', () => {
    const CANONICAL = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
    const oracle = (value: string): string | undefined => {
      if (!CANONICAL.test(value)) return undefined;
      const bytes = Buffer.from(value, 'base64');
      if (bytes.toString('base64') !== value) return undefined;
      const text = bytes.toString('utf8');
      return Buffer.from(text, 'utf8').equals(bytes) ? text : undefined;
    };
    const digits = fc.constantFrom(...'AQZawz09+/=-_ !\n\u00e4'.split(''));
    const texts = fc.oneof(
      fc.string({ unit: digits, maxLength: 16 }),
      fc.string({ unit: 'grapheme', maxLength: 6 }).map(b64),
      fc.uint8Array({ maxLength: 9 }).map((bytes) => Buffer.from(bytes).toString('base64')),
    );
    fc.assert(
      fc.property(texts, (password) => {
        const data = { ...credentialsData, password };
        const result = convertObject(cluster, V1ALPHA1, { secretData: () => data });
        const expected = oracle(password);
        if (expected === undefined) expect(left(result).code).toBe('secret-field-mismatch');
        else
          expect(
            (((right(result).object.spec as JsonObject).providerSpec as JsonObject).value as JsonObject)
              .password,
          ).toBe(expected);
      }),
      { numRuns: 400 },
    );
  });

  it('a leading byte-order mark is kept', () => {
    const data = { ...credentialsData, password: b64('\uFEFFpw') };
    const back = right(convertObject(cluster, V1ALPHA1, { secretData: () => data })).object;
    expect((((back.spec as JsonObject).providerSpec as JsonObject).value as JsonObject).password).toBe(
      '\uFEFFpw',
    );
  });
});

describe('a stash naming a Secret for a field is data from whoever could annotate the object', () => {
  const forged = (edit: (patch: JsonObject[]) => JsonObject[]): JsonObject =>
    withForgedPatch(upManifest()[0]!, edit);
  // Every Secret holds what the records ask for: only the records are forged.
  const anySecret = {
    secretData: () => ({ ...credentialsData, value: b64('kubeconfig'), 'tls.key': b64('key') }),
  };

  it("a record pulling the Cluster's kubeconfig Secret is refused", () => {
    const kubeconfig = forged((patch) => [
      ...patch,
      { field: [...VALUE, 'value'], secret: 'lab-kubeconfig' },
    ]);
    // (the Secret was not made for the object by the conversion)
    const result = left(
      convertObject(kubeconfig, V1ALPHA1, { secretData: () => ({ value: b64('kubeconfig') }) }),
    );
    expect(result.code).toBe('secret-field-mismatch');
  });

  it('a record naming a Secret not named after the object is refused', () => {
    const cluster = forged((patch) => [...patch, { field: [...VALUE, 'token'], secret: 'admin-token' }]);
    const result = left(convertObject(cluster, V1ALPHA1, anySecret));
    expect(result.code).toBe('stash-secret-field');
    expect(result.message).toContain('only Secrets named lab-<suffix>');
  });

  it('a record outside the providerSpec value, or deeper in it, is refused', () => {
    for (const field of [['metadata', 'labels', 'x'], [...VALUE, 'caKeyPair', 'key'], VALUE]) {
      const cluster = forged((patch) => [...patch, { field, secret: 'lab-vsphere-credentials' }]);
      const result = left(convertObject(cluster, V1ALPHA1, anySecret));
      expect(result.code).toBe('stash-secret-field');
    }
  });

  it('a record over a field the stash already put back is refused', () => {
    const cluster = forged((patch) => [
      ...patch,
      { field: [...VALUE, 'server'], secret: 'lab-vsphere-credentials' },
    ]);
    const result = left(convertObject(cluster, V1ALPHA1, anySecret));
    expect(result).toMatchObject({ code: 'stash-secret-field', path: 'spec.providerSpec.value.server' });
  });

  it('a malformed record is refused, and so is a record on a way it never applies', () => {
    const malformed = forged((patch) => [...patch, { field: 'spec', secret: 1 }]);
    expect(left(convertObject(malformed, V1ALPHA1, anySecret)).code).toBe('stash-malformed');
    const v1 = {
      ...v1Cluster(),
      metadata: {
        name: 'lab',
        namespace: 'team-v',
        annotations: {
          [CONVERSION_DATA_ANNOTATION]: JSON.stringify({
            restores: V1ALPHA2,
            patch: [{ field: [...VALUE, 'password'], secret: 'lab-vsphere-credentials' }],
          }),
        },
      },
    };
    expect(left(convertObject(v1, V1ALPHA2, { plugins })).code).toBe('stash-secret-field');
  });

  it('a later hop refuses a record (only v1alpha1 has such fields)', () => {
    const v3 = right(convertTo(v1Cluster(), 'cluster.x-k8s.io/v1alpha3', { plugins })).object;
    const annotations = (v3.metadata as { annotations: Record<string, string> }).annotations;
    annotations[CONVERSION_DATA_ANNOTATION] = JSON.stringify({
      restores: V1ALPHA2,
      patch: [{ field: ['spec', 'x'], secret: 'lab-vsphere-credentials' }],
    });
    expect(left(convertTo(v3, V1ALPHA2, {})).code).toBe('stash-secret-field');
  });
});

describe('plug-in claims on fields are checked against what the plug-in made', () => {
  const claiming = (claim: { field: string; secret: string }, objects?: JsonObject[]): ConversionPlugin => ({
    ...vsphereConversionPlugin,
    cluster: (input) => {
      const made = vsphereConversionPlugin.cluster(input);
      if (E.isLeft(made)) return made;
      return E.right({ ...made.right, secretFields: [claim], ...(objects ? { objects } : {}) });
    },
  });
  const claimed = (plugin: ConversionPlugin) =>
    left(convertObject(v1Cluster(), V1ALPHA2, { plugins: [plugin] }));

  it('a claim on a Secret the plug-in did not make, or made without the field, is refused', () => {
    const result = claimed(claiming({ field: 'password', secret: 'lab-other' }));
    expect(result).toMatchObject({ code: 'plugin-refused', path: 'spec.providerSpec.value' });
    expect(result.message).toContain('made no such Secret holding it for lab');
    expect(claimed(claiming({ field: 'server', secret: 'lab-vsphere-credentials' })).message).toContain(
      'made no such Secret holding it for lab',
    );
  });

  it('a claim on a Secret made without the marker is refused', () => {
    const unmarked = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'lab-vsphere-credentials', namespace: 'team-v' },
      data: { password: b64(PASSWORD) },
    };
    const result = claimed(claiming({ field: 'password', secret: 'lab-vsphere-credentials' }, [unmarked]));
    expect(result.message).toContain('made no such Secret holding it for lab');
  });

  it('a claim on a Secret not named after the object, or on a field that is not text, is refused', () => {
    expect(claimed(claiming({ field: 'password', secret: 'creds' })).message).toContain(
      'which is not named lab-<suffix>',
    );
    expect(claimed(claiming({ field: 'insecure', secret: 'lab-vsphere-credentials' })).message).toContain(
      'insecure is not a text field',
    );
  });
});
