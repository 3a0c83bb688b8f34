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
  return answerProblem(text, contentType, 'a JSON Lease', (answer) => leaseProblem(answer, expected));
}

/** The text as JSON (served as JSON), then `check`ed; `what` names the answer wanted. */
export function answerProblem(
  text: string,
  contentType: string | undefined,
  what: string,
  check: (answer: unknown) => LeaseAnswerProblem | undefined,
): LeaseAnswerProblem | undefined {
  if (!isJsonMediaType(contentType)) {
    return {
      path: '',
      expected: what,
      found: `a ${contentType === undefined ? 'response without Content-Type' : `${JSON.stringify(contentType)} response`} ${describeFound(text.slice(0, 80))}`,
    };
  }
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    return {
      path: '',
      expected: what,
      found: `text that is not JSON ${describeFound(text.slice(0, 80))}`,
    };
  }
  return check(answer);
}

const problem = (path: string, want: string, value: unknown): LeaseAnswerProblem => ({
  path,
  expected: want,
  found: describeFound(value),
});

/** The checks of `leaseAnswerProblem` on a parsed answer. */
export function leaseProblem(answer: unknown, expected: ExpectedLease): LeaseAnswerProblem | undefined {
  return itemProblem(answer, expected);
}

/**
 * What every Lease the server sends has, a bookmark's included: an object of kind Lease (when
 * it says) in coordination.k8s.io/v1 (when it says), with metadata.
 */
function leaseHeaderProblem(answer: unknown): LeaseAnswerProblem | undefined {
  if (!isObject(answer)) return problem('', 'a Lease object', answer);
  if (answer.kind !== undefined && answer.kind !== 'Lease') return problem('kind', '"Lease"', answer.kind);
  if (answer.apiVersion !== undefined && answer.apiVersion !== 'coordination.k8s.io/v1') {
    return problem('apiVersion', '"coordination.k8s.io/v1"', answer.apiVersion);
  }
  if (!isObject(answer.metadata)) return problem('metadata', 'an object', answer.metadata);
  return undefined;
}

