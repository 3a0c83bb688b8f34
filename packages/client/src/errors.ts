import type { SchemaError } from '@capi-kit/core';
import { withoutCredentials } from '@capi-kit/lease';

/** The object a request was about: `Machine default/web-0 (cluster.x-k8s.io/v1alpha2)`. */
export interface ObjectRef {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name?: string;
}

/** An object the server returned that does not match its schema: kept raw, with every error. */
export interface InvalidObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name?: string;
  /** The object exactly as served. */
  readonly object: unknown;
  /** Every schema error, each with its JSON path. */
  readonly errors: readonly SchemaError[];
  readonly message: string;
}

/** Status codes the server answers with, by what they mean to a caller. */
const STATUS_CODES = {
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not-found',
  409: 'conflict',
  410: 'gone',
  422: 'rejected',
} as const;

type StatusCode = (typeof STATUS_CODES)[keyof typeof STATUS_CODES];

/** Why a client call failed. Every variant has a one-line `message` naming the object. */
export type ClientError =
  | {
      /** The API server answered with an error status; `reason` is its Status reason (e.g. `AlreadyExists`). */
      readonly code: StatusCode | 'api';
      readonly status: number;
      readonly reason?: string;
      readonly target: ObjectRef;
      readonly message: string;
    }
  | {
      /** The request never got an answer (connection refused, TLS, DNS, timeout). */
      readonly code: 'unreachable';
      readonly target: ObjectRef;
      readonly message: string;
    }
  | {
      /** This apiVersion or kind is not one the client types, or the server does not serve it. */
      readonly code: 'not-served';
      readonly target: ObjectRef;
      readonly message: string;
    }
  | ({
      /** The object was read, but does not decode; it is returned raw with its errors. */
      readonly code: 'invalid-object';
      readonly path: string;
    } & InvalidObject)
  | {
      /** The version view could not convert the object; `object` is the object as served. */
      readonly code: 'conversion-failed';
      readonly target: ObjectRef;
      readonly object: unknown;
      readonly path?: string;
      readonly message: string;
    }
  | {
      /** A precondition the caller set did not hold (e.g. a stale resourceVersion on setScale). */
      readonly code: 'precondition-failed';
      readonly target: ObjectRef;
      readonly message: string;
    }
  | {
      /** An option the caller gave cannot be used; checked before any request. `path` names it. */
      readonly code: 'invalid-option';
      readonly path: string;
      readonly message: string;
    }
  | {
      /**
       * The server's list is no list of objects (`items` is not an array, or an item is not an
       * object), its `metadata.resourceVersion` is no string, or its `metadata.continue` cannot
       * be followed.
       */
      readonly code: 'malformed-list';
      readonly target: ObjectRef;
      /** Where in the list: `items[3]`, `items`, `metadata.resourceVersion`, `metadata.continue`. */
      readonly path: string;
      readonly message: string;
    }
  | {
      /**
       * The server's watch stream sent something that is no event about what is watched (a
       * line that is no event, an object of another kind or namespace, a resourceVersion that
       * is no string): the stream was ended, and an informer lists again (malformed-watch.ts).
       */
      readonly code: 'malformed-watch-event';
      readonly target: ObjectRef;
      readonly message: string;
    }
  | {
      /**
       * The server's answer to a get is not the object asked for: no object, or one of another
       * name, namespace, kind or apiVersion (`path` names the field: `metadata.name`, `''`).
       */
      readonly code: 'malformed-object';
      readonly target: ObjectRef;
      readonly path: string;
      readonly message: string;
    };

/** Where a list page `listPageProblem` refused is wrong: the path, what is there and what was expected. */
export interface ListPageProblem {
  /** `items[3]`, `items`, `metadata.resourceVersion`, or `''` (the answer itself). */
  readonly path: string;
  readonly found: string;
  readonly expected: string;
}

/**
 * Why a page of a list cannot be read as one (undefined: it can): what each list's items are
 * read as is an object, and a page whose `items` is no array, or holds `null`, a number or an
 * array, made callers throw on it (`Cannot read properties of null`); one without `items` is
 * no list either (a real server sends `[]` for none). Its `metadata`, when
 * there, is an object, and its `metadata.resourceVersion` a string (or absent, or null, as Go
 * reads it): one of another type was passed on as the list's resourceVersion, and an informer
 * started its watch from it (a number, `[object Object]`). The path and what is there.
 */
