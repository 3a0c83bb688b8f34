/**
 * Scale from zero (cluster-autoscaler ≥ 1.25): the `capacity.cluster-autoscaler.kubernetes.io/…`
 * annotations on a MachineSet or MachineDeployment describe the Node its machines become,
 * so a group at zero replicas still has a template node to plan with.
 *
 * The annotation values are untrusted: every one is checked by a single left-to-right scan
 * (no regular expression that can backtrack), within a length bound, and a value that does
 * not parse is an error naming the annotation and why — never silently dropped, as
 * upstream drops a label without `=` or a taint it cannot parse.
 */
import { type Either, left, right } from 'fp-ts/lib/Either.js';
import { field, type KubeObject, nameOf } from './objects.js';
import { annotationPath } from './scaling-bounds.js';

const prefix = 'capacity.cluster-autoscaler.kubernetes.io/';

/** The annotation keys cluster-autoscaler's clusterapi provider reads for scale from zero. */
export const capacityAnnotations = {
  cpu: `${prefix}cpu`,
  memory: `${prefix}memory`,
  ephemeralDisk: `${prefix}ephemeral-disk`,
  gpuType: `${prefix}gpu-type`,
  gpuCount: `${prefix}gpu-count`,
  maxPods: `${prefix}maxPods`,
  labels: `${prefix}labels`,
  taints: `${prefix}taints`,
} as const;

/** maxPods when the annotation is absent, empty or 0 (kubelet's default). */
export const defaultMaxPods = 110;

/** The longest value read for a quantity or an integer annotation. */
export const maxQuantityLength = 64;
/** The longest value read for the labels or the taints annotation. */
export const maxListAnnotationLength = 16_384;

/** A capacity annotation that does not parse; `path` is the annotation's JSON path. */
export interface CapacityAnnotationError {
  readonly code: 'invalid-capacity-annotation';
  readonly message: string;
  readonly path: string;
}

export interface TemplateTaint {
  readonly key: string;
  readonly value?: string;
  readonly effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
}

/** `status.nodeInfo` of an infrastructure machine template: what the template node's arch and os labels say. */
export interface TemplateNodeInfo {
  readonly architecture?: string;
  readonly operatingSystem?: string;
}

/** What an infrastructure machine template's status says a machine becomes (see infrastructureRefOf). */
export interface TemplateStatus {
  /** `status.capacity`: resource name → quantity as written. */
  readonly capacity: Readonly<Record<string, string>>;
  /** `status.nodeInfo`'s `architecture` and `operatingSystem`, when given and not empty. */
  readonly nodeInfo: TemplateNodeInfo;
}

/** What the annotations (and the infrastructure template's status, if read) say about a group's nodes. */
export interface InstanceCapacity {
  /** Resource name → quantity as written (`cpu`, `memory`, `ephemeral-storage`, `pods`, the GPU type). */
  readonly capacity: Readonly<Record<string, string>>;
  readonly labels: Readonly<Record<string, string>>;
  readonly taints: readonly TemplateTaint[];
  /** The infrastructure template's `status.nodeInfo`, when the template was read. */
  readonly nodeInfo?: TemplateNodeInfo;
}

type Annotations = Readonly<Record<string, unknown>> | undefined | null;

/** A value as an error message quotes it: JSON, at most 80 characters of it. */
const shown = (text: string) => JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isLower = (c: number) => c >= 0x61 && c <= 0x7a;
const isUpper = (c: number) => c >= 0x41 && c <= 0x5a;
const isAlnum = (c: number) => isDigit(c) || isLower(c) || isUpper(c);

/** `<digits>[.<digits>]` or `.<digits>` from `i`: the index after it and whether a digit is non-zero. */
function scanNumber(text: string, i: number): { end: number; nonZero: boolean } | undefined {
  let digits = 0;
  let nonZero = false;
  let seenDot = false;
  let j = i;
  for (; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (isDigit(c)) {
      digits++;
      if (c !== 0x30) nonZero = true;
    } else if (c === 0x2e && !seenDot) seenDot = true;
    else break;
  }
  return digits === 0 ? undefined : { end: j, nonZero };
}