/** `leaseProblem`, where a name of `undefined` stands for any non-empty name (a list item). */
function itemProblem(
  answer: unknown,
  expected: Omit<ExpectedLease, 'name'> & { readonly name: string | undefined },
): LeaseAnswerProblem | undefined {
  const header = leaseHeaderProblem(answer);
  if (header !== undefined) return header;
  const metadata = (answer as { metadata: Record<string, unknown> }).metadata;
  if (
    expected.name === undefined
      ? typeof metadata.name !== 'string' || metadata.name === ''
      : metadata.name !== expected.name
  ) {
    return problem(
      'metadata.name',
      expected.name === undefined ? 'a non-empty string' : JSON.stringify(expected.name),
      metadata.name,
    );
  }
  if (metadata.namespace !== expected.namespace) {
    return problem('metadata.namespace', JSON.stringify(expected.namespace), metadata.namespace);
  }
  const version = metadata.resourceVersion;
  if (typeof version !== 'string' || version === '') {
    return problem('metadata.resourceVersion', 'a non-empty string', version);
  }
  const spec = (answer as Record<string, unknown>).spec ?? {};
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

/**
 * The first way a parsed answer to a list of the leases in `namespace` fails to be a LeaseList:
 * an object of kind LeaseList (when it says) with a resourceVersion to watch from, and
 * `items` an array of leases in that namespace, each checked as `leaseProblem` checks one
 * (any non-empty name). client-node reads `{}` or HTML as a list with no leases, which a
 * watcher would report as every node free.
 */
export function leaseListProblem(answer: unknown, namespace: string): LeaseAnswerProblem | undefined {
  if (!isObject(answer)) return problem('', 'a LeaseList object', answer);
  if (answer.kind !== undefined && answer.kind !== 'LeaseList') {
    return problem('kind', '"LeaseList"', answer.kind);
  }
  if (answer.apiVersion !== undefined && answer.apiVersion !== 'coordination.k8s.io/v1') {
    return problem('apiVersion', '"coordination.k8s.io/v1"', answer.apiVersion);
  }
  const metadata = answer.metadata;
  if (!isObject(metadata)) return problem('metadata', 'an object', metadata);
  const version = metadata.resourceVersion;
  if (typeof version !== 'string' || version === '') {
    return problem('metadata.resourceVersion', 'a non-empty string', version);
  }
  const items = answer.items;
  if (!Array.isArray(items)) return problem('items', 'an array', items);
  for (const [index, item] of items.entries()) {
    const found = within(`items[${index}]`, itemProblem(item, { namespace, name: undefined }));
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A problem found in the part of an answer at `prefix`, its path taken from the whole answer. */
function within(prefix: string, found: LeaseAnswerProblem | undefined): LeaseAnswerProblem | undefined {
  return found === undefined
    ? undefined
    : { ...found, path: found.path === '' ? prefix : `${prefix}.${found.path}` };
}

/** The event types a watch of leases sends (BOOKMARK: asked for with allowWatchBookmarks). */
export const leaseWatchEventTypes = ['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR'] as const;

/**
 * The first way one parsed event of a watch of the leases in `namespace` fails to be one, its
 * path taken from the event (`object.spec.holderIdentity`): an object whose `type` is one of
 * `leaseWatchEventTypes`; for ADDED, MODIFIED and DELETED an `object` that is a lease in that
 * namespace, checked as a list item is (any non-empty name); for BOOKMARK an object of kind
 * Lease (when it says) with a resourceVersion to resume from; for ERROR an object of kind
 * Status (when it says). client-node hands any line of the stream on as an event: `{}`, a
 * number, a lease of another namespace or with a numeric holder would be reported as a change.
 */
export function leaseWatchEventProblem(event: unknown, namespace: string): LeaseAnswerProblem | undefined {
  if (!isObject(event)) return problem('', 'a watch event object', event);
  const { type, object } = event;
  switch (type) {
    case 'ADDED':
    case 'MODIFIED':
    case 'DELETED':
      return within('object', itemProblem(object, { namespace, name: undefined }));
    case 'BOOKMARK': {
      // (a bookmark is a Lease with only a resourceVersion: no name, no namespace, no spec)
      const header = within('object', leaseHeaderProblem(object));
      if (header !== undefined) return header;
      const version = (object as { metadata: Record<string, unknown> }).metadata.resourceVersion;
      if (typeof version !== 'string' || version === '') {
        return problem('object.metadata.resourceVersion', 'a non-empty string', version);
      }
      return undefined;
    }
    case 'ERROR':
      if (!isObject(object)) return problem('object', 'a Status object', object);
      if (object.kind !== undefined && object.kind !== 'Status') {
        return problem('object.kind', '"Status"', object.kind);
      }
      return undefined;
    default:
      return problem('type', leaseWatchEventTypes.map((name) => `"${name}"`).join(', '), type);
  }
}

/**
 * The first way a parsed answer to a read of the Node `name` fails to be it: an object of kind
 * Node (when it says) in v1 (when it says), named `name`, with a non-empty uid (which an
 * ownerReference carries).
 */
export function nodeProblem(answer: unknown, name: string): LeaseAnswerProblem | undefined {
  if (!isObject(answer)) return problem('', 'a Node object', answer);
  if (answer.kind !== undefined && answer.kind !== 'Node') return problem('kind', '"Node"', answer.kind);
  if (answer.apiVersion !== undefined && answer.apiVersion !== 'v1') {
    return problem('apiVersion', '"v1"', answer.apiVersion);
  }
  const metadata = answer.metadata;
  if (!isObject(metadata)) return problem('metadata', 'an object', metadata);
  if (metadata.name !== name) return problem('metadata.name', JSON.stringify(name), metadata.name);
  if (typeof metadata.uid !== 'string' || metadata.uid === '') {
    return problem('metadata.uid', 'a non-empty string', metadata.uid);
  }
  return undefined;
}
