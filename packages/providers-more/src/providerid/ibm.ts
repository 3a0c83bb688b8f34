import {
  type CloudProviderIDGrammar,
  checkScheme,
  formatted,
  invalidField,
  isToken,
  malformed,
  missingField,
  readField,
} from '@capi-kit/core/providerid';
import { left, right } from 'fp-ts/lib/Either.js';

/** One positional IBM grammar: field names in order, and which may be empty. */
interface PositionalSpec {
  readonly cloud: string;
  readonly title: string;
  readonly scheme: string;
  readonly fields: readonly { readonly name: string; readonly optional?: boolean }[];
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
      const values: Record<string, string> = {};
      for (const [i, field] of spec.fields.entries()) {
        const value = segments[i]!;
        if (!(field.optional && value === '') && !isToken(value)) {
          return invalidField(cloud, field.name, `${field.name} is empty or contains spaces`);
        }
        values[field.name] = value;
      }
      return right({ scheme: id.scheme, ...values });
    },
    format(fields) {
      const values: string[] = [];
      for (const field of spec.fields) {
        const value = readField(fields, field.name) ?? (field.optional ? '' : undefined);
        if (value === undefined) return missingField(cloud, field.name);
        values.push(value);
      }
      return formatted(`${scheme}://${values.join('/')}`);
    },
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