const binarySI = new Set(['Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei']);
const decimalSI = new Set(['', 'n', 'u', 'm', 'k', 'M', 'G', 'T', 'P', 'E']);

/**
 * A Kubernetes resource quantity (`resource.ParseQuantity`'s grammar): a number with an
 * optional sign, then a binary-SI suffix (`Ki`…`Ei`), a decimal-SI one (`n`, `u`, `m`, ``,
 * `k`, `M`…`E`) or an exponent (`e3`, `E-2`). Returns why it is not one, or whether it is 0.
 */
export function checkQuantity(text: string): { error: string } | { zero: boolean; negative: boolean } {
  if (text.length > maxQuantityLength) return { error: `longer than ${maxQuantityLength} characters` };
  let i = 0;
  const sign = text.charCodeAt(0);
  const negative = sign === 0x2d;
  if (sign === 0x2b || negative) i = 1;
  const number = scanNumber(text, i);
  if (number === undefined) return { error: 'not a quantity: expected a number such as 4, 1.5 or 500m' };
  const suffix = text.slice(number.end);
  const c = suffix.charCodeAt(0);
  const unit = binarySI.has(suffix) || decimalSI.has(suffix);
  if (!unit && (c === 0x65 || c === 0x45) && suffix.length > 1) {
    // An exponent: e or E, then a signed integer.
    let j = 1;
    const s = suffix.charCodeAt(1);
    if (s === 0x2b || s === 0x2d) j = 2;
    if (j >= suffix.length) return { error: `not a quantity: exponent ${shown(suffix)} has no digits` };
    for (; j < suffix.length; j++)
      if (!isDigit(suffix.charCodeAt(j)))
        return { error: `not a quantity: exponent ${shown(suffix)} is not an integer` };
  } else if (!unit) {
    return {
      error: `not a quantity: unknown suffix ${shown(suffix)} (expected Ki, Mi, Gi, Ti, Pi, Ei, n, u, m, k, M, G, T, P, E or an exponent)`,
    };
  }
  return { zero: !number.nonZero, negative: negative && number.nonZero };
}

/** `[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?`, at most 63 characters: a label value (non-empty) or a name. */
function nameProblem(text: string, what: string): string | undefined {
  if (text.length === 0) return `${what} is empty`;
  if (text.length > 63) return `${what} is longer than 63 characters`;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const edge = i === 0 || i === text.length - 1;
    if (!(isAlnum(c) || (!edge && (c === 0x2d || c === 0x5f || c === 0x2e))))
      return `${what} must be letters, digits, '-', '_' or '.', beginning and ending with a letter or digit`;
  }
  return undefined;
}

/** A DNS-1123 subdomain: dot-separated labels of `a-z`, `0-9` and `-`, each beginning and ending alphanumeric, ≤ 253. */
export function subdomainProblem(text: string, what: string): string | undefined {
  if (text.length === 0) return `${what} is empty`;
  if (text.length > 253) return `${what} is longer than 253 characters`;
  let start = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = i === text.length ? 0x2e : text.charCodeAt(i);
    if (c === 0x2e) {
      const first = text.charCodeAt(start);
      const last = text.charCodeAt(i - 1);
      if (
        i === start ||
        text.charCodeAt(start) === 0x2d ||
        last === 0x2d ||
        !(isDigit(first) || isLower(first))
      )
        return `${what} must be a DNS subdomain (lowercase letters, digits, '-' and '.')`;
      start = i + 1;
    } else if (!(isDigit(c) || isLower(c) || c === 0x2d)) {
      return `${what} must be a DNS subdomain (lowercase letters, digits, '-' and '.')`;
    }
  }
  return undefined;
}

/** A qualified name (label key, taint key, resource name): `[prefix/]name`. */
export function qualifiedNameProblem(text: string, what: string): string | undefined {
  const slash = text.indexOf('/');
  if (slash < 0) return nameProblem(text, what);
  if (text.indexOf('/', slash + 1) >= 0) return `${what} has more than one '/'`;
  return (
    subdomainProblem(text.slice(0, slash), `the prefix of ${what}`) ??
    nameProblem(text.slice(slash + 1), `the name of ${what}`)
  );
}

