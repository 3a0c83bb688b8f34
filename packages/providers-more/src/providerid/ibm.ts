import {
  type CloudProviderIDGrammar,
  checkScheme,
  formatSegments,
  malformed,
  readSegments,
  type SegmentField,
} from '@capi-kit/core/providerid';
import { left } from 'fp-ts/lib/Either.js';

/** One positional IBM grammar: field names in order, and which may be empty. */
interface PositionalSpec {
  readonly cloud: string;
  readonly title: string;
  readonly scheme: string;
  readonly fields: readonly SegmentField[];
}

// IBM publishes these formats but no parser; fields are read by position.
function positionalGrammar(spec: PositionalSpec): CloudProviderIDGrammar {
  const { cloud, scheme } = spec;
  const shape = `${scheme}://${spec.fields.map((f) => `<${f.name}>`).join('/')}`;
  return {
    cloud,
    title: spec.title,
    schemes: [scheme],
    parse(id) {
      const bad = checkScheme(cloud, id, [scheme]);
      if (bad) return left(bad);
      const segments = id.rest.split('/');
      if (segments.length !== spec.fields.length) {
        return malformed(cloud, `expected ${shape} (${spec.fields.length} segments, got ${segments.length})`);
      }
      return readSegments(cloud, id.scheme, segments, spec.fields);
    },
    format: (fields) => formatSegments(cloud, `${scheme}://`, fields, spec.fields),
    identity: (fields) => ({ space: cloud, parts: spec.fields.map((f) => String(fields[f.name])) }),
  };
}

/**
 * IBM Cloud VPC / IKS: `ibm://<account>/<region>/<zone>/<cluster>/<instance>`; emitters
 * leave region and zone empty (`ibm://acct///cluster/worker`). Identity: every segment.
 */
export const ibmProviderID: CloudProviderIDGrammar = positionalGrammar({
  cloud: 'ibm',
  title: 'IBM Cloud VPC / IKS',
  scheme: 'ibm',
  fields: [
    { name: 'accountId' },
    { name: 'region', optional: true },
    { name: 'zone', optional: true },
    { name: 'clusterId' },
    { name: 'instanceId' },
  ],
});

/** IBM Power Virtual Server: `ibmpowervs://<region>/<zone>/<workspace>/<instance>`. */
export const ibmPowerVSProviderID: CloudProviderIDGrammar = positionalGrammar({
  cloud: 'ibm-powervs',
  title: 'IBM Power Virtual Server',
  scheme: 'ibmpowervs',
  fields: [{ name: 'region' }, { name: 'zone' }, { name: 'serviceInstanceId' }, { name: 'instanceId' }],
});