export function listPageProblem(page: unknown): ListPageProblem | undefined {
  if (!isObject(page)) return { path: '', found: kindOfValue(page), expected: 'an object' };
  // (the API server always sends `items`, `[]` for none: an answer without it, such as `{}`
  // from a proxy, is no list, and was read as an empty one: "No resources found", exit 0)
  const items = (page as { items?: unknown }).items;
  if (items === undefined) return { path: 'items', found: 'missing', expected: 'an object list' };
  if (!Array.isArray(items)) return { path: 'items', found: kindOfValue(items), expected: 'an object list' };
  for (let i = 0; i < items.length; i++) {
    const item: unknown = items[i];
    if (!isObject(item)) return { path: `items[${i}]`, found: kindOfValue(item), expected: 'an object' };
  }
  const metadata = (page as { metadata?: unknown }).metadata;
  if (metadata === undefined || metadata === null) return undefined;
  if (!isObject(metadata)) return { path: 'metadata', found: kindOfValue(metadata), expected: 'an object' };
  const resourceVersion = (metadata as { resourceVersion?: unknown }).resourceVersion;
  if (resourceVersion !== undefined && resourceVersion !== null && typeof resourceVersion !== 'string')
    return { path: 'metadata.resourceVersion', found: kindOfValue(resourceVersion), expected: 'a string' };
  return undefined;
}

/** An object that is no array (a class instance too: client-node's deserialized lists). */
const isObject = (value: unknown): value is object =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `null`, `an array`, `an object`, `a number`, … */
const kindOfValue = (value: unknown) =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'an array'
      : typeof value === 'object' || typeof value === 'undefined'
        ? `an ${typeof value}`
        : `a ${typeof value}`;

/** A value of an answer, for a message: text quoted (cut to 100 characters), else its type. */
const shownAnswerValue = (value: unknown): string =>
  value === undefined
    ? 'missing'
    : typeof value === 'string'
      ? JSON.stringify(value.length > 100 ? `${value.slice(0, 100)}…` : value)
      : kindOfValue(value);

/**
 * Why the answer to a get of `target` is not that object (undefined: it is): not an object, or
 * its apiVersion, kind, `metadata.name` or `metadata.namespace` is not the one asked for. A
 * real API server answers with the object; a proxy's `{}` was decoded as an invalid object of
 * the name asked for, and `describeCluster` described it (exit 0), following the empty name
 * it held to a Secret `-kubeconfig`.
 */
export function wrongObject(answer: unknown, target: ObjectRef): ClientError | undefined {
  const fail = (path: string, found: string, expected: string): ClientError => ({
    code: 'malformed-object',
    target,
    path,
    message: `get ${describeRef(target)}: the API server's answer is not the object asked for: ${path === '' ? 'the answer' : path} is ${found}, not ${expected}`,
  });
  if (!isObject(answer)) return fail('', kindOfValue(answer), 'an object');
  const { apiVersion, kind, metadata } = answer as {
    apiVersion?: unknown;
    kind?: unknown;
    metadata?: unknown;
  };
  if (!isObject(metadata)) return fail('metadata', shownAnswerValue(metadata), 'an object');
  const { name, namespace } = metadata as { name?: unknown; namespace?: unknown };
  const fields: readonly [string, unknown, string | undefined][] = [
    ['apiVersion', apiVersion, target.apiVersion],
    ['kind', kind, target.kind],
    ['metadata.name', name, target.name],
    ['metadata.namespace', namespace, target.namespace],
  ];
  for (const [path, found, expected] of fields)
    if (expected !== undefined && found !== expected)
      return fail(path, shownAnswerValue(found), JSON.stringify(expected));
  return undefined;
}

/** The ClientError for a list page `listPageProblem` refused. */
export function malformedList(target: ObjectRef, problem: ListPageProblem): ClientError {
  const where = problem.path === '' ? 'the answer' : problem.path;
  return {
    code: 'malformed-list',
    target,
    path: problem.path,
    message: `list ${describeRef(target)}: the API server's list is malformed: ${where} is ${problem.found}, not ${problem.expected}`,
  };
}

/**
 * The `metadata.continue` of a list page, read to follow: `next` the token of the next page
 * (undefined: this was the last), or `problem`, why it cannot be followed. A real API server
 * never hands a token back twice; a server or proxy that did made the list fetch the same
 * pages for ever. `followed` holds the tokens this list followed so far; `next` is added.
 */
export function nextContinue(
  token: unknown,
  followed: Set<string>,
): { readonly next: string | undefined } | { readonly problem: string } {
  if (token === undefined || token === null || token === '') return { next: undefined };
  if (typeof token !== 'string') return { problem: `is ${kindOfValue(token)}, not a string` };
  if (followed.has(token)) return { problem: 'repeats a token already followed: the list would never end' };
  followed.add(token);
  return { next: token };
}