/** A label value: empty, or a name of at most 63 characters. */
export function labelValueProblem(text: string, what: string): string | undefined {
  return text === '' ? undefined : nameProblem(text, what);
}

/** `k=v,k2=v2` → labels; an entry without `=`, a bad key or value is an error. */
export function parseLabelsAnnotation(text: string): Either<string, Record<string, string>> {
  if (text.length > maxListAnnotationLength) return left(`longer than ${maxListAnnotationLength} characters`);
  const labels: Record<string, string> = {};
  if (text === '') return right(labels);
  let n = 0;
  for (const entry of text.split(',')) {
    n++;
    const eq = entry.indexOf('=');
    if (eq < 0) return left(`entry ${n} ${shown(entry)} is not key=value`);
    const key = entry.slice(0, eq);
    const value = entry.slice(eq + 1);
    const problem =
      qualifiedNameProblem(key, `the key of entry ${n}`) ??
      labelValueProblem(value, `the value of entry ${n}`);
    if (problem !== undefined) return left(problem);
    labels[key] = value;
  }
  return right(labels);
}

const effects = new Set(['NoSchedule', 'PreferNoSchedule', 'NoExecute']);

/** `key=value:Effect,key2:Effect` → taints; a later taint with the same key and effect replaces an earlier one. */
export function parseTaintsAnnotation(text: string): Either<string, TemplateTaint[]> {
  if (text.length > maxListAnnotationLength) return left(`longer than ${maxListAnnotationLength} characters`);
  const taints: TemplateTaint[] = [];
  if (text === '') return right(taints);
  const indexOf = new Map<string, number>();
  let n = 0;
  for (const entry of text.split(',')) {
    n++;
    const colon = entry.indexOf(':');
    if (colon < 0 || entry.indexOf(':', colon + 1) >= 0)
      return left(`entry ${n} ${shown(entry)} is not key[=value]:Effect`);
    const effect = entry.slice(colon + 1);
    if (!effects.has(effect))
      return left(
        `entry ${n} has effect ${shown(effect)}: expected NoSchedule, PreferNoSchedule or NoExecute`,
      );
    const kv = entry.slice(0, colon);
    const eq = kv.indexOf('=');
    const key = eq < 0 ? kv : kv.slice(0, eq);
    const value = eq < 0 ? undefined : kv.slice(eq + 1);
    const problem =
      qualifiedNameProblem(key, `the key of entry ${n}`) ??
      (value === undefined ? undefined : labelValueProblem(value, `the value of entry ${n}`));
    if (problem !== undefined) return left(problem);
    const taint: TemplateTaint = {
      key,
      ...(value === undefined ? {} : { value }),
      effect: effect as TemplateTaint['effect'],
    };
    const same = indexOf.get(`${key}:${effect}`);
    if (same !== undefined) taints[same] = taint;
    else indexOf.set(`${key}:${effect}`, taints.push(taint) - 1);
  }
  return right(taints);
}

/** Go's strconv.ParseInt(s, 10, 64) restricted to non-negative safe integers. */
function checkCount(text: string): { error: string } | { value: number } {
  if (text.length > 19) return { error: 'longer than 19 characters' };
  let i = text.charCodeAt(0) === 0x2b ? 1 : 0;
  if (text.charCodeAt(0) === 0x2d) return { error: 'is negative' };
  if (i >= text.length) return { error: 'not an integer' };
  for (; i < text.length; i++) if (!isDigit(text.charCodeAt(i))) return { error: 'not an integer' };
  const value = Number(text);
  return Number.isSafeInteger(value) ? { value } : { error: 'out of range' };
}

