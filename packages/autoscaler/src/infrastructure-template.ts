/**
 * Scale from zero from the infrastructure machine template (Cluster API proposal
 * 20210310-opt-in-autoscaling-from-zero): an infrastructure provider publishes what a
 * machine of the template becomes in the template's `status.capacity` (a ResourceList) and
 * `status.nodeInfo` (`architecture`, `operatingSystem`). cluster-autoscaler's clusterapi
 * provider reads the template named by the group's `spec.template.spec.infrastructureRef`,
 * in the group's namespace (clusterapi_unstructured.go, readInfrastructureReferenceResource,
 * resourceCapacityFromInfrastructureObject, systemInfoFromInfrastructureObject).
 *
 * The reference and the template are untrusted. Upstream drops a quantity it cannot parse
 * and ignores a capacity or nodeInfo map with any value that is not a string; here each is
 * an `invalid-infrastructure-template` error naming the JSON path and why, so that a
 * template node never carries a capacity nobody wrote.
 */
import { formatJsonPath, isPlainObject } from '@capi-kit/core/objects';
import { type Either, left, right } from 'fp-ts/lib/Either.js';
import {
  checkQuantity,
  labelValueProblem,
  qualifiedNameProblem,
  subdomainProblem,
  type TemplateStatus,
} from './capacity.js';
import { field, type KubeObject, nameOf, namespaceOf } from './objects.js';

/** A reference or a template that cannot be used; `path` is the JSON path within `object`. */
export interface InfrastructureTemplateError {
  readonly code: 'invalid-infrastructure-template';
  /** `Kind namespace/name` of the object the path is in (the group or the template). */
  readonly object: string;
  readonly path: string;
  readonly message: string;
}

/** The template a group's machines are made from, as cluster-autoscaler finds it. */
export interface InfrastructureRef {
  /** `group/version` from `apiVersion` (v1beta1 ObjectReference); absent with `apiGroup`. */
  readonly apiVersion?: string;
  /** The API group (v1beta2 ContractVersionedObjectReference); its preferred version is read. */
  readonly apiGroup?: string;
  readonly kind: string;
  readonly name: string;
  /** Always the group's namespace: cluster-autoscaler reads the template there. */
  readonly namespace: string;
}

/** The longest `status.capacity` read (a ResourceList has a handful of entries). */
export const maxTemplateCapacityEntries = 256;

const refPath = ['spec', 'template', 'spec', 'infrastructureRef'] as const;

const shown = (text: string) => JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
const typeName = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;

/** `[A-Za-z][A-Za-z0-9]*`, at most 63 characters: a kind. */
function kindProblem(text: string): string | undefined {
  if (text.length > 63) return 'longer than 63 characters';
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(text)) return `${shown(text)} is not a kind (letters and digits)`;
  return undefined;
}

function apiVersionProblem(text: string): string | undefined {
  const slash = text.indexOf('/');
  if (slash < 0 || text.indexOf('/', slash + 1) >= 0)
    return `${shown(text)} is not GROUP/VERSION (an infrastructure template is never in the core group)`;
  return (
    subdomainProblem(text.slice(0, slash), 'the group') ??
    (/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(text.slice(slash + 1))
      ? undefined
      : `the version ${shown(text.slice(slash + 1))} is not a DNS label`)
  );
}

/** How a check of `object` fails: `invalid-infrastructure-template` at a path, its message after `what`. */
const templateFailure =
  (object: string, what: string) =>
  (path: readonly string[], why: string): InfrastructureTemplateError => {
    const at = formatJsonPath(path);
    return { code: 'invalid-infrastructure-template', object, path: at, message: `${what}: ${at}: ${why}` };
  };

/**
 * The infrastructure template a MachineSet or MachineDeployment names in
 * `spec.template.spec.infrastructureRef`: null when it names none (as upstream), an error
 * naming the field when the reference is not well formed — a field that is not a string,
 * no kind, no name, neither apiGroup nor apiVersion (upstream's "Missing kind/name/apiVersion
 * from …'s InfrastructureReference"), or a namespace other than the group's (upstream
 * ignores it and reads the group's namespace; here the mismatch is an error, not a guess).
 * With both, apiGroup wins, as upstream.
 */
