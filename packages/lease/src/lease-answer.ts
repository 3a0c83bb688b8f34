import { parseMicroTime } from './micro-time.js';

/**
 * The checks on a server's answer to a get, create or update of a Lease, made on the raw
 * body before client-node turns it into a V1Lease. client-node's deserialiser reads anything
 * as a V1Lease: an HTML page, `{}`, another kind's object all come back as a lease without a
 * holder, which the protocol would judge free, and a written lease that is not echoed back
 * would count as acquired. An answer that is not the Lease asked for is an error instead.
 */

/** What the answer must be: the lease at this address, and after a write, the holder written. */
export interface ExpectedLease {
  readonly namespace: string;
  readonly name: string;
  /** After a create or update: the holderIdentity written (`''` for a release). */
  readonly holder?: string;
}

/** Where the answer fails to be the Lease expected: the JSON path (`''`: the whole answer). */
export interface LeaseAnswerProblem {
  readonly path: string;
  readonly expected: string;
  readonly found: string;
}

const isInt32 = (value: unknown): value is number =>
  Number.isInteger(value) && (value as number) >= -(2 ** 31) && (value as number) < 2 ** 31;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A value as a message shows it: its JSON text, cut at 80 characters, or its absence. */
export function describeFound(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  const cut = text.length > 80 ? `${text.slice(0, 80)}…` : text;
  if (Array.isArray(value)) return `an array ${cut}`;
  if (value === null) return 'null';
  return `${typeof value} ${cut}`;
}

/** JSON or a `+json` type (`application/json`, `application/merge-patch+json`, ...). */
function isJsonMediaType(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return /^application\/([\w.-]+\+)?json$/.test(type);
}

/**
 * The first way `text` (served as `contentType`) fails to be the Lease `expected`, or
 * undefined when it is one: an object of kind Lease (when it says) in coordination.k8s.io/v1
 * (when it says), with the name and namespace asked for, a resourceVersion, and spec fields of
 * the types the API server stores.
 */
export function leaseAnswerProblem(
  text: string,
  contentType: string | undefined,
  expected: ExpectedLease,
): LeaseAnswerProblem | undefined {
  if (!isJsonMediaType(contentType)) {
    return {
      path: '',
      expected: 'a JSON Lease',
      found: `a ${contentType === undefined ? 'response without Content-Type' : `${JSON.stringify(contentType)} response`} ${describeFound(text.slice(0, 80))}`,
    };
  }
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    return {
      path: '',
      expected: 'a JSON Lease',
      found: `text that is not JSON ${describeFound(text.slice(0, 80))}`,
    };
  }
  return leaseProblem(answer, expected);
}

/** The checks of `leaseAnswerProblem` on a parsed answer. */
export function leaseProblem(answer: unknown, expected: ExpectedLease): LeaseAnswerProblem | undefined {
  const problem = (path: string, want: string, value: unknown): LeaseAnswerProblem => ({
    path,
    expected: want,
    found: describeFound(value),
  });
  if (!isObject(answer)) return problem('', 'a Lease object', answer);
  if (answer.kind !== undefined && answer.kind !== 'Lease') return problem('kind', '"Lease"', answer.kind);
  if (answer.apiVersion !== undefined && answer.apiVersion !== 'coordination.k8s.io/v1') {
    return problem('apiVersion', '"coordination.k8s.io/v1"', answer.apiVersion);
  }
  const metadata = answer.metadata;
  if (!isObject(metadata)) return problem('metadata', 'an object', metadata);
  if (metadata.name !== expected.name) {
    return problem('metadata.name', JSON.stringify(expected.name), metadata.name);
  }
  if (metadata.namespace !== expected.namespace) {
    return problem('metadata.namespace', JSON.stringify(expected.namespace), metadata.namespace);
  }
  const version = metadata.resourceVersion;
  if (typeof version !== 'string' || version === '') {
    return problem('metadata.resourceVersion', 'a non-empty string', version);
  }
  const spec = answer.spec ?? {};
  if (!isObject(spec)) return problem('spec', 'an object', spec);
  const absent = (value: unknown) => value === undefined || value === null;
  for (const field of ['holderIdentity', 'strategy', 'preferredHolder'] as const) {
    if (!absent(spec[field]) && typeof spec[field] !== 'string') {
      return problem(`spec.${field}`, 'a string', spec[field]);
    }
  }
  for (const field of ['leaseDurationSeconds', 'leaseTransitions'] as const) {
    if (!absent(spec[field]) && !isInt32(spec[field])) {
      return problem(`spec.${field}`, 'an int32 integer', spec[field]);
    }
  }
  for (const field of ['acquireTime', 'renewTime'] as const) {
    const value = spec[field];
    if (!absent(value) && (typeof value !== 'string' || parseMicroTime(value) === undefined)) {
      return problem(`spec.${field}`, 'an RFC 3339 MicroTime string', value);
    }
  }
  if (expected.holder !== undefined) {
    const holder = absent(spec.holderIdentity) ? '' : spec.holderIdentity;
    if (holder !== expected.holder) {
      return problem(
        'spec.holderIdentity',
        `${JSON.stringify(expected.holder)} (the holder written)`,
        holder,
      );
    }
  }
  return undefined;
}