/**
 * What a MachineSet's or MachineDeployment's capacity annotations say its nodes are, with
 * cluster-autoscaler's rules: `null` when they cannot scale from zero (no non-zero cpu and
 * memory); `pods` is maxPods, 110 when absent or 0; the GPU count is the capacity of the
 * resource named by gpu-type, and counts only with both. An empty value is as absent. Any
 * value that does not parse is an error naming the annotation and why.
 */
export function parseCapacityAnnotations(
  annotations: Annotations,
): Either<CapacityAnnotationError, InstanceCapacity | null> {
  const parsed = annotationCapacityOf(annotations);
  if (parsed._tag === 'Left') return parsed;
  return right(canScaleFromZero(parsed.right.capacity) ? parsed.right : null);
}

/** CPU and memory are the minimum a template node needs (upstream's CanScaleFromZero). */
const canScaleFromZero = (capacity: Readonly<Record<string, string>>) =>
  Object.hasOwn(capacity, 'cpu') && Object.hasOwn(capacity, 'memory');

/**
 * What the capacity annotations say, whether or not they give cpu and memory: `pods` is
 * always there (maxPods, 110 when absent or 0); cpu, memory and ephemeral-storage only when
 * non-zero. An error when one does not parse (see parseCapacityAnnotations).
 */
export function annotationCapacityOf(
  annotations: Annotations,
): Either<CapacityAnnotationError, InstanceCapacity> {
  const read = (key: string): string | CapacityAnnotationError | undefined => {
    if (annotations == null || !Object.hasOwn(annotations, key)) return undefined;
    const value = annotations[key];
    if (typeof value !== 'string') return fail(key, `expected a string, got ${typeof value}`);
    return value === '' ? undefined : value;
  };
  const fail = (key: string, why: string): CapacityAnnotationError => {
    const path = annotationPath(key);
    return {
      code: 'invalid-capacity-annotation',
      path,
      message: `invalid capacity annotation: ${path}: ${why}`,
    };
  };
  const isError = (v: unknown): v is CapacityAnnotationError =>
    typeof v === 'object' && v !== null && 'code' in v;

  const capacity: Record<string, string> = {};
  const quantities = [
    ['cpu', capacityAnnotations.cpu],
    ['memory', capacityAnnotations.memory],
    ['ephemeral-storage', capacityAnnotations.ephemeralDisk],
  ] as const;
  for (const [resource, key] of quantities) {
    const text = read(key);
    if (isError(text)) return left(text);
    if (text === undefined) continue;
    const checked = checkQuantity(text);
    if ('error' in checked) return left(fail(key, `${shown(text)}: ${checked.error}`));
    if (checked.negative) return left(fail(key, `${shown(text)} is negative`));
    if (!checked.zero) capacity[resource] = text;
  }

  const counts: Partial<Record<'gpuCount' | 'maxPods', number>> = {};
  for (const which of ['gpuCount', 'maxPods'] as const) {
    const key = capacityAnnotations[which];
    const text = read(key);
    if (isError(text)) return left(text);
    if (text === undefined) continue;
    const checked = checkCount(text);
    if ('error' in checked) return left(fail(key, `${shown(text)}: ${checked.error}`));
    counts[which] = checked.value;
  }

  const gpuType = read(capacityAnnotations.gpuType);
  if (isError(gpuType)) return left(gpuType);
  if (gpuType !== undefined) {
    const problem = qualifiedNameProblem(gpuType, 'the resource name');
    if (problem !== undefined) return left(fail(capacityAnnotations.gpuType, problem));
    if ((counts.gpuCount ?? 0) > 0) capacity[gpuType] = String(counts.gpuCount);
  }
  capacity.pods = String(counts.maxPods || defaultMaxPods);

  const labelsText = read(capacityAnnotations.labels);
  if (isError(labelsText)) return left(labelsText);
  const labels = parseLabelsAnnotation(labelsText ?? '');
  if (labels._tag === 'Left') return left(fail(capacityAnnotations.labels, labels.left));

  const taintsText = read(capacityAnnotations.taints);
  if (isError(taintsText)) return left(taintsText);
  const taints = parseTaintsAnnotation(taintsText ?? '');
  if (taints._tag === 'Left') return left(fail(capacityAnnotations.taints, taints.left));

  return right({ capacity, labels: labels.right, taints: taints.right });
}