export function infrastructureRefOf(
  resource: KubeObject,
  kind: string = typeof resource.kind === 'string' ? resource.kind : 'object',
): Either<InfrastructureTemplateError, InfrastructureRef | null> {
  const object = `${kind} ${namespaceOf(resource)}/${nameOf(resource)}`;
  const fail = templateFailure(object, 'invalid infrastructure template reference');
  const ref = field(resource, ...refPath);
  if (ref === undefined || ref === null) return right(null);
  if (!isPlainObject(ref)) return left(fail(refPath, `expected an object, got ${typeName(ref)}`));
  const text: Partial<Record<'apiVersion' | 'apiGroup' | 'kind' | 'name' | 'namespace', string>> = {};
  for (const key of ['apiVersion', 'apiGroup', 'kind', 'name', 'namespace'] as const) {
    const value = ref[key];
    if (value === undefined || value === null || value === '') continue;
    if (typeof value !== 'string')
      return left(fail([...refPath, key], `expected a string, got ${typeName(value)}`));
    text[key] = value;
  }
  if (text.kind === undefined) return left(fail([...refPath, 'kind'], 'missing'));
  const kindBad = kindProblem(text.kind);
  if (kindBad !== undefined) return left(fail([...refPath, 'kind'], kindBad));
  if (text.name === undefined) return left(fail([...refPath, 'name'], 'missing'));
  const nameBad = subdomainProblem(text.name, `the name ${shown(text.name)}`);
  if (nameBad !== undefined) return left(fail([...refPath, 'name'], nameBad));
  const namespace = namespaceOf(resource);
  if (text.namespace !== undefined && text.namespace !== namespace)
    return left(
      fail(
        [...refPath, 'namespace'],
        `${shown(text.namespace)} is not the group's namespace ${shown(namespace)} (the template is read in the group's namespace)`,
      ),
    );
  if (text.apiGroup !== undefined) {
    const groupBad = subdomainProblem(text.apiGroup, `the group ${shown(text.apiGroup)}`);
    if (groupBad !== undefined) return left(fail([...refPath, 'apiGroup'], groupBad));
    return right({ apiGroup: text.apiGroup, kind: text.kind, name: text.name, namespace });
  }
  if (text.apiVersion === undefined)
    return left(fail([...refPath, 'apiVersion'], 'missing (and no apiGroup)'));
  const versionBad = apiVersionProblem(text.apiVersion);
  if (versionBad !== undefined) return left(fail([...refPath, 'apiVersion'], versionBad));
  return right({ apiVersion: text.apiVersion, kind: text.kind, name: text.name, namespace });
}

/** Upstream's resource name for a template kind: the kind lower-cased, plus `s`. */
export const templatePluralOf = (kind: string): string => `${kind.toLowerCase()}s`;

/**
 * The template's `status.capacity` and `status.nodeInfo`. Absent ones are empty (a
 * provider that does not implement the proposal); an entry that is not a string, a
 * resource name or a quantity that does not parse, or a negative quantity is an error
 * naming its path. Of `status.nodeInfo` only `architecture` and `operatingSystem` are read
 * (they become the `kubernetes.io/arch` and `kubernetes.io/os` labels, so each must be a
 * label value); an empty one is as absent.
 */
export function templateStatusOf(
  template: KubeObject,
  object = `${typeof template.kind === 'string' ? template.kind : 'object'} ${namespaceOf(template)}/${nameOf(template)}`,
): Either<InfrastructureTemplateError, TemplateStatus> {
  const fail = templateFailure(object, `invalid infrastructure template: ${object}`);
  const capacity: Record<string, string> = {};
  const listed = field(template, 'status', 'capacity');
  if (listed !== undefined && listed !== null) {
    if (!isPlainObject(listed))
      return left(fail(['status', 'capacity'], `expected a map of quantities, got ${typeName(listed)}`));
    const entries = Object.entries(listed);
    if (entries.length > maxTemplateCapacityEntries)
      return left(fail(['status', 'capacity'], `more than ${maxTemplateCapacityEntries} entries`));
    for (const [name, value] of entries) {
      const path = ['status', 'capacity', name];
      const nameBad = qualifiedNameProblem(name, `the resource name ${shown(name)}`);
      if (nameBad !== undefined) return left(fail(path, nameBad));
      if (typeof value !== 'string')
        return left(fail(path, `expected a quantity as a string, got ${typeName(value)}`));
      const checked = checkQuantity(value);
      if ('error' in checked) return left(fail(path, `${shown(value)}: ${checked.error}`));
      if (checked.negative) return left(fail(path, `${shown(value)} is negative`));
      capacity[name] = value;
    }
  }
  const nodeInfo: { architecture?: string; operatingSystem?: string } = {};
  const info = field(template, 'status', 'nodeInfo');
  if (info !== undefined && info !== null) {
    if (!isPlainObject(info))
      return left(fail(['status', 'nodeInfo'], `expected an object, got ${typeName(info)}`));
    for (const key of ['architecture', 'operatingSystem'] as const) {
      const value = info[key];
      if (value === undefined || value === null || value === '') continue;
      const path = ['status', 'nodeInfo', key];
      if (typeof value !== 'string') return left(fail(path, `expected a string, got ${typeName(value)}`));
      const bad = labelValueProblem(value, shown(value));
      if (bad !== undefined) return left(fail(path, bad));
      nodeInfo[key] = value;
    }
  }
  return right({ capacity, nodeInfo });
}

/** One key per template: groups sharing a template share its read. */
export const templateKeyOf = (ref: InfrastructureRef): string =>
  `${ref.apiGroup ?? ref.apiVersion}|${ref.kind}|${ref.namespace}/${ref.name}`;
