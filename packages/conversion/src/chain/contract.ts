import { isObject } from '../path.js';
/**
 * Which apiVersion a v1beta2 reference `{apiGroup, kind, name}` has when it goes back to a
 * v1beta1 ObjectReference, by Cluster API's contract labels. A provider's CRD says which of
 * its versions implement each contract with labels `cluster.x-k8s.io/<contract>: <versions
 * joined by _>` (e.g. `cluster.x-k8s.io/v1beta2: v1beta2`). Upstream's rule
 * (`contract.GetAPIVersion`, `GetLatestContractAndAPIVersionFromContract`, v1.14): walk the
 * contracts compatible with the current one (v1beta2, then v1beta1), newest first; the first
 * label that is present and not empty decides; its newest version, in Kubernetes' version
 * order, is the one. Pure: the CRDs come from the caller (`@capi-kit/client` lists them from
 * a live cluster).
 *
 * Labels are input like any other: a version read from one becomes the `<group>/<version>`
 * written into an object, so only a string that can name a CRD version (a DNS-1035 label,
 * as the API server requires of `spec.versions[].name`) counts. Upstream takes the label as
 * it is; here a value such as `x/y` or `v1beta2/../v1` is skipped, and a label with no valid
 * version counts as an empty one.
 */

/** The fields of a CustomResourceDefinition the lookup reads. */
export interface ContractCrd {
  readonly metadata?: { readonly name?: string; readonly labels?: Readonly<Record<string, string>> };
  readonly spec?: {
    readonly group?: string;
    readonly names?: { readonly kind?: string; readonly plural?: string };
  };
}

/** A reference's apiVersion for its group and kind, or undefined when nothing says (see `HopOptions`). */
export type ReferenceApiVersionLookup = (group: string, kind: string) => string | undefined;

/** The contract this library converts for: the hub's (upstream: `contract.Version`). */
export const CURRENT_CONTRACT = 'v1beta2';

/** The label group of contract labels. */
const CONTRACT_LABEL_GROUP = 'cluster.x-k8s.io';

/**
 * The contracts compatible with `contract`, itself included: v1beta2 still accepts
 * providers of the v1beta1 contract (upstream `GetCompatibleVersions`, until v1beta1 is EOL).
 */
export function compatibleContracts(contract: string): string[] {
  return contract === 'v1beta2' ? ['v1beta2', 'v1beta1'] : [contract];
}

const kubeVersion = /^v(\d+)(?:(alpha|beta)(\d+))?$/;
const stability = { alpha: 0, beta: 1, ga: 2 } as const;

function parseKubeVersion(v: string): { major: number; kind: number; minor: number } | undefined {
  const m = kubeVersion.exec(v);
  if (m === null) return undefined;
  const major = Number(m[1]);
  const minor = m[3] === undefined ? 0 : Number(m[3]);
  // Go's strconv.Atoi fails past int64; such a string is not a Kubernetes version.
  if (!Number.isSafeInteger(major) || !Number.isSafeInteger(minor)) return undefined;
  return { major, kind: stability[(m[2] as 'alpha' | 'beta' | undefined) ?? 'ga'], minor };
}

/**
 * Kubernetes' version order (apimachinery `CompareKubeAwareVersionStrings`): versions of the
 * form v<major>[alpha|beta<minor>] rank above any other string; among them GA above beta
 * above alpha, then by major, then by minor; other strings in reverse lexical order.
 * Negative when `a` ranks below `b`.
 */
export function compareKubeAwareVersions(a: string, b: string): number {
  if (a === b) return 0;
  const pa = parseKubeVersion(a);
  const pb = parseKubeVersion(b);
  if (pa === undefined && pb === undefined) return a < b ? 1 : -1;
  if (pa === undefined) return -1;
  if (pb === undefined) return 1;
  if (pa.kind !== pb.kind) return pa.kind - pb.kind;
  if (pa.major !== pb.major) return pa.major - pb.major;
  return pa.minor - pb.minor;
}

/** What the API server accepts as a CRD version name (apimachinery `IsDNS1035Label`). */
const dns1035Label = /^[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?$/;

/** The versions a contract label lists (`_`-joined), without those that cannot name a version. */
function labelVersions(value: string): string[] {
  return value.split('_').filter((v) => dns1035Label.test(v));
}

/**
 * The version (without group) the contract labels choose for `contract`, or undefined when
 * no compatible contract label is present with a valid version.
 */
export function contractVersionFromLabels(
  labels: Readonly<Record<string, string>> | undefined,
  contract: string = CURRENT_CONTRACT,
): { readonly contract: string; readonly version: string } | undefined {
  const contracts = compatibleContracts(contract).sort((a, b) => compareKubeAwareVersions(b, a));
  for (const candidate of contracts) {
    const key = `${CONTRACT_LABEL_GROUP}/${candidate}`;
    // (CRDs are input too: labels of another type, `null` included, hold no contract)
    const value = field(labels, key);
    const versions = typeof value === 'string' ? labelVersions(value) : [];
    if (versions.length === 0) continue;
    versions.sort(compareKubeAwareVersions);
    return { contract: candidate, version: versions.at(-1)! };
  }
  return undefined;
}

/** `value[key]` when `value` is an object that has it. */
const field = (value: unknown, key: string): unknown =>
  isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;

const nameOf = (crd: ContractCrd): string => {
  const name = field(field(crd, 'metadata'), 'name');
  return typeof name === 'string' ? name : '';
};

/**
 * The lookup the v1beta2 → v1beta1 hop takes as `referenceApiVersion`, from a set of CRDs.
 * A CRD is found by `spec.group` and `spec.names.kind`; when several match (only one can have
 * its names accepted by the API server), the one named as upstream computes it
 * (`<lowercase kind>s.<group>`) wins, else the first by name.
 */
export function referenceApiVersionsFromCrds(
  crds: readonly ContractCrd[],
  contract: string = CURRENT_CONTRACT,
): ReferenceApiVersionLookup {
  // Keyed by kind and group joined with '/', which neither a kind nor a group name contains
  // on a real server; the parts are kept apart anyway, so a hostile CRD cannot split wrongly.
  const byGroupKind = new Map<string, { group: string; kind: string; crds: ContractCrd[] }>();
  for (const crd of crds) {
    // (CRDs are input: `null` in the list, or a spec of another type, is no CRD to read)
    const spec = field(crd, 'spec');
    const group = field(spec, 'group');
    const kind = field(field(spec, 'names'), 'kind');
    if (typeof group !== 'string' || typeof kind !== 'string') continue;
    const key = `${kind}/${group}`;
    const entry = byGroupKind.get(key);
    if (entry === undefined) byGroupKind.set(key, { group, kind, crds: [crd] });
    else entry.crds.push(crd);
  }
  const chosen = new Map<string, string | undefined>();
  for (const [key, { group, kind, crds: matches }] of byGroupKind) {
    const expectedName = `${kind.toLowerCase()}s.${group}`;
    const ordered = [...matches].sort((a, b) => {
      const an = nameOf(a);
      const bn = nameOf(b);
      if ((an === expectedName) !== (bn === expectedName)) return an === expectedName ? -1 : 1;
      return an < bn ? -1 : an > bn ? 1 : 0;
    });
    const labels = field(field(ordered[0], 'metadata'), 'labels') as
      | Readonly<Record<string, string>>
      | undefined;
    const found = contractVersionFromLabels(labels, contract);
    chosen.set(key, found === undefined ? undefined : `${group}/${found.version}`);
  }
  return (group, kind) => chosen.get(`${kind}/${group}`);
}