/**
 * The capacity annotations joined with the infrastructure template's status, with
 * cluster-autoscaler's precedence (clusterapi_unstructured.go, InstanceCapacity): the
 * template's `status.capacity` first, every resource the annotations give overriding it
 * (so `pods` is always the annotations' maxPods, 110 by default, and a zero or absent cpu
 * or memory annotation leaves the template's). Without a template (`null`: none named, not
 * found, forbidden) the annotations alone. Null when the result has no cpu or no memory:
 * the group cannot scale from zero (upstream's CanScaleFromZero; TemplateNodeInfo then
 * returns ErrNotImplemented).
 */
export function withTemplateStatus(
  annotations: InstanceCapacity,
  template: TemplateStatus | null,
): InstanceCapacity | null {
  const capacity =
    template === null ? annotations.capacity : { ...template.capacity, ...annotations.capacity };
  if (!canScaleFromZero(capacity)) return null;
  return template === null ? annotations : { ...annotations, capacity, nodeInfo: template.nodeInfo };
}

const rawAnnotations = (resource: KubeObject): Record<string, unknown> => {
  const annotations = field(resource, 'metadata', 'annotations');
  return typeof annotations === 'object' && annotations !== null && !Array.isArray(annotations)
    ? (annotations as Record<string, unknown>)
    : {};
};

/** The capacity annotations of a MachineSet or MachineDeployment (see parseCapacityAnnotations). */
export function instanceCapacityOf(
  resource: KubeObject,
): Either<CapacityAnnotationError, InstanceCapacity | null> {
  return parseCapacityAnnotations(rawAnnotations(resource));
}

/** What the capacity annotations of a MachineSet or MachineDeployment say (see annotationCapacityOf). */
export function annotationCapacityOfResource(
  resource: KubeObject,
): Either<CapacityAnnotationError, InstanceCapacity> {
  return annotationCapacityOf(rawAnnotations(resource));
}

/** A Node as cluster-autoscaler would plan with it: what a machine of the group becomes. */
export interface TemplateNode {
  readonly apiVersion: 'v1';
  readonly kind: 'Node';
  readonly metadata: { readonly name: string; readonly labels: Readonly<Record<string, string>> };
  readonly spec: { readonly taints?: readonly TemplateTaint[] };
  readonly status: {
    readonly capacity: Readonly<Record<string, string>>;
    readonly allocatable: Readonly<Record<string, string>>;
    readonly conditions: readonly { readonly type: 'Ready'; readonly status: 'True' }[];
  };
}

/**
 * The template node of a group from its capacity: named `<resource>-template`, with
 * capacity = allocatable, Ready, the taints, and the labels cluster-autoscaler gives it
 * (`kubernetes.io/arch` amd64, `kubernetes.io/os` linux, `kubernetes.io/hostname`), the
 * infrastructure template's `status.nodeInfo` architecture and operatingSystem overriding
 * arch and os, and the labels annotation overriding them all (clusterapi_nodegroup.go,
 * buildTemplateLabels). Upstream sets arch and os to "" when the template has no nodeInfo;
 * here a missing or empty value leaves the default.
 */
export function templateNodeOf(resource: KubeObject, capacity: InstanceCapacity): TemplateNode {
  const name = `${nameOf(resource)}-template`;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/os': 'linux',
        'kubernetes.io/hostname': name,
        ...(capacity.nodeInfo?.architecture ? { 'kubernetes.io/arch': capacity.nodeInfo.architecture } : {}),
        ...(capacity.nodeInfo?.operatingSystem
          ? { 'kubernetes.io/os': capacity.nodeInfo.operatingSystem }
          : {}),
        ...capacity.labels,
      },
    },
    spec: capacity.taints.length === 0 ? {} : { taints: capacity.taints },
    status: {
      capacity: capacity.capacity,
      allocatable: capacity.capacity,
      conditions: [{ type: 'Ready', status: 'True' }],
    },
  };
}
