/**
 * The single-object answers of the management cluster that node groups decide on, checked to
 * be the object asked for before anything is done with them: a Machine read again before it
 * is marked, the scale whose replicas are raised or lowered and written back conditional on
 * its resourceVersion, the infrastructure template whose status gives a new node's capacity
 * (and the API group list its preferred version is read from).
 * Something in front of the API server (a proxy, a gateway) may answer with another object,
 * an empty one or an HTML page with status 200: such an answer is an `api-error` naming the
 * request and the field, never acted on.
 */
import { isPlainObject } from '@capi-kit/core/objects';
import { NodeGroupError } from './errors.js';
import type { KubeObject } from './objects.js';

/** The object a request names. */
export interface AskedFor {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
}

/** A value as an error message shows it: JSON, at most 80 characters. */
function shown(value: unknown): string {
  if (value === undefined) return 'absent';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

function notAskedFor(request: string, what: string, path: string, found: unknown, expected: string) {
  return new NodeGroupError(
    'api-error',
    `${request}: the API server's answer is not the ${what} asked for: ` +
      `${path === '' ? 'the answer' : path} is ${shown(found)}, expected ${expected}`,
    path === '' ? {} : { path },
  );
}

const nonEmptyString = (value: unknown) => typeof value === 'string' && value !== '';
/** A count an int32 holds that is not negative (what a Scale's replicas are). */
const isCount = (value: unknown) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 2_147_483_647;

/**
 * `answer` when it is `asked` (its apiVersion, kind, namespace and name) with a
 * resourceVersion (the precondition of the write that follows) and, when `uid` is true, a
 * uid; else an `api-error` naming `request` and the first field that is not.
 */
export function objectAnswer(
  answer: unknown,
  request: string,
  asked: AskedFor,
  options: { readonly uid: boolean },
): KubeObject {
  const what = asked.kind;
  if (!isPlainObject(answer)) throw notAskedFor(request, what, '', answer, 'an object');
  const metadata = answer.metadata;
  if (!isPlainObject(metadata)) throw notAskedFor(request, what, 'metadata', metadata, 'an object');
  const expected: readonly (readonly [string, unknown, string])[] = [
    ['apiVersion', answer.apiVersion, asked.apiVersion],
    ['kind', answer.kind, asked.kind],
    ['metadata.namespace', metadata.namespace, asked.namespace],
    ['metadata.name', metadata.name, asked.name],
  ];
  for (const [path, found, wanted] of expected)
    if (found !== wanted) throw notAskedFor(request, what, path, found, JSON.stringify(wanted));
  if (options.uid && !nonEmptyString(metadata.uid))
    throw notAskedFor(request, what, 'metadata.uid', metadata.uid, 'a non-empty string');
  if (!nonEmptyString(metadata.resourceVersion))
    throw notAskedFor(
      request,
      what,
      'metadata.resourceVersion',
      metadata.resourceVersion,
      'a non-empty string',
    );
  return answer as KubeObject;
}

/**
 * `answer` when it is the autoscaling/v1 Scale of `namespace`/`name` (objectAnswer) whose
 * spec.replicas and status.replicas are each absent (0, as cluster-autoscaler's Scale client
 * decodes an omitted count) or a non-negative integer; else an `api-error` naming the field.
 */
export function scaleAnswer(answer: unknown, request: string, namespace: string, name: string): KubeObject {
  const scale = objectAnswer(
    answer,
    request,
    { apiVersion: 'autoscaling/v1', kind: 'Scale', namespace, name },
    { uid: false },
  );
  for (const part of ['spec', 'status'] as const) {
    const value = scale[part];
    if (value === undefined) continue;
    if (!isPlainObject(value)) throw notAskedFor(request, 'Scale', part, value, 'an object');
    if (value.replicas !== undefined && !isCount(value.replicas))
      throw notAskedFor(request, 'Scale', `${part}.replicas`, value.replicas, 'a non-negative integer');
  }
  return scale;
}

/**
 * The `groups` of the API group list discovery answered with; an answer without that list (an
 * empty object, an HTML page) is an `api-error` naming `request` and the field, not a list in
 * which no group is served.
 */
export function apiGroupsAnswer(answer: unknown, request: string): readonly unknown[] {
  if (typeof answer !== 'object' || answer === null)
    throw notAskedFor(request, 'APIGroupList', '', answer, 'an object');
  const groups = (answer as { readonly groups?: unknown }).groups;
  if (!Array.isArray(groups)) throw notAskedFor(request, 'APIGroupList', 'groups', groups, 'a list');
  return groups;
}