/** The ClientError for a list page whose `metadata.continue` cannot be followed (no token is shown). */
export function malformedContinue(target: ObjectRef, page: number, problem: string): ClientError {
  return {
    code: 'malformed-list',
    target,
    path: 'metadata.continue',
    message: `list ${describeRef(target)}: the API server's list is malformed: metadata.continue of page ${page} ${problem}`,
  };
}

/** `Machine ns/name (cluster.x-k8s.io/v1alpha2)`, or `Machines in ns (…)` for a collection. */
export function describeRef(ref: ObjectRef): string {
  const where = ref.namespace === undefined ? '' : `${ref.namespace}/`;
  if (ref.name === undefined) {
    const scope = ref.namespace === undefined ? ' in all namespaces' : ` in namespace ${ref.namespace}`;
    return `${ref.kind} objects${scope} (${ref.apiVersion})`;
  }
  return `${ref.kind} ${where}${ref.name} (${ref.apiVersion})`;
}

/** The longest Status message kept whole; a Status `reason` is a word (`AlreadyExists`). */
const MAX_STATUS_MESSAGE = 2000;
const MAX_STATUS_REASON = 100;

// biome-ignore lint/suspicious/noControlCharactersInRegex: these are what is escaped
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * Text the API server (or whatever answered in its place) wrote, for a one-line message:
 * control characters, line and paragraph separators and bidi overrides escaped (`\u001b`,
 * `\n`), so a terminal shows it as written, and cut short past `max` characters (a Status
 * message of a megabyte, from a webhook or a proxy, was kept whole).
 */
function serverText(text: string, max: number): string {
  const shown = text.length > max ? text.slice(0, max) : text;
  const escaped = shown.replace(
    UNPRINTABLE,
    (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return text.length > max ? `${escaped}… (${text.length} characters)` : escaped;
}

function statusBody(body: unknown): { message?: string; reason?: string } {
  let value: unknown = body;
  if (typeof body === 'string') {
    try {
      value = JSON.parse(body);
    } catch {
      return body.trim() === '' ? {} : { message: serverText(body.trim(), 300) };
    }
  }
  if (typeof value !== 'object' || value === null) return {};
  const { message, reason } = value as { message?: unknown; reason?: unknown };
  return {
    ...(typeof message === 'string' ? { message: serverText(message, MAX_STATUS_MESSAGE) } : {}),
    ...(typeof reason === 'string' ? { reason: serverText(reason, MAX_STATUS_REASON) } : {}),
  };
}

/** The HTTP status of an error thrown by client-node, if it carries one. */
const isHttpStatus = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 100 && value <= 599;

export function httpStatusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, statusCode } = error as { code?: unknown; statusCode?: unknown };
  // (an aborted fetch throws a DOMException whose `code` is 23, TIMEOUT_ERR: no HTTP status)
  if (isHttpStatus(code)) return code;
  if (isHttpStatus(statusCode)) return statusCode;
  return undefined;
}

function causeText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  const inner = cause instanceof Error ? `: ${cause.message}` : '';
  // (fetch quotes a header or URL it refuses, credentials and all: see withoutCredentials)
  return withoutCredentials(`${error.message}${inner}`);
}

/** Turns anything client-node throws into a ClientError about `target`. */
export function clientErrorFrom(error: unknown, target: ObjectRef, verb: string): ClientError {
  const status = httpStatusOf(error);
  const what = `${verb} ${describeRef(target)}`;
  // A MalformedWatchError (malformed-watch.ts, known by its code: that module imports this
  // one): the server did answer, and what it sent ended the watch, not the network.
  if (error instanceof Error && (error as { code?: unknown }).code === 'malformed-watch-event')
    return { code: 'malformed-watch-event', target, message: `${what}: ${error.message}` };
  if (status === undefined) {
    return {
      code: 'unreachable',
      target,
      message: `${what}: no answer from the API server: ${causeText(error)}`,
    };
  }
  const { message, reason } = statusBody((error as { body?: unknown }).body);
  const code: StatusCode | 'api' = (STATUS_CODES as Record<number, StatusCode>)[status] ?? 'api';
  return {
    code,
    status,
    ...(reason === undefined ? {} : { reason }),
    target,
    message: `${what}: HTTP ${status}${reason === undefined ? '' : ` ${reason}`}${message === undefined ? '' : `: ${message}`}`,
  };
}
