import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { type LaterVersion, laterCrdFile, laterKinds, laterVersions } from './crd-oracle.js';

// CRDs that serve every later version with that version's own schema, for the API-server
// half of the fidelity method. No upstream release serves all four: each release serves at
// most two, and converts between them with a webhook. Here each kind gets one CRD whose
// versions are taken, entry for entry (schema, subresources, printer columns), from the release
// that stores that version — the same schemas the offline oracle reads (loadLaterCrds) — with
// `conversion.strategy: None`: the API server then validates a request in the version it names
// with that version's schema, and only rewrites `apiVersion` between versions. v1beta2 is the
// storage version. These CRDs replace the cluster.x-k8s.io ones, so they are installed only on
// a control plane of their own.

type Json = Record<string, unknown>;
type CrdDocument = Json & { metadata: Json; spec: Json & { versions: Json[] } };

const storageVersion: LaterVersion = 'v1beta2';

function read(version: LaterVersion, plural: keyof typeof laterKinds): CrdDocument {
  return parse(readFileSync(laterCrdFile(version, plural), 'utf8')) as CrdDocument;
}

/** One CRD per typed kind, serving v1alpha3, v1alpha4, v1beta1 and v1beta2. */
export function servedLaterCrds(): CrdDocument[] {
  return (Object.keys(laterKinds) as (keyof typeof laterKinds)[]).map((plural) => {
    const newest = read(storageVersion, plural);
    const versions = (Object.keys(laterVersions) as LaterVersion[]).map((version) => {
      const entry = read(version, plural).spec.versions.find((v) => v.name === version);
      if (entry === undefined) throw new Error(`${laterCrdFile(version, plural)}: no version ${version}`);
      // `deprecated` only adds a warning header; every version is served the same way here.
      const { deprecated: _d, deprecationWarning: _w, ...rest } = entry;
      return { ...rest, served: true, storage: version === storageVersion };
    });
    return {
      apiVersion: newest.apiVersion,
      kind: newest.kind,
      metadata: { name: newest.metadata.name },
      spec: { ...newest.spec, versions, conversion: { strategy: 'None' } },
    } as CrdDocument;
  });
}
